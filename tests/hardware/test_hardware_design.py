# The board as a checked design (hardware/design): the circuit SKiDL generates from hardware/'s
# maps passes the electrical rules check, agrees with the maps the firmware reads (traced
# through the generated nets, the way firmware/board.py reads them), and the ERC catches a
# sensor left unconnected and a pin map that gives one GPIO two nets. Also the BOM, the
# connector lists, the netlists and the power budget in hardware/README.md.
import copy
import csv
import os
import re

import pytest

import circuits
from hardware.design import circuit, data, erc, outputs, power
from hardware.design.__main__ import README, readme_budget_block
from conftest import ROOT

# SKiDL builds the circuit
pytestmark = pytest.mark.hardware

HW = os.path.join(ROOT, "hardware")
VARIANT_DIR = os.path.join(HW, "variants", "agent-dog-4")


def load(name):
    return data.load_json(os.path.join(HW, name))


PINS = load("pins.json")
SENSORS = load("sensors.json")["sensors"]
LEDS = load("leds.json")["leds"]


@pytest.fixture(scope="module")
def variant():
    return data.Variant(VARIANT_DIR)


@pytest.fixture(scope="module")
def boards(variant):
    return circuits.boards(variant)  # built once per worker, shared


def parts_of(board, key):
    return [p for p, k in board.placed if k == key]


def pin(part, name):
    return circuit.pin_of(part, name)


def net_pins(p):
    """Every pin on the same net as pin p (p included)."""
    return list(p.net.pins) if p.net is not None else [p]


def socket_pin(main, gpio):
    for s in parts_of(main, "devkit_j2") + parts_of(main, "devkit_j3"):
        for p in s.pins:
            if p.name == "GPIO%d" % gpio:
                return p
    raise AssertionError("GPIO%d not on the DevKit sockets" % gpio)


def strip_connector(main, strip_name):
    for part, mate in main.connectors:
        if mate == strip_name:
            return part
    raise AssertionError(strip_name)


# --- the variant is a data folder, and today's maps are the agent-dog-4 variant ---

def test_variants_are_data_folders():
    folders = data.variant_folders()
    assert "agent-dog-4" in [os.path.basename(f) for f in folders]
    for folder in folders:
        assert data.Variant(folder).strips
    v = data.Variant(VARIANT_DIR)
    assert os.path.samefile(v.maps_dir, HW)     # the maps the firmware, deploy and sim read
    assert v.pins == PINS and v.sensors == SENSORS and v.leds == LEDS


# --- the ERC passes, and the circuit agrees with the maps ---

def test_every_board_passes_the_erc_with_no_errors_and_no_warnings(boards, variant):
    assert list(boards) == ["main"] + ["strip-%d" % m for m in range(len(PINS["mux"]["adc"]))] \
        + [variant.config["led_only_strip"]]
    for board in boards.values():
        assert erc.run_erc(board) == [], board.name


def test_each_sensor_reaches_the_adc_pin_and_channel_of_its_map_entry(boards):
    # firmware/board.py: sensor i is read on ADC pins.mux.adc[mux] with the select lines at
    # `channel`; trace that path through the generated nets for every sensors.json entry.
    main = boards["main"]
    for s in SENSORS:
        strip = boards["strip-%d" % s["mux"]]
        [sensor] = [p for p in parts_of(strip, "sensor") if p.fields["Location"] == s["loc"]]
        [mux] = parts_of(strip, "mux")
        on_out = net_pins(pin(sensor, "OUT"))
        assert pin(mux, "I%d" % s["channel"]) in on_out, s
        assert len(on_out) == 2, s      # the sensor and its mux channel, nothing else
        [header] = [p for p, _ in strip.connectors]
        z = [p.name for p in net_pins(pin(mux, "COM")) if p.part is header]
        assert z == ["MUX_Z"], s
        main_z = pin(strip_connector(main, strip.name), "MUX_Z")
        assert socket_pin(main, PINS["mux"]["adc"][s["mux"]]) in net_pins(main_z), s
    placed = {p.fields["Location"] for b in boards.values() for p in parts_of(b, "sensor")}
    assert placed == {s["loc"] for s in SENSORS}


def test_select_lines_run_from_their_gpios_to_every_multiplexer(boards):
    main = boards["main"]
    for i, gpio in enumerate(PINS["mux"]["select"]):
        on_gpio = net_pins(socket_pin(main, gpio))
        for m in range(len(PINS["mux"]["adc"])):
            header = strip_connector(main, "strip-%d" % m)
            assert pin(header, "MUX_S%d" % i) in on_gpio
            strip = boards["strip-%d" % m]
            [mux] = parts_of(strip, "mux")
            [sheader] = [p for p, _ in strip.connectors]
            assert pin(sheader, "MUX_S%d" % i) in net_pins(pin(mux, "S%d" % i))


def test_the_led_chain_follows_leds_json_from_the_data_gpio(boards):
    main = boards["main"]
    [shifter] = parts_of(main, "shifter")
    assert pin(shifter, "1A") in net_pins(socket_pin(main, PINS["leds"]["pin"]))
    order = []
    here = pin(shifter, "1Y")
    for _ in range(len(boards)):
        hops = [p for p in net_pins(here) if p is not here and p.name == "LED_DIN"]
        if not hops:
            break
        [main_din] = hops
        strip = boards[dict((id(p), m) for p, m in main.connectors)[id(main_din.part)]]
        [sheader] = [p for p, _ in strip.connectors]
        [r] = [p.part for p in net_pins(pin(sheader, "LED_DIN")) if p.part is not sheader]
        nxt = [p for p in net_pins(r.pins[1] if r.pins[0].net is pin(sheader, "LED_DIN").net
                                   else r.pins[0]) if p.name == "DIN"]
        while nxt:
            led = nxt[0].part
            order.append(led.fields["Location"])
            nxt = [p for p in net_pins(pin(led, "DOUT")) if p.name == "DIN"]
        dout_main = pin(strip_connector(main, strip.name), "LED_DOUT")
        here = dout_main
    assert order == LEDS


def test_every_gpio_of_the_pin_map_is_wired_and_no_other(boards):
    main = boards["main"]
    used = set(PINS["mux"]["select"] + PINS["mux"]["adc"]) | {
        PINS["nfc"][k] for k in ("sck", "mosi", "miso", "cs", "rst")} | {
        PINS["leds"]["pin"], PINS["buttons"]["confirm"], PINS["buttons"]["back"],
        PINS["buzzer"]["pin"]}
    for s in parts_of(main, "devkit_j2") + parts_of(main, "devkit_j3"):
        for p in s.pins:
            if p.name.startswith("GPIO"):
                wired = p.net is not None and p.net.name != outputs.NO_CONNECT
                assert wired == (int(p.name[4:]) in used), p.name


# --- the ERC can fail ---

def test_erc_fails_on_an_unconnected_sensor_output(variant):
    strip = circuit.build_strip(variant, variant.strips[0])
    [sensor] = [p for p in parts_of(strip, "sensor") if p.fields["Location"] == "5"]
    pin(sensor, "OUT").disconnect()
    found = erc.run_erc(strip)
    assert any("Unconnected pin" in m and "pin 2/OUT" in m and sensor.ref in m
               for _, m in found), found


def test_erc_fails_when_the_pin_map_puts_two_nets_on_one_gpio(variant):
    pins = copy.deepcopy(PINS)
    pins["buzzer"]["pin"] = pins["leds"]["pin"]     # the buzzer onto the LED data GPIO
    main = circuit.build_main(data.Variant(VARIANT_DIR, pins=pins))
    found = erc.run_erc(main)
    errors = [m for sev, m in found if sev == erc.ERROR]
    assert errors and "BUZZER and LED_DATA_3V3" in errors[0] \
        and "GPIO%d" % PINS["leds"]["pin"] in errors[0], found


def test_an_input_only_gpio_driving_the_leds_is_refused(variant):
    # The LED data line's pull-down (it floats during reset) is a passive pin, which SKiDL's
    # ERC takes for a driver: the GPIO check is what names an input-only pin there
    from hardware.design import gpio_check
    pins = copy.deepcopy(PINS)
    pins["leds"]["pin"], pins["mux"]["adc"][1] = pins["mux"]["adc"][1], pins["leds"]["pin"]
    assert pins["leds"]["pin"] in (34, 35, 36, 39)
    problems = gpio_check.check(pins)
    assert any(p.startswith("leds.pin = GPIO%d" % pins["leds"]["pin"]) and "input only" in p
               for p in problems), problems


def test_maps_that_cannot_be_wired_are_refused_with_a_reason():
    sensors = copy.deepcopy(SENSORS)
    sensors[1]["channel"] = sensors[0]["channel"]
    with pytest.raises(data.DesignError, match="channel 0 is taken twice"):
        data.Variant(VARIANT_DIR, sensors=sensors)
    leds = LEDS[:3] + LEDS[20:21] + LEDS[3:20] + LEDS[21:]
    with pytest.raises(data.DesignError, match="re-enters strip-0"):
        data.Variant(VARIANT_DIR, leds=leds).led_runs()
    pins = copy.deepcopy(PINS)
    pins["buzzer"]["pin"] = 37      # an ESP32 GPIO the DevKitC does not bring out
    with pytest.raises(data.DesignError, match="not on the ESP32-DevKitC"):
        circuit.build_main(data.Variant(VARIANT_DIR, pins=pins))


# --- what `make hardware` writes ---

@pytest.fixture(scope="module")
def written(variant, boards, tmp_path_factory):
    out = tmp_path_factory.mktemp("hardware")
    summary = outputs.write_variant(variant, str(out), boards=list(boards.values()))
    return summary


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def count_refs(refs):
    """How many references 'C1-C3 C5' names (4)."""
    n = 0
    for item in refs.split():
        first, _, last = item.partition("-")
        n += int(re.sub(r"\D", "", last)) - int(re.sub(r"\D", "", first)) + 1 if last else 1
    return n


def test_bom_counts_follow_the_maps(written):
    rows = read_csv(os.path.join(written["folder"], "bom.csv"))
    assert rows[0] == ["board", "reference", "value", "part number", "footprint", "quantity",
                       "why"]
    qty = {}
    for board, refs, value, pn, fp, n, why in rows[1:]:
        assert why and pn and value, (board, refs)
        qty[value] = qty.get(value, 0) + int(n)
        if board != outputs.OFF_BOARD:
            assert fp.count(":") == 1, fp
            assert count_refs(refs) == int(n), (board, refs, n)
    assert qty["DRV5055A3"] == len(SENSORS) == 96
    assert qty["WS2812B"] == len(LEDS) == 100
    assert qty["74HC4067"] == len(PINS["mux"]["adc"])
    assert qty["2x08 IDC"] == 2 * len(PINS["mux"]["adc"])       # both ends of each ribbon
    assert qty["ESP32-DevKitC-32E"] == 1 and qty["RC522 module"] == 1
    decoupling = {}
    for board, refs, value, pn, fp, n, why in rows[1:]:
        if value == "100nF":
            decoupling[why] = decoupling.get(why, 0) + int(n)
    # one per sensor, one per LED, one per IC (a mux on each strip, the level shifter), the
    # bootstrap capacitor of each buck (the sensors' and the card readers')
    assert sorted(decoupling.values()) == sorted(
        [len(SENSORS), len(LEDS), len(PINS["mux"]["adc"]) + 1, 2])


def test_each_netlist_names_a_footprint_for_every_part(written):
    for board in written["boards"]:
        with open(os.path.join(written["folder"], board.name + ".net"), encoding="utf-8") as f:
            text = f.read()
        comps = re.findall(r'\(comp\s+\(ref "([^"]+)"\).*?\(footprint "([^"]*)"\)', text, re.S)
        assert len(comps) == len(board.placed), board.name
        assert all(re.match(r"^[\w.-]+:[\w.+-]+$", fp) for _, fp in comps), board.name
        assert sorted(ref for ref, _ in comps) == sorted(p.ref for p, _ in board.placed)


def test_connection_lists_mate_pin_for_pin(written):
    folder = os.path.join(written["folder"], "connections")
    main = written["boards"][0]
    for part, strip_name in main.connectors:
        if not strip_name.startswith("strip-") and strip_name != "seats":
            continue
        mine = read_csv(os.path.join(folder, "main-%s.csv" % part.ref))
        theirs = read_csv(os.path.join(folder, "%s-J1.csv" % strip_name))
        assert mine[0] == ["pin", "signal", "net", "on this board", "mates with"]
        assert [r[:2] for r in mine[1:]] == [r[:2] for r in theirs[1:]], strip_name
        assert all(r[4] == "%s J1 pin %s" % (strip_name, r[0]) for r in mine[1:])
    nfc = read_csv(os.path.join(folder, "main-J4.csv"))
    by_signal = {r[1]: r[2] for r in nfc[1:]}
    assert by_signal["SDA"] == "NFC_CS" and by_signal["IRQ"] == "(not connected)"


# --- the power budget ---

def test_power_budget_from_datasheet_figures(written):
    b = written["budget"]
    sensor_ma = len(SENSORS) * 6.0          # DRV5055: 6 mA typical, 10 mA max
    mux_ma = len(PINS["mux"]["adc"]) * 0.008
    buck = 3.3 / (5.0 * 0.85)
    leds = min(len(LEDS) * (3 * PINS["power"]["led_ma_per_channel"]
                            + PINS["power"]["led_idle_ma"]), PINS["power"]["led_budget_ma"])
    esp_ma = 68.0                           # ESP32 at 240 MHz, through the DevKit's LDO
    reader_ma = 16.5 + 60.0                 # MFRC522 with the antenna on, on its own buck
    typ = (sensor_ma + mux_ma) * buck + reader_ma * buck + esp_ma + leds + 0.02
    assert b.input_typ_ma == pytest.approx(typ)
    mx = (len(SENSORS) * 10.0 + len(PINS["mux"]["adc"]) * 0.08) * buck + 116.5 * buck \
        + (240.0 + 2.6) + leds + 1.37 + 5.0
    assert b.input_max_ma == pytest.approx(mx)
    assert b.input_max_ma < b.rating_ma


def test_readme_carries_the_computed_power_budget(written):
    with open(README, encoding="utf-8") as f:
        block = readme_budget_block(f.read())
    assert block is not None, "hardware/README.md lost its power-budget markers"
    assert block == power.render(written["budget"]), \
        "hardware/README.md's power budget is stale: python -m hardware.design power --readme"
