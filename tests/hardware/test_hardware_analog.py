# The analog front end in the generated circuit (hardware/design/circuit.py) for every board
# variant: the sensors and their multiplexers on an analog ground of their own that carries no
# LED current and meets the LED and supply ground at one point on the main board; the sensors'
# 3.3 V filtered at each strip; the LEDs' bulk at each strip; the ADC pins' pull-downs; and the
# front end the simulator reads (hardware/design/analog.json) equal to the parts and harness.
import os

import pytest

import circuits
from hardware.design import circuit, data

# SKiDL builds the circuit
pytestmark = pytest.mark.hardware

ANALOG = data.load_json(os.path.join(data.DESIGN_DIR, "analog.json"))
LIB = data.parts()
VARIANTS = [os.path.basename(f) for f in data.variant_folders()]


def ohms(value):
    """A resistor's value as parts.json writes it (330R, 10k, 1M) in ohms."""
    units = {"R": 1, "k": 1000, "M": 1000000}
    return float(value[:-1]) * units[value[-1]]


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request):
    return data.Variant(os.path.join(data.VARIANTS_DIR, request.param))


@pytest.fixture(scope="module")
def boards(variant):
    return circuits.boards(variant)  # built once per worker, shared


def placed(board, key):
    return [p for p, k in board.placed if k == key]


def net_of(part, pin):
    return circuit.pin_of(part, pin).net.name


def test_the_simulators_front_end_is_the_designs():
    assert ohms(LIB["components"]["r_adc_pd"]["value"]) == ANALOG["adc_pull_down_ohm"]
    pins = LIB["harnesses"]["sensor_strip"]["pins"]
    harness = ANALOG["harness"]
    assert pins.count(circuit.AGND) == harness["analog_ground_conductors"] == 1
    assert pins.count(circuit.GND) == harness["led_ground_conductors"]
    assert ANALOG["grounds"] == "separate"
    # the analog ground beside the sensors' supply, away from the LED lines
    assert pins.index(circuit.AGND) == pins.index(circuit.V3_SENSOR) + 1


def test_sensors_and_multiplexers_return_on_the_analog_ground_alone(boards):
    for board in boards.values():
        for part in placed(board, "sensor") + placed(board, "mux"):
            assert net_of(part, "GND") == circuit.AGND, (board.name, part.ref)
            assert net_of(part, "VCC") == circuit.V3_SENSOR_F, (board.name, part.ref)
        for part in placed(board, "c_sensor"):
            assert {p.net.name for p in part.pins} == {circuit.V3_SENSOR_F, circuit.AGND}
        for part in placed(board, "led"):
            assert net_of(part, "VSS") == circuit.GND, (board.name, part.ref)


def test_the_grounds_meet_only_at_the_main_boards_star_point(boards):
    main = boards["main"]
    [tie] = placed(main, "gnd_tie")
    assert {p.net.name for p in tie.pins} == {circuit.AGND, circuit.GND}
    # no other two-pin part (a capacitor, a resistor) bridges them anywhere
    for board in boards.values():
        for part, key in board.placed:
            nets = {p.net.name for p in part.pins if p.net is not None}
            if key != "gnd_tie" and len(part.pins) == 2:
                assert nets != {circuit.AGND, circuit.GND}, (board.name, part.ref, key)


def test_every_adc_pin_is_pulled_down_to_the_analog_ground(variant, boards):
    pulls = {}
    for r in placed(boards["main"], "r_adc_pd"):
        nets = sorted(p.net.name for p in r.pins)
        assert nets[0] == circuit.AGND, nets
        pulls[nets[1]] = r
    assert sorted(pulls) == sorted("MUX%d_Z" % m for m in range(len(variant.pins["mux"]["adc"])))


def test_each_sensor_strip_filters_its_sensors_supply_and_holds_its_leds_bulk(boards):
    strips = [b for b in boards.values() if placed(b, "mux")]
    assert strips
    for board in strips:
        [bead] = placed(board, "fb_sensor")
        assert {p.net.name for p in bead.pins} == {circuit.V3_SENSOR, circuit.V3_SENSOR_F}
        [cap] = placed(board, "c_strip_analog")
        assert {p.net.name for p in cap.pins} == {circuit.V3_SENSOR_F, circuit.AGND}
        [bulk] = placed(board, "c_strip_led_bulk")
        assert (net_of(bulk, "+"), net_of(bulk, "-")) == (circuit.V5, circuit.GND)
        [header] = [p for p, _ in board.connectors]
        assert net_of(header, circuit.AGND) == circuit.AGND
