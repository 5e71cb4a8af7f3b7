# The console's calibration commands, loaded only when asked for (a game never needs them):
# measuring the empty board, the ranks (boards with ranked pieces) and the pieces, and the
# per-sensor readings, thresholds and rank bands that `agentboard calibrate` draws as a picture.
import json

from firmware.mpconst import const
from firmware.hal import calibration, calibration_ops, measure
from firmware.hal.scanner import NAMES, NO_BAND
from shared_rules.ranks import RANKS
SPOT_MARK = ":s"  # start-area spots are named COLOUR:s1 .. COLOUR:s4
# a spot's neighbours together take a few per cent of its reading; past a quarter the
# variant's figures are wrong (and the correction's rounds would not settle)
MAX_CROSSTALK = 4
_PER_PART = const(16)  # array items in one piece of the sensors answer (about 200 bytes)


def _spot(loc):
    """(colour, rank) of a start-area spot COLOUR:sK (rank K - 1), or None."""
    cut = loc.find(SPOT_MARK)
    if cut > 0:
        k = int(loc[cut + len(SPOT_MARK):]) - 1
        if 0 <= k < len(RANKS):
            return loc[:cut], k
    return None


def rank_at_spots(locations):
    """Per sensor, the rank the ranks step expects there: rank k - 1 on every start-area spot
    sK (king on s1 ... jester on s4), none elsewhere."""
    out = bytearray(bytes([NO_BAND]) * len(locations))
    for i in range(len(locations)):
        s = _spot(locations[i])
        if s is not None:
            out[i] = s[1]
    return out


def spot_groups(locations):
    """Per colour, the sensors of its start-area spots in rank order (-1: a spot it lacks)."""
    groups = {}
    for i in range(len(locations)):
        s = _spot(locations[i])
        if s is not None:
            if s[0] not in groups:
                groups[s[0]] = [-1] * len(RANKS)
            groups[s[0]][s[1]] = i
    return list(groups.values())


def rank_crosstalk(board):
    """The variant's rank_crosstalk (what a colour's pieces put on each other's start-area
    sensors, measure.CROSSTALK_SCALE parts of their own swing; None: none known), or raises
    ValueError saying what is wrong with it: a correction as large as the reading itself
    would not settle."""
    info = getattr(board, "variant", None) or {}
    c = info.get("rank_crosstalk")
    if c is None:
        return None
    n = len(RANKS)
    if type(c) is not list or len(c) != n * n or any(type(v) is not int for v in c):
        raise ValueError("the variant's rank_crosstalk must list %d whole numbers" % (n * n))
    for k in range(n):
        row = c[n * k:n * k + n]
        if row[k] or sum([abs(v) for v in row]) * MAX_CROSSTALK >= measure.CROSSTALK_SCALE:
            raise ValueError("the variant's rank_crosstalk row %d is not a neighbours' share "
                             "(none on its own spot, together under 1/%d)" % (k + 1,
                                                                               MAX_CROSSTALK))
    return c


def ranks_step(board):
    """The ranks step on this board's start-area spots, corrected for its variant's
    crosstalk: the counts per rank (ValueError: refused, nothing changed)."""
    return measure.measure_ranks(board.scanner, board.calib, rank_at_spots(board.locations),
                                 spots=spot_groups(board.locations),
                                 crosstalk=rank_crosstalk(board))


def command(board, cmd):
    step = cmd.get("step", "empty")
    sc = board.scanner
    if step == "empty":
        bad = measure.measure_baseline(sc, board.calib)
    elif step == "pieces":
        rank_at, refusal = pieces_ranks(board, cmd.get("ranks"))
        if refusal is not None:
            return refusal
        try:
            ups, downs = measure.measure_pieces(sc, board.calib, rank_at=rank_at)
        except measure.MissingPieces as e:
            return {"ok": False, "error": "refused", "reason": "no piece read on %s: put the "
                    "pieces there, then measure again" % ", ".join(
                        [board.locations[i] for i in e.sensors])}
    elif step == "ranks":
        if not ranked_board(board):
            return {"ok": False, "error": "refused", "reason": "this board's pieces carry no "
                    "ranks (its variant.json has no ranked_pieces)"}
        try:
            counts = ranks_step(board)
        except ValueError as e:
            return {"ok": False, "error": "refused", "reason": str(e)}
    else:
        return {"ok": False, "error": "bad_request",
                "reason": "step is 'empty', 'ranks' or 'pieces'"}
    board.save_calibration()
    if step == "empty":
        return {"ok": True, "step": step, "raw": list(sc.raw),
                "out_of_range": [board.locations[i] for i in bad]}
    if step == "ranks":
        c = board.calib
        return {"ok": True, "step": step, "pieces": dict(zip(RANKS, counts)),
                "levels": dict(zip(RANKS, [round(v, 3) for v in c.levels])),
                "king_up": c.king_up, "king_down": c.king_down}
    return {"ok": True, "step": step, "upright": ups, "upside_down": downs,
            "weak": [board.locations[i] for i in board.calib.weak()]}


def pieces_ranks(board, ranks):
    """(rank_at or None, None) for the pieces step's `ranks` ({location: rank name}: where a
    person put a piece of which rank), or (None, the answer refusing it)."""
    if ranks is None:
        return None, None
    if not ranked_board(board):
        return None, {"ok": False, "error": "refused", "reason": "this board's pieces carry "
                      "no ranks (its variant.json has no ranked_pieces)"}
    if type(ranks) is not dict or not ranks:
        return None, _bad("ranks names the rank on each location measured: {location: rank}")
    out = bytearray(bytes([NO_BAND]) * len(board.locations))
    for loc in ranks:
        if type(loc) is not str or loc not in board.index:
            return None, _bad("%r is not a location of this board" % (loc,))
        if ranks[loc] not in RANKS:
            return None, _bad("the rank on %s is %r: ranks are %s" % (
                loc, ranks[loc], ", ".join(RANKS)))
        out[board.index[loc]] = RANKS.index(ranks[loc])
    return out, None


def _bad(reason):
    return {"ok": False, "error": "bad_request", "reason": reason}


def sensor_parts(board):
    """Every sensor's reading now, its class, and its calibration, as pieces of one JSON
    object (about 5 KB: never held whole, and no piece over a few hundred bytes, which a heap
    fragmented by a long game can still give)."""
    c = board.calib
    sc = board.scanner
    n = c.n
    locs = board.locations
    state = sc.state
    yield '{"loc": '
    yield from _array_parts(n, lambda i: locs[i])
    yield ', "class": '
    yield from _array_parts(n, lambda i: NAMES[state[i]])
    for key, arr in (("raw", sc.raw), ("base", c.base), ("up", c.up), ("down", c.down),
                     ("up_on", c.up_on), ("up_off", c.up_off), ("dn_on", c.dn_on),
                     ("dn_off", c.dn_off)):
        yield ', "%s": ' % key
        if c.ranked and key in ("up", "down"):
            # what a king reads there: the readings are kept with the rank measured
            upright = key == "up"
            yield from _array_parts(n, lambda i: calibration_ops.king_reading(c, i, upright))
        else:
            yield from _array_parts(len(arr), lambda i: arr[i])
    if c.ranked:
        band = getattr(sc, "band", None)
        yield ', "rank": '
        yield from _array_parts(n, lambda i: RANKS[band[i]] if band is not None and
                                band[i] != NO_BAND else None)
        yield ', "up_edge": '
        yield from _array_parts(len(c.up_edge), lambda i: c.up_edge[i])
        yield ', "dn_edge": '
        yield from _array_parts(len(c.dn_edge), lambda i: c.dn_edge[i])
        yield ', "ranks": %s' % json.dumps({"levels": c.levels, "king_up": c.king_up,
                                            "king_down": c.king_down, "names": RANKS})
    yield ', "ranked_board": %s' % ("true" if ranked_board(board) else "false")
    yield ', "fault_lo": %d, "fault_hi": %d, "nominal_swing": %d, "calibrated": %s}' % (
        c.fault_lo, c.fault_hi, calibration.NOMINAL_SWING,
        "true" if board.calibrated else "false")


def _array_parts(n, item):
    """The JSON array of item(0) .. item(n - 1), as pieces of _PER_PART items each."""
    yield "["
    for i in range(0, n, _PER_PART):
        part = json.dumps([item(j) for j in range(i, min(n, i + _PER_PART))])
        yield part[1:-1] if i == 0 else ", " + part[1:-1]
    yield "]"


def ranked_board(board):
    info = getattr(board, "variant", None) or {}
    return bool(info.get("ranked_pieces"))
