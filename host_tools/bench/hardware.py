"""Driver benchmark: one full 96-location scan and one card read, as instructions of the
MicroPython unix port (ESP32 estimate: 1 M instructions ~ 10 ms at 240 MHz), plus the hardware
time a PC cannot see (ADC conversions, SPI and radio time from the simulator's datasheet model).
"""
import json
import os
import subprocess
import sys

from host_tools.bench.common import (ROOT, BIN, MICROPYTHON32, cost, esp32_ms, run_mp,
                                     ran_out_in, per_call, word_bytes, build_device_tree,
                                     figure)

ADC_US = 35  # one ADC conversion from MicroPython on an ESP32 (notes, v1.15 figure)
FLASH_MODEL_HEAP_WK = 4096  # 8 MB on this 64-bit port, for the flash model of mp_flash_save.py


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
    figure("scan.agent-dog-4.instructions", own, "instructions", 150000)
    figure("scan.agent-dog-4.ms", round(esp32_ms(own) + adc_ms, 2), "ms", 20)
    figure("scan.agent-dog-4.alloc", alloc, "bytes", 0)
    print("   allocated during 20 scans: %d bytes" % alloc)
    print()
    print("5. Card read: MFRC522 driver, WUPA + two cascade levels for a 7-byte UID (no HLTA: "
          "the field goes off after every poll)")
    rec = subprocess.run([os.path.join(BIN, "micropython"), "host_tools/bench/record_card.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    info = json.loads(rec.stdout.strip().splitlines()[-1])
    with open(os.path.join(dst, "card_trace.json"), "w") as f:
        json.dump(info["trace"], f)
    card = per_call(dst, lambda n: ["mp_card.py", str(n)])
    figure("card.read.instructions", card, "instructions")
    figure("card.read.ms", round(esp32_ms(card) + info["board_us"] / 1000.0, 2), "ms")
    print("   driver work: %d instructions = %.2f ms at 240 MHz (%d SPI transactions, replayed)"
          % (card, esp32_ms(card), info["spi_calls"]))
    print("   SPI at 4 MHz + radio + chip timing (simulator, datasheet figures): %.2f ms for the "
          "read; a poll as the application makes it (its antenna switched on a scan before): "
          "%.2f ms with a card, %.2f ms empty (1.5 ms receive timeout); a poll not armed first "
          "waits for the tags to power up (5 ms, ISO/IEC 14443-3): %.2f ms" % (
              info["board_us"] / 1000.0, info["poll_us"] / 1000.0, info["empty_us"] / 1000.0,
              info["cold_us"] / 1000.0))
    print("   a poll with a card on the reader: about %.1f ms in all. One reader is polled per "
          "scan (in turn, one field on at a time; a board with one reader every other scan), so "
          "it fits in that scan's 20 ms slot beside a %.1f ms scan, on every board" % (
              esp32_ms(card) + info["poll_us"] / 1000.0, scan_ms))


def referee_report():
    """Needs the simulator in the device tree (its own build)."""
    import tempfile
    import shutil
    dst = tempfile.mkdtemp(prefix="agentboard-bench-sim-")
    try:
        build_device_tree(dst, with_sim=True)
        for name in ("mp_latency.py", "mp_fw_heap.py", "mp_sim_heap.py", "mp_sim_scan.py"):
            shutil.copy(os.path.join(ROOT, "host_tools", "bench", name), dst)
        latency_report(dst)
        rc, out = run_mp(dst, ["mp_sim_heap.py"])
        sim = int(out.strip())
        with open(os.path.join(dst, "cards.json"), "w") as f:
            for uid, kind in _deck(dst):
                f.write(json.dumps([uid, kind]) + "\n")
        sim_scan_report(dst)
        rc, out = run_mp(dst, ["mp_fw_heap.py"])
        print("7. Heap the firmware keeps alive after boot, .mpy, whole deck enrolled (64-bit "
              "port; about 0.7 of it on the ESP32's 32-bit words; the simulator's own %d "
              "bytes excluded):" % sim)
        for line in out.strip().splitlines():
            print("   " + line)
            if line.startswith("total"):
                figure("heap.after_boot.agent-dog-4", int(line.split()[-1]), "bytes")
        print()
        game_heap_report()
    finally:
        shutil.rmtree(dst, ignore_errors=True)


def sim_scan_report(dst):
    """What the simulated hardware itself costs a test per scan of the board (not counted in
    any firmware figure): the frames on its conversion path stay within MicroPython's 11
    words (docs/measuring.md)."""
    per_scan = cost(dst, ["mp_sim_scan.py", "10"], ["mp_sim_scan.py", "20"]) / 10
    print("The simulator (not the firmware): the simulated hardware's own work per full scan "
          "of the Agent DOG board (96 conversions, 16 select settings): %d instructions, %d a "
          "conversion (what a test pays per simulated scan)" % (per_scan, per_scan / 96))
    figure("sim.scan.agent-dog-4.instructions", int(per_scan), "instructions")
    print()


def latency_report(dst):
    """Section 6, from a device tree with the simulator (referee_report's)."""
    print("6. Referee latency, the players' last action of a move (the last sensor change, "
          "or the confirm press) to the accept LEDs (targets: processing < 2 M "
          "instructions, whole < %d ms); board time from the simulator, processing of the "
          "accepting decision (judge, save to flash, effects, the LEDs drawn) from "
          "callgrind, the firmware's instructions only: the simulated hardware it calls and "
          "the collector are not counted (docs/measuring.md); the flash's own time for the "
          "save from a model of it (below)" % LATENCY_TARGET_MS)
    save = flash_save(dst, "dog-royal", 6, 1)
    print("   %-44s %9s %8s %14s %9s %6s %9s %8s %9s" % (
        "move", "debounce", "quiet", "processing", "ESP32 ms", "frame", "allocated", "whole",
        "+ save"))
    for scene, what in LATENCY_SCENES:
        # two decisions: the board times of the move, and of the repeated decision's frame
        rc, out = run_mp(dst, ["mp_latency.py", "2", scene])
        if rc:
            print("   %-44s failed: %s" % (what, out.strip()[-200:]))
            continue
        lat = json.loads(out.strip().splitlines()[-1])
        # (as every cheap call: averaged over 20 decisions when one is under 2 M;
        # docs/measuring.md)
        proc = per_call(dst, lambda n: ["mp_latency.py", str(n), scene], outside=True)
        whole = lat["total_ms"] + esp32_ms(proc) + lat["frame_ms"]
        figure("latency.%s.processing" % scene, proc, "instructions", 2000000)
        figure("latency.%s.alloc" % scene, lat["alloc_bytes"], "bytes")
        figure("latency.%s.whole" % scene, round(whole + save["journal"]["typ_ms"], 1), "ms",
               LATENCY_TARGET_MS)
        print("   %-44s %6.0f ms %5.0f ms %14s %9.1f %3.1f ms %9s %5.0f ms %6.0f ms" % (
            what, lat["debounce_ms"], lat["quiet_ms"], format(proc, ","), esp32_ms(proc),
            lat["frame_ms"], format(lat["alloc_bytes"], ","), whole,
            whole + save["journal"]["typ_ms"]))
    print("   (debounce: two stable scans at 50 scans/s, each reading confirmed by two more "
          "conversions, and on a board that reads ranks still from one scan to the next; "
          "quiet: a still "
          "scan before judging where another sensor was part way to a change, 0 where none "
          "was; a confirm press is read when the button has settled; frame: the accept "
          "frame clocked out to the strip, each LED's 24 bits; allocated: what the decision "
          "allocates on this 64-bit port, about half on an ESP32, for its collector to free "
          "later)")
    lfs, jl = save["littlefs"], save["journal"]
    print("   + save: the flash's time to save the turn, which the move waits for (it is "
          "acknowledged once saved) and the simulator's move above does not include. On a "
          "model of the module's flash (hardware/design/flash.json), every save of a whole "
          "6-player Royal game (%d saves, %d-byte turns):" % (save["saves"], save["line_bytes"]))
    print("     journal (the firmware's, on its own partition; the column above): %.2f sector "
          "erases and %.2f page programs per save (most %d and %d), %.2f ms typical, up to "
          "%.1f ms at the datasheet's maximum times; %d sectors (%d KB of the partition) "
          "erased ahead while the board stood still, %.0f ms each"
          % (jl["erases_mean"], jl["pages_mean"], jl["erases_most"], jl["pages_most"],
             jl["typ_ms"], jl["worst_ms"], jl["ahead"], save["journal_bytes"] // 1024,
             save["erase_ms"]))
    print("     littlefs (game.log, as MicroPython mounts its file system; for comparison): "
          "%.2f erases and %.1f page programs per save (most %d and %d), %d saves without an "
          "erase: %.0f ms typical, up to %.0f ms; the journal's save takes %.1f%% of its time"
          % (lfs["erases_mean"], lfs["pages_mean"], lfs["erases_most"], lfs["pages_most"],
             lfs["no_erase"], lfs["typ_ms"], lfs["worst_ms"],
             100.0 * jl["typ_ms"] / lfs["typ_ms"]))
    print()


def flash_save(dst, game, players, seed):
    """What saving each turn of a whole game did to the flash (mp_flash_save.py), through
    littlefs and through the journal, in erases, page programs and the datasheet's
    milliseconds (hardware/design/flash.json): {"littlefs": {...}, "journal": {...}, ...}."""
    with open(os.path.join(ROOT, "hardware", "design", "flash.json")) as f:
        chip = json.load(f)["chip"]
    # the model keeps every sector littlefs has written: a 1 MB partition, in a 64-bit heap
    rc, out = run_mp(dst, ["mp_flash_save.py", game, str(players), str(seed)],
                     heap_kw=FLASH_MODEL_HEAP_WK)
    if rc:
        raise RuntimeError("mp_flash_save.py failed: %s" % out.strip()[-300:])
    d = json.loads(out.strip().splitlines()[-1])
    if d["bits_set"]:
        raise RuntimeError("%d bytes were programmed without being erased first: the flash "
                           "model or a store is wrong" % d["bits_set"])
    if d["read_back"] != d["saves"]:
        raise RuntimeError("the journal read back %d of %d saves" % (d["read_back"],
                                                                     d["saves"]))
    erase, prog = chip["erase_sector_ms"], chip["program_page_ms"]
    res = {"saves": d["saves"], "line_bytes": d["line_bytes"],
           "journal_bytes": d["journal_bytes"], "erase_ms": erase["typ"]}
    for name, g in d["stores"].items():
        es, ps = g["erases"], g["pages"]
        n = len(es)
        res[name] = {"erases_mean": sum(es) / n, "pages_mean": sum(ps) / n,
                     "erases_most": max(es), "pages_most": max(ps), "no_erase": es.count(0),
                     "ahead": g["ahead"],
                     "typ_ms": (sum(es) * erase["typ"] + sum(ps) * prog["typ"]) / n,
                     "worst_ms": max(e * erase["max"] + p * prog["max"]
                                     for e, p in zip(es, ps))}
    return res


def _deck(dst, board=None, cards=None):
    import sys
    sys.path.insert(0, ROOT)
    from host_tools.sim import worlds
    if board is None:
        from host_tools.games.track.world import TrackWorld
        return TrackWorld(1, cards=cards).deck
    return worlds.for_board(board, 1, cards).deck


def _smallest_heap(dst, args, label, minus_wk=0.0, top=160, exe=None):
    """Tries heap sizes from `top` down in steps of 2 wK, the last step of 1; prints the
    smallest from which every larger size tried also finished, less what the harness keeps
    alive before the firmware's first import (the ROMFS image the unix port holds in its heap,
    the harness, the stand-ins for machine, neopixel and esp32: mp_game_heap.py's
    harness_heap), and beside it the figure less
    the image alone (`minus_wk`, the figure's earlier basis); returns the first
    (None when even `top` is too small). exe: the unix port to run (None: the venv's)."""
    failed = []  # what the last size too small printed

    def ok(h):
        try:
            os.remove(os.path.join(dst, "game.log"))
        except OSError:
            pass
        if os.path.exists(os.path.join(dst, JOURNAL_FILE)):
            blank_journal(dst)  # each run on a flash as `agentboard flash` leaves it
        rc, out, err = run_mp(dst, args, h, exe, errors=True)
        if rc != 0:
            failed[:] = [out + err]  # (the unix port prints a traceback on stdout)
        return rc == 0, out
    good, out = ok(top)
    if not good:
        print("      %s: does not finish even in %dwK" % (label, top - minus_wk))
        return None
    result = json.loads(out.strip().splitlines()[-1])
    word = word_bytes(exe or os.path.join(BIN, "micropython"))
    harness_wk = result["harness_heap"] / wk_bytes(word)
    h = top
    while h > 32 and ok(h - 2)[0]:
        h -= 2
    if ok(h - 1)[0]:  # to 1 wK: on a 2-wK grid the figure hung on where the grid fell
        h -= 1
    print("      %s (%d turns, every turn checked against the move played): %.1fwK "
          "(%.1fwK less the image alone: the harness and stand-ins hold %.1f); live heap at "
          "the end %.1f KB on this %d-bit port" % (
              label, result["turns"], h - harness_wk, h - minus_wk, harness_wk - minus_wk,
              (result["heap_used"] - result["harness_heap"]) / 1024.0, word * 8))
    # which step of the game sets the figure: where the next size down ran out
    if failed:
        print("        below it: %s" % (ran_out_in(failed[0]) or failed[0].strip()[-200:]))
    return h - harness_wk


def wk_bytes(word):
    """Bytes in one wK of -X heapsize on a port of `word`-byte words: a 32-bit heap's KB, so
    2048 on the 64-bit port, 1024 on a 32-bit one (MicroPython's ports/unix/main.c)."""
    return 1024 * word // 4


# the latency scenes of mp_latency.py, and what each is
LATENCY_SCENES = (
    ("agent-dog", "Agent DOG 4p, red's opening 5 (0 -> 5)"),
    ("royal-king", "DOG Royal 6p (dog-6), a king 0 -> 5 with a 5"),
    ("royal-1-7", "DOG Royal 6p, a king 0 -> 3 with the 1-7: confirm"),
    ("royal-jump", "DOG Royal 6p, a citizen 0 -> 8 (draws), jumps to 24"),
    ("royal-stop", "DOG Royal 6p, a citizen stays on 8: confirm"),
)
# the heap a whole game may need, firmware alone (issue 30's targets): as loose .mpy files on
# MicroPython's stock ESP32_GENERIC build, and from a ROMFS image where a build has one
# a move's last action to its accept LEDs, board time and processing (issue 30: the smart
# boards people compare with light a move in 80-200 ms)
LATENCY_TARGET_MS = 50
MPY_TARGET_WK = 72
ROMFS_TARGET_WK = 64
# where the search for the smallest heap starts, above what the harness holds, per word size
# in bytes: (.mpy, ROMFS); a 32-bit port needs more K of its heap (docs/measuring.md)
HEAP_SEARCH_TOPS = {8: (140, 110), 4: (170, 130)}
# the game partition's file in a heap run's folder (host_tools/bench/stubs/esp32.py)
JOURNAL_FILE = "partition-game.bin"
# the heap measured per board: (board variant, game, player counts, the card table of its deck)
HEAP_GAMES = (("agent-dog-4", "agent-dog", (2, 3, 4), "agent-dog-cards"),
              ("dog-6", "dog-royal", (6,), "dog-cards"),
              ("dog-4", "dog-royal", (4,), "dog-cards"))
# a ranked board's calibration for the heap runs: every sensor at mid-scale, each rank's level
# of the king's swing as hardware/design/magnets.json's fields fall (42, 22, 10, 5 mT), the
# king's swing about 0.5 V; the same figures as mp_scan_ranked.py
RANK_LEVELS = (1.0, 0.52, 0.25, 0.12)
KING_SWING = 11000


def blank_journal(d):
    """The game partition of a flashed board (hardware/design/flash.json), erased, in folder d
    in the simulator's format; the heap harness's esp32 stand-in reads it."""
    from host_tools.sim.nor_flash import blank
    with open(os.path.join(ROOT, "hardware", "design", "flash.json")) as f:
        part = [p for p in json.load(f)["partitions"] if p["label"] == "game"][0]
    path = os.path.join(d, JOURNAL_FILE)
    if os.path.exists(path):
        os.remove(path)
    blank(path, part["bytes"])


def heap_run_dir(dst, name, board, cards, tree=None):
    """A folder to run mp_game_heap.py in for `board`: its config/ as `agentboard deploy
    --board` writes it, the enrolled deck (cards.json) and, for a board whose
    pieces carry ranks, a ranked calibration (calib.json); `tree`: a device tree whose
    shared_rules/ and firmware/ are copied in (the .mpy deployment)."""
    import shutil
    sys.path.insert(0, ROOT)
    from host_tools import deploy
    from firmware.hal.calibration import Calibration
    d = os.path.join(dst, name)
    os.makedirs(d)
    files, layout = deploy.board_config(board)
    os.makedirs(os.path.join(d, "config"))
    for path, data in files.items():
        with open(os.path.join(d, path), "wb") as f:
            f.write(data)
    with open(os.path.join(d, "cards.json"), "w") as f:
        for uid, kind in _deck(dst, board, cards):
            f.write(json.dumps([uid, kind]) + "\n")
    variant = json.loads(files["config/variant.json"])
    if variant.get("ranked_pieces"):
        n = len(json.loads(files["config/sensors.json"])["sensors"])
        cal = Calibration(n)
        cal.set_ranks(RANK_LEVELS, KING_SWING, KING_SWING)
        with open(os.path.join(d, "calib.json"), "w") as f:
            json.dump(cal.to_json(), f)
    if tree is not None:
        for pkg in ("shared_rules", "firmware"):
            shutil.copytree(os.path.join(tree, pkg), os.path.join(d, pkg))
        board_data(d, layout)
    shutil.copy(os.path.join(ROOT, "host_tools", "bench", "mp_rom_game.py"), d)
    blank_journal(d)
    return d


def board_data(tree, layout):
    """The data files in device tree `tree` as `agentboard deploy` puts them on a board of
    `layout` (its games' tables, the registry trimmed to them), in place of the whole set."""
    import shutil
    sys.path.insert(0, ROOT)
    from host_tools import deploy
    shutil.rmtree(os.path.join(tree, deploy.DATA))
    os.makedirs(os.path.join(tree, deploy.DATA))
    for path, data in deploy.data_files(layout).items():
        with open(os.path.join(tree, path), "wb") as f:
            f.write(data)


def app_image(dst, board):
    """The ROMFS image of the harness and the firmware with `board`'s data files, as
    dst/app-BOARD.romfs (heap_images built what it packs); returns its size in bytes."""
    import shutil
    sys.path.insert(0, ROOT)
    from host_tools import deploy
    src = os.path.join(dst, "app-" + board)
    shutil.copytree(os.path.join(dst, "harness"), src)
    board_data(src, deploy.board_config(board)[1])
    return _romfs(src, src + ".romfs")


def _romfs(src, out):
    """Packs src into a ROMFS image at out; returns its size in bytes."""
    import contextlib
    import io
    from mpremote.romfs import make_romfs
    with contextlib.redirect_stdout(io.StringIO()):  # it lists the tree it packs
        image = make_romfs(src, mpy_cross=False)
    with open(out, "wb") as f:
        f.write(image)
    return len(image)


def heap_images(dst):
    """Builds in dst the device tree as .mpy and harness.romfs (mp_game_heap.py and the
    stand-ins), the image the .mpy heap runs mount, and beside it dst/harness/ with the
    firmware's .mpy files too, which app_image packs per board; returns the image's size in
    bytes, which the unix port holds in its heap."""
    import shutil
    build_device_tree(dst)
    # the harness runs from a ROMFS image (in place, as from flash): it measures, it is not
    # firmware, so neither its bytecode nor the image counts
    harness = os.path.join(dst, "harness")
    os.makedirs(harness)
    # with it the stand-ins for `machine` and `neopixel`: on an ESP32 the one is C and the
    # other frozen into the firmware, so neither's code takes heap there
    stubs = os.path.join(ROOT, "host_tools", "bench", "stubs")
    sources = [os.path.join(ROOT, "host_tools", "bench", "mp_game_heap.py")] + [
        os.path.join(stubs, f) for f in sorted(os.listdir(stubs)) if f.endswith(".py")]
    for src in sources:
        name = os.path.basename(src)[:-3] + ".mpy"
        subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", os.path.join(harness, name), src],
                       check=True)
    image = _romfs(harness, os.path.join(dst, "harness.romfs"))
    # the firmware's .mpy files in the board's image too: bytecode and constants run in place
    for pkg in ("shared_rules", "firmware"):
        shutil.copytree(os.path.join(dst, pkg), os.path.join(harness, pkg))
    return image


def game_heap_report(games=HEAP_GAMES, seed=1):
    """The smallest heap a whole game needs with the firmware alone (no simulator in the
    process: host_tools/bench/stubs stand in for the hardware), per board and game, the
    firmware deployed as .mpy files and from a ROMFS image; on the venv's 64-bit port, and
    again on the 32-bit build MICROPYTHON32 names, if it names one. Returns {(board, game,
    players, "mpy"|"romfs", word bytes): wK}."""
    import tempfile
    import shutil
    dst = tempfile.mkdtemp(prefix="agentboard-bench-heap-")
    try:
        harness = heap_images(dst)
        images = {}
        for board, game, counts, cards in games:
            mpy = heap_run_dir(dst, board + "-mpy", board, cards, tree=dst)
            rom = heap_run_dir(dst, board + "-romfs", board, cards)
            images[board] = app_image(dst, board)
            shutil.copy(os.path.join(dst, "harness.romfs"), mpy)
            shutil.copy(os.path.join(dst, "app-%s.romfs" % board), os.path.join(rom, "app.romfs"))
        print("8. Smallest -X heapsize a whole random game needs, firmware alone (targets "
              "%d and %dwK): what the harness keeps alive before the firmware's first import "
              "(the ROMFS image this port holds in its heap, the harness, the stand-ins: on an "
              "ESP32 `machine` is C and its pins constant objects) is not counted. A "
              "non-moving heap is not monotonic in its size (fragmentation falls "
              "differently), so sizes are tried from the top down and the figure is the "
              "smallest from which every larger size tried also finished. a) deployed as "
              ".mpy files (what agentboard deploy does on MicroPython's ESP32_GENERIC build); "
              "b) the same .mpy files in a ROMFS image (needs a firmware built with ROMFS, "
              "which ESP32_GENERIC is not). Each board holds the data files deploy gives it. "
              "On this 64-bit port, where -X heapsize=NwK doubles the bytes of code and names "
              "as well as the words (docs/measuring.md):" % (MPY_TARGET_WK, ROMFS_TARGET_WK))
        figures = _game_heaps(dst, games, seed, harness, images, None)
        exe, why = port32()
        if exe is None:
            print("   The same on a 32-bit build, the ESP32's word size: not run (%s)" % why)
        else:
            print("   The same on a 32-bit build, the ESP32's word size (%s), in KB:" % exe)
            figures.update(_game_heaps(dst, games, seed, harness, images, exe))
        return figures
    finally:
        shutil.rmtree(dst, ignore_errors=True)


def port32(environ=os.environ):
    """(the 32-bit unix port MICROPYTHON32 names, None) or (None, why it is not run)."""
    exe = environ.get(MICROPYTHON32)
    if not exe:
        return None, ("set %s to a 32-bit build of MicroPython's unix port; "
                      "docs/measuring.md says how to build one" % MICROPYTHON32)
    try:
        word = word_bytes(exe)
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        return None, "%s=%s cannot be run as MicroPython (%s)" % (MICROPYTHON32, exe, e)
    if word != 4:
        return None, "%s=%s is a %d-bit port, not a 32-bit one" % (MICROPYTHON32, exe, word * 8)
    return exe, None


# the games whose figure is taken again with the console commands a player's tools send at
# the end of a game (mp_game_heap.py -ops): loading their rare code into the heap a long game
# has fragmented is what a board does then
END_OPS_GAMES = (("agent-dog-4", "agent-dog", 4), ("dog-6", "dog-royal", 6))


def _note_heaps(word, which, mpy_wk, rom_wk):
    """Section 8's figures of one game (which: board, game, players) on a port of `word`-byte
    words, as build/bench.json names them."""
    if word == 8:
        figure("heap.%s.%s.%dp.mpy" % which, mpy_wk, "wK", MPY_TARGET_WK)
        figure("heap.%s.%s.%dp.romfs" % which, rom_wk, "wK", ROMFS_TARGET_WK)
    else:
        figure("heap32.%s.%s.%dp.mpy" % which, mpy_wk, "wK", MPY_TARGET_WK)
        figure("heap32.%s.%s.%dp.romfs" % which, rom_wk, "wK", ROMFS_TARGET_WK)


def _game_heaps(dst, games, seed, harness, images, exe):
    """Section 8's figures on one port (exe; None: the venv's): images, the ROMFS images'
    sizes in bytes (harness: the harness's, images: {board: the board's})."""
    word = word_bytes(exe or os.path.join(BIN, "micropython"))
    per_wk = wk_bytes(word)
    mpy_top, rom_top = HEAP_SEARCH_TOPS[word]
    figures = {}
    for board, game, counts, cards in games:
        mpy = os.path.join(dst, board + "-mpy")
        rom = os.path.join(dst, board + "-romfs")
        print("   %s on the %s board (its ROMFS image %.1f KB):" % (
            game, board, images[board] / 1024.0))
        for players in counts:
            args = [str(seed), str(players), game]
            mpy_wk = _smallest_heap(
                mpy, ["mp_rom_game.py", "harness.romfs"] + args, "a) %d players, .mpy" % players,
                harness / per_wk, top=int(harness / per_wk) + mpy_top, exe=exe)
            rom_wk = _smallest_heap(
                rom, ["mp_rom_game.py", "app.romfs"] + args, "b) %d players, ROMFS" % players,
                images[board] / per_wk, top=int(images[board] / per_wk) + rom_top, exe=exe)
            _note_heaps(word, (board, game, players), mpy_wk, rom_wk)
            figures[(board, game, players, "mpy", word)] = mpy_wk
            figures[(board, game, players, "romfs", word)] = rom_wk
            if (board, game, players) in END_OPS_GAMES:
                figures[(board, game, players, "mpy_end_ops", word)] = _end_ops_heap(
                    mpy, args, (board, game, players), harness / per_wk, mpy_top, exe)
    return figures


def _end_ops_heap(mpy, args, which, harness_wk, top, exe):
    """The .mpy figure of one game (which: board, game, players) with the console commands of
    the game's end after it (status, public, export, undo, new game: mp_game_heap.py's
    END_COMMANDS)."""
    word = word_bytes(exe or os.path.join(BIN, "micropython"))
    wk = _smallest_heap(mpy, ["mp_rom_game.py", "harness.romfs"] + args + ["-ops"],
                        "a+) %d players, .mpy, and the console commands at its end" % which[2],
                        harness_wk, top=int(harness_wk) + top, exe=exe)
    if word == 8:
        figure("heap.%s.%s.%dp.mpy_end_ops" % which, wk, "wK", MPY_TARGET_WK)
    else:
        figure("heap32.%s.%s.%dp.mpy_end_ops" % which, wk, "wK", MPY_TARGET_WK)
    return wk
