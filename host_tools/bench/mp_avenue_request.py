# Runs on MicroPython: `micropython mp_avenue_request.py CASE REPEAT`. Answers one Agent Avenue
# request of avenue_positions.json REPEAT times the way `serve` answers a line (JSON text in,
# the rules core, JSON text out) and prints the bytes allocated per answer.
import sys
import json
import gc
import micropython
from shared_rules.protocol import Rules

case = sys.argv[1]
repeat = int(sys.argv[2])
line = json.dumps(json.load(open("avenue_positions.json"))[case])
rules = Rules()
rules.handle_line(line)  # loads the game's tables and code once, as a serving device has
gc.collect()
before = micropython.mem_total()
for _ in range(repeat):
    out = json.dumps(rules.handle_line(line))
alloc = micropython.mem_total() - before
print(json.dumps({"alloc": alloc // repeat, "answer": len(out), "request": len(line)}))
