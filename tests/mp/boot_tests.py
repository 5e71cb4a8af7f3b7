# Boot: 240 MHz, safe boot with `back` held, the monitor application, the self-test.
import sys
import time

from host_tools.games.track.world import TrackWorld
from simboard import check

SCRATCH = "/tmp"


def run_main(world):
    # main.py as the device runs it, with config in hardware/ instead of the flash's config/
    import firmware.safeboot as sb
    real = sb.requested
    sb.requested = lambda config_dir="hardware", **kw: real(config_dir, **kw)
    import firmware.games.track.app as app
    real_main = app.main
    started = []
    app.main = lambda *a, **kw: started.append(1)
    try:
        if "firmware.main" in sys.modules:
            del sys.modules["firmware.main"]
        __import__("firmware.main")
    finally:
        sb.requested = real
        app.main = real_main
    return started


def test_boot_sets_240_mhz_and_starts_the_application():
    w = TrackWorld(1)
    check(w.cpu_hz == 160000000, "the ESP32 firmware boots at 160 MHz")
    started = run_main(w)
    check(w.cpu_hz == 240000000, "CPU at %d" % w.cpu_hz)
    check(started == [1], "application not started")


def test_holding_back_at_power_up_skips_the_application():
    w = TrackWorld(2)
    w.press("back", 1000)
    started = run_main(w)
    check(started == [], "application started despite safe boot")


def test_a_tap_on_back_at_power_up_is_not_safe_boot():
    w = TrackWorld(3)
    w.press("back", 20)
    check(run_main(w) == [1], "a 20 ms tap skipped the application")


class _NoInput:
    def poll(self):
        return None


def test_application_boots_and_reports_an_unknown_sticker():
    import json
    import firmware.games.track.app as app
    w = TrackWorld(4)
    w.card("04a1b2c3d4e5f6")
    lines = []
    app.main("hardware", SCRATCH, max_scans=30, write=lines.append, inp=_NoInput())
    got = [json.loads(x) for x in lines]
    boot = [e for e in got if e.get("event") == "boot"]
    check(boot and boot[0]["nfc_version"] == 0x92, "boot event: %r" % (got,))
    rej = [e for e in got if e.get("event") == "reject"]
    check(rej and rej[0]["uid"] == "04a1b2c3d4e5f6" and "not enrolled" in rej[0]["reason"],
          "unknown sticker: %r" % (got,))


def test_selftest_passes_on_a_good_board_and_names_a_dead_sensor():
    from firmware import selftest
    import builtins
    real_print = builtins.print
    builtins.print = lambda *a, **kw: None
    try:
        w = TrackWorld(5)
        rep = selftest.run("hardware", SCRATCH)
        check(rep["ok"], "good board: %r" % (rep["problems"],))
        check(len(rep["occupied"]) == 16, "start spots %r" % (rep["occupied"],))
        w = TrackWorld(6)
        w.fault("dead_sensor", "33", 60000)
        rep = selftest.run("hardware", SCRATCH)
    finally:
        builtins.print = real_print
    check(not rep["ok"] and any(p.startswith("33 reads") for p in rep["problems"]),
          "dead sensor: %r" % (rep["problems"],))
