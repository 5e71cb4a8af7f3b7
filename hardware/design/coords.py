"""Where everything lies on a board variant, in mm: every sensor's location (track spaces, homes,
start-area spots), every LED, every card reader's pad, read from the variant's coords.json (next
to its pins.json: hardware/coords.json for agent-dog-4, hardware/variants/NAME/coords.json for
the others; hardware/BUILD.md says how to measure a board).

Plain json and arithmetic only: the simulator imports this inside the MicroPython process as
well as on CPython, so no os.path (MicroPython has none) and nothing computed at import."""
import json
import math

from host_tools.sim.files import ROOT  # the repository, on CPython and MicroPython alike

FORMAT = "agentboard-coords/1"
SECTIONS = ("sensors", "leds")


class CoordsError(ValueError):
    """A coords.json that cannot be used; the message says which file and what."""


def _norm(path):
    """'a/b/../c' -> 'a/c' (the variant's maps folder is relative, as '../..')."""
    out = []
    for part in path.split("/"):
        if part == "..":
            if out and out[-1] != "..":
                out.pop()
            else:
                out.append(part)
        elif part and part != ".":
            out.append(part)
    return ("/" if path.startswith("/") else "") + "/".join(out)


def _read(path):
    try:
        with open(path) as f:
            return json.loads(f.read())  # MicroPython's json.load reads a byte at a time
    except OSError:
        raise CoordsError("%s: no such file" % path)
    except ValueError as e:
        raise CoordsError("%s is not JSON: %s" % (path, e))


def path_for(variant, root=None):
    """The coords.json of a variant name, beside the maps its variant.json names."""
    root = root or ROOT
    folder = root + "/hardware/variants/" + variant
    try:
        with open(folder + "/variant.json") as f:
            maps = json.loads(f.read()).get("maps", ".")
    except OSError:
        raise CoordsError("%r is not a board variant (hardware/variants/)" % (variant,))
    return _norm(folder + "/" + maps + "/coords.json")


def load(variant, root=None):
    """The coords table of a variant (by name), checked for its format and shape."""
    return read(path_for(variant, root))


def read(path):
    table = _read(path)
    if not isinstance(table, dict) or table.get("format") != FORMAT:
        raise CoordsError("%s: format is not %s" % (path, FORMAT))
    for key in SECTIONS + ("readers",):
        if not isinstance(table.get(key), dict):
            raise CoordsError("%s: no %r table" % (path, key))
    if not _is_xy(table.get("sheet")):
        raise CoordsError("%s: 'sheet' must be [width, height] in mm" % path)
    for key in SECTIONS:
        for name, xy in table[key].items():
            if not _is_xy(xy):
                raise CoordsError("%s: %s %r is not [x, y] in mm: %r" % (path, key, name, xy))
    for name, pad in table["readers"].items():
        if not isinstance(pad, dict) or not _is_xy(pad.get("at")) or not _is_xy(pad.get("size")):
            raise CoordsError("%s: reader %r needs 'at' and 'size', each [x, y] in mm"
                              % (path, name))
    return table


def _is_xy(v):
    return (isinstance(v, list) and len(v) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v))


def positions(table, section="sensors"):
    """{name: (x, y)} of one section: 'sensors', 'leds'; 'readers' gives each pad's centre."""
    if section == "readers":
        return dict((k, (p["at"][0], p["at"][1])) for k, p in table["readers"].items())
    return dict((k, (v[0], v[1])) for k, v in table[section].items())


def distance(p, q):
    return math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)


def neighbours(table, within_mm):
    """{sensor: [(other sensor, centre distance mm), ...]} nearest first (equal distances by
    name), each other sensor closer than within_mm: the sensors a piece on one location puts
    a field on."""
    pos = positions(table)
    names = sorted(pos)
    out = {}
    for a in names:
        near = []
        for b in names:
            if b != a:
                d = distance(pos[a], pos[b])
                if d < within_mm:
                    near.append((b, d))
        # to the micrometre, then by name: ties (a space's two neighbours) in one order on
        # every interpreter, whose float parsing may differ in the last bit
        near.sort(key=lambda e: (int(e[1] * 1000 + 0.5), e[0]))
        out[a] = near
    return out


def pitch(table):
    """The smallest centre distance between two sensors (the tightest neighbours), mm."""
    pos = list(positions(table).values())
    best = None
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            d = distance(pos[i], pos[j])
            if best is None or d < best:
                best = d
    return best


def check(table, sensors, leds, readers=None):
    """What is wrong with a coords table against a variant's maps: sensor locations, LED names
    and reader names (pins.json nfc.readers; None: a board with one reader, whose pad may have
    any name) that it lacks or has but the maps do not, and anything off the sheet. An empty
    list: every location of the maps has its place."""
    problems = []
    if readers is None:
        readers = list(table["readers"])
        if len(readers) != 1:
            problems.append("readers: a board with one reader has one pad, not %d" % len(readers))
    for section, want in (("sensors", sensors), ("leds", leds), ("readers", readers)):
        have = set(table[section])
        missing = [n for n in want if n not in have]
        extra = sorted(have - set(want))
        if missing:
            problems.append("%s: no coordinates for %s" % (section, ", ".join(missing)))
        if extra:
            problems.append("%s: %s not in the variant's maps" % (section, ", ".join(extra)))
    w, h = table["sheet"]
    for section in SECTIONS + ("readers",):
        for name, (x, y) in sorted(positions(table, section).items()):
            if not (0 <= x <= w and 0 <= y <= h):
                problems.append("%s %s at (%.1f, %.1f) lies off the %.0f x %.0f mm sheet"
                                % (section, name, x, y, w, h))
    return problems
