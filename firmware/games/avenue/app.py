# The application of the Agent Avenue board (hardware/variants/agent-avenue names this module in
# its variant.json; firmware/games/track/app.py's main builds the App found here). The same loop as the DOG
# boards' at 50 scans per second: the hall sensors under the 14 spaces, the three card readers
# (each once in 5 scans, one field on at a time: hal/mfrc522.poll_turn), the buttons and the
# console, the LEDs redrawn when something changed and five times a second for blinking; the
# same drivers, store, card map and console.
import gc
import json
import time

from firmware.board import Board
from firmware.store import LOST, open_store
from firmware.cardmap import CardMap
from firmware.console import (Console, StdinLines, stdout_parts, deployed_version,
                              report_boot)
from firmware.hal.mfrc522 import CARD, REMOVED, TWO_CARDS, poll_turn
from firmware.hal.buttons import PRESS, RELEASE, HOLD
from firmware.hal.scanner import UP as UPRIGHT, DOWN as UPSIDE_DOWN
from firmware.games.avenue import referee as R
from firmware.games.avenue.lights import Lights

SCAN_MS = 20
NFC_EVERY = 5
BLINK_EVERY = 10
READY_EVERY = 25  # twice a second the still board lets the game's journal erase ahead
BOOT_POLLS = 3  # reader rounds at power-up that look for the cards lying on the pads
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


def _print(line):
    print(line)


def _hex(uid):
    return "".join(["%02x" % x for x in uid])


def _err(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


class App:
    def __init__(self, config_dir="config", data_dir=".", write=_print, inp=None,
                 write_parts=None):
        board = Board(config_dir, data_dir)
        self.board = board
        self.data_dir = data_dir
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
        if write_parts is None and write is _print:
            write_parts = stdout_parts
        self.console = Console(inp if inp is not None else StdinLines(), write, write_parts)
        # the handler made once: a bound method made on every scan is heap garbage
        self.on_command = self.command
        self.store = open_store(data_dir, self.event)
        self.cardmap = CardMap(data_dir, R.card_kinds(tb))
        self.ref = R.Referee(self.store, self.cardmap, self.event, pawn_class, tb.spaces)
        self.lights = Lights(board.leds, board.led_names, tb.spaces)
        board.release_names()
        self.menu = -1
        self.dirty = True
        self.unsettled = False

    def event(self, obj):
        self.console.emit(obj)
        self.dirty = True
        sound = SOUNDS.get(obj.get("event"))
        if sound:
            self.board.buzzer.play(sound)

    def boot(self):
        b = self.board
        b.scanner.settle(b.scanner.stable + 2)
        self.ref.sense(b.scanner.state)
        report_boot(self.console, b, self.cardmap, self.data_dir, R.GAME)
        self.ref.resume_from_flash()
        # the cards lying on the pads at power-up, each read as found there (a tag may miss a
        # poll while the field comes up): the referee knows which of them may count
        for _ in range(BOOT_POLLS):
            for j in range(len(b.readers)):
                if b.readers[j].poll() == CARD:
                    self.ref.on_pad(self.reader_role[j], _hex(b.readers[j].uid), True)

    def step(self, n):
        b = self.board
        sc = b.scanner
        ref = self.ref
        if sc.scan():
            ref.sense(sc.state)
            self.unsettled = True
        elif self.unsettled:
            self.unsettled = False
            ref.decide()  # the board has been still for a scan
            self.dirty = True
        elif n % READY_EVERY == 0:
            self.store.ready()  # so that no save waits for a sector erase
        readers = b.readers
        j = poll_turn(readers, n % NFC_EVERY)
        if j >= 0:
            ev = readers[j].event
            if ev == CARD:
                ref.on_pad(self.reader_role[j], _hex(readers[j].uid))
            elif ev == REMOVED:
                ref.on_pad_off(self.reader_role[j])
            elif ev == TWO_CARDS:
                ref.on_two(self.reader_role[j])
            if j == len(readers) - 1:
                ref.tick()  # a round of reader polls done
        now = time.ticks_ms()
        ev = b.confirm.poll(now)
        if ev:
            self.confirm_button(ev)
        ev = b.back.poll(now)
        if ev == PRESS:
            if self.menu >= 0:
                self.menu = -1
                self.dirty = True
            elif ref.back():
                self.dirty = True
        self.console.poll(self.on_command)
        b.buzzer.tick(SCAN_MS)
        if self.dirty or n % BLINK_EVERY == 0:
            self.lights.render(ref, (n // BLINK_EVERY) % 2 == 0,
                               MENU[self.menu] if self.menu >= 0 else None)
            self.dirty = False

    def confirm_button(self, ev):
        # with no game running (or after a win) holding confirm opens the new-game menu, short
        # presses step through it and holding again starts the lit choice; during a game a
        # short press passes a team's lit seat, holding it declares an identical pair
        ref = self.ref
        free = ref.st is None or ref.st.winner >= 0
        short = ev == RELEASE and not self.board.confirm.hold_sent
        if self.menu >= 0:
            if short:
                self.menu = (self.menu + 1) % len(MENU)
            elif ev == HOLD:
                mode, seats = MENU[self.menu]
                self.menu = -1
                ref.start(mode, seats, 0)
            self.dirty = True
        elif ev == HOLD and free:
            self.menu = 0
            self.dirty = True
        elif ev == HOLD:
            ref.hold_confirm()
        elif short:
            ref.confirm()

    def command(self, cmd):
        op = cmd["op"]
        ref = self.ref
        if op == "new_game":
            return self.new_game(cmd)
        if op == "enrol":
            try:
                self.cardmap.enrol(cmd.get("uid"), cmd.get("card"))
            except ValueError as e:
                return _err("bad_request", str(e))
            return {"ok": True, "cards_enrolled": self.cardmap.count()}
        if op == "status":
            gc.collect()
            return {"ok": True, "phase": ref.phase(), "calibrated": self.board.calibrated,
                    "version": deployed_version(self.data_dir), "game": R.GAME,
                    "heap_used": gc.mem_alloc(), "heap_free": gc.mem_free(),
                    "cards_enrolled": self.cardmap.count(),
                    "readers": [{"reader": R.READERS[self.reader_role[j]],
                                 "errors": self.board.readers[j].errors,
                                 "two_cards": self.board.readers[j].collided}
                                for j in range(len(self.board.readers))]}
        if op in ("calibrate", "sensors"):
            if ref.st is not None and ref.st.winner < 0:
                # a game's setup too: its pawns stand on the board, and an empty board is
                # what the baseline is measured on
                return _err("not_now", "a game is running: calibrate before a game, or after "
                            "it (new_game replaces it)")
            from firmware import calibrate
            if op == "sensors":
                return ("sensors", calibrate.sensor_parts(self.board))
            return calibrate.command(self.board, cmd)
        if ref.st is None:
            if op in ("public", "export"):
                return _err("no_game", "no game yet: start one with new_game")
            return _err("bad_request", "unknown op %r" % (op,))
        if op == "public":
            return {"ok": True, "view": ref.public_view()}
        if op == "export":
            if not self.store.whole():
                return _err("not_now", LOST)
            return ("record", ref.export_parts())
        return _err("bad_request", "unknown op %r" % (op,))

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


def main(config_dir="config", data_dir=".", max_scans=-1, write=_print, inp=None,
         write_parts=None):
    app = App(config_dir, data_dir, write, inp, write_parts)
    app.boot()
    n = 0
    while max_scans < 0 or n < max_scans:
        t0 = time.ticks_ms()
        app.step(n)
        n += 1
        spent = time.ticks_diff(time.ticks_ms(), t0)
        if spent < SCAN_MS:
            time.sleep_ms(SCAN_MS - spent)
