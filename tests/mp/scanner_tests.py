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


def test_a_change_is_reported_after_two_stable_scans_not_before():
    w, b = fresh(3)
    scan_for(b, 200)
    w.lift("red:s1")
    w.place("red-1", "10")
    sc = b.scanner
    check(sc.scan() == 0, "reported after 1 scan")
    n = sc.scan()
    got = sorted(b.locations[sc.changed[j]] for j in range(n))
    check(got == ["10", "red:s1"], "scan 2 reported %r" % (got,))


def passes(seen, path):
    """Whether seen is a slide over path as the scanner reports it: each location taken, then
    empty once the piece has gone on (the next one may come first), the last one taken."""
    for j in range(len(path)):
        at = path[j]
        mine = [s[1] for s in seen if s[0] == at]
        if mine != (["upright"] if j == len(path) - 1 else ["upright", "empty"]):
            return False
        if j and seen.index((at, "upright")) < seen.index((path[j - 1], "upright")):
            return False  # out of order
    return True


def test_a_slide_is_seen_on_each_space_it_passes_and_stays_where_it_lands():
    # the simulator's slide rests about 50 ms on each location (host_tools/sim/data/physics.json):
    # two or three scans, held still, so each is seen; the referee follows it (judge.in_transit)
    w, b = fresh(4)
    scan_for(b, 200)
    w.lift("blue:s2")
    scan_for(b, 200)
    path = [str(i) for i in range(10, 17)]
    w.slide("blue-2", path)
    seen = scan_for(b, 600)
    check(passes(seen, path), "slide reported %r" % (seen,))
    check(state_of(b, "16") == "upright", "16 after the slide: %s" % state_of(b, "16"))


def test_a_slide_passes_over_occupied_spaces_without_disturbing_them():
    w, b = fresh(5)
    w.lift("red:s1")
    w.place("red-1", "12")
    scan_for(b, 200)
    w.lift("blue:s1")
    scan_for(b, 200)
    w.slide("blue-1", ["10", "11", "12", "13", "14"])
    seen = scan_for(b, 500)
    check(passes(seen, ["10", "11", "13", "14"]), "reported %r" % (seen,))
    check(state_of(b, "12") == "upside_down" or state_of(b, "12") == "upright", "12 lost")


def test_noise_bursts_short_and_long_are_ignored():
    # a burst's readings scatter over the sensor's whole output: two conversions more never
    # agree with one for long, so no scan counts towards a change, however long the burst
    w, b = fresh(6)
    scan_for(b, 200)
    for loc, ms in (("5", 40), ("12", 40), ("red:h2", 500), ("green:s3", 1000)):
        w.fault("noise", loc, ms)
        seen = scan_for(b, ms + 200)
        check(seen == [], "noise on %s for %d ms reported %r" % (loc, ms, seen))


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
    scan_for(b, 200)  # the pieces in the start areas read (each confirmed, below)
    before = w.adc_reads
    t0 = time.ticks_us()
    b.scanner.scan()
    check(w.adc_reads - before == 96, "read %d sensors" % (w.adc_reads - before))
    # 96 conversions at 35 us each is the ADC time a scan cannot avoid
    check(time.ticks_diff(time.ticks_us(), t0) >= 96 * 35, "scan took no ADC time")
    # a reading out of its band is confirmed by two conversions more, on its sensor only
    w.lift("red:s1")
    w.place("red-1", "10")
    before = w.adc_reads
    b.scanner.scan()
    check(w.adc_reads - before == 96 + 2 * 2, "read %d with two sensors changing" % (
        w.adc_reads - before))


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
