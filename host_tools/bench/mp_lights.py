# Runs on MicroPython from the bench's device tree: `micropython mp_lights.py CASE MODE N`.
# The referee and the LED view (firmware code, as .mpy) on one position of positions.json,
# the board sensed as that position implies:
#   tap      N times: the case's card tapped, up to the first hint LEDs written (the referee
#            works out the lights; one redraw)
#   redraw   the card tapped and a movable piece lifted, then N redraws, each changing LEDs
#   lift     N times: a movable piece lifted (judged, its targets lit) and put back
#            (redraw and lift do nothing more than the tap when only pieces waiting in a
#            start area may move)
#   segment  N times: the card tapped, then a first segment put down (Partner 4: judged, and
#            the next segment's lights worked out); minus `tap` that is the segment's cost
# Prints what was lit, so the figures can be read against the position.
import sys
import json

from shared_rules import position
from firmware.games.track.places import Places
from firmware.games.track.referee import Referee
from firmware.gamelog import Store
from firmware.cardmap import CardMap
from firmware.games.track.view import View
from firmware.hal.leds import Strip
from firmware.hal.scanner import EMPTY, UP, DOWN

case = json.load(open("positions.json"))[sys.argv[1]]
mode = sys.argv[2]
repeat = int(sys.argv[3])
st = position.parse(case["position"])
LAY = st.lay
# the maps of the board this position is played on (config/ holds hardware/: the board
# variant named like the layout says where its maps are)
with open("config/variants/%s/variant.json" % LAY.name) as f:
    MAPS = "config/variants/%s/%s" % (LAY.name, json.load(f).get("maps", "."))
sensors = json.load(open(MAPS + "/sensors.json"))["sensors"]
NAMES = [s["loc"] for s in sensors]
INDEX = {}
for i in range(len(NAMES)):
    INDEX[NAMES[i]] = i
LEDS = json.load(open(MAPS + "/leds.json"))["leds"]


class Pixels:
    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def write(self):
        pass


places = Places(LAY, INDEX)
ref = Referee(places, Store("."), CardMap(".", st.game.cards.names), lambda ev: None, st.game)
UID = "04a1b2c3d4e5f6"
ref.cardmap._put(bytes([int(UID[j:j + 2], 16) for j in range(0, 14, 2)]), case["card"])
ref.st = st
ref.header = {"players": st.players}
view = View(Strip(Pixels(len(LEDS))), LEDS, NAMES, places, LAY)
sensed = bytearray(places.n)
exp = bytearray(places.n)
counts = bytearray(LAY.ncol)
bands = bytearray(places.n)  # the rank each sensor reads (a ranked game's pieces show theirs)
places.expected(st, exp, counts, bands)
for i in range(places.n):
    sensed[i] = exp[i] if exp[i] != 255 else EMPTY
for c in range(LAY.ncol):
    for k in range(min(counts[c], LAY.ppc) if counts[c] != 255 else LAY.ppc):
        sensed[places.spots[c][k]] = UP


def on_board(changed):
    ref.sense(sensed, changed, bands)
    ref.decide()


ref.phase = "await_card"
on_board(())


def tap():
    ref.st = st
    ref.phase = "await_card"
    ref.card = -1
    for i in range(places.n):
        ref.touched[i] = 0
    ref.on_card(UID)
    view.render(ref.publish(), True)


def first_segment():
    # the first movable piece on the board, put down on its first lit empty target
    lit = ref.lights
    for i in lit.movable:
        for to in lit.ends(lit.loc_of[i]):
            if to < LAY.nboard and not st.board[to]:
                return i, places.sensor[to], to
    raise SystemExit("no segment to put down in this position")


if mode == "tap":
    for _ in range(repeat):
        tap()
elif mode in ("redraw", "lift") and (tap() or not ref.lights.movable):
    pass  # only pieces waiting in a start area may move: none on the board to lift
elif mode == "redraw":
    # a piece lifted, then redraws that alternate its targets on and off: every redraw
    # changes LEDs (a redraw with nothing new is cheaper still)
    i = ref.lights.movable[0]
    sensed[i] = EMPTY
    on_board((i,))
    shown = ref.lights.targets
    for j in range(repeat):
        ref.lights.targets = shown if j % 2 else []
        view.render(ref.publish(), True)
    ref.lights.targets = shown
elif mode == "lift":
    # N times: a movable piece lifted (judged, its targets worked out, drawn), put back
    i = ref.lights.movable[0]
    was = sensed[i]
    for _ in range(repeat):
        ref.lights._known = {}
        sensed[i] = EMPTY
        on_board((i,))
        view.render(ref.publish(), True)
        sensed[i] = was
        on_board((i,))
        view.render(ref.publish(), True)
    sensed[i] = EMPTY
    on_board((i,))
elif mode == "segment":
    for _ in range(repeat):
        tap()
        a, b, to = first_segment()
        was_a = sensed[a]
        was_b = sensed[b]
        sensed[a] = EMPTY
        sensed[b] = DOWN if to < LAY.n and LAY.hole[to] else UP
        on_board((a, b))
        view.render(ref.publish(), True)
        sensed[a] = was_a
        sensed[b] = was_b
lit = ref.lights
print(json.dumps({"movable": len(lit.movable) + len(lit.areas), "on_board": len(lit.movable),
                  "lifted_targets": len(lit.targets),
                  "steps_left": ref.judge.left() if ref.judge else 0, "phase": ref.phase}))
