"""The referee's LEDs while a card is in play, on the bench's positions (section 1): the card
tap up to the first hint LEDs, one redraw while a piece is lifted, and (Partner 4) a segment
put down up to the next segment's LEDs. Instructions of the MicroPython unix port running the
firmware as .mpy, ESP32 estimates at 240 MHz (targets: a redraw < 0.3 M instructions = 3 ms,
the tap to the first LEDs < 3 M = 30 ms, whatever the position)."""
import json
import os
import shutil

from host_tools import paths
from host_tools.bench.common import HERE, esp32_ms, per_call, run_mp, figure

REDRAW_TARGET = 300000
TAP_TARGET = 3000000


def report(dst):
    print("10. LEDs while a card is in play, ESP32 estimates at 240 MHz (targets: a redraw "
          "< 0.3 M instructions, the card tap to the first LEDs < 3 M, whatever the position)")
    config = os.path.join(dst, "config")
    if not os.path.isdir(config):
        shutil.copytree(paths.HARDWARE, config)
    cases = json.load(open(os.path.join(HERE, "positions.json")))
    print("   %-24s %7s %12s %8s %10s %8s %12s %8s %14s %8s" % (
        "case", "movable", "tap->LEDs", "ESP32 ms", "redraw", "ESP32 ms", "lift+back",
        "ESP32 ms", "segment->LEDs", "ESP32 ms"))
    worst_tap = worst_redraw = worst_lift = 0
    for name in sorted(k for k in cases if not k.startswith("_")):
        rc, out = run_mp(dst, ["mp_lights.py", name, "lift", "1"])
        if rc:
            print("   %-24s failed: %s" % (name, out.strip()[-200:]))
            continue
        info = json.loads(out.strip().splitlines()[-1])
        tap = per_call(dst, lambda n: ["mp_lights.py", name, "tap", str(n)])
        if info["on_board"]:
            redraw = per_call(dst, lambda n: ["mp_lights.py", name, "redraw", str(n)])
            lift = per_call(dst, lambda n: ["mp_lights.py", name, "lift", str(n)])
        else:  # only pieces in a start area may move: no piece on the board to lift
            redraw = lift = 0
        worst_tap = max(worst_tap, tap)
        worst_redraw = max(worst_redraw, redraw)
        worst_lift = max(worst_lift, lift)
        seg = ""
        seg_ms = ""
        if cases[name]["card"] == "partner":
            both = per_call(dst, lambda n: ["mp_lights.py", name, "segment", str(n)])
            s = max(0, both - tap)
            seg = format(s, ",")
            seg_ms = "%.1f" % esp32_ms(s)
        print("   %-24s %7d %12s %8.1f %10s %8.2f %12s %8.1f %14s %8s" % (
            name, info["movable"], format(tap, ","), esp32_ms(tap), format(redraw, ","),
            esp32_ms(redraw), format(lift, ","), esp32_ms(lift), seg, seg_ms))
    figure("lights.tap.worst", worst_tap, "instructions", TAP_TARGET)
    figure("lights.redraw.worst", worst_redraw, "instructions", REDRAW_TARGET)
    figure("lights.lift_and_back.worst", worst_lift, "instructions", TAP_TARGET)
    print("   worst tap->LEDs %.2f M instructions (%.2f of the 3 M target); worst redraw %.0f k "
          "(%.2f of the 0.3 M target)" % (worst_tap / 1e6, worst_tap / float(TAP_TARGET),
                                          worst_redraw / 1e3, worst_redraw / float(REDRAW_TARGET)))
    print("   (lift+back: a movable piece lifted, judged, its targets worked out and lit, then "
          "put back; segment: a Partner 4 segment put down, judged, the next one's lights)")
