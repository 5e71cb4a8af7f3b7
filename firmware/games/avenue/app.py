# The application of the Agent Avenue board (the registry of games names this module as its
# family's firmware; firmware/launch.py starts it): the board's one loop (firmware/loop.py) over
# the Agent Avenue referee and its LEDs, with the hall sensors under the 14 spaces and the three
# card readers (one a scan, one field on at a time: hal/mfrc522.PollTurns).
import gc
import json

from firmware.loop import App as Loop, BOOT_POLLS, run, print_line
from firmware.loop import err as _err
from firmware.console import deployed_version
from firmware.cardmap import CardMap
from firmware.hal.mfrc522 import CARD, REMOVED, TWO_CARDS
from firmware.hal.buttons import PRESS, RELEASE, HOLD
from firmware.hal.scanner import UP as UPRIGHT, DOWN as UPSIDE_DOWN
from firmware.games.avenue import referee as R
from firmware.games.avenue.lights import Lights
from firmware.games.avenue.shown import Shown

SOUNDS = {"recruit": "accept", "play": "accept", "reject": "reject", "win": "win",
          "mismatch": "fault", "fault": "fault", "pawn": "effect", "turn": "turn",
          "market": "effect", "discard": "accept", "taken": "accept"}
READS = {"upright": UPRIGHT, "upside_down": UPSIDE_DOWN}
MODES = ("simple", "advanced")
# the new-game menu (buttons): each mode with each seating, two players first
MENU = (("simple", (1, 1)), ("advanced", (1, 1)), ("simple", (2, 2)), ("advanced", (2, 2)),
        ("simple", (2, 1)), ("advanced", (2, 1)), ("simple", (1, 2)), ("advanced", (1, 2)))
DEFAULT_SEATS = {2: (1, 1), 3: (2, 1), 4: (2, 2)}
NEW_GAME_FIELDS = ("op", "game", "mode", "players", "seats", "active", "offer")


def _hex(uid):
    return "".join(["%02x" % x for x in uid])


class App(Loop):
    SOUNDS = SOUNDS
    GAME = R.GAME
    # the LEDs blink what the referee holds now (a refused card's pad, a sensor's fault): its
    # view is asked again at every redraw, not only when something changed
    LIVE_VIEW = True

    def setup(self, config_dir):
        board = self.board
        with open(config_dir + "/variant.json") as f:
            info = json.load(f)
        tb = R.tables.load()
        pawn_class = bytearray(2)
        for name in info["pawns"]:
            p = info["pawns"][name]
            pawn_class[tb.side_index[p["side"]]] = READS[p["reads"]]
        self.spaces = tb.spaces
        # sensor i is space i on this board (sensors.json lists the spaces in order)
        for i in range(tb.spaces):
            if board.locations[i] != str(i):
                raise ValueError("sensors.json: sensor %d is %s, not space %d"
                                 % (i, board.locations[i], i))
        self.reader_role = bytearray([R.READERS.index(n) for n in board.reader_names])
        self.choices = MENU
        self.cardmap = CardMap(self.data_dir, R.card_kinds(tb))
        self.ref = R.Referee(self.store, self.cardmap, self.event, pawn_class, tb.spaces)
        self.view = Lights(board.leds, board.led_names, tb.spaces)
        self.menu_view = Shown(0, 0)  # the menu's choice, drawn while the menu is open

    def cards_at_boot(self):
        # the cards lying on the pads at power-up, each read as found there (a tag may miss a
        # poll while the field comes up): the referee knows which of them may count
        readers = self.board.readers
        for _ in range(BOOT_POLLS):
            for j in range(len(readers)):
                if readers[j].poll() == CARD:
                    self.ref.on_pad(self.reader_role[j], _hex(readers[j].uid), True)

    def sensed(self, k):
        self.ref.sense(self.board.scanner.state)

    def card_event(self, j, ev):
        ref = self.ref
        readers = self.board.readers
        if ev == CARD:
            ref.on_pad(self.reader_role[j], _hex(readers[j].uid))
        elif ev == REMOVED:
            ref.on_pad_off(self.reader_role[j])
        elif ev == TWO_CARDS:
            ref.on_two(self.reader_role[j])

    def each_scan(self):
        self.ref.tick()  # the referee's clock: a refused card's pad blinks for a while

    def start_choice(self, choice):
        mode, seats = choice
        self.ref.start(mode, seats, 0)

    def game_button(self, ev):
        # during a game a short press passes a team's lit seat, holding it declares an
        # identical pair
        if ev == HOLD:
            self.ref.hold_confirm()
        elif ev == RELEASE and not self.board.confirm.hold_sent:
            self.ref.confirm()

    def back_button(self, ev):
        if ev == PRESS and self.ref.back():
            self.dirty = True

    def menu_shown(self):
        self.menu_view.menu = MENU[self.menu]
        return self.menu_view

    def status(self, cmd):
        ref = self.ref
        gc.collect()
        return {"ok": True, "phase": ref.phase, "calibrated": self.board.calibrated,
                "version": deployed_version(self.data_dir), "game": R.GAME,
                "heap_used": gc.mem_alloc(), "heap_free": gc.mem_free(),
                "cards_enrolled": self.cardmap.count(),
                "readers": [{"reader": R.READERS[self.reader_role[j]],
                             "errors": self.board.readers[j].errors,
                             "two_cards": self.board.readers[j].collided}
                            for j in range(len(self.board.readers))]}

    def new_game(self, cmd):
        tb = self.ref.tb
        for k in cmd:
            if k not in NEW_GAME_FIELDS:
                return _err("bad_request", "new_game takes %s; not %r" % (
                    ", ".join(NEW_GAME_FIELDS[1:]), k))
        game = cmd.get("game", R.GAME)
        if game != R.GAME:
            return _err("bad_request", "game %r: this board (agent-avenue) referees agent-avenue"
                        % (game,))
        mode = cmd.get("mode", "simple")
        if mode not in MODES:
            return _err("bad_request", "mode is simple or advanced")
        players = cmd.get("players", 2)
        if type(players) is not int or players not in DEFAULT_SEATS:
            return _err("bad_request", "agent-avenue on this board is played by 2, 3 or 4 "
                        "players")
        seats = cmd.get("seats")
        if seats is None:
            seats = DEFAULT_SEATS[players]
        else:
            if type(seats) is not dict or len(seats) != 2 or any(
                    s not in seats or type(seats[s]) is not int or not 1 <= seats[s] <= 2
                    for s in tb.sides):
                return _err("bad_request", "seats gives each side's players: {\"green\": 1|2, "
                            "\"blue\": 1|2}")
            seats = (seats[tb.sides[0]], seats[tb.sides[1]])
            if seats[0] + seats[1] != players:
                return _err("bad_request", "seats add up to %d players, not %d"
                            % (seats[0] + seats[1], players))
        active = cmd.get("active", tb.sides[0])
        if active not in tb.sides:
            return _err("bad_request", "active is green or blue")
        offer = cmd.get("offer")
        if offer is not None:
            if mode != "advanced":
                return _err("bad_request", "an offer belongs to the advanced mode")
            if type(offer) is not list or len(offer) != tb.offer_size or any(
                    type(c) is not str or c not in tb.market_index for c in offer) or \
                    len(set(offer)) != len(offer):
                return _err("bad_request", "offer lists %d different black-market cards"
                            % tb.offer_size)
            offer = [tb.market_index[c] for c in offer]
        self.menu = -1
        self.ref.start(mode, seats, tb.side_index[active], offer)
        self.dirty = True
        return {"ok": True}


    # the console ops only this board has, the methods above (firmware/loop.py COMMON_OPS:
    # every board's; NEED_GAME: the ops that need a game)
    OPS = ("new_game", "status")


def main(config_dir="config", data_dir=".", max_scans=-1, write=print_line, inp=None,
         write_parts=None):
    run(App, config_dir, data_dir, max_scans, write, inp, write_parts)
