# Runs on MicroPython: `micropython mp_fragmented.py SCRIPT ARGS...` runs another of the bench's
# scripts (mp_lights.py, ...) with its arguments on a fragmented heap: 20,000 one-block objects
# made and every other one freed first, as a heap that has served a game for a while is. A call
# whose frame is allocated on the heap (docs/measuring.md, "Frames") then searches past the
# holes for a run of free blocks at every call.
import gc
import sys

HOLES = 20000
junk = [bytearray(16) for _ in range(HOLES)]
for k in range(0, HOLES, 2):
    junk[k] = None
gc.collect()
del sys.argv[0]
with open(sys.argv[0]) as f:
    exec(f.read())
