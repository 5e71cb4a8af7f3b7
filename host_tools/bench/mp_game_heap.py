# Runs on MicroPython from a device tree (.mpy firmware and rules core, no simulator) with
# host_tools/bench/stubs first on the path: `micropython -X heapsize=NwK mp_game_heap.py SEED
# PLAYERS`. Plays one whole random game through the real application loop (scanner, referee,
# judge, store, LED view, console), presenting each move to the sensors the way hands make it
# (victim lifted first, Partner 4 segment by segment, then the effects). The hardware is the
# stand-ins' readings array, nothing more, so the heap measured is the firmware's own.
# Prints the turns played; a MemoryError means the heap was too small.
import sys
sys.path.insert(0, "stubs")
sys.path.insert(1, ".")
import gc
import json
import machine
from shared_rules import movegen, split
from shared_rules.apply import apply as rules_apply
from shared_rules.move import Move, count_moves, nth_move
from shared_rules.rng import Rng
from firmware import app as app_mod
from firmware.hal.calibration import MID, NOMINAL_SWING
from firmware.hal.scanner import EMPTY, UP, DOWN

SEED = int(sys.argv[-2] if "-v" not in sys.argv else sys.argv[-3])
PLAYERS = int(sys.argv[-1] if "-v" not in sys.argv else sys.argv[-2])


def wire():
    with open("config/pins.json") as f:
        mux = json.load(f)["mux"]
    for b in range(len(mux["select"])):
        machine.SELECT[mux["select"][b]] = b
    for m in range(len(mux["adc"])):
        machine.ADC_PINS[mux["adc"][m]] = m
    with open("config/sensors.json") as f:
        sensors = json.load(f)["sensors"]
    for i in range(len(sensors)):
        machine.SENSOR_AT[sensors[i]["mux"] * 16 + sensors[i]["channel"]] = i


wire()
gc.collect()


class NoInput:
    def poll(self):
        return None


app = app_mod.App("config", ".", write=lambda line: None, inp=NoInput())
app.boot()
ref = app.ref
places = app.places
lay = app.lay
cards = ref.cards
uid_of = {}
for j in range(len(cards.names)):
    uid_of[j] = None
with open("cards.json") as f:
    while True:
        line = f.readline()
        if not line:
            break
        u, kind = json.loads(line)
        k = cards.index[kind]
        if uid_of[k] is None:
            uid_of[k] = u
level = {EMPTY: MID, UP: MID + NOMINAL_SWING, DOWN: MID - NOMINAL_SWING}
exp = bytearray(places.n)
counts = bytearray(lay.ncol)
n = [0]


def show(st, held=()):
    """The sensors read position st (pieces in `held` are in a hand)."""
    places.expected(st, exp, counts)
    for i in range(places.n):
        e = exp[i]
        machine.READINGS[i] = level[e] if e != 255 else MID
    for c in range(lay.ncol):
        k = counts[c] if counts[c] != 255 else 4
        for s in places.spots[c][:k]:
            machine.READINGS[s] = level[UP]
    for p in held:
        loc = st.pos[p]
        if loc < lay.nboard:
            machine.READINGS[places.sensor[loc]] = MID
    for _ in range(app.board.scanner.stable + 2):
        app.step(n[0])
        n[0] += 1


def truth(st):
    """Which colour stands where, hidden colours included (pieces of one colour are alike)."""
    out = {}
    for p in range(lay.npieces):
        if st.pos[p] < lay.nboard:
            out[st.pos[p]] = p // lay.ppc
    return out


def put(st, p, loc):
    q = st.at(loc)
    if q >= 0:
        st.put(q, lay.start_area(q // lay.ppc))
    st.put(p, loc)


rng = Rng(SEED)
st = ref.start(PLAYERS) or ref.st
show(st)
assert ref.phase == "await_card", ref.phase
turns = 0
while turns < 3000:
    st = ref.st
    seat = st.to_move
    playable = [k for k in range(len(cards.names)) if movegen.any_move(st, k)]
    if not playable:
        assert ref.pass_turn()
    else:
        k = playable[rng.below(len(playable))]
        mv = nth_move(st, k, rng.below(count_moves(st, k)))
        ref.on_card(uid_of[k])
        assert ref.phase == "await_move", ref.phase
        work = st.copy()
        if mv.act == movegen.SWAP:
            show(work, (mv.a, mv.b))
            la = work.pos[mv.a]
            lb = work.pos[mv.b]
            work.put(mv.a, lay.start_area(0))
            work.put(mv.b, la)
            work.put(mv.a, lb)
            show(work)
        elif mv.act == movegen.STEPS:
            q = work.at(mv.b)
            if q >= 0:
                show(work, (q,))  # the victim off first
            put(work, mv.a, mv.b)
            show(work)
        else:
            sp = split.Split(st, st.plays(seat))
            total = cards.steps[movegen.effective(st, k)][0]
            steps = split.unpack(mv.a, total)
            i = 0
            while i < len(steps):
                p = steps[i][0]
                ahead = work.copy()  # where this segment goes and whom it burns
                j = i
                burned = []
                while j < len(steps) and steps[j][0] == p:
                    d = split.dest(ahead, sp, p, steps[j][1])
                    q = split.step(ahead, p, d)
                    if q >= 0:
                        burned.append(q)
                    j += 1
                if burned:
                    show(work, burned)  # burned pieces come off first, as hands do it
                work = ahead
                i = j
                show(work)
        if ref.phase == "await_move":
            ref.confirm()
        new, _ = rules_apply(st, mv)
        show(new)  # the effects, carried out
        assert ref.phase != "await_effect", ref.diffs
        if truth(ref.st) != truth(new):
            raise AssertionError("the referee's game differs from the move played: %r %r" % (
                truth(ref.st), truth(new)))
    turns += 1
    if turns in (50, 400, 800) and "-v" in sys.argv:
        gc.collect()
        print(turns, gc.mem_alloc(), len(ref.turns))
    if ref.phase == "game_over":
        break
gc.collect()
print(json.dumps({"turns": turns, "heap_used": gc.mem_alloc()}))
