# The track games' application (Agent DOG, DOG, DOG Royal): the board's one loop
# (firmware/loop.py) over the track referee and its LED view, with the new-game menu of the
# games this board's layout plays and the console ops only these boards have.
import gc

from shared_rules import variant
from firmware.loop import App as Loop, SCAN_MS, BOOT_POLLS, run, print_line
from firmware.loop import err as _err
from firmware.console import deployed_version
from firmware.store import LOST
from firmware.cardmap import CardMap
from firmware.hal.mfrc522 import CARD, TWO_CARDS
from firmware.hal.buttons import PRESS, HOLD
from firmware.games.track.places import Places
from firmware.games.track.referee import Referee, TRANSIT_MS
from firmware.games.track.view import View
from firmware.games.track.move_lights import Shown

DEFAULT_LAYOUT = "agent-dog-4"  # a board whose config names no layout is the Agent DOG board
NEW_GAME_FIELDS = ("op", "game", "players", "seats", "dealer")
SOUNDS = {"move": "accept", "reject": "reject", "win": "win", "mismatch": "fault",
          "fault": "fault", "effect": "effect", "turn": "turn", "draw": "effect"}


def _uid(reader):
    return "".join(["%02x" % x for x in reader.uid])


class App(Loop):
    SOUNDS = SOUNDS

    def setup(self, config_dir):
        info = getattr(self.board, "variant", None) or {}
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
        b = self.board
        self.places = Places(lay, b.index)
        self.cardmap = CardMap(self.data_dir, game.cards.names)
        self.ref = Referee(self.places, self.store, self.cardmap, self.event, game)
        self.ref.transit_scans = TRANSIT_MS // SCAN_MS
        self.view = View(b.leds, b.led_names, b.locations, self.places, lay)

    def cards_at_boot(self):
        # a card lying on the reader at power-up may be the card of a move saved just before
        # the cut, so it is never played until lifted and tapped again
        b = self.board
        for _ in range(BOOT_POLLS):
            if b.cards.poll() == CARD:
                uid = _uid(b.cards)
                if self.cardmap.kind(uid) is None:
                    self.ref.on_card(uid)  # not enrolled: said as for any card
                else:
                    self.event({"event": "reject", "reason": "the board restarted with a card "
                                "on the reader: lift it, and tap it again if it is still to be "
                                "played"})
                break

    def sensed(self, k):
        sc = self.board.scanner
        self.ref.sense(sc.state, sc.changed[:k], getattr(sc, "band", None))

    def each_scan(self):
        if self.ref.transit_left and self.ref.tick():
            self.dirty = True  # a piece stood too long on a space its move passes: refused

    def card_event(self, j, ev):
        if ev == CARD:
            self.ref.on_card(_uid(self.board.readers[j]))
        elif ev == TWO_CARDS:
            self.event({"event": "reject", "reason": "two cards on the reader: one at a time"})

    def start_choice(self, choice):
        game, players = choice
        g = variant.load(game, self.lay.name)
        why = self.unready(g)
        if why:
            self.event({"event": "reject", "reason": why})
        else:
            self.ref.start(players, game=g)

    def game_button(self, ev):
        if ev == HOLD:
            self.ref.undo()  # during a game, outside a move: take the last move back
        elif ev == PRESS:
            self.ref.confirm()

    def back_button(self, ev):
        if ev == HOLD:
            if self.ref.pass_turn():
                self.dirty = True
        elif ev == PRESS:
            self.ref.cancel_card()

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

    def status(self, cmd):
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

    def debug(self, cmd):
        ref = self.ref
        # what the referee sees right now: sensed classes, touched squares, the move so far
        names = self.board.locations
        sensed = dict((names[i], ref.sensed[i]) for i in range(len(names)) if ref.sensed[i])
        j = ref.judge
        return {"ok": True, "phase": ref.phase, "sensed": sensed,
                "touched": [names[i] for i in range(len(names)) if ref.touched[i]],
                "used": getattr(j, "used", None),
                "burned": [names[i] for i in getattr(j, "burned", [])]}

    def undo(self, cmd):
        if self.ref.undo():
            self.dirty = True
            return {"ok": True}
        return _err("not_now", LOST if not self.store.whole() else
                    "nothing to undo, or a move is under way")

    # the console ops only these boards have, the methods above (firmware/loop.py COMMON_OPS:
    # every board's; NEED_GAME: the ops that need a game)
    OPS = ("new_game", "status", "debug", "undo")


def main(config_dir="config", data_dir=".", max_scans=-1, write=print_line, inp=None,
         write_parts=None):
    run(App, config_dir, data_dir, max_scans, write, inp, write_parts)
