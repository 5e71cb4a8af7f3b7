# The console ops every board has (firmware/loop.py COMMON_OPS), over the referee's contract:
# enrol a sticker, calibrate or read the sensors between games, the public view and the game
# record of the game going on. Imported for each command and dropped after it
# (firmware/ondemand.py): on MicroPython's stock ESP32 build its bytecode would otherwise take
# heap for the board's whole life. Each function takes the App and the command.
from firmware import ondemand
from firmware.loop import err
from firmware.store import LOST

# the modules of the calibrate and sensors ops, loaded for the op and dropped after it
CALIBRATE = "firmware.calibrate"
MEASURE = "firmware.hal.measure"
CALIBRATION_OPS = "firmware.hal.calibration_ops"


def enrol(app, cmd):
    try:
        app.cardmap.enrol(cmd.get("uid"), cmd.get("card"))
    except ValueError as e:
        return err("bad_request", str(e))
    return {"ok": True, "cards_enrolled": app.cardmap.count()}


def calibrate(app, cmd):
    # raw readings of a running game would show where pieces stand as finely as a magnet
    # differs from another; re-measuring would disturb the game; and in a game's setup the
    # pieces stand on the board the empty step measures
    if not app.free():
        return err("not_now", "a game is running: calibrate before a game, or after it "
                   "(new_game replaces it)")
    # only for this command: its code, its measuring steps' and the calibration's
    # arithmetic (which it imports: kept for the whole command, then dropped) stay off
    # the heap
    try:
        if cmd["op"] == "sensors":
            return ("sensors", ondemand.call(CALIBRATE, "sensor_parts", app.board))
        return ondemand.call(CALIBRATE, "command", app.board, cmd)
    finally:
        ondemand.drop(MEASURE)
        ondemand.drop(CALIBRATION_OPS)


sensors = calibrate


def public(app, cmd):
    return {"ok": True, "view": app.ref.public_view()}


def export(app, cmd):
    if not app.store.whole():
        return err("not_now", LOST)
    return ("record", app.ref.export_parts())
