# The console's calibration commands, loaded only when asked for (a game never needs them):
# measuring the empty board and the pieces, and the per-sensor readings and thresholds that
# `agentboard calibrate` draws as a picture.
import json

from firmware.hal import calibration
from firmware.hal.scanner import NAMES


def command(board, cmd):
    step = cmd.get("step", "empty")
    sc = board.scanner
    if step == "empty":
        bad = calibration.measure_baseline(sc, board.calib)
    elif step == "pieces":
        ups, downs = calibration.measure_pieces(sc, board.calib)
    else:
        return {"ok": False, "error": "bad_request", "reason": "step is 'empty' or 'pieces'"}
    board.save_calibration()
    if step == "empty":
        return {"ok": True, "step": step, "raw": list(sc.raw),
                "out_of_range": [board.locations[i] for i in bad]}
    return {"ok": True, "step": step, "upright": ups, "upside_down": downs,
            "weak": [board.locations[i] for i in board.calib.weak()]}


def sensor_parts(board):
    """Every sensor's reading now, its class, and its calibration, as pieces of one JSON
    object (about 5 KB: never held whole)."""
    c = board.calib
    sc = board.scanner
    yield '{"loc": %s, "class": %s' % (json.dumps(board.locations),
                                       json.dumps([NAMES[k] for k in sc.state]))
    for key, arr in (("raw", sc.raw), ("base", c.base), ("up", c.up), ("down", c.down),
                     ("up_on", c.up_on), ("up_off", c.up_off), ("dn_on", c.dn_on),
                     ("dn_off", c.dn_off)):
        yield ', "%s": %s' % (key, json.dumps(list(arr)))
    yield ', "fault_lo": %d, "fault_hi": %d, "nominal_swing": %d, "calibrated": %s}' % (
        c.fault_lo, c.fault_hi, calibration.NOMINAL_SWING,
        "true" if board.calibrated else "false")
