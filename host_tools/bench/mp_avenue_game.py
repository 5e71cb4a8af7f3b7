# Runs on MicroPython: `micropython mp_avenue_game.py SEED MODE GREEN_SEATS BLUE_SEATS GAMES`.
# Plays seeded random Agent Avenue games through the rules core (the table holding the hidden
# cards included) and prints decisions, wall time and the heap peak.
import sys
import json
import time
import micropython
from shared_rules.avenue import randgame

seed = int(sys.argv[1])
advanced = sys.argv[2] == "advanced"
seats = (int(sys.argv[3]), int(sys.argv[4]))
games = int(sys.argv[5])
decisions = 0
t0 = time.ticks_ms()
for g in range(games):
    st, n = randgame.play(seed + g, advanced, seats)
    decisions += n
ms = time.ticks_diff(time.ticks_ms(), t0)
print(json.dumps({"decisions": decisions, "ms": ms, "peak": micropython.mem_peak()}))
