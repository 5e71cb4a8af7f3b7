# Runs on MicroPython: `micropython mp_legal.py CASE REPEAT [first]`. Generates the legal moves
# of one benchmark case REPEAT times (with `first`: stops at the first one, as a playability
# check does) and prints the move count and the bytes allocated per call.
import sys
import json
import gc
import micropython
from shared_rules import position, movegen

case = json.load(open("positions.json"))[sys.argv[1]]
repeat = int(sys.argv[2])
st = position.parse(case["position"])
k = st.game.cards.index[case["card"]]
count = [0]


first = len(sys.argv) > 3 and sys.argv[3] == "first"


def visit(a, b):
    count[0] += 1
    return first


gc.collect()
before = micropython.mem_total()
for _ in range(repeat):
    movegen.moves(st, k, visit)
alloc = micropython.mem_total() - before
print(json.dumps({"moves": count[0] // repeat, "alloc": alloc // repeat}))
