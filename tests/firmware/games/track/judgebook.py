# The judge (firmware/judge.py) on sensed arrays: a position written the way the protocol writes
# it, the board as the sensors read it then, and hands that lift and put pieces one sensor at a
# time. No pytest here: tests/firmware/games/track/test_judge.py runs every scenario on CPython and
# tests/mp/judge_tests.py the same ones on the MicroPython unix port (no f-strings, no
# CPython-only modules). Every expected verdict is counted from the rules and the judge's
# contract (its module comment): the test writes it, never reads it off the judge.
import json

from shared_rules import position as positions
from shared_rules.notation import to_json
from firmware.games.track import judge, judging
from firmware.games.track.places import Places
from firmware.hal.scanner import EMPTY, UP, DOWN, NO_BAND

# the boards' sensor maps, by game (the ranked games on the 4-seat DOG board)
SENSORS = {"agent-dog": "hardware/sensors.json", "dog": "hardware/variants/dog-4/sensors.json",
           "dog-royal": "hardware/variants/dog-4/sensors.json"}
VERDICTS = {judging.WAIT: "wait", judging.DONE: "done", judging.AMBIGUOUS: "ambiguous",
            judging.ILLEGAL: "illegal", judging.RESTING: "resting",
            judging.WRONG_RANK: "wrong_rank"}
_HERE = "tests/firmware/games/track/judgebook.py"
_INDEX = {}


def root():
    """The repository root, from where this file lies (pytest imports it by an absolute path,
    the MicroPython runner from the root by a relative one)."""
    here = __file__
    if here.endswith(_HERE):
        here = here[:-len(_HERE)]
    return here.rstrip("/") or "."


def sensor_index(game):
    """Location name -> sensor index on the board the game is played on."""
    path = SENSORS[game]
    if path not in _INDEX:
        with open(root() + "/" + path) as f:
            names = [s["loc"] for s in json.load(f)["sensors"]]
        _INDEX[path] = dict((names[i], i) for i in range(len(names)))
    return _INDEX[path]


class Scene:
    """A card played on position `pos` (a protocol POSITION) and the board as sensed from then
    on: every piece where the position puts it (a start area filled from its first spot, in
    rank order), each reading its rank band in a ranked game; nothing touched yet."""

    def __init__(self, pos, card):
        self.st = positions.parse(pos)
        st = self.st
        lay = st.lay
        self.index = sensor_index(pos.get("game", "agent-dog"))
        self.places = Places(lay, self.index)
        n = self.places.n
        self.sensed = bytearray(n)
        self.bands = bytearray(bytes([NO_BAND]) * n)
        self.touched = bytearray(n)
        filled = [0] * lay.ncol
        for p in range(lay.npieces):
            c = p // lay.ppc
            loc = st.pos[p]
            if loc < lay.nboard:
                i = self.places.sensor[loc]
                self.sensed[i] = DOWN if st.undercover(p) else UP
            elif c in st.seats:
                i = self.places.spots[c][filled[c]]
                filled[c] += 1
                self.sensed[i] = UP
            else:
                continue
            if st.game.ranked:
                self.bands[i] = p % lay.ppc
        self.card = card
        self.judge = judge.for_card(st, st.game.cards.index[card], self.places)

    def at(self, name):
        """The sensor of a location name: "5", "red:h1", "blue:s2"."""
        return self.index[name]

    def lift(self, name):
        i = self.at(name)
        assert self.sensed[i] != EMPTY, "nothing to lift at %s" % name
        self.sensed[i] = EMPTY
        self.bands[i] = NO_BAND
        self.touched[i] = 1
        return self

    def put(self, name, rank=NO_BAND, cls=UP):
        """A piece put down at name, upright (cls DOWN: on a hole, undercover), reading rank."""
        i = self.at(name)
        assert self.sensed[i] == EMPTY, "%s is not free" % name
        self.sensed[i] = cls
        self.bands[i] = rank
        self.touched[i] = 1
        return self

    def verdict(self):
        """What the judge makes of the board now, by name (VERDICTS)."""
        return VERDICTS[self.judge.judge(self.sensed, self.touched, self.bands)]

    def move(self):
        """The move the judge took, as the protocol writes it (the card's name, a path of
        [from, to] or a swap of two locations), or None."""
        if self.judge.move is None:
            return None
        return to_json(self.st, self.judge.move)

    def bad(self):
        """The location names the judge asks to be put right."""
        return sorted(self.places.name(i) for i in self.judge.bad)

    def passing(self):
        """Whether the judge sees a legal move under way with its piece resting on a space that
        move passes, on the squares it asks to put right (as the referee asks it before it
        refuses a board: a hand carrying the piece on, or a placement if it stays)."""
        return self.judge.in_transit(self.sensed, self.judge.bad)
