# Runs on MicroPython from a device tree built with the simulator:
#   micropython mp_latency.py N
# plays red's opening 5 (0 -> 5) on the simulated board and prints the board time from the
# last placement to the accepted move, split into the scanner's debounce and the quiet scan.
# With N = 2 the accepting decision is taken once more (position restored first), so callgrind
# counts of N = 2 and N = 1 differ by the processing of one accepted move.
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import json
from host_tools.sim.world import World
from firmware import app as app_mod

N = int(sys.argv[1])
w = World(1)
uid = w.card_of_kind("5")
with open("cards.json", "w") as f:
    f.write(json.dumps([uid, "5"]) + "\n")
events = []


class NoInput:
    def poll(self):
        return None


a = app_mod.App("hardware", ".", write=lambda line: events.append((w.clock_us, line)),
                inp=NoInput())
a.boot()
ref = a.ref
ref.start(4)
for c, s in (("red", 0), ("blue", 16), ("green", 32), ("yellow", 48)):
    w.place(w.lift(c + ":s4"), str(s))
n = 0


def run_until(cond, limit=400):
    global n
    for _ in range(limit):
        t0 = w.clock_us
        a.step(n)
        n += 1
        spent = w.clock_us - t0
        if spent < app_mod.SCAN_MS * 1000:
            w.advance_us(app_mod.SCAN_MS * 1000 - spent)  # as app.main paces the loop
        if cond():
            return
    raise SystemExit("timed out")


run_until(lambda: ref.phase == "await_card")
w.card(uid)
run_until(lambda: ref.phase == "await_move")
w.card_off()
pre = (ref.st, ref.judge, ref.card)
w.place(w.lift("0"), "5")
t_place = w.clock_us
reported = []
real_sense = ref.sense


def sense(sensed, changed):
    reported.append(w.clock_us)
    real_sense(sensed, changed)


ref.sense = sense
run_until(lambda: ref.phase != "await_move")
t_move = [t for t, line in events if '"move"' in line][0]
for _ in range(N - 1):
    # the same decision again: back to the moment before it
    ref.st, ref.judge, ref.card = pre
    ref.phase = "await_move"
    ref.decide()
print(json.dumps({"debounce_ms": (reported[-1] - t_place) / 1000.0,
                  "quiet_ms": (t_move - reported[-1]) / 1000.0,
                  "total_ms": (t_move - t_place) / 1000.0}))
