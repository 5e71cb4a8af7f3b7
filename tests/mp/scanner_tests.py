# The sensor scanner against the simulated board (DRV5055A3 sensors, 74HC4067 muxes, ESP32 ADC).
import time
import micropython

from simboard import fresh, scan_for, state_of, check
from firmware.hal.scanner import Scanner, UP, EMPTY
from firmware.hal.calibration import Calibration

SCRATCH = "/tmp"


def test_start_position_reads_upright_pieces_on_the_start_area_spots():
    w, b = fresh(1)
    scan_for(b, 200)
    for c in ("red", "blue", "green", "yellow"):
        for k in range(1, 5):
            check(state_of(b, "%s:s%d" % (c, k)) == "upright", "%s:s%d" % (c, k))
    check(state_of(b, "0") == "empty" and state_of(b, "red:h1") == "empty", "empty spaces")


def test_every_location_sees_a_piece_both_ways_up():
    w, b = fresh(2)
    scan_for(b, 200)
    w.lift("red:s1")
    scan_for(b, 200)
    for loc in b.locations:
        if w.on[w.index[loc]] is not None:
            continue
        w.place("red-1", loc)
        scan_for(b, 100)
        check(state_of(b, loc) == "upright", "%s: %s, expected upright" % (loc, state_of(b, loc)))
        w.flip(loc)
        scan_for(b, 100)
        check(state_of(b, loc) == "upside_down", "%s: %s after flip" % (loc, state_of(b, loc)))
        w.lift(loc)
        scan_for(b, 100)
        check(state_of(b, loc) == "empty", "%s: %s after lift" % (loc, state_of(b, loc)))


def test_a_change_is_reported_after_four_stable_scans_not_before():
    w, b = fresh(3)
    scan_for(b, 200)
    w.lift("red:s1")
    w.place("red-1", "10")
    sc = b.scanner
    for k in range(1, 4):
        check(sc.scan() == 0, "reported after %d scans" % k)
    n = sc.scan()
    got = sorted(b.locations[sc.changed[j]] for j in range(n))
    check(got == ["10", "red:s1"], "scan 4 reported %r" % (got,))


def test_a_slide_registers_only_where_the_piece_lands():
    w, b = fresh(4)
    scan_for(b, 200)
    w.lift("blue:s2")
    scan_for(b, 200)
    path = [str(i) for i in range(10, 17)]
    w.slide("blue-2", path)
    seen = scan_for(b, 600)
    check(seen == [("16", "upright")], "slide reported %r" % (seen,))


def test_a_slide_passes_over_occupied_spaces_without_disturbing_them():
    w, b = fresh(5)
    w.lift("red:s1")
    w.place("red-1", "12")
    scan_for(b, 200)
    w.lift("blue:s1")
    scan_for(b, 200)
    w.slide("blue-1", ["10", "11", "12", "13", "14"])
    seen = scan_for(b, 500)
    check(seen == [("14", "upright")], "reported %r" % (seen,))
    check(state_of(b, "12") == "upside_down" or state_of(b, "12") == "upright", "12 lost")


def test_short_noise_bursts_are_ignored():
    w, b = fresh(6)
    scan_for(b, 200)
    for loc in ("5", "12", "red:h2", "green:s3"):
        w.fault("noise", loc, 40)
        seen = scan_for(b, 200)
        check(seen == [], "noise on %s reported %r" % (loc, seen))


def test_a_dead_sensor_is_reported_as_faulty_by_location_then_recovers():
    w, b = fresh(7)
    scan_for(b, 200)
    w.fault("dead_sensor", "yellow:s2", 1000)
    seen = scan_for(b, 400)
    check(seen == [("yellow:s2", "fault")], "dead sensor gave %r" % (seen,))
    seen = scan_for(b, 1000)
    check(seen == [("yellow:s2", "upright")], "after the fault: %r" % (seen,))


def test_a_full_scan_reads_96_sensors_with_16_select_writes():
    w, b = fresh(8)
    before = w.adc_reads
    t0 = time.ticks_us()
    b.scanner.scan()
    check(w.adc_reads - before == 96, "read %d sensors" % (w.adc_reads - before))
    # 96 conversions at 35 us each is the ADC time a scan cannot avoid
    check(time.ticks_diff(time.ticks_us(), t0) >= 96 * 35, "scan took no ADC time")


class _Pin:
    def __init__(self):
        self.v = 0

    def value(self, v=None):
        if v is not None:
            self.v = v
        return self.v


class _Adc:
    # returns fixed integer readings, so only the scanner's own allocations are counted
    def __init__(self, readings):
        self.readings = readings
        self.k = 0

    def read_u16(self):
        self.k = (self.k + 1) % len(self.readings)
        return self.readings[self.k]


def test_scan_allocates_nothing():
    cal = Calibration(96)
    readings = [cal.base[0], cal.up_on[0] + 500, cal.dn_on[0] - 500, 100]
    sc = Scanner([_Pin() for _ in range(4)], [_Adc(readings) for _ in range(6)],
                 list(range(96)), cal)
    sc.scan()
    before = micropython.mem_total()
    for _ in range(20):
        sc.scan()
    check(micropython.mem_total() - before == 0,
          "20 scans allocated %d bytes" % (micropython.mem_total() - before))
