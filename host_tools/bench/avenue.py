"""Agent Avenue benchmark (`make bench`): prints figures, never passes or fails.

Same method as the Agent DOG section (rules.py): the rules core compiled to .mpy with mpy-cross,
run on the MicroPython unix port; cost in instructions counted by callgrind, one call = count(2
calls) - count(1 call); 1 M instructions of this port is about 10 ms on an ESP32 at 240 MHz
(pessimistic 16 ms). Heap: `-X heapsize=NwK` scales with the word size, so N matches a 32-bit
ESP32 heap of N KB; allocation counts are bytes of the 64-bit port (about twice the ESP32's).
"""
import json
import os

from host_tools.bench.common import (HERE, MS_PER_MINSTR_240, MS_PER_MINSTR_PESSIMISTIC, run_mp,
                                     per_call, figure)

VARIANTS = [("simple", 1, 1), ("advanced", 1, 1), ("advanced", 2, 1), ("advanced", 2, 2)]


def smallest_heap(dst, args, top=64, floor=8):
    """Smallest -X heapsize=NwK the script completes in, tried from the top down: a non-moving
    heap is not monotonic in its size (fragmentation falls differently), so the figure is the
    smallest from which every larger size tried also finished."""
    if run_mp(dst, args, top)[0] != 0:
        return None
    h = top
    while h > floor and run_mp(dst, args, h - 1)[0] == 0:
        h -= 1
    return h


HEAP_AFTER_IMPORT = """
import gc
gc.collect(); a0 = gc.mem_alloc()
from shared_rules.avenue import game, tables
g = game.game("agent-avenue")
gc.collect(); a1 = gc.mem_alloc()
from shared_rules.avenue import randgame
gc.collect(); a2 = gc.mem_alloc()
print("rules core and tables %d bytes, random player %d bytes" % (a1 - a0, a2 - a1))
"""


def report(dst):
    print("Agent Avenue (game agent-avenue) on the MicroPython unix port, loaded as .mpy")
    print()
    print("1. One request as `serve` answers it (JSON line in, rules core, JSON line out): "
          "cost of one call, ESP32 estimate at 240 MHz")
    print("%-36s %14s %9s %12s %12s %8s" % ("case", "instructions", "ESP32 ms", "pessimistic",
                                             "alloc bytes", "answer"))
    cases = json.load(open(os.path.join(HERE, "avenue_positions.json")))
    worst = (0, "")
    for name in sorted(k for k in cases if not k.startswith("_")):
        cost = per_call(dst, lambda n: ["mp_avenue_request.py", name, str(n)])
        if cost > worst[0]:
            worst = (cost, name)
        rc, out = run_mp(dst, ["mp_avenue_request.py", name, "4"])
        info = json.loads(out) if rc == 0 else {"alloc": "?", "answer": "?"}
        print("%-36s %14s %9.2f %12.2f %12s %8s" % (
            name, format(cost, ","), cost / 1e6 * MS_PER_MINSTR_240,
            cost / 1e6 * MS_PER_MINSTR_PESSIMISTIC, info["alloc"], info["answer"]))
    figure("avenue.request.worst", worst[0], "instructions")
    print("heaviest decision: %s, %.3f M instructions = %.2f ms on an ESP32 at 240 MHz"
          % (worst[1], worst[0] / 1e6, worst[0] / 1e6 * MS_PER_MINSTR_240))
    print()
    rc, out = run_mp(dst, ["-c", HEAP_AFTER_IMPORT])
    print("2. Heap. Live after import (64-bit port; about 0.7 of it on the ESP32's 32-bit "
          "words): %s" % out.strip())
    print("   Smallest heap for one whole seeded game (rules core + the random player's table), "
          "sizes tried from the top down:")
    for mode, green, blue in VARIANTS:
        for seed in (1, 2):
            args = ["mp_avenue_game.py", str(seed), mode, str(green), str(blue), "1"]
            n = smallest_heap(dst, args)
            rc, out = run_mp(dst, args)
            info = json.loads(out)
            figure("avenue.heap.%s.%d-%d.seed%d" % (mode, green, blue, seed), n, "wK")
            print("   %-8s %d/%d seed %d: %3d decisions, completes in -X heapsize=%swK; "
                  "mem_peak %d bytes at the default heap"
                  % (mode, green, blue, seed, info["decisions"], n, info["peak"]))
    print()
    print("3. Whole random games per second on the unix port (wall clock; noisy)")
    for mode, green, blue in VARIANTS:
        rc, out = run_mp(dst, ["mp_avenue_game.py", "1000", mode, str(green), str(blue), "200"])
        info = json.loads(out)
        secs = max(info["ms"], 1) / 1000.0
        print("   %-8s %d/%d: %.0f games/s, %.0f decisions/s"
              % (mode, green, blue, 200 / secs, info["decisions"] / secs))
