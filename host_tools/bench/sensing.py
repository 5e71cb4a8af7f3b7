"""The DOG boards' sensing: one full scan of the 6-seat board (144 sensors, two banks of
multiplexers, ranks read), as instructions of the MicroPython unix port (ESP32 estimate: 1 M
instructions ~ 10 ms at 240 MHz) plus the ADC and multiplexer time from the datasheets and the
notes; and the rank classification margin: how far apart the ranks' readings lie in units of
one reading's noise and of the pieces' spread (hardware/design/magnets.py)."""
from host_tools.bench.common import cost, esp32_ms, run_mp, figure
from host_tools.sim import analog
from host_tools.games.track.world import TrackWorld
from hardware.design import data, magnets

ADC_US = 35  # one ADC1 conversion from MicroPython on an ESP32 (notes, v1.15 figure)
SCAN_MS = 20  # 50 scans per second (firmware/loop.py)


def report(dst):
    fe = TrackWorld(1, board="dog-6", cards="dog-cards").fe  # the front end's figures
    settle_us = max(analog.SETTLED * t for t in fe.tau_drive)
    open_us = max(fe.tau_open)
    print("12. Sensor scan of the 6-seat DOG board: 144 sensors on nine 74HC4067 in two banks "
          "on the six ADC1 pins, ranks read (target: >= 50 scans/s, no allocation)")
    scan = cost(dst, ["mp_scan_ranked.py", "10"], ["mp_scan_ranked.py", "20"]) / 10
    moving = cost(dst, ["mp_scan_ranked.py", "10", "moving"],
                  ["mp_scan_ranked.py", "20", "moving"]) / 10
    pins = cost(dst, ["mp_scan_ranked.py", "10", "stubs"],
                ["mp_scan_ranked.py", "20", "stubs"]) / 10
    allocs = []
    for mode in ("empty", "moving"):
        rc, out = run_mp(dst, ["mp_scan_ranked.py", "30", mode])
        allocs.append(int(out.strip()) if rc == 0 else -1)
    own = scan - pins
    own_moving = moving - pins
    adc_ms = 144 * ADC_US / 1000.0
    # the scanner waits for nothing: a switched channel settles (and a dead one decays through
    # the pull-down) within the conversion call, before the ADC's sample
    whole = esp32_ms(own) + adc_ms
    worst = esp32_ms(own_moving) + adc_ms
    print("   with stub pins and ADCs: %d instructions (empty board); the 36 stub pin writes and "
          "144 stub reads alone: %d" % (scan, pins))
    print("   scanner's own work: %d instructions = %.2f ms on an ESP32 at 240 MHz; a piece "
          "put on or lifted off every sensor at once (the slow path for all 144, classes and "
          "ranks read and reported): %d instructions = %.2f ms" % (own, esp32_ms(own), own_moving,
                                                    esp32_ms(own_moving)))
    print("   + 144 ADC conversions x %d us = %.2f ms; no settling wait: a switched channel "
          "settles in %.2f us and a dead one decays through the pull-down (time constant %.1f "
          "us) before the ADC samples, %d us into the call (host_tools/sim/analog.py)" % (
              ADC_US, adc_ms, settle_us, open_us, fe.sample_us))
    print("   ->  whole scan about %.1f ms (%.0f scans/s possible), worst case %.1f ms (%.0f "
          "scans/s); the firmware scans every %d ms" % (whole, 1000 / whole, worst,
                                                       1000 / worst, SCAN_MS))
    figure("scan.dog-6.instructions", own, "instructions")
    figure("scan.dog-6.ms", round(whole, 2), "ms", SCAN_MS)
    figure("scan.dog-6.worst_ms", round(worst, 2), "ms", SCAN_MS)
    figure("scan.dog-6.alloc", max(allocs), "bytes", 0)
    print("   allocated during 30 scans: %d bytes (empty board), %d bytes (ranks changing)"
          % tuple(allocs))
    print()
    print("13. Rank classification margin (hardware/design/magnets.py; s = sigma)")
    for line in magnets.report().splitlines():
        print("   " + line)
    print("   gap/noise: the gap between neighbouring ranks' readings over one reading's noise; "
          "edge/noise: from a rank's reading to the band edge; edge/spread: the same distance "
          "over the pieces' spread (magnet size, seat depth, placement) after calibration, and "
          "with the board's mean gain instead of each sensor's own")
