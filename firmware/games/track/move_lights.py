# What the LEDs show while a card is in play: the pieces that may move and, for a lifted one,
# where it may be put down, each target with its kind. The referee works this out when the
# card is played and, for the Partner 4, again after each segment the players complete; a
# lifted piece's targets once per lift. Never on a redraw: listing a crowded Partner 4's
# outcomes costs up to 180 M instructions (1.8 s on an ESP32) and the LEDs are redrawn up to
# five times a second. Built from the rules core's hints, which are colour-blind; held in
# sensor indices, so a redraw only copies them to the strip.
from shared_rules.hints import hints, segment_movable, segment_ends
from firmware.hal.scanner import EMPTY

TARGET = 0  # an empty space
KNOCK = 1   # a space with a piece on it, which the move knocks out
HOME = 2    # a home space
MEET = 3    # a meeting point


class MoveLights:
    """movable: sensors of the pieces on the board that may move; areas: colours whose start
    area holds a piece that may come into play; lifted: the sensor of the movable piece now
    off the board (-1: none); targets: [(sensor, kind)] of the lifted piece."""

    def __init__(self, places=None, board_now=None, movable=()):
        self.places = places
        self.board_now = board_now  # the position as it stands (what a target knocks out)
        self.movable = []
        self.areas = []
        self.lifted = -1
        self.targets = []
        self.loc_of = {}  # sensor -> location of each movable piece on the board
        self._known = {}   # sensor -> [(sensor, kind)] worked out so far
        if places is not None:
            self._sort(movable)

    # A card tap, and every judged board of its move, calls these: they keep their frames
    # within MicroPython's 11 words (docs/measuring.md, "Frames"), or each call would allocate
    # its frame on the heap
    def _sort(self, movable):
        # the movable pieces' locations into sensors on the board and colours of start areas
        nboard = self.board_now.lay.nboard
        # (over a range: a for loop over the list, and the frame would go to the heap)
        for k in range(len(movable)):
            loc = movable[k]
            if loc < nboard:
                i = self.places.sensor[loc]
                self.movable.append(i)
                self.loc_of[i] = loc
            else:
                i = loc - nboard  # the colour whose start area holds it
                self.areas.append(i)

    def follow(self, sensed, touched):
        """After the board settled: which movable piece is lifted, and its targets."""
        lifted = self._lifted(sensed, touched)
        self.lifted = lifted
        if lifted < 0:
            self.targets = []
            return
        t = self._known.get(lifted)
        if t is None:
            t = self._kinds(self.ends(self.loc_of[lifted]))
            self._known[lifted] = t
        self.targets = t

    def _lifted(self, sensed, touched):
        # the sensor of the first movable piece lifted (-1: none)
        for i in self.movable:
            if sensed[i] == EMPTY and touched[i]:
                return i
        return -1

    def ends(self, loc):
        """Where the piece on loc may go (locations); overridden per kind of card."""
        return []

    def _kinds(self, ends):
        lay = self.board_now.lay
        out = []
        for to in ends:
            if to >= lay.nboard:
                continue
            if lay.is_home(to):
                kind = HOME
            elif self.board_now.board[to]:
                kind = KNOCK
            elif lay.meeting[to]:
                kind = MEET
            else:
                kind = TARGET
            out.append((self.places.sensor[to], kind))
        return out


class CardLights(MoveLights):
    """An ordinary card or a swap: the rules core's hints, listed once when it is played
    (found given: (movable, targets) a walk of the card's moves already collected)."""

    def __init__(self, places, st, k, found=None):
        if found is None:
            found = hints(st, k)
        self._targets = found[1]
        # (found goes on as the movable pieces' locations: a name more, or found[0] within the
        # call, and this frame would go to the heap)
        found = found[0]
        MoveLights.__init__(self, places, st, found)

    def ends(self, loc):
        return self._targets.get(loc, [])


class SegmentLights(MoveLights):
    """The Partner 4's next segment, from the position the players made (work) with `left`
    steps to go: movable pieces at once, a lifted piece's ends when it is lifted."""

    def __init__(self, places, work, sp, left):
        self.sp = sp
        self.left = left
        movable = segment_movable(work, sp, left)
        MoveLights.__init__(self, places, work, movable)

    def ends(self, loc):
        out = []
        segment_ends(self.board_now, self.sp, self.board_now.at(loc), self.left, out.append)
        return out


NONE = MoveLights()


# What the players are shown: a small model the referee publishes after every change, from
# public information only; the LED view draws from it alone, never from the referee's working
# buffers (the sensed board, what was touched, the judge). Here, not in a module of its own:
# every track board loads both, and a module costs heap of its own.
class Shown:
    # a kind with nothing lit is one empty tuple, a list where the referee fills it in
    # (annotations only: no code, no heap on a board)
    spots: "list | tuple"
    steps: "list | tuple"
    todo: "list | tuple"
    bad: "list | tuple"
    special: "list | tuple"

    def __init__(self):
        self.seat = -1         # colour index of the seat to move (-1: no game)
        self.lights = NONE  # the card in play: movable pieces, a lifted one's targets
        self.spots = []        # start-area spots lit as movable (pieces that may come into play)
        self.steps = []        # the mover's start-area spots that count Partner 4 steps left
        self.todo = []         # [(sensor, what)]: squares to change (places.PUT, TAKE, ...)
        self.bad = []          # sensors of a placement no legal move explains (blinking)
        self.accepted = -1     # sensor of the move just accepted (-1: none)
        self.draw = -1         # colour index of the seat that must draw a card (-1: none)
        self.special = []      # sensors lit to show a game's special spaces (the new-game menu)
        self.menu = None       # the new-game menu's seats (colour indices), or None
