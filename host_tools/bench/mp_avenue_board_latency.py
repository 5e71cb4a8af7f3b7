# Runs on MicroPython from a device tree built with the simulator:
#   micropython mp_avenue_board_latency.py N
# On the simulated Agent Avenue board, green plays an Enforcer face up and the Mole face down;
# blue takes the Mole off its pad, then green takes the Enforcer: the last action of the turn.
# Prints the board time from that lift to the LED frame that shows where the pawns must go
# (green 0 -> 1, blue 7 -> 4), split into noticing the empty pad and the rest. With N = 2 the
# processing of the recruit (the referee's decision and the LED redraw, the frame written to
# the strip) runs N - 1 times more from the same state, so callgrind counts of N and 1 differ
# by N - 1 such processings; mp_window.py keeps the simulator's work out of the count.
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import json
import os
import mp_window
from host_tools.games.avenue.world import AvenueWorld
mp_window.exclude_hardware()  # before the firmware binds a name of the stand-ins
from firmware import loop
from firmware.games.avenue import app as app_mod
from firmware.games.avenue import referee as R

N = int(sys.argv[1])
CONFIG = "hardware/variants/agent-avenue"
w = AvenueWorld(1, CONFIG)
up = [u for u, k in w.deck if k == "enforcer"][0]
down = [u for u, k in w.deck if k == "mole"][0]
with open("cards.json", "w") as f:
    f.write(json.dumps([up, "enforcer"]) + "\n")
    f.write(json.dumps([down, "mole"]) + "\n")
open("game.log", "w").close()  # a fresh flash, the same way whatever an earlier run left
os.remove("game.log")
events = []


class NoInput:
    def poll(self):
        return None


a = app_mod.App(CONFIG, ".", write=lambda line: events.append((w.clock_us, line)),
                inp=NoInput())
a.boot()
ref = a.ref
ref.start("simple", (1, 1), 0)
n = 0


def run_until(cond, limit=600):
    global n
    for _ in range(limit):
        t0 = w.clock_us
        a.step(n)
        n += 1
        spent = w.clock_us - t0
        if spent < loop.SCAN_MS * 1000:
            w.advance_us(loop.SCAN_MS * 1000 - spent)  # as main paces the loop
        if cond():
            return
    raise SystemExit("timed out")


run_until(lambda: ref.phase == "play")
w.card(up, "up")
w.card(down, "down")
run_until(lambda: ref.phase == "recruit")
w.card_off("down")
run_until(lambda: ref.taken == R.DOWN)
# what the recruit's processing starts from, to run it again (N = 2)
saved = (ref.st, ref.pad[R.UP], ref.pad_kind[R.UP], bytes(a.view.shown))
strip = a.view.strip  # and the strip with its bytes: each repeat writes the frame again
strip_before = (mp_window.state_of(strip), mp_window.state_of(strip.np))
t_lift = w.clock_us
w.card_off("up")
t_decided = [0]
real_off = ref.on_pad_off


def on_off(r):
    if not t_decided[0]:
        t_decided[0] = w.clock_us
    real_off(r)


ref.on_pad_off = on_off


def shown():
    # the frame that shows the moves: spaces 0 and 7 red (the pawns leave them)
    c = w.led_colours
    r0 = c.get("0", [0, 0, 0])
    r7 = c.get("7", [0, 0, 0])
    return r0[0] > 0 and r0[1] == 0 and r0[2] == 0 and r7[0] > 0 and r7[1] == 0 and r7[2] == 0


run_until(shown)
t_leds = w.clock_us
expected = [str(i) for i in ref.diff]
ref.on_pad_off = real_off


def back_to_before():
    ref.st, ref.pad[R.UP], ref.pad_kind[R.UP], shown_before = saved
    ref.taken = R.DOWN
    ref.played[R.UP] = saved[1]
    ref.moving = False
    ref.diff = []
    a.view.shown[:] = shown_before
    mp_window.restore(strip, strip_before[0])
    mp_window.restore(strip.np, strip_before[1])


def again():
    ref.on_pad_off(R.UP)
    a.view.render(ref.publish(), True)


mp_window.counted(again, N - 1, back_to_before)
print(json.dumps({"lift_to_decision_ms": (t_decided[0] - t_lift) / 1000.0,
                  "lift_to_leds_ms": (t_leds - t_lift) / 1000.0, "expected": expected}))
