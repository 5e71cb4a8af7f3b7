# Runs on MicroPython from a device tree (.mpy):  micropython mp_avenue_board_game.py SEED MODE G B
# A whole Agent Avenue game through the board's referee (firmware/games/avenue: pads, pawns, buttons as
# the application hands them over, the store on flash, the LEDs drawn after every decision) with
# the rules core's random players choosing. No simulated hardware: the heap holds the firmware,
# its game, and the players' small table. Prints decisions and gc.mem_alloc's peak.
import sys
sys.path.insert(0, ".")
import gc
import json
import os

from firmware.gamelog import Store
from firmware.cardmap import CardMap
from firmware.hal.leds import Strip
from firmware.games.avenue import referee as R
from firmware.games.avenue.lights import Lights
from shared_rules.avenue import randgame
from shared_rules.avenue.apply import apply
from shared_rules.avenue import move as M
from shared_rules.avenue.tables import NONE
from shared_rules.rng import Rng

SEED = int(sys.argv[1])
ADVANCED = sys.argv[2] == "advanced"
SEATS = (int(sys.argv[3]), int(sys.argv[4]))
COPIES = 8  # sticker slots per card kind (the most copies of a kind is 6)
LEDS = [str(i) for i in range(14)] + ["seat:green-0", "seat:green-1", "seat:blue-0",
                                      "seat:blue-1", "reader:up", "reader:down", "reader:tap"]


class Pixels:
    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n

    def __len__(self):
        return self.n

    def write(self):
        pass


for f in ("game.log", "cards.json"):
    try:
        os.remove(f)
    except OSError:
        pass
tb = R.tables.load()
kinds = R.card_kinds(tb)
cards = CardMap(".", kinds)
for k in range(len(kinds)):
    for c in range(COPIES):
        cards._put(bytes([4, 0, 0, 0, 0, k, c]), kinds[k])


def uid(kind, copy=0):
    return "0400000000%02x%02x" % (kind, copy)


events = [0]


def emit(obj):
    events[0] += 1
    json.dumps(obj)  # the console's work, without keeping the line


ref = R.Referee(Store("."), cards, emit, bytes([1, 2]), tb.spaces)
lights = Lights(Strip(Pixels(len(LEDS))), LEDS, tb.spaces)
del LEDS
board = bytearray(tb.spaces)


def sense():
    st = ref.st
    for i in range(tb.spaces):
        board[i] = 0
    if st.pawns[0] != st.pawns[1]:
        board[st.pawns[0]] = 1
        board[st.pawns[1]] = 2
    ref.sense(board)
    ref.decide()
    lights.render(ref.publish(), True)


rng, table, st0 = randgame.start(tb, SEED, ADVANCED, SEATS)
ref.start("advanced" if ADVANCED else "simple", SEATS, st0.active,
          list(table.offer) if ADVANCED else None)
sense()
peak = 0
n = 0


def light(seat):
    if ref.seat != seat:
        ref.confirm()


while ref.st.winner < 0:
    st = ref.st
    mv = randgame.choose(st, table, rng)
    table.follow(apply(st, mv)[1])  # the players draw what the rules say
    before = ref.offsets.n
    if mv.kind == M.DISCARD:
        light(mv.seat)
        ref.on_pad(R.TAP, uid(table.discarded[-1]))
        ref.on_pad_off(R.TAP)
    elif mv.kind == M.PLAY:
        light(mv.up_seat)
        ref.on_pad(R.UP, uid(mv.up))
        if mv.forced:
            ref.hold_confirm()
        ref.on_pad(R.DOWN, uid(mv.down, 1))
    elif mv.kind == M.RECRUIT:
        first, second = (R.UP, R.DOWN) if mv.take == M.TAKE_UP else (R.DOWN, R.UP)
        ref.on_pad_off(first)
        ref.on_pad_off(second)
    else:
        light(mv.seat)
        ref.on_pad(R.TAP, uid(len(tb.agent_names) + mv.card))
        ref.on_pad_off(R.TAP)
        if mv.refill != NONE:
            ref.on_pad(R.TAP, uid(len(tb.agent_names) + mv.refill))
            ref.on_pad_off(R.TAP)
        needs = tb.needs[mv.card]
        if "top" in needs or "agent" in needs:
            if mv.agent == NONE:
                ref.back()
            else:
                ref.on_pad(R.TAP, uid(mv.agent, 2))
                ref.on_pad_off(R.TAP)
                if "again" in needs:
                    if mv.again:
                        ref.on_pad(R.TAP, uid(mv.agent, 2))
                        ref.on_pad_off(R.TAP)
                    else:
                        ref.back()
    if ref.offsets.n != before + 1:
        raise SystemExit("the referee did not take decision %d (%s)" % (n, M.KINDS[mv.kind]))
    sense()
    n += 1
    a = gc.mem_alloc()
    if a > peak:
        peak = a
print(json.dumps({"decisions": n, "peak": peak, "events": events[0]}))
