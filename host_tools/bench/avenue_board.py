"""The Agent Avenue board (`make bench`, last section): prints figures, never passes or fails.

1. Latency of a turn's last action (the active side lifting its card off its pad, which decides
   the recruit) to the LED frame that shows where the pawns must go, on the simulated board with
   the firmware as .mpy: board time (the reader must miss the card on two polls, the first at its
   turn, every third scan, the second two scans later, before it counts as lifted), and the instructions of the processing itself (the referee's
   decision with the rules core, the line saved on flash, the events, the LED redraw), counted
   by callgrind as (N runs - 1 run) / (N - 1), the firmware's instructions alone (the simulated
   hardware and the memory manager kept out: docs/measuring.md), converted to ESP32
   milliseconds.
2. Heap of whole games through the board's referee as .mpy (firmware/games/avenue over
   shared_rules/avenue, the store on flash, the LEDs drawn after every decision; no simulated
   hardware): the smallest -X heapsize=NwK each game completes in (N matches a 32-bit ESP32's
   heap in KB), tried from the top down; what importing the board's code keeps alive, and
   what the whole application keeps alive after boot with the deck enrolled.
"""
import json
import shutil
import tempfile

from host_tools.bench.common import (build_device_tree, run_mp, per_call, esp32_ms,
                                     MS_PER_MINSTR_PESSIMISTIC, figure)
from host_tools.bench.avenue import smallest_heap

GAMES = [(1, "advanced", 1, 1), (2, "advanced", 1, 1), (3, "advanced", 2, 2),
         (1, "simple", 1, 1)]
REPEAT = 11

HEAP_AFTER_IMPORT = """
import gc
gc.collect(); a0 = gc.mem_alloc()
from firmware.games.avenue import referee, lights
from firmware import store, cardmap
gc.collect(); a1 = gc.mem_alloc()
print("firmware.games.avenue referee and lights with the rules core and tables: %d bytes" % (a1 - a0))
"""


def report():
    print("The Agent Avenue board (firmware/games/avenue as .mpy on the MicroPython unix port)")
    print()
    dst = tempfile.mkdtemp(prefix="agentboard-bench-avenue-")
    try:
        build_device_tree(dst, with_sim=True)
        rc, out = run_mp(dst, ["mp_avenue_board_latency.py", "1"])
        info = json.loads(out) if rc == 0 else {}
        cost = per_call(dst, lambda n: ["mp_avenue_board_latency.py", str(n)], many=REPEAT,
                        outside=True)  # the firmware's instructions (docs/measuring.md)
        figure("avenue_board.turn_end_to_leds", round(info.get("lift_to_leds_ms", -1) +
                                                      esp32_ms(cost), 1), "ms", 100)
        figure("avenue_board.turn_end.processing", cost, "instructions")
        print("1. A turn's last action to the LEDs of the pawn moves (green Enforcer up, Mole "
              "down; blue takes the Mole, green lifts the Enforcer)")
        print("   board time, lift to the recruit decided:     %7.1f ms (two empty polls: at "
              "the reader's turn, then 40 ms later)" % info.get("lift_to_decision_ms", -1))
        print("   board time, lift to the LED frame:           %7.1f ms (spaces to change: %s)"
              % (info.get("lift_to_leds_ms", -1), ", ".join(info.get("expected", []))))
        print("   processing (decision, save, events, redraw): %7s instructions = %.1f ms on "
              "an ESP32 at 240 MHz (pessimistic %.1f ms)" % (
                  format(cost, ","), esp32_ms(cost), cost / 1e6 * MS_PER_MINSTR_PESSIMISTIC))
        print()
        rc, out = run_mp(dst, ["-c", HEAP_AFTER_IMPORT])
        print("2. Heap. Live after import (64-bit port; about 0.7 of it on the ESP32's 32-bit "
              "words): %s" % out.strip())
        rc, out = run_mp(dst, ["mp_avenue_board_heap.py"])
        print("   The application after boot, step by step (the simulator's share taken off):")
        for line in out.splitlines():
            print("   " + line)
        print("   Smallest heap for one whole game through the board's referee, sizes tried "
              "from the top down:")
        for seed, mode, green, blue in GAMES:
            args = ["mp_avenue_board_game.py", str(seed), mode, str(green), str(blue)]
            n = smallest_heap(dst, args, top=96, floor=32)
            rc, out = run_mp(dst, args)
            info = json.loads(out) if rc == 0 else {"decisions": -1}
            figure("avenue_board.heap.%s.%d-%d.seed%d" % (mode, green, blue, seed), n, "wK")
            print("   %-8s %d/%d seed %d: %3d decisions, completes in -X heapsize=%swK"
                  % (mode, green, blue, seed, info["decisions"], n))
    finally:
        shutil.rmtree(dst, ignore_errors=True)


if __name__ == "__main__":
    report()
