# Calibration: measured baselines and swings, thresholds, and the round trip through flash.
import json
import os

from simboard import fresh, scan_for, state_of, check
from firmware.hal import calibration, measure

SCRATCH = "/tmp"


def empty_board(w):
    """Every piece in a hand: no magnet over any sensor (the start areas have sensors too)."""
    for c in ("red", "blue", "green", "yellow"):
        for k in range(1, 5):
            w.lift("%s:s%d" % (c, k))


def test_baseline_follows_each_sensors_own_offset():
    w, b = fresh(1)
    empty_board(w)
    measure.measure_baseline(b.scanner, b.calib, 16)
    for i in range(96):
        v = w.phys["vcc"] / 2 + w.offset_v[i]
        expect = w.fe.adc.u16(w.fe.at_pin(i, v))  # through the pull-down, as the ADC reads
        # averaging 16 readings with 4 mV noise: within about 2 mV (43 counts) of the truth
        check(abs(b.calib.base[i] - expect) < 120, "sensor %d: %d vs %d" % (
            i, b.calib.base[i], expect))


def test_a_dead_sensor_keeps_its_baseline_and_is_reported():
    w, b = fresh(4)
    empty_board(w)
    i = w.index["30"]
    before = b.calib.base[i]
    w.fault("dead_sensor", "30", 5000)
    bad = measure.measure_baseline(b.scanner, b.calib, 16)
    check(bad == [i], "out of range: %r" % (bad,))
    check(b.calib.base[i] == before, "dead sensor's baseline became %d" % b.calib.base[i])


def test_pieces_measured_where_they_stand_upright_or_upside_down():
    w, b = fresh(5)
    empty_board(w)
    measure.measure_baseline(b.scanner, b.calib, 16)
    w.place("red-1", "1", False)
    w.place("red-2", "5", True)
    ups, downs = measure.measure_pieces(b.scanner, b.calib)
    check((ups, downs) == (1, 1), "measured %d up, %d down" % (ups, downs))
    one, five, six = w.index["1"], w.index["5"], w.index["6"]
    cal = b.calib
    # the model's own field over a space: DRV5055A3 at 15 mV/mT, ~32 mT (hardware/README.md)
    for i, sign, got in ((one, 1, cal.up[one]), (five, -1, cal.down[five])):
        # the ADC's volts a reading, and the sensor's own swing before the pull-down divides it
        swing = sign * (got - cal.base[i]) / calibration.U16_PER_CODE * calibration.ADC_CODE_V
        swing /= w.fe.gain
        check(0.35 < swing < 0.6, "sensor %d swing %.3f V" % (i, swing))
    check(cal.down[one] == 0 and cal.up[five] == 0 and cal.up[six] == cal.down[six] == 0,
          "a sensor measured without a piece over it")


def test_piece_swings_set_the_thresholds_and_flag_weak_sensors():
    w, b = fresh(2)
    cal = b.calib
    cal.set_piece(3, cal.base[3] + 9000, cal.base[3] - 9000)
    check(cal.up_on[3] == cal.base[3] + 4500 and cal.up_off[3] == cal.base[3] + 2700,
          "thresholds %d %d" % (cal.up_on[3], cal.up_off[3]))
    cal.set_piece(4, cal.base[4] + 1500, cal.base[4] - 9000)
    check(cal.weak() == [4], "weak %r" % (cal.weak(),))


def test_round_trip_through_the_device_file():
    w, b = fresh(3)
    cal = b.calib
    for i in range(0, 96, 7):
        cal.set_piece(i, cal.base[i] + 8000 + i, cal.base[i] - 8100 - i)
    path = SCRATCH + "/calib.json"
    cal.save(path)
    again = calibration.load(path, 96)
    check(list(again.base) == list(cal.base) and list(again.up) == list(cal.up) and
          list(again.down) == list(cal.down), "values changed")
    check(list(again.up_on) == list(cal.up_on), "thresholds changed")
    check("calib.json.tmp" not in os.listdir(SCRATCH), "temporary file left behind")


def test_the_board_uses_a_stored_calibration_at_start():
    w, b = fresh(4, SCRATCH)
    b.calib.set_piece(10, b.calib.base[10] + 7000, b.calib.base[10] - 7000)
    b.save_calibration()
    w2, b2 = fresh(4, SCRATCH)
    check(b2.calibrated and b2.calib.up[10] == b.calib.up[10], "not loaded")
    os.remove(SCRATCH + "/calib.json")


def test_missing_and_broken_files_are_told_apart():
    check(calibration.load(SCRATCH + "/none.json", 96) is None, "missing file")
    bad = SCRATCH + "/bad.json"
    for text, why in (("{not json", "not JSON"), (json.dumps({"format": "x"}), "not an agentboard"),
                      (json.dumps({"format": calibration.FORMAT, "n": 95}), "95"),
                      (json.dumps({"format": calibration.FORMAT, "n": 96, "base": [1] * 96,
                                   "up": [1] * 96, "down": [-1] + [0] * 95,
                                   "fault_lo": 1, "fault_hi": 2}), "down[0]")):
        with open(bad, "w") as f:
            f.write(text)
        try:
            calibration.load(bad, 96)
            raise AssertionError("accepted %s" % text)
        except ValueError as e:
            check(why in str(e), "message %r lacks %r" % (str(e), why))


def test_a_broken_calibration_file_is_reported_not_replaced():
    with open(SCRATCH + "/calib.json", "w") as f:
        f.write("{broken")
    w, b = fresh(5, SCRATCH)
    check(not b.calibrated and "not JSON" in b.calib_error, "error %r" % (b.calib_error,))
    with open(SCRATCH + "/calib.json") as f:
        check(f.read() == "{broken", "the file was overwritten")
    os.remove(SCRATCH + "/calib.json")
    scan_for(b, 200)
    check(state_of(b, "red:s1") == "upright", "nominal thresholds do not work")
