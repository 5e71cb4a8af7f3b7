"""Driver benchmark: one full 96-location scan and one card read, as instructions of the
MicroPython unix port (ESP32 estimate: 1 M instructions ~ 10 ms at 240 MHz), plus the hardware
time a PC cannot see (ADC conversions, SPI and radio time from the simulator's datasheet model).
"""
import json
import os
import subprocess

from host_tools.bench.common import (ROOT, BIN, cost, esp32_ms, run_mp, per_call,
                                     build_device_tree)

ADC_US = 35  # one ADC conversion from MicroPython on an ESP32 (notes, v1.15 figure)


def report(dst):
    print("4. Sensor scan: the scanner's Python work per full scan (96 sensors, 16 select "
          "writes); target < 150 k instructions, no allocation")
    scan = cost(dst, ["mp_scan.py", "10"], ["mp_scan.py", "20"]) / 10
    pins = cost(dst, ["mp_scan.py", "10", "stubs"], ["mp_scan.py", "20", "stubs"]) / 10
    rc, out = run_mp(dst, ["mp_scan.py", "20"])
    alloc = int(out.strip()) if rc == 0 else -1
    own = scan - pins
    adc_ms = 96 * ADC_US / 1000.0
    scan_ms = esp32_ms(own) + adc_ms
    print("   with stub pins and ADCs: %d instructions; the 16 stub pin writes and 96 stub reads "
          "alone: %d" % (scan, pins))
    print("   scanner's own work: %d instructions = %.2f ms on an ESP32 at 240 MHz (the real "
          "Pin.value() and ADC.read_u16() are native calls, cheaper than the stubs)" % (
              own, esp32_ms(own)))
    print("   + 96 ADC conversions x %d us = %.2f ms  ->  whole scan about %.1f ms, %.0f "
          "scans/s possible (target >= 50)" % (ADC_US, adc_ms, esp32_ms(own) + adc_ms,
                                               1000 / (esp32_ms(own) + adc_ms)))
    print("   allocated during 20 scans: %d bytes" % alloc)
    print()
    print("5. Card read: MFRC522 driver, WUPA + two cascade levels + HLTA for a 7-byte UID")
    rec = subprocess.run([os.path.join(BIN, "micropython"), "host_tools/bench/record_card.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    info = json.loads(rec.stdout.strip().splitlines()[-1])
    with open(os.path.join(dst, "card_trace.json"), "w") as f:
        json.dump(info["trace"], f)
    card = per_call(dst, lambda n: ["mp_card.py", str(n)])
    print("   driver work: %d instructions = %.2f ms at 240 MHz (%d SPI transactions, replayed)"
          % (card, esp32_ms(card), info["spi_calls"]))
    print("   SPI at 4 MHz + radio + chip timing (simulator, datasheet figures): %.2f ms with a "
          "card, %.2f ms for an empty poll (1.5 ms receive timeout)" % (
              info["board_us"] / 1000.0, info["empty_us"] / 1000.0))
    print("   a read with a card on the reader: about %.1f ms in all. Polled every 5th scan "
          "(10 times a second), it fits in that scan's 20 ms slot beside a %.1f ms scan"
          % (esp32_ms(card) + info["board_us"] / 1000.0, scan_ms))


def referee_report():
    """Needs the simulator in the device tree (its own build)."""
    import tempfile
    import shutil
    dst = tempfile.mkdtemp(prefix="agentboard-bench-sim-")
    try:
        build_device_tree(dst, with_sim=True)
        for name in ("mp_latency.py", "mp_fw_heap.py", "mp_sim_heap.py"):
            shutil.copy(os.path.join(ROOT, "host_tools", "bench", name), dst)
        rc, out = run_mp(dst, ["mp_latency.py", "1"])
        lat = json.loads(out.strip().splitlines()[-1])
        proc = cost(dst, ["mp_latency.py", "1"], ["mp_latency.py", "2"])
        print("6. Referee latency, last sensor change of a move to the accept LEDs (targets: "
              "processing < 2 M instructions, whole < 100 ms)")
        print("   debounce (four stable scans at 50 scans/s): %.0f ms of board time; the quiet "
              "scan before judging: %.0f ms" % (lat["debounce_ms"], lat["quiet_ms"]))
        print("   processing of the accepting decision (judge, save to flash, effects, LEDs): "
              "%d instructions = %.1f ms at 240 MHz" % (proc, esp32_ms(proc)))
        print("   whole: about %.0f ms" % (lat["total_ms"] + esp32_ms(proc)))
        print()
        rc, out = run_mp(dst, ["mp_sim_heap.py"])
        sim = int(out.strip())
        with open(os.path.join(dst, "cards.json"), "w") as f:
            for uid, kind in _deck(dst):
                f.write(json.dumps([uid, kind]) + "\n")
        rc, out = run_mp(dst, ["mp_fw_heap.py"])
        print("7. Heap the firmware keeps alive after boot, .mpy, whole deck enrolled (64-bit "
              "port; about half on an ESP32; the simulator's own %d bytes excluded):" % sim)
        for line in out.strip().splitlines():
            print("   " + line)
        print()
        game_heap_report()
    finally:
        shutil.rmtree(dst, ignore_errors=True)


def _deck(dst):
    import sys
    sys.path.insert(0, ROOT)
    from host_tools.sim.world import World
    return World(1).deck


def _smallest_heap(dst, args, players, minus_wk=0.0, top=160):
    def ok(h):
        try:
            os.remove(os.path.join(dst, "game.log"))
        except OSError:
            pass
        rc, out = run_mp(dst, args, h)
        return rc == 0, out
    good, out = ok(top)
    if not good:
        print("      %d players: does not finish even in %dwK" % (players, top))
        return
    result = json.loads(out.strip().splitlines()[-1])
    h = top
    while h > 32 and ok(h - 2)[0]:
        h -= 2
    print("      %d players (%d turns, every turn checked against the move played): %.0fwK; "
          "live heap at the end %.1f KB on this 64-bit port" % (
              players, result["turns"], h - minus_wk,
              result["heap_used"] / 1024 - minus_wk * 2))


def _romfs(src, out):
    """Packs src into a ROMFS image at out; returns its size in wK of this port (2 KB)."""
    import contextlib
    import io
    from mpremote.romfs import make_romfs
    with contextlib.redirect_stdout(io.StringIO()):  # it lists the tree it packs
        image = make_romfs(src, mpy_cross=False)
    with open(out, "wb") as f:
        f.write(image)
    return len(image) / 2048.0


def game_heap_report():
    """The smallest heap a whole game needs with the firmware alone (no simulator in the
    process: host_tools/bench/stubs stand in for the hardware)."""
    import tempfile
    import shutil
    dst = tempfile.mkdtemp(prefix="agentboard-bench-heap-")
    try:
        build_device_tree(dst)
        shutil.copytree(os.path.join(ROOT, "host_tools", "bench", "stubs"),
                        os.path.join(dst, "stubs"))
        shutil.copytree(os.path.join(ROOT, "hardware"), os.path.join(dst, "config"))
        shutil.copy(os.path.join(ROOT, "host_tools", "bench", "mp_game_heap.py"), dst)
        with open(os.path.join(dst, "cards.json"), "w") as f:
            for uid, kind in _deck(dst):
                f.write(json.dumps([uid, kind]) + "\n")
        # the harness runs from a ROMFS image (in place, as from flash): it measures, it is
        # not firmware, so neither its bytecode nor the image counts
        harness = os.path.join(dst, "harness")
        os.makedirs(harness)
        subprocess.run([os.path.join(BIN, "mpy-cross"), "-o",
                        os.path.join(harness, "mp_game_heap.mpy"),
                        os.path.join(ROOT, "host_tools", "bench", "mp_game_heap.py")], check=True)
        os.remove(os.path.join(dst, "mp_game_heap.py"))
        print("8. Smallest -X heapsize a whole random game needs, firmware alone (target "
              "64wK). A non-moving heap is not monotonic in its size (fragmentation falls "
              "differently), so sizes are tried from the top down and the figure is the "
              "smallest from which every larger size tried also finished.")
        size = _romfs(harness, os.path.join(dst, "harness.romfs"))
        print("   a) deployed as .mpy files (what agentboard deploy does on MicroPython's "
              "ESP32_GENERIC build):")
        for players in (2, 3, 4):
            _smallest_heap(dst, ["mp_rom_game.py", "harness.romfs", "1", str(players)],
                           players, size)
        # b) the firmware's .mpy files in the image too: bytecode and constants run in place
        for pkg in ("shared_rules", "firmware"):
            shutil.move(os.path.join(dst, pkg), os.path.join(harness, pkg))
        size = _romfs(harness, os.path.join(dst, "app.romfs"))
        print("   b) the same .mpy files in a ROMFS image (%.1f KB; needs a firmware built "
              "with ROMFS, which ESP32_GENERIC is not):" % (size * 2))
        for players in (2, 3, 4):
            _smallest_heap(dst, ["mp_rom_game.py", "app.romfs", "1", str(players)], players,
                           size)
    finally:
        shutil.rmtree(dst, ignore_errors=True)
