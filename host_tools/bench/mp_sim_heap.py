# Runs on MicroPython from a device tree built with the simulator: the heap the simulated
# hardware itself keeps alive (world, chip model, stand-ins), which is not the firmware's.
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import gc
gc.collect()
base = gc.mem_alloc()
from host_tools.games.track.world import TrackWorld
from host_tools.sim.control import Control
import machine
import neopixel
import time
w = TrackWorld(1)
Control(w)
w.hook = None
gc.collect()
print(gc.mem_alloc() - base)
