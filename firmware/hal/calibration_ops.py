# A calibration's arithmetic and stored form (firmware/hal/calibration.py's Calibration): its
# thresholds worked out from the measured readings, the measuring steps' changes, the JSON file
# read and written. All of it runs at power-up and while calibrating, never in the scan loop,
# which reads only the thresholds: imported for each call and dropped after it
# (firmware/ondemand.py), so that on MicroPython's stock ESP32 build its bytecode does not take
# heap for the board's whole life. Each function takes the Calibration.
import json
import os
import math

from firmware.hal.calibration import (Calibration, readings, FORMAT, ON, OFF, NOMINAL_SWING,
                                      RANKS, MIN_LEVEL_RATIO)


def set_ranks(c, levels, king_up, king_down):
    """Makes this a ranked calibration (levels: 4 fractions of the king's swing, falling)."""
    c.ranked = True
    c.levels = [float(v) for v in levels]
    c.king_up = int(king_up)
    c.king_down = int(king_down)
    if len(c.up_edge) != 3 * c.n:
        c.up_edge = readings(3 * c.n)
        c.dn_edge = readings(3 * c.n)
    update(c)


def king_swing(c, i):
    """(up, down) swing a king gives on sensor i: measured (one way up measured gives the
    other through the board's mean ratio of the two), or the board's mean."""
    b = c.base[i]
    up = _king(c, c.up[i] - b, c.up_rank[i]) if c.up[i] else 0
    dn = _king(c, b - c.down[i], c.down_rank[i]) if c.down[i] else 0
    if not up:
        up = dn * c.king_up // max(1, c.king_down) if dn else c.king_up
    if not dn:
        dn = up * c.king_down // max(1, c.king_up) if up else c.king_down
    return max(up, 1), max(dn, 1)


def _king(c, swing, rank):
    return int(swing / c.levels[rank]) if rank else swing


def king_reading(c, i, upright):
    """What a king reads on sensor i as measured (0: not measured that way up)."""
    if not (c.up[i] if upright else c.down[i]):
        return 0
    up, dn = king_swing(c, i)
    b = c.base[i]
    return min(65535, b + up) if upright else max(1, b - dn)


def swing(c, i):
    """(up swing, down swing) of sensor i: measured, or nominal where not measured (on a
    ranked board: the weakest rank's, so every rank is a piece)."""
    if c.ranked:
        up, dn = king_swing(c, i)
        low = c.levels[RANKS - 1]
        return int(up * low), int(dn * low)
    b = c.base[i]
    up = c.up[i] - b if c.up[i] else NOMINAL_SWING
    dn = b - c.down[i] if c.down[i] else NOMINAL_SWING
    return up, dn


def update(c):
    for i in range(c.n):
        b = c.base[i]
        up, dn = swing(c, i)
        up = max(up, 1)
        dn = max(dn, 1)
        c.up_on[i] = min(65535, b + int(up * ON))
        c.up_off[i] = min(65535, b + int(up * OFF))
        c.dn_on[i] = max(0, b - int(dn * ON))
        c.dn_off[i] = max(0, b - int(dn * OFF))
    if c.ranked:
        lv = c.levels
        mids = [math.sqrt(lv[j] * lv[j + 1]) for j in range(RANKS - 1)]
        for i in range(c.n):
            b = c.base[i]
            up, dn = king_swing(c, i)
            for j in range(RANKS - 1):
                c.up_edge[3 * i + j] = min(65535, b + int(up * mids[j]))
                c.dn_edge[3 * i + j] = max(0, b - int(dn * mids[j]))


def set_baseline(c, sums, count):
    """Takes the averages as baselines; a sensor whose average lies outside what a working
    sensor puts out keeps its old baseline. Returns those sensors' indices."""
    bad = []
    for i in range(c.n):
        avg = sums[i] // count
        if c.fault_lo <= avg <= c.fault_hi:
            c.base[i] = avg
        else:
            bad.append(i)
    update(c)
    return bad


def set_piece(c, i, up_reading, down_reading, up_rank=0, down_rank=0):
    """Sensor i's readings with a piece upright and upside down (0: not measured), each
    of a piece of that rank (ranked boards; 0 the king)."""
    c.up[i] = up_reading
    c.down[i] = down_reading
    c.up_rank[i] = up_rank
    c.down_rank[i] = down_rank
    update(c)


def weak(c, fraction=0.4):
    """Sensors whose measured swing is under `fraction` of the nominal one: a weak magnet,
    a sensor mounted too far away, or a wrong sensor grade."""
    out = []
    for i in range(c.n):
        if c.up[i] or c.down[i]:
            if c.ranked:
                up, dn = king_swing(c, i)
                nominal = min(c.king_up, c.king_down)
            else:
                up, dn = swing(c, i)
                nominal = NOMINAL_SWING
            if min(up, dn) < nominal * fraction:
                out.append(i)
    return out


def to_json(c):
    out = {"format": FORMAT, "n": c.n, "base": list(c.base), "up": list(c.up),
           "down": list(c.down), "fault_lo": c.fault_lo, "fault_hi": c.fault_hi}
    if c.ranked:
        out["ranks"] = {"levels": c.levels, "king_up": c.king_up,
                        "king_down": c.king_down}
    if any(c.up_rank) or any(c.down_rank):
        out["up_rank"] = list(c.up_rank)
        out["down_rank"] = list(c.down_rank)
    return out


def save(c, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(to_json(c), f)
    os.rename(tmp, path)


def from_json(obj, n):
    """A Calibration from its stored form; ValueError says what is wrong with it."""
    if type(obj) is not dict or obj.get("format") != FORMAT:
        raise ValueError("not an agentboard calibration file")
    if obj.get("n") != n:
        raise ValueError("calibration is for %r sensors, this board has %d" % (obj.get("n"), n))
    c = Calibration(n)
    for key in ("base", "up", "down"):
        vals = obj.get(key)
        if type(vals) is not list or len(vals) != n:
            raise ValueError("calibration field '%s' must list %d readings" % (key, n))
        arr = getattr(c, key)
        for i in range(n):
            v = vals[i]
            if type(v) is not int or not 0 <= v <= 65535:
                raise ValueError("calibration %s[%d] = %r is not a reading" % (key, i, v))
            arr[i] = v
    for key in ("fault_lo", "fault_hi"):
        v = obj.get(key)
        if type(v) is not int or not 0 <= v <= 65535:
            raise ValueError("calibration field '%s' is not a reading" % key)
        setattr(c, key, v)
    for key in ("up_rank", "down_rank"):
        vals = obj.get(key)
        if vals is None:
            continue  # every reading a king's (or files from before these fields)
        if type(vals) is not list or len(vals) != n or any(
                type(v) is not int or not 0 <= v < RANKS for v in vals):
            raise ValueError("calibration field '%s' must list %d ranks (0-%d)" % (
                key, n, RANKS - 1))
        getattr(c, key)[:] = bytes(vals)
    ranks = obj.get("ranks")
    if ranks is not None:
        levels, king_up, king_down = _ranks(ranks)
        set_ranks(c, levels, king_up, king_down)
    update(c)
    return c


def _ranks(ranks):
    """(levels, king_up, king_down) from a stored `ranks` field; ValueError if it is wrong."""
    if type(ranks) is not dict:
        raise ValueError("calibration field 'ranks' must be an object")
    levels = ranks.get("levels")
    if type(levels) is not list or len(levels) != RANKS or any(
            type(v) not in (int, float) or not 0 < v <= 1 for v in levels):
        raise ValueError("calibration ranks.levels must list %d fractions of the king's swing"
                         % RANKS)
    for j in range(RANKS - 1):
        if levels[j] < levels[j + 1] * MIN_LEVEL_RATIO:
            raise ValueError("calibration ranks.levels must fall by %.1f times from rank to "
                             "rank" % MIN_LEVEL_RATIO)
    swings = []
    for key in ("king_up", "king_down"):
        v = ranks.get(key)
        if type(v) is not int or not 0 < v <= 65535:
            raise ValueError("calibration ranks.%s is not a swing" % key)
        swings.append(v)
    return levels, swings[0], swings[1]


def load(path, n):
    """The stored calibration, or None when there is none yet. Raises ValueError if broken."""
    try:
        f = open(path)
    except OSError:
        return None
    with f:
        try:
            obj = json.load(f)
        except ValueError:
            raise ValueError("calibration file %s is not JSON" % path)
    return from_json(obj, n)
