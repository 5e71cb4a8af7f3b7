# The simulator's analog front end (host_tools/sim/analog.py) against the figures it is built
# from: the ESP32 ADC as Espressif characterises it (ESP-IDF's esp_adc_cal for the ESP32, done
# over again here from its published formula and tables), the node between a multiplexer and
# its ADC pin (an RC through the pull-down: hardware/design/analog.json and the datasheets in
# host_tools/sim/data/physics.json), and a strip's ground under the LEDs' current. The firmware's
# own view of the ADC (firmware/hal/calibration.py) must agree with the simulator's.
import math

import pytest

from firmware.hal import calibration
from host_tools.sim import analog
from host_tools.games.track.world import TrackWorld
from host_tools.sim.world import load_json, ANALOG_DESIGN

PHYS = load_json("host_tools/sim/data/physics.json")
ADC = PHYS["adc"]
FRONT = PHYS["front_end"]
VARIANTS = ("agent-dog-4", "dog-4", "dog-6", "agent-avenue")
DEAD_V = 0.6  # the firmware's fault line (calibration.FAULT_LO): a dead sensor reads under it


def espressif_mv(code):
    """esp_adc_cal_raw_to_voltage for the ESP32's ADC1 at 11 dB and 12 bits (ESP-IDF): the
    line up to code 2880, the Vref-interpolated table from 2944, the two blended between."""
    vref = ADC["vref_mv"]
    coeff_a = vref * ADC["atten_scale"] // 4096
    linear = (coeff_a * code + 32768) // 65536 + ADC["offset_mv"]
    start, step = ADC["lut_from_code"], ADC["lut_step"]
    if code <= start:
        return linear
    i = min((code - start) // step, len(ADC["lut_low_mv"]) - 2)
    lo_v, hi_v = ADC["lut_vref_mv"]
    x1, x2 = vref - lo_v, hi_v - vref
    y1 = code - (start + i * step)
    y2 = start + (i + 1) * step - code
    q11, q12 = ADC["lut_low_mv"][i], ADC["lut_low_mv"][i + 1]
    q21, q22 = ADC["lut_high_mv"][i], ADC["lut_high_mv"][i + 1]
    lut = (x2 * y2 * q11 + x2 * y1 * q12 + x1 * y2 * q21 + x1 * y1 * q22) / (
        (hi_v - lo_v) * step)
    if code >= start + step:
        return lut
    d = code - start
    return (linear * (step - d) + lut * d) / step


def quiet_world(board, design=None):
    w = TrackWorld(3, board=board, cards="dog-cards" if board.startswith("dog") else None) \
        if board != "agent-avenue" else _avenue()
    w.phys["noise_sigma_mv"] = 0.0  # one reading's noise would hide a millivolt
    if design is not None:
        w._front_end(design)
    return w


def _avenue():
    from host_tools.games.avenue.world import AvenueWorld
    return AvenueWorld(3)


def old_design():
    """hardware/design/analog.json before issue 27 (as tests/mp/analog_tests.py has it)."""
    d = load_json(ANALOG_DESIGN)
    d["grounds"] = "shared"
    d["adc_pull_down_ohm"] = 100000
    d["harness"]["analog_ground_conductors"] = 0
    d["harness"]["led_ground_conductors"] = 5
    d["strip"]["led_ground_mm"] = 0.5
    return d


def select(w, channel):
    """The scanner's select lines onto `channel` (one pin write per line, as the firmware)."""
    for b, gpio in enumerate(w.pins["mux"]["select"]):
        w.pin_out(gpio, channel >> b & 1)


# -- the ADC ---------------------------------------------------------------------------------

def test_the_adc_reads_every_input_as_espressif_characterises_the_esp32():
    w = TrackWorld(1)
    for code in range(1, 4096, 3):
        got = w.fe.adc.code_of(espressif_mv(code) / 1000.0)
        assert abs(got - code) <= 1, (code, espressif_mv(code), got)


def test_the_adc_reads_zero_under_its_offset_and_bends_above_2_45_v():
    adc = TrackWorld(1).fe.adc
    assert adc.code_of(0.0) == adc.code_of(0.14) == 0          # no reading near 0 V
    assert adc.code_of(0.15) > 0
    # in the middle, 0.806 mV a code (Vref 1100 mV): VCC/2 reads code 1872
    assert abs(adc.code_of(1.65) - (1650 - 142) / (1100 * 196602 / 4096 / 65536)) < 1
    per_100mv_mid = adc.code_of(1.7) - adc.code_of(1.6)
    per_100mv_top = adc.code_of(3.0) - adc.code_of(2.9)
    assert per_100mv_top > 1.6 * per_100mv_mid                   # the table's bend
    assert adc.code_of(3.14) == 4095 and adc.code_of(3.0) < 4095  # full scale at ~3.13 V
    assert adc.u16(1.65) == adc.code_of(1.65) << 4 | adc.code_of(1.65) >> 8  # read_u16


def test_the_firmware_reads_the_adc_as_the_simulator_makes_it():
    adc = TrackWorld(1).fe.adc
    for v in (0.6, 1.0, 1.65, 2.0, 2.4):
        assert abs(calibration.volts_to_u16(v) - adc.u16(v)) <= 16, v   # within one code
    fe = TrackWorld(1).fe
    assert abs(calibration.FRONT_END_GAIN - fe.gain) < 0.0005


# -- the node between a multiplexer and its ADC pin ------------------------------------------

def node_pf(board, pin):
    """The node's capacitance from the datasheets: each multiplexer on that pin (its common
    capacitance and its ribbon conductor) and the ADC pin."""
    design = load_json(ANALOG_DESIGN)
    ribbon = FRONT["ribbon_pf_per_m"] * design["harness"]["length_m"]
    muxes = 2 if board == "dog-6" and pin < 3 else 1   # dog-6: bank 1 on pins 36, 39, 34
    return muxes * (FRONT["mux_com_pf"] + ribbon) + FRONT["adc_pin_pf"]


def after_a_live_channel(w, dead_loc, live_loc, sample_us=None):
    """Reads live_loc, then switches to dead_loc (its sensor dead) and reads it: both
    readings and the voltage the first left on the node."""
    i, j = w.index[dead_loc], w.index[live_loc]
    gpio = w.pins["mux"]["adc"][0]
    w.fault("dead_sensor", dead_loc, 1000)
    if w.bank_on:
        w.pin_out(w.pins["mux"]["bank"][0], 0)
    select(w, [ch for ch in range(16) if w.sensor_at[0][ch] == j][0])
    first = w.adc_u16(gpio)
    if sample_us is not None:
        w.fe.sample_us = sample_us
    select(w, [ch for ch in range(16) if w.sensor_at[0][ch] == i][0])
    return first, w.adc_u16(gpio), w.fe.nv[0]


def test_a_dead_channel_reads_the_previous_one_decaying_through_the_old_pull_down():
    # 100 kohm and 150 pF (two multiplexers on the pin): 15 us; the sample 10 us after the
    # select line: 51 % of the previous channel's voltage, below an empty space's reading
    w = quiet_world("dog-6", old_design())
    first, dead, _ = after_a_live_channel(w, "5", "4")
    tau = 100000 * node_pf("dog-6", 0) * 1e-6
    assert abs(tau - 15.0) < 0.01
    v_first = calibration.u16_to_volts(first)
    expect = v_first * math.exp(-PHYS["adc_sample_after_us"] / tau)
    assert abs(calibration.u16_to_volts(dead) - expect) < 0.003, (dead, expect)
    assert calibration.FAULT_LO < dead < calibration.MID - calibration.NOMINAL_SWING // 2


@pytest.mark.parametrize("board", VARIANTS)
def test_the_design_reads_a_dead_channel_as_a_fault_for_any_sample_after_3_us(board):
    # the worst case: the previous channel at the sensor's highest output (3.1 V)
    w = quiet_world(board)
    pd = load_json(ANALOG_DESIGN)["adc_pull_down_ohm"]
    assert pd * node_pf(board, 0) * 1e-6 < 1.6   # time constant in us
    w.volts = lambda i: PHYS["output_max_v"]
    first, dead, _ = after_a_live_channel(w, w.locs[w.sensor_at[0][1]],
                                          w.locs[w.sensor_at[0][0]], sample_us=3)
    assert first > calibration.volts_to_u16(2.9)
    assert dead < calibration.volts_to_u16(DEAD_V)


def test_a_driven_channel_settles_long_before_the_sample():
    fe = quiet_world("dog-6").fe
    for a in range(fe.nadc):
        # 40 time constants (far past 12 bits) in under a quarter of the time to the sample
        assert analog.SETTLED * fe.tau_drive[a] < PHYS["adc_sample_after_us"] / 4


# -- a strip's ground under the LEDs ---------------------------------------------------------

def lit_rise(w, loc, leds):
    """How far the reading of the empty sensor at loc rises when `leds` light white at the
    firmware's brightness (96), in volts at the pin."""
    gpio = w.pins["mux"]["adc"][w.index[loc] // 16 % w.nadc]
    ch = [c for c in range(16) if w.sensor_at[w.index[loc] // 16][c] == w.index[loc]][0]
    select(w, ch)
    dark = w.adc_u16(gpio)
    buf = bytearray(3 * len(w.leds_map))
    for k in leds:
        buf[3 * k:3 * k + 3] = bytes([96, 96, 96])
    w.led_write(buf, (1, 0, 2), 3)
    lit = w.adc_u16(gpio)
    return (lit - dark) / calibration.U16_PER_CODE * calibration.ADC_CODE_V, \
        calibration.u16_to_volts(dark)


def test_the_old_shared_ground_raises_a_far_sensor_by_half_the_lit_strips_drop():
    w = quiet_world("dog-4", old_design())
    rise, dark = lit_rise(w, "15", range(16))
    # by hand: 16 LEDs each drawing 3 x 20 mA x 96/255 more than dark (their 1 mA idle is
    # there in both); 5 ribbon conductors of 0.4 m of 28 AWG carry them all, each 25 mm of
    # 0.5 mm x 35 um copper on the strip those beyond it
    amps = 3 * 20 * 96 / 255.0 / 1000
    ribbon = 0.213 * 0.4 / 5
    pitch = 1.72e-8 * 0.025 / (0.5e-3 * 35e-6)
    ground = ribbon * 16 * amps + pitch * amps * sum(range(1, 17))
    assert 0.080 < ground < 0.090
    gain = 100000.0 / (100000 + FRONT["mux_on_ohm"] + FRONT["sensor_output_ohm"])
    expect = ground * (1 - dark / gain / PHYS["vcc"]) * gain   # ratiometric: about half
    assert abs(rise - expect) < 0.0015, (rise, expect)
    assert rise > 0.031   # past the citizen/jester edge (hardware/README.md: 31 mV)


def test_the_separate_grounds_keep_every_reading_where_it_was_under_lit_leds():
    w = quiet_world("dog-4")
    rise, _ = lit_rise(w, "15", range(len(w.leds_map)))
    assert rise == 0


# -- the conversion's common path ---------------------------------------------------------------

def reference_read(w, gpio):
    """One conversion the long way: the sensor (World.volts, its noise), the node
    (FrontEnd.read) and the ADC (Adc.u16) as separate calls, as a faulty sensor's read goes.
    World._conversions writes the common case out in one generator for speed."""
    t = w.clock_us + w.phys["adc_sample_after_us"]
    w.advance_us(w.phys["adc_conversion_us"])
    a = w.adc_mux[gpio]
    i = w._routed(a)
    return w._undriven(a, t) if i < 0 else w.fe.read(a, t, i, w.volts(i))


@pytest.mark.parametrize("board", ["agent-dog-4", "dog-6"])
@pytest.mark.parametrize("shared", [False, True])
def test_a_conversion_reads_what_the_sensor_the_node_and_the_adc_make_of_it(board, shared):
    # two boards of one seed, their pieces moved and LEDs lit alike: one read by adc_u16, the
    # other through the functions the generator's common path writes out; every reading of
    # three scans, select lines stepped as the firmware steps them, the same
    worlds = [TrackWorld(3, board=board, cards="dog-cards" if board.startswith("dog") else None)
              for _ in range(2)]
    lit = bytearray([200, 40, 90] * len(worlds[0].leds_map))
    for w in worlds:
        if shared:
            w._front_end(old_design())
        held = [loc for loc in w.locs if w.on[w._loc(loc)] is not None][:3]
        free = [loc for loc in w.locs if w.on[w._loc(loc)] is None][:3]
        for k in range(3):
            w.place(w.lift(held[k]), free[k], upside_down=k == 1)
        w.led_write(lit, (1, 0, 2), 3)
        for gpio in w.bank_bits:  # the first bank on (E is active low), any other off
            w.pin_out(gpio, w.bank_bits[gpio])
    fast, slow = worlds
    codes = []
    for _ in range(3):
        for ch in range(16):
            for w in worlds:
                select(w, ch)
            for gpio in sorted(fast.adc_mux):
                codes.append(fast.adc_u16(gpio))
                assert codes[-1] == reference_read(slow, gpio), (board, shared, ch, gpio)
    assert fast.clock_us == slow.clock_us
    assert len(set(codes)) > 20  # sensors read, with their noise: not a board of empty nodes


def test_both_banks_on_is_refused_at_the_read_and_the_next_reads_go_on():
    # the firmware enabling both banks of the 6-seat board's multiplexers has two outputs
    # drive one ADC pin: the read raises, and once a bank is off again the board reads on
    from host_tools.sim.world import SimError
    w = TrackWorld(3, board="dog-6", cards="dog-cards")
    gpio = sorted(w.adc_mux)[0]
    for bank in w.bank_bits:
        w.pin_out(bank, 0)
    with pytest.raises(SimError, match="two banks of multiplexers drive ADC pin %d" % gpio):
        w.adc_u16(gpio)
    with pytest.raises(SimError):
        w.adc_u16(gpio)  # still refused, not a generator that has ended
    second = [g for g in w.bank_bits if w.bank_bits[g] == 1][0]
    w.pin_out(second, 1)  # the first bank alone: channel 0 of pin `gpio` is a sensor there
    assert w.sensor_at[w.adc_mux[gpio]][w.select] >= 0
    assert w.adc_u16(gpio) > 0
