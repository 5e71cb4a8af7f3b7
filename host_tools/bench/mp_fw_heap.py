# Runs on MicroPython from a device tree built with the simulator: the heap the firmware keeps
# alive, step by step (imports, then the objects the application builds), without the
# simulator's own share (measured first and subtracted).
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import gc
from host_tools.games.track.world import TrackWorld
from host_tools.sim.control import Control
import machine
import neopixel
import time
w = TrackWorld(1)
Control(w)
w.hook = None
gc.collect()
last = [gc.mem_alloc()]
rows = []


def step(what):
    gc.collect()
    now = gc.mem_alloc()
    rows.append((what, now - last[0]))
    last[0] = now


from shared_rules import variant_base, layout, cards, state, movegen, split, move, apply, hints
from shared_rules import notation
step("rules core modules")
from firmware import ondemand
# looked up as the firmware's set-up does it: the look-ups by name are dropped after it
game = ondemand.call("firmware.games.track.lookup", "load")
step("the game: layout and card tables")
from firmware.hal import scanner, calibration, mfrc522, leds, buttons, buzzer
step("drivers (hal) modules")
from firmware import board, gamelog, cardmap, console
from firmware.games.track import places, judge, referee, view
step("referee, view, console modules")
from firmware.games.track import app
step("app module")
class NoInput:
    def poll(self):
        return None


b = board.Board("hardware", ".")
step("  Board (maps, drivers, calibration)")
cm = cardmap.CardMap(".", game.cards.names)
step("  CardMap (110 enrolled stickers)")
pl = places.Places(game.lay, b.index)
ref = referee.Referee(pl, gamelog.Store("."), cm, lambda e: None, game)
step("  Places + Referee")
v = view.View(b.leds, b.led_names, b.locations, pl, game.lay)
b.release_names()
step("  View (then the name tables are released, as the app does)")
total = 0
for what, n in rows:
    total += n
    print("%-62s %7d" % (what, n))
print("%-62s %7d" % ("total (64-bit port; about 0.7 of it on an ESP32)", total))
