# Runs on MicroPython from a device tree built with the simulator: the heap the Agent Avenue
# board's application keeps alive, step by step (imports, then the objects it builds), without
# the simulator's own share (measured first and subtracted).
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import gc
import json
from host_tools.games.avenue.world import AvenueWorld
from host_tools.sim.control import Control
import machine
import neopixel
import time
CONFIG = "hardware/variants/agent-avenue"
w = AvenueWorld(1, CONFIG)
Control(w)
w.hook = None
with open("cards.json", "w") as f:
    for uid, kind in w.deck:
        f.write(json.dumps([uid, kind]) + "\n")
gc.collect()
last = [gc.mem_alloc()]
rows = []


def step(what):
    gc.collect()
    now = gc.mem_alloc()
    rows.append((what, now - last[0]))
    last[0] = now


from shared_rules.avenue import tables, state, move, legality, apply, moving, endstep
step("rules core modules (agent-avenue)")
tb = tables.load()
step("the card and board tables")
from firmware.hal import scanner, calibration, mfrc522, leds, buttons, buzzer
step("drivers (hal) modules")
from firmware import board, store, cardmap, console
from firmware.games.avenue import referee, record, lights
step("referee, record, lights, store, console modules")
from firmware.games.avenue import app
step("app module")


class NoInput:
    def poll(self):
        return None


a = app.App(CONFIG, ".", write=lambda line: None, inp=NoInput())
step("  App: Board (maps, drivers, 3 readers), CardMap (53 stickers), Referee, Lights")
a.ref.start("advanced", (2, 2), 0, [0, 1, 2])
step("  a new advanced 2/2 game")
total = 0
for what, n in rows:
    total += n
    print("%-74s %7d" % (what, n))
print("%-74s %7d" % ("total (64-bit port; about 0.7 of it on an ESP32)", total))
