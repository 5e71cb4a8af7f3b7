# The track games' application (Agent DOG, DOG, DOG Royal): the board's one loop
# (firmware/loop.py) over the track referee and its LED view, with the new-game menu of the
# games this board's layout plays and the console ops only these boards have.
from firmware import ondemand
from firmware.loop import App as Loop, run, print_line
from firmware.hal.mfrc522 import CARD, TWO_CARDS
from firmware.hal.buttons import PRESS, HOLD
from firmware.games.track.move_lights import Shown

# the modules of this App's set-up at power-up, and of its menu's start and its own console
# ops (OPS)
SETUP = "firmware.games.track.setup"
OPS_MODULE = "firmware.games.track.ops"
DEFAULT_LAYOUT = "agent-dog-4"  # a board whose config names no layout is the Agent DOG board
NEW_GAME_FIELDS = ("op", "game", "players", "seats", "dealer")
SOUNDS = {"move": "accept", "reject": "reject", "win": "win", "mismatch": "fault",
          "fault": "fault", "effect": "effect", "turn": "turn", "draw": "effect"}


def _uid(reader):
    return "".join(["%02x" % x for x in reader.uid])


TYPE_CHECKING = False  # the type checker's alone (pyright reads any TYPE_CHECKING as true)
if TYPE_CHECKING:
    from shared_rules.layout import Layout
    from firmware.games.track.places import Places


class App(Loop):
    SOUNDS = SOUNDS
    # what setup.setup makes (annotations only: no code, no heap on a board)
    lay: "Layout"
    places: "Places"
    ranked_games: list  # the board's games whose pieces carry ranks (their menu lights more)

    # set-up, the menu's start and the console's own ops run rarely: their code is in SETUP and
    # OPS_MODULE, imported for each call and dropped after it (firmware/ondemand.py), not kept
    # in the heap
    def setup(self, config_dir):
        ondemand.call(SETUP, "setup", self, config_dir)

    def cards_at_boot(self):
        ondemand.call(SETUP, "cards_at_boot", self)

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
        ondemand.call(OPS_MODULE, "start_choice", self, choice)

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
        if game in self.ranked_games:
            sh.special = [self.places.sensor[t] for t in self.lay.special_spaces]
        return sh

    # the console ops only these boards have, OPS_MODULE's functions (firmware/loop.py
    # COMMON_OPS: every board's; NEED_GAME: the ops that need a game)
    OPS = ("new_game", "status", "debug", "undo")
    OPS_MODULE = OPS_MODULE


def main(config_dir="config", data_dir=".", max_scans=-1, write=print_line, inp=None,
         write_parts=None):
    run(App, config_dir, data_dir, max_scans, write, inp, write_parts)
