# Runs on MicroPython: `micropython mp_game.py SEED PLAYERS GAMES [GAME]`. Plays seeded random
# games through the rules core and prints turns, wall time and the heap peak.
import sys
import json
import time
import micropython
from shared_rules import randgame

seed = int(sys.argv[1])
players = int(sys.argv[2])
games = int(sys.argv[3])
game = sys.argv[4] if len(sys.argv) > 4 else "agent-dog"
turns = 0
t0 = time.ticks_ms()
for g in range(games):
    st, n = randgame.play(seed + g, players, game=game)
    turns += n
ms = time.ticks_diff(time.ticks_ms(), t0)
print(json.dumps({"turns": turns, "ms": ms, "peak": micropython.mem_peak()}))
