# The console ops every board has (docs/board-protocols.md, section 1), written once over the
# loop's App (firmware/loop.py) and the referee's contract: enrol a sticker, calibrate or read
# the sensors between games, the public view and the game record of the game going on. A
# family adds its own ops (new_game, status...) through its App's OPS table, looked up first.
from firmware.store import LOST

NOT_DURING_A_GAME = ("a game is running: calibrate before a game, or after it (new_game "
                     "replaces it)")


def err(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


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
        return err("not_now", NOT_DURING_A_GAME)
    from firmware import calibrate as cal  # only for this command: its code stays off the heap
    if cmd["op"] == "sensors":
        return ("sensors", cal.sensor_parts(app.board))
    return cal.command(app.board, cmd)


def public(app, cmd):
    return {"ok": True, "view": app.ref.public_view()}


def export(app, cmd):
    if not app.store.whole():
        return err("not_now", LOST)
    return ("record", app.ref.export_parts())


# op -> (function(app, cmd), whether it needs a game: without one it answers no_game)
OPS = {"enrol": (enrol, False), "calibrate": (calibrate, False), "sensors": (calibrate, False),
       "public": (public, True), "export": (export, True)}
