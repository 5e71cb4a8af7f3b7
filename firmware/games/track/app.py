# The application: the referee at 50 scans per second. Each pass scans the sensors, polls the
# card reader (every 5th pass; its antenna on from the pass before: hal/mfrc522.poll_turn),
# the buttons and the console, and redraws the LEDs when something changed (and five times a
# second for blinking).
import gc
import time

from shared_rules import variant
from firmware.board import Board
from firmware.games.track.places import Places
from firmware.games.track.referee import Referee, TRANSIT_MS
from firmware.store import LOST, open_store
from firmware.cardmap import CardMap
from firmware.games.track.view import View
from firmware.games.track.shown import Shown
from firmware.console import (Console, StdinLines, stdout_parts, deployed_version,
                              report_boot)
from firmware.hal.mfrc522 import CARD, TWO_CARDS, poll_turn
from firmware.hal.buttons import PRESS, RELEASE, HOLD

DEFAULT_LAYOUT = "agent-dog-4"  # a board whose config names no layout is the Agent DOG board
SCAN_MS = 20
NFC_EVERY = 5
BLINK_EVERY = 10
READY_EVERY = 25  # twice a second the still board lets the game's journal erase ahead
# reader polls at power-up that look for a card lying there already (a tag may miss a poll
# while the field comes up): it may be the card of a move saved just before the cut, so it is
# never played until lifted and tapped again
BOOT_POLLS = 3
NEW_GAME_FIELDS = ("op", "game", "players", "seats", "dealer")
SOUNDS = {"move": "accept", "reject": "reject", "win": "win", "mismatch": "fault",
          "fault": "fault", "effect": "effect", "turn": "turn", "draw": "effect"}


def _print(line):
    print(line)


class App:
    def __init__(self, config_dir="config", data_dir=".", write=_print, inp=None,
                 write_parts=None):
        board = Board(config_dir, data_dir)
        self.board = board
        self.data_dir = data_dir
        info = getattr(board, "variant", None) or {}
        layout = info.get("layout", DEFAULT_LAYOUT)
        # the games this board can referee (each game's boards are in the rules core), and
        # the new-game menu's choices: each game with each number of players its board seats
        self.games = [g for g in variant.names() if layout in variant.boards(g).values()]
        self.choices = []
        for g in self.games:
            counts = sorted(n for n, b in variant.boards(g).items() if b == layout)
            for n in counts[-1:] + counts[:-1]:  # the most players first: 4, 2, 3
                self.choices.append((g, n))
        game = variant.load(self.games[0], layout)
        lay = game.lay
        self.lay = lay
        self.places = Places(lay, board.index)
        if write_parts is None and write is _print:
            write_parts = stdout_parts
        self.console = Console(inp if inp is not None else StdinLines(), write, write_parts)
        # the handler made once: a bound method made on every scan is heap garbage
        self.on_command = self.command
        self.store = open_store(data_dir, self.event)
        self.cardmap = CardMap(data_dir, game.cards.names)
        self.ref = Referee(self.places, self.store, self.cardmap, self.event, game)
        self.ref.transit_scans = TRANSIT_MS // SCAN_MS
        self.view = View(board.leds, board.led_names, board.locations, self.places, lay)
        board.release_names()  # turned into index tables above: give their heap back
        self.dirty = True
        self.unsettled = False
        self.menu = -1  # the new-game menu's choice (an index of self.choices), -1: closed
        self.shown = self.ref.publish()

    def event(self, obj):
        self.console.emit(obj)
        self.dirty = True
        sound = SOUNDS.get(obj.get("event"))
        if sound:
            self.board.buzzer.play(sound)

    def boot(self):
        b = self.board
        b.scanner.settle(b.scanner.stable + 2)
        # the board as it stands, ranks included (a ranked game resumes from what is read)
        self.ref.sense(b.scanner.state, (), getattr(b.scanner, "band", None))
        self.ref.decide()
        report_boot(self.console, b, self.cardmap, self.data_dir)
        self.ref.resume_from_flash()
        for _ in range(BOOT_POLLS):
            if b.cards.poll() == CARD:
                uid = "".join(["%02x" % x for x in b.cards.uid])
                if self.cardmap.kind(uid) is None:
                    self.ref.on_card(uid)  # not enrolled: said as for any card
                else:
                    self.event({"event": "reject", "reason": "the board restarted with a card "
                                "on the reader: lift it, and tap it again if it is still to be "
                                "played"})
                break

    def step(self, n):
        b = self.board
        sc = b.scanner
        k = sc.scan()
        if k:
            self.ref.sense(sc.state, sc.changed[:k], getattr(sc, "band", None))
            self.unsettled = True
        elif self.unsettled:
            self.unsettled = False
            self.ref.decide()  # the board has been still for a scan
            self.dirty = True
        elif n % READY_EVERY == 0:
            self.store.ready()  # so that no save waits for a sector erase
        if self.ref.transit_left and self.ref.tick():
            self.dirty = True  # a piece stood too long on a space its move passes: refused
        if poll_turn(b.readers, n % NFC_EVERY) >= 0:
            ev = b.cards.event
            if ev == CARD:
                self.ref.on_card("".join(["%02x" % x for x in b.cards.uid]))
            elif ev == TWO_CARDS:
                self.event({"event": "reject", "reason": "two cards on the reader: one at a "
                            "time"})
        now = time.ticks_ms()
        ev = b.confirm.poll(now)
        if ev:
            self.confirm_button(ev)
        ev = b.back.poll(now)
        if self.menu >= 0:
            if ev == PRESS:
                self.menu = -1  # back closes the menu
                self.dirty = True
        elif ev == HOLD:
            if self.ref.pass_turn():
                self.dirty = True
        elif ev == PRESS:
            self.ref.cancel_card()
        self.console.poll(self.on_command)
        b.buzzer.tick(SCAN_MS)
        if self.dirty:
            self.shown = self.menu_shown() if self.menu >= 0 else self.ref.publish()
        if self.dirty or n % BLINK_EVERY == 0:
            self.view.render(self.shown, (n // BLINK_EVERY) % 2 == 0)
            self.dirty = False

    def menu_shown(self):
        # the seat LEDs of the game that holding confirm would start; a ranked game (DOG
        # Royal) lights its board's special spaces as well
        game, players = self.choices[self.menu]
        sh = Shown()
        sh.menu = self.lay.default_seats[players]
        if variant.load(game, self.lay.name).ranked:
            sh.special = [self.places.sensor[t] for t in self.lay.special_spaces]
        return sh

    def unready(self, game):
        """Why this board cannot referee `game` yet, or None. A ranked game reads each piece's
        rank from the bands its calibration measured: without them every piece would read as
        no rank at all, a mismatch everywhere."""
        if game.ranked and not self.board.calib.ranked:
            return ("%s reads each piece's rank: calibrate the board with its pieces first "
                    "(agentboard calibrate)" % game.name)
        return None

    def confirm_button(self, ev):
        # New game with the buttons: with no game running (or after a win) hold confirm to
        # open the menu; each short press goes to the next choice (for each game this board
        # plays, each number of players: 4, 2, 3 on a 4-seat board; the seat LEDs show the
        # seats, a ranked game also its special spaces); holding confirm again starts that
        # game. During a game, a press confirms a move. A hold begins with a press, so the menu
        # counts a press when it is released.
        ref = self.ref
        free = ref.st is None or ref.phase == "game_over"
        if self.menu >= 0:
            if ev == RELEASE and not self.board.confirm.hold_sent:
                self.menu = (self.menu + 1) % len(self.choices)
            elif ev == HOLD:
                game, players = self.choices[self.menu]
                self.menu = -1
                g = variant.load(game, self.lay.name)
                why = self.unready(g)
                if why:
                    self.event({"event": "reject", "reason": why})
                else:
                    ref.start(players, game=g)
            self.dirty = True
        elif ev == HOLD and free:
            self.menu = 0
            self.dirty = True
        elif ev == HOLD:
            ref.undo()  # during a game, outside a move: take the last move back
        elif ev == PRESS:
            ref.confirm()

    def new_game(self, cmd):
        ref = self.ref
        lay = self.lay
        for k in cmd:
            if k not in NEW_GAME_FIELDS:  # a field no game of this board has (mode?)
                return _err("bad_request", "new_game on this board (%s) takes %s; not %r"
                            % (lay.name, ", ".join(NEW_GAME_FIELDS[1:]), k))
        game = cmd.get("game", self.games[0])
        if game not in self.games:
            return _err("bad_request", "game %r: this board (%s) referees %s" % (
                game, lay.name, ", ".join(self.games)))
        players = cmd.get("players")
        counts = [n for g, n in self.choices if g == game]
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
        why = self.unready(g)
        if why:
            return _err("not_calibrated", why)
        ref.start(players, seats, dealer, g)
        self.dirty = True
        return {"ok": True}

    def status(self):
        ref = self.ref
        cr = self.board.cards
        uid = "".join(["%02x" % x for x in cr.uid])
        gc.collect()
        return {"ok": True, "phase": ref.phase, "calibrated": self.board.calibrated,
                "version": deployed_version(self.data_dir),
                "menu_players": self.choices[self.menu][1] if self.menu >= 0 else None,
                "menu_game": self.choices[self.menu][0] if self.menu >= 0 else None,
                "heap_used": gc.mem_alloc(), "heap_free": gc.mem_free(),
                "cards_enrolled": self.cardmap.count(),
                "reader": {"card": uid, "kind": self.cardmap.kind(uid) if uid else None,
                           "errors": cr.errors, "two_cards": cr.collided},
                "faults": [self.board.locations[i] for i in range(self.board.scanner.n)
                           if self.board.scanner.state[i] == 3]}

    def debug(self):
        ref = self.ref
        # what the referee sees right now: sensed classes, touched squares, the move so far
        names = self.board.locations
        sensed = dict((names[i], ref.sensed[i]) for i in range(len(names)) if ref.sensed[i])
        j = ref.judge
        return {"ok": True, "phase": ref.phase, "sensed": sensed,
                "touched": [names[i] for i in range(len(names)) if ref.touched[i]],
                "used": getattr(j, "used", None),
                "burned": [names[i] for i in getattr(j, "burned", [])]}

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
            return self.status()
        if op == "debug":
            return self.debug()
        if op in ("calibrate", "sensors"):
            if ref.st is not None and ref.phase != "game_over":
                # raw readings of a running game would show where pieces stand as finely as a
                # magnet differs from another; re-measuring would disturb the game; and in a
                # game's setup the pieces stand on the board the empty step measures
                return _err("not_now", "a game is running: calibrate before a game, or after "
                            "it (new_game replaces it)")
            from firmware import calibrate
            if op == "sensors":
                return ("sensors", calibrate.sensor_parts(self.board))
            return calibrate.command(self.board, cmd)
        if ref.st is None:
            if op in ("public", "export", "undo"):
                return _err("no_game", "no game yet: start one with new_game")
            return _err("bad_request", "unknown op %r" % (op,))
        if op == "public":
            return {"ok": True, "view": ref.public_view()}
        if op == "export":
            if not self.store.whole():
                return _err("not_now", LOST)
            return ("record", ref.export_parts())
        if op == "undo":
            if ref.undo():
                self.dirty = True
                return {"ok": True}
            return _err("not_now", LOST if not self.store.whole() else
                        "nothing to undo, or a move is under way")
        return _err("bad_request", "unknown op %r" % (op,))


def _err(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


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
