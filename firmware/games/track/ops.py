# The track games' console ops (firmware/games/track/app.py's App.OPS) and the new-game
# menu's start. Imported for each call and dropped after it (firmware/ondemand.py): on
# MicroPython's stock ESP32 build its bytecode would otherwise take heap for the board's whole
# life. Each function takes the App.
import gc

from firmware import ondemand
from firmware.loop import err as _err
from firmware.console import deployed_version
from firmware.store import LOST
from firmware.games.track.app import NEW_GAME_FIELDS, _uid
from firmware.games.track.referee import LOOKUP



def start_choice(app, choice):
    game, players = choice
    g = ondemand.call(LOOKUP, "load", game, app.lay.name)
    why = unready(app, g)
    if why:
        app.event({"event": "reject", "reason": why})
    else:
        app.ref.start(players, game=g)


def unready(app, game):
    """Why this board cannot referee `game` yet, or None. A ranked game reads each piece's
    rank from the bands its calibration measured: without them every piece would read as
    no rank at all, a mismatch everywhere."""
    if game.ranked and not app.board.calib.ranked:
        return ("%s reads each piece's rank: calibrate the board with its pieces first "
                "(agentboard calibrate)" % game.name)
    return None


def new_game(app, cmd):
    ref = app.ref
    lay = app.lay
    for k in cmd:
        if k not in NEW_GAME_FIELDS:  # a field no game of this board has (mode?)
            return _err("bad_request", "new_game on this board (%s) takes %s; not %r"
                        % (lay.name, ", ".join(NEW_GAME_FIELDS[1:]), k))
    game = cmd.get("game", app.games[0])
    if game not in app.games:
        return _err("bad_request", "game %r: this board (%s) referees %s" % (
            game, lay.name, ", ".join(app.games)))
    players = cmd.get("players")
    counts = [n for g, n in app.choices if g == game]
    if type(players) is not int or players not in counts:
        return _err("bad_request", "%s on this board (%s) is played by %s players" % (
            game, lay.name, " or ".join([str(n) for n in sorted(counts)])))
    seats = cmd.get("seats")
    if seats is not None:
        if type(seats) is not list or len(seats) != players or any(
                s not in lay.colours for s in seats) or len(set(seats)) != players:
            return _err("bad_request", "seats must name %d different colours" % players)
    else:
        seats = [lay.colours[c] for c in lay.default_seats[players]]
    dealer = cmd.get("dealer")
    if dealer is not None and dealer not in seats:
        return _err("bad_request", "the dealer must be one of the seats")
    g = ondemand.call(LOOKUP, "load", game, lay.name)
    why = unready(app, g)
    if why:
        return _err("not_calibrated", why)
    ref.start(players, seats, dealer, g)
    app.dirty = True
    return {"ok": True}


def status(app, cmd):
    ref = app.ref
    cr = app.board.cards
    uid = _uid(cr)
    gc.collect()
    return {"ok": True, "phase": ref.phase, "calibrated": app.board.calibrated,
            "version": deployed_version(app.data_dir),
            "menu_players": app.choices[app.menu][1] if app.menu >= 0 else None,
            "menu_game": app.choices[app.menu][0] if app.menu >= 0 else None,
            "heap_used": gc.mem_alloc(), "heap_free": gc.mem_free(),
            "cards_enrolled": app.cardmap.count(),
            "reader": {"card": uid, "kind": app.cardmap.kind(uid) if uid else None,
                       "errors": cr.errors, "two_cards": cr.collided},
            "faults": [app.board.locations[i] for i in range(app.board.scanner.n)
                       if app.board.scanner.state[i] == 3]}


def debug(app, cmd):
    ref = app.ref
    # what the referee sees right now: sensed classes, touched squares, the move so far
    names = app.board.locations
    sensed = dict((names[i], ref.sensed[i]) for i in range(len(names)) if ref.sensed[i])
    j = ref.judge
    return {"ok": True, "phase": ref.phase, "sensed": sensed,
            "touched": [names[i] for i in range(len(names)) if ref.touched[i]],
            "used": getattr(j, "used", None),
            "burned": [names[i] for i in getattr(j, "burned", [])]}


def undo(app, cmd):
    if app.ref.undo():
        app.dirty = True
        return {"ok": True}
    return _err("not_now", LOST if not app.store.whole() else
                "nothing to undo, or a move is under way")
