# The track games' set-up (firmware/games/track/app.py's App, the Places tables, the Referee)
# at power-up. Imported for each call and dropped after it (firmware/ondemand.py): on
# MicroPython's stock ESP32 build its bytecode would otherwise take heap for the board's whole
# life. Apart from the console ops (ops.py) and the referee's other rare steps
# (referee_rare.py), so that power-up holds only this module beside the resident code, not
# those as well.
from firmware import ondemand
from firmware.loop import SCAN_MS, BOOT_POLLS
from firmware.store import Offsets
from firmware.cardmap import CardMap
from firmware.hal.mfrc522 import CARD
from firmware.games.track import move_lights
from firmware.games.track.app import DEFAULT_LAYOUT, _uid
from firmware.games.track.move_lights import Shown
from firmware.games.track.places import Places, COUNTED, EMPTY, NO_BAND
from firmware.games.track.referee import Referee, TRANSIT_MS, LOOKUP
from firmware.games.track.view import View


def setup(app, config_dir):
    info = getattr(app.board, "variant", None) or {}
    layout = info.get("layout", DEFAULT_LAYOUT)
    # the games this board can referee (each game's boards are in the rules core), and
    # the new-game menu's choices: each game with each number of players its board seats
    found = ondemand.call(LOOKUP, "BoardGames", layout)
    app.games = found.games
    app.choices = found.choices
    app.ranked_games = found.ranked
    game = found.first
    del found
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


def init_referee(ref, places, store, cardmap, out, game):
    """Referee.__init__ (its arguments described there)."""
    ref.game = game or ondemand.call(LOOKUP, "load")
    ref.lay = ref.game.lay
    ref._last_mismatch = []
    ref.ambiguous = False
    ref.move_json = None
    ref.cards = ref.game.cards
    ref.places = places
    ref.store = store
    ref.cardmap = cardmap
    ref.out = out
    n = places.n
    ref.sensed = bytearray(n)
    ref.bands = bytearray(bytes([NO_BAND]) * n)  # the rank band each sensor reads
    ref.exp = bytearray(n)
    ref.exp_bands = bytearray(bytes([NO_BAND]) * n)
    ref.counts = bytearray(ref.lay.ncol)
    ref.touched = bytearray(n)
    ref.untouched = bytes(n)  # copied over touched and recheck to clear them at C speed
    # the sensed classes when touched was last cleared (the card played, a Partner 4
    # segment done): a square empty then and empty again is as if never touched
    ref.move_start = bytearray(n)
    # squares whose piece must be lifted before the board counts as right: after an undo,
    # where another piece belongs than the one standing there (the sensors cannot see
    # two pieces swapped back, only that both squares were lifted)
    ref.recheck = bytearray(n)
    ref.st = None
    ref.header = None
    ref.turns = Offsets()  # where each turn in force starts in the game log
    ref.phase = "idle"
    ref.resume = "await_card"
    ref.card = -1
    ref.judge = None
    ref.cands = []
    ref.saved = False
    ref.diffs = []
    ref.bad = []
    ref.pre_move = None
    ref.lights = move_lights.NONE  # what the LEDs show for the card in play
    ref.accepted_at = -1  # sensor to flash after an accepted move
    ref.rejected = False
    ref.drawing = -1  # the seat told to draw a card (DOG Royal's special spaces)
    # scans left before a piece standing on a space its move passes is refused there
    # (0: none waiting); transit_scans is the app's to set: it knows its scan period
    ref.transit_scans = 1
    ref.transit_left = 0
    ref.shown = Shown()
