# The track games' rarely run code (firmware/games/track/app.py's App): its set-up at power-up
# (with the Places tables), the new-game menu's start, and the console ops only these boards
# have (App.OPS). Imported for each call and dropped after it (firmware/ondemand.py): on
# MicroPython's stock ESP32 build its bytecode would otherwise take heap for the board's whole
# life. Each function takes the App (init_places: the Places).
import gc

from shared_rules import variant
from firmware.loop import SCAN_MS, BOOT_POLLS, err as _err
from firmware.console import deployed_version
from firmware.store import LOST
from firmware.cardmap import CardMap
from firmware.hal.mfrc522 import CARD
from firmware.games.track.app import DEFAULT_LAYOUT, NEW_GAME_FIELDS, _uid
from firmware.games.track.places import Places, COUNTED, EMPTY, NO_BAND
from firmware.games.track.referee import Referee, TRANSIT_MS
from firmware.games.track.view import View


def setup(app, config_dir):
    info = getattr(app.board, "variant", None) or {}
    layout = info.get("layout", DEFAULT_LAYOUT)
    # the games this board can referee (each game's boards are in the rules core), and
    # the new-game menu's choices: each game with each number of players its board seats
    app.games = [g for g in variant.names() if layout in variant.boards(g).values()]
    app.choices = []
    for g in app.games:
        counts = sorted(n for n, b in variant.boards(g).items() if b == layout)
        for n in counts[-1:] + counts[:-1]:  # the most players first: 4, 2, 3
            app.choices.append((g, n))
    game = variant.load(app.games[0], layout)
    lay = game.lay
    app.lay = lay
    b = app.board
    app.places = Places(lay, b.index)
    app.cardmap = CardMap(app.data_dir, game.cards.names)
    app.ref = Referee(app.places, app.store, app.cardmap, app.event, game)
    app.ref.transit_scans = TRANSIT_MS // SCAN_MS
    app.view = View(b.leds, b.led_names, b.locations, app.places, lay)


def cards_at_boot(app):
    # a card lying on the reader at power-up may be the card of a move saved just before
    # the cut, so it is never played until lifted and tapped again
    b = app.board
    for _ in range(BOOT_POLLS):
        if b.cards.poll() == CARD:
            uid = _uid(b.cards)
            if app.cardmap.kind(uid) is None:
                app.ref.on_card(uid)  # not enrolled: said as for any card
            else:
                app.event({"event": "reject", "reason": "the board restarted with a card "
                           "on the reader: lift it, and tap it again if it is still to be "
                           "played"})
            break


def start_choice(app, choice):
    game, players = choice
    g = variant.load(game, app.lay.name)
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
    g = variant.load(game, lay.name)
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


def init_places(places, lay, index):
    """Places.__init__ (described there): the tables from the layout and the sensor names."""
    places.lay = lay
    places.n = len(index)
    places.sensor = bytearray(lay.nboard)  # rules board location -> sensor index
    for t in range(lay.n):
        places.sensor[t] = index[str(t)]
    for c in range(lay.ncol):
        for k in range(lay.home_n):
            places.sensor[lay.home(c, k)] = index["%s:h%d" % (lay.colours[c], k + 1)]
    # (tables from bytes, not from a list of n ints: the list would ask a fragmented heap
    # for one block of 4n bytes at boot)
    places.loc = bytearray(b"\xff" * places.n)  # sensor index -> rules board location
    for loc in range(lay.nboard):
        places.loc[places.sensor[loc]] = loc
    places.spots = []
    places.spot_colour = bytearray(b"\xff" * places.n)
    for c in range(lay.ncol):
        row = []
        k = 1
        while "%s:s%d" % (lay.colours[c], k) in index:
            i = index["%s:s%d" % (lay.colours[c], k)]
            row.append(i)
            places.spot_colour[i] = c
            k += 1
        places.spots.append(row)
    # what expected() starts from, and copies at C speed instead of a loop over the
    # sensors per call (it runs on every settled board): no piece anywhere, the start areas
    # counted; no rank anywhere
    places.no_piece = bytes(COUNTED if c != 255 else EMPTY for c in places.spot_colour)
    places.no_band = bytes([NO_BAND]) * places.n
    places.spot_list = bytes(i for row in places.spots for i in row)
    places.track = bytes(i for i in range(places.n) if places.spot_colour[i] == 255)  # the rest
    places.work = bytearray(places.n)  # scratch of _same()
