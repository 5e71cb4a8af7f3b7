"""Making a variant's coords.json: the ASSUMED default from hardware/design/mechanics.json's
default_layout (python -m hardware.design coords VARIANT --default), or a maker's own board
measured on a photo or scan (--from-pixels FILE.csv; hardware/BUILD.md, Measuring your board).
CPython tooling: the simulator reads the result through coords.py."""
import csv
import json
import math
import os

from hardware.design import coords, data

MECHANICS_FILE = os.path.join(data.DESIGN_DIR, "mechanics.json")
LAYOUTS_DIR = os.path.join(data.HARDWARE_DIR, os.pardir, "shared_rules", "data")
AXES = ("origin at the sheet's top-left corner seen from the first colour's seat (the seat at "
        "the bottom edge); x to the right, y towards that seat: as an image's pixels run")
SPOTS = 4            # start-area spots per colour (sensors.json: COLOUR:s1..s4)
LED_PREFIX = "led:"
READER_PREFIX = "reader:"
REF_PREFIX = "ref:"
RESIDUAL_WARN_MM = 1.0   # references landing farther off: the picture is skewed or distorted


def mechanics():
    return data.load_json(MECHANICS_FILE)


def layout(variant):
    return data.load_json(os.path.join(LAYOUTS_DIR, variant.config["layout"] + ".json"))


def r1(v):
    return round(v * 10) / 10


def pt(p):
    return [r1(p[0]), r1(p[1])]


class Frame:
    """A point's place by its distance from the board's centre (r) and its offset along the
    track's direction of play (t) at an angle: the track runs clockwise from the bottom."""

    def __init__(self, cx, cy, angle):
        self.cx, self.cy = cx, cy
        self.ur = (math.cos(angle), math.sin(angle))
        self.ut = (-math.sin(angle), math.cos(angle))

    def at(self, r, t=0.0):
        return (self.cx + r * self.ur[0] + t * self.ut[0],
                self.cy + r * self.ur[1] + t * self.ut[1])


def track_angle(i, n):
    return math.pi / 2 + 2 * math.pi * i / n


def _ring_track(lay, p, cx, cy, sensors, leds):
    n = lay["track"]
    for i in range(n):
        f = Frame(cx, cy, track_angle(i, n))
        sensors[str(i)] = f.at(p["track_radius_mm"])
        leds[str(i)] = f.at(p["track_radius_mm"] + p["led_offset_mm"])


def _ring_colour(lay, p, cx, cy, colour, sensors, leds):
    """A colour's homes inward from its start space, its start area outside behind it (two
    rows of two; each spot's LED beside it along the track, away from the area's middle) and
    its seat LED ahead."""
    f = Frame(cx, cy, track_angle(lay["start"][colour], lay["track"]))
    R, off = p["track_radius_mm"], p["led_offset_mm"]
    for k in range(1, lay["home_spaces"] + 1):
        name = "%s:h%d" % (colour, k)
        sensors[name] = f.at(R - k * p["home_pitch_mm"])
        leds[name] = f.at(R - k * p["home_pitch_mm"], off)
    for k in range(SPOTS):
        row, col = divmod(k, 2)
        r = R + p["start_row_mm"] + row * p["spot_pitch_mm"]
        t = -(col + 1) * p["spot_pitch_mm"]
        name = "%s:s%d" % (colour, k + 1)
        sensors[name] = f.at(r, t)
        leds[name] = f.at(r, t + (off if col == 0 else -off))
    leds["seat:" + colour] = f.at(R + p["seat_offset_mm"][0], p["seat_offset_mm"][1])


def _pad(at, card, margin):
    return {"at": pt(at), "size": [card[0] + 2 * margin, card[1] + 2 * margin]}


def default_ring(variant, mech):
    """The DOG boards: the track on a circle, homes, start areas, seat LEDs; the reader's play
    pad left of the centre, the discard pile right of it."""
    p = mech["default_layout"]["ring"]
    lay = layout(variant)
    side = p["board_mm"]
    cx = cy = side / 2
    sensors, leds = {}, {}
    _ring_track(lay, p, cx, cy, sensors, leds)
    for colour in lay["colours"]:
        _ring_colour(lay, p, cx, cy, colour, sensors, leds)
    card = p["card_mm"]
    half = p["pads_mm"] / 2
    pile = _pad((cx + half, cy), card, mech["pad_margin_mm"])
    pile["why"] = ("the discard pile: a played card is read alone on the play pad, then laid "
                   "here, out of the reader's field (mechanics.json default_layout ring why_pads)")
    inset = p["pin_inset_mm"]
    return {"sheet": [side, side], "board": [0.0, 0.0, side, side], "piece_d": p["piece_d_mm"],
            "pins": [[inset, inset], [side - inset, side - inset]],
            "main_board": pt((cx + half, cy)),
            "sensors": sensors, "leds": leds,
            "readers": {"play": _pad((cx - half, cy), card, mech["pad_margin_mm"])},
            "areas": {"discard": pile}}


def default_avenue(variant, mech):
    """Agent Avenue: 14 spaces on a ring, the seat LEDs inside it, the three pads on panels
    beside the board (tap on the left, up over down on the right), each pad's LED above it."""
    p = mech["default_layout"]["avenue"]
    side, panel = p["board_mm"], p["panel_mm"]
    cx, cy = panel + side / 2, side / 2
    n = len(variant.sensors)
    sensors, leds = {}, {}
    for i in range(n):
        f = Frame(cx, cy, track_angle(i, n))
        sensors[str(i)] = f.at(p["track_radius_mm"])
        leds[str(i)] = f.at(p["track_radius_mm"] + p["led_offset_mm"])
    dx, dy = p["seat_mm"]
    for side_name, sy in (("green", cy + dy), ("blue", cy - dy)):
        leds["seat:%s-0" % side_name] = (cx - dx, sy)
        leds["seat:%s-1" % side_name] = (cx + dx, sy)
    card = p["card_mm"]
    margin = mech["pad_margin_mm"]
    half = p["pad_spacing_mm"] / 2
    right = panel + side + panel / 2
    at = {"up": (right, cy - half), "down": (right, cy + half), "tap": (panel / 2, cy)}
    readers = {}
    for name in variant.pins["nfc"]["readers"]:
        pad = _pad(at[name], card, margin)
        readers[name] = pad
        leds["reader:" + name] = (at[name][0], at[name][1] - pad["size"][1] / 2 - p["pad_led_mm"])
    inset = p["pin_inset_mm"]
    return {"sheet": [side + 2 * panel, side], "board": [panel, 0.0, side, side],
            "piece_d": p["piece_d_mm"],
            "pins": [[panel + inset, inset], [panel + side - inset, side - inset]],
            "main_board": pt((cx, cy)),
            "sensors": sensors, "leds": leds, "readers": readers, "areas": {}}


SHAPES = {"ring": default_ring, "avenue": default_avenue}


def default(variant, mech=None):
    """The ASSUMED default coords table of a variant (data.Variant)."""
    mech = mech or mechanics()
    shapes = mech["default_layout"]["shapes"]
    shape = shapes.get(variant.config["layout"])
    if shape not in SHAPES:
        raise data.DesignError("mechanics.json default_layout shapes names no default for "
                               "layout %r" % variant.config["layout"])
    body = SHAPES[shape](variant, mech)
    for key in coords.SECTIONS:
        body[key] = dict((name, pt(body[key][name])) for name in _order(variant, key))
    table = {"format": coords.FORMAT, "variant": variant.name, "units": "mm", "axes": AXES,
             "assumption": mech["default_layout"]["assumption"],
             "made_by": "python -m hardware.design coords %s --default (hardware/design/"
                        "mechanics.json default_layout)" % variant.name}
    table.update(body)
    return table


def _order(variant, section):
    """A section's names in the maps' order (sensors.json, leds.json): a file a person reads."""
    if section == "sensors":
        return [s["loc"] for s in variant.sensors]
    return list(variant.leds)


def dumps(table):
    """coords.json text: one line per location, so a measured board's diff reads line by line."""
    lines = ["{"]
    keys = list(table)
    for i, key in enumerate(keys):
        value = table[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, dict) and value:
            lines.append(" %s: {" % json.dumps(key))
            names = list(value)
            for j, name in enumerate(names):
                lines.append("  %s: %s%s" % (json.dumps(name), json.dumps(value[name]),
                                             "," if j < len(names) - 1 else ""))
            lines.append(" }" + comma)
        else:
            lines.append(" %s: %s%s" % (json.dumps(key), json.dumps(value), comma))
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(variant, table, path=None):
    """To path, or the variant's own coords.json (beside its maps)."""
    path = path or os.path.join(variant.maps_dir, "coords.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(table))
    return path


def read_points(path):
    """The rows of a points file: name, px, py (a location's centre on the picture, in pixels),
    and for a reference also x_mm, y_mm (where it lies on the sheet). Blank lines and lines
    starting with # are skipped."""
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for n, row in enumerate(csv.reader(f), 1):
            row = [c.strip() for c in row]
            if not row or not row[0] or row[0].startswith("#") or row[0] == "name":
                continue
            want = 5 if row[0].startswith(REF_PREFIX) else 3
            if len(row) < want:
                raise data.DesignError("%s line %d: %s needs %d columns (name, px, py%s)"
                                       % (path, n, row[0], want,
                                          ", x_mm, y_mm" if want == 5 else ""))
            try:
                nums = [float(c) for c in row[1:want]]
            except ValueError:
                raise data.DesignError("%s line %d: not a number in %r" % (path, n, row))
            rows.append((row[0], nums))
    return rows


def similarity(refs):
    """z_mm = a * z_px + b (complex: scale, rotation, shift) fitted to [(px, py, x, y)] by
    least squares; the residual of each reference tells how flat and square the picture is."""
    if len(refs) < 2:
        raise data.DesignError("a points file needs at least two references (ref:...)")
    zs = [complex(r[0], r[1]) for r in refs]
    ws = [complex(r[2], r[3]) for r in refs]
    zc = sum(zs) / len(zs)
    wc = sum(ws) / len(ws)
    spread = sum(abs(z - zc) ** 2 for z in zs)
    if spread == 0:
        raise data.DesignError("the references lie on one pixel: pick points far apart")
    a = sum((w - wc) * (z - zc).conjugate() for z, w in zip(zs, ws)) / spread
    b = wc - a * zc
    return a, b


def from_pixels(table, rows):
    """A copy of a coords table with every measured point moved to where the picture puts it;
    a location's LED moves with its sensor unless measured itself. Returns (table, residuals
    of the references in mm, names measured). A name the table does not know changes nothing
    and is an error."""
    refs = [nums for name, nums in rows if name.startswith(REF_PREFIX)]
    a, b = similarity(refs)
    out = json.loads(json.dumps(table))
    unknown = []
    measured = []
    for name, nums in rows:
        if name.startswith(REF_PREFIX):
            continue
        w = a * complex(nums[0], nums[1]) + b
        xy = [r1(w.real), r1(w.imag)]
        if not _place(out, name, xy):
            unknown.append(name)
        measured.append(name)
    if unknown:
        raise data.DesignError("not a location, LED or reader of %s: %s"
                               % (table.get("variant"), ", ".join(unknown)))
    _carry_leds(table, out, set(measured))
    residuals = [abs(a * complex(r[0], r[1]) + b - complex(r[2], r[3])) for r in refs]
    if all(s in measured for s in table["sensors"]):
        out.pop("assumption", None)
    out["made_by"] = "measured: %d points, %d references (largest residual %.1f mm)" % (
        len(measured), len(refs), max(residuals))
    return out, residuals, measured


def _place(out, name, xy):
    if name.startswith(LED_PREFIX):
        if name[len(LED_PREFIX):] not in out["leds"]:
            return False
        out["leds"][name[len(LED_PREFIX):]] = xy
    elif name.startswith(READER_PREFIX):
        if name[len(READER_PREFIX):] not in out["readers"]:
            return False
        out["readers"][name[len(READER_PREFIX):]]["at"] = xy
    elif name in out["sensors"]:
        out["sensors"][name] = xy
    else:
        return False
    return True


def _carry_leds(old, new, measured):
    """A location measured without its LED: the LED keeps its place relative to the sensor."""
    for name, xy in old["sensors"].items():
        if name in measured and name in old["leds"] and LED_PREFIX + name not in measured:
            moved = new["sensors"][name]
            led = old["leds"][name]
            new["leds"][name] = [r1(led[0] + moved[0] - xy[0]), r1(led[1] + moved[1] - xy[1])]
