# Every board variant under hardware/variants/ (the Agent DOG board, DOG's 4-seat and 6-seat
# sides, the Agent Avenue board) as a checked design: the track boards' maps name exactly the
# locations of their layout in the rules core (docs/dog-rules.md: dog-6 has track 0..95, four
# home spaces and four start-area spots per colour, white and black among them), every GPIO
# passes the ESP32 check, every board passes the ERC, each sensor's path to its ADC pin and its
# bank's enable line and each card reader's path to the shared SPI bus and its own chip select
# are traced through the generated nets, the ERC and the GPIO check fail on each variant's
# wiring mistakes, and hardware/README.md carries each variant's computed power budget. Also
# the rank magnets' design figures (hardware/design/magnets.json). What `make hardware` writes
# for each variant: tests/hardware/test_hardware_build.py.
import copy
import os

import pytest

import circuits
from hardware.design import circuit, data, erc, gpio_check, magnets
from test_hardware_design import parts_of, pin, net_pins, socket_pin, strip_connector
from conftest import ROOT

# SKiDL builds the circuit
pytestmark = pytest.mark.hardware

VARIANTS = [os.path.basename(f) for f in data.variant_folders()]
SCANS_PER_S = 50  # the scanner's rate (firmware/loop.py, SCAN_MS = 20)
ADC_US = 35  # one ADC1 read from MicroPython (docs/notes: ESP32, v1.15)


def layout(name):
    return data.load_json(os.path.join(ROOT, "shared_rules", "data", name + ".json"))


def expected_locations(lay):
    locs = {str(t) for t in range(lay["track"])}
    for c in lay["colours"]:
        for k in range(1, lay["home_spaces"] + 1):
            locs.add("%s:h%d" % (c, k))
        for k in range(1, lay["pieces_per_colour"] + 1):
            locs.add("%s:s%d" % (c, k))
    return locs


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request):
    return data.Variant(os.path.join(data.VARIANTS_DIR, request.param))


# the track games' boards: their locations follow a rules-core track layout (the Agent Avenue
# board's 14 spaces are checked by tests/hardware/test_avenue_board_hardware.py)
TRACK_VARIANTS = [v for v in VARIANTS if os.path.exists(
    os.path.join(ROOT, "shared_rules", "data", v + ".json"))]


@pytest.fixture(scope="module", params=TRACK_VARIANTS)
def track_variant(request):
    return data.Variant(os.path.join(data.VARIANTS_DIR, request.param))


@pytest.fixture(scope="module")
def boards(variant):
    return circuits.boards(variant)  # built once per worker, shared


def test_the_dog_boards_are_variants():
    assert {"agent-dog-4", "dog-4", "dog-6"} <= set(VARIANTS)


def test_each_variant_names_its_layout_and_its_locations_are_the_layouts(track_variant):
    lay = layout(track_variant.config["layout"])
    assert track_variant.config["layout"] == track_variant.name
    locs = [s["loc"] for s in track_variant.sensors]
    assert len(locs) == len(set(locs)) and set(locs) == expected_locations(lay)
    seats = ["seat:" + c for c in lay["colours"]]
    assert sorted(track_variant.leds) == sorted(locs + seats)
    assert track_variant.pins["leds"]["count"] == len(track_variant.leds)


def test_the_6_seat_board_has_144_sensors_150_leds_and_white_and_black():
    v = data.Variant(os.path.join(data.VARIANTS_DIR, "dog-6"))
    locs = {s["loc"] for s in v.sensors}
    assert len(locs) == 96 + 24 + 24 and len(v.leds) == 150
    assert {"95", "white:h4", "black:s1", "seat:white", "seat:black"} <= locs | set(v.leds)
    # more sensors than six 16-channel multiplexers on the six ADC1 pins can read: two banks
    assert len(v.pins["mux"]["adc"]) == 6 and len(v.pins["mux"]["bank"]) == 2
    assert len({s["mux"] for s in v.sensors}) == 9


def test_ranked_boards_carry_a_magnet_per_rank_in_their_kit(track_variant):
    spec = magnets.table()
    kit = {item.get("magnet"): item["qty"] for item in track_variant.config["kit"]}
    colours = len(layout(track_variant.name)["colours"])
    if track_variant.config.get("ranked_pieces"):
        assert {kit[spec["rank_magnets"][r]] for r in spec["ranks"]} == {colours}
    else:
        assert not any(m in kit for m in spec["rank_magnets"].values())


def test_every_gpio_passes_and_every_board_passes_the_erc(variant, boards):
    assert gpio_check.check(variant.pins) == []
    for board in boards.values():
        assert erc.run_erc(board) == [], (variant.name, board.name)


def test_each_sensor_reaches_its_adc_pin_and_its_mux_is_enabled_by_its_bank(variant, boards):
    main = boards["main"]
    mux_map = variant.pins["mux"]
    nadc = len(mux_map["adc"])
    banks = mux_map.get("bank")
    for s in variant.sensors:
        strip = boards["strip-%d" % s["mux"]]
        [sensor] = [p for p in parts_of(strip, "sensor") if p.fields["Location"] == s["loc"]]
        [mux] = parts_of(strip, "mux")
        assert pin(mux, "I%d" % s["channel"]) in net_pins(pin(sensor, "OUT")), s
        [header] = [p for p, _ in strip.connectors]
        assert [p.name for p in net_pins(pin(mux, "COM")) if p.part is header] == ["MUX_Z"]
        assert [p.name for p in net_pins(pin(mux, "~{E}")) if p.part is header] == ["MUX_EN"]
        main_header = strip_connector(main, strip.name)
        adc_gpio = mux_map["adc"][s["mux"] % nadc]
        assert socket_pin(main, adc_gpio) in net_pins(pin(main_header, "MUX_Z")), s
        enable = net_pins(pin(main_header, "MUX_EN"))
        if banks is None:
            assert pin(main_header, "MUX_EN").net.name == "GND"
        else:
            gpio = banks[s["mux"] // nadc]
            assert socket_pin(main, gpio) in enable, s
            # pulled up to the sensors' 3.3 V: every bank off while the ESP32 is in reset
            [pull] = [p.part for p in enable if p.part.fields.get("Role") == "r_en_pu"]
            other = [p for p in pull.pins if p.net is not pin(main_header, "MUX_EN").net]
            assert other[0].net.name == circuit.V3_SENSOR


def test_no_two_sensors_share_a_bank_channel_and_adc_pin(variant):
    nadc = len(variant.pins["mux"]["adc"])
    seen = set()
    for s in variant.sensors:
        key = (s["mux"] // nadc, s["channel"], s["mux"] % nadc)
        assert key not in seen, s
        seen.add(key)


def test_the_scan_reads_every_sensor_fifty_times_a_second_on_adc_time(variant):
    # the ADC's share of a scan: one read per sensor (a bank's unused pins are not read);
    # a switched 74HC4067 settles in well under a microsecond (host_tools/sim/analog.py), and
    # the ADC samples 10 us into each read: no wait between reads
    reads = len(variant.sensors)
    assert reads * ADC_US < 1e6 / SCANS_PER_S / 2   # under half of the 20 ms scan period


def test_the_rank_bands_lie_far_apart_in_noise_and_in_spread():
    # each rank's field about half the next one's; the margins over the whole tolerance box
    # (placement, sensor height, the pieces' tolerances, crosstalk): test_hardware_magnets
    rs = magnets.ranks()
    assert [r["rank"] for r in rs] == ["king", "knight", "citizen", "jester"]
    assert all(a["field_mt"] > 1.75 * b["field_mt"] for a, b in zip(rs, rs[1:]))
    for m in magnets.noise_margins():
        assert m["edge_noise_sigma"] > 6, m
    for m in magnets.rank_margins():
        assert m["margin"] > 0, m


def test_the_field_formula_matches_a_long_magnets_pole():
    # far from the other pole, a long rod's face field tends to Br/2 at the face (z = 0)
    assert abs(magnets.rod_field_mt(3, 1000, 0, 1330) - 665) < 1
    # and falls with distance
    assert magnets.rod_field_mt(3, 15, 4, 1330) > magnets.rod_field_mt(3, 15, 5, 1330)


def test_readme_carries_every_variants_computed_power_budget(variant, boards):
    # hardware/README.md holds one generated block per variant between its markers; it must be
    # what the code computes from that variant's circuit today
    from hardware.design import power
    from hardware.design.__main__ import README, readme_budget_block
    with open(README, encoding="utf-8") as f:
        block = readme_budget_block(f.read(), variant.name)
    assert block is not None, "hardware/README.md has no power-budget block for %s" % variant.name
    assert block == power.render(power.budget(variant, boards=list(boards.values()))), \
        "stale: python -m hardware.design power --variant %s --readme" % variant.name
    # the consumers the maps imply, counted from them
    assert "DRV5055A3 x %d |" % len(variant.sensors) in block
    assert "WS2812B x %d (firmware limit)" % len(variant.leds) in block
    n = 1 + len(variant.pins["nfc"].get("more_cs", []))
    assert ("| RC522 module (chip) |" if n == 1 else "| RC522 module (chip) x %d |" % n) in block
    # one antenna driver on at a time, whatever the number of readers
    assert ("| RC522 antenna driver |" if n == 1 else
            "| RC522 antenna driver x %d, 1 on at a time |" % n) in block


# --- every variant's checks can fail ---

def sensor_strip(variant):
    return [st for st in variant.strips if st.mux is not None][0]


def test_erc_fails_on_an_unconnected_sensor_output(variant):
    strip = circuit.build_strip(variant, sensor_strip(variant))
    sensor = parts_of(strip, "sensor")[0]
    pin(sensor, "OUT").disconnect()
    found = erc.run_erc(strip)
    assert any("Unconnected pin" in m and "/OUT" in m and sensor.ref in m for _, m in found), found


def moved(variant, path, index, gpio):
    """The variant with one pins.json entry moved onto another GPIO."""
    pins = copy.deepcopy(variant.pins)
    node = pins
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    if index is None:
        node[keys[-1]] = gpio
    else:
        node[keys[-1]][index] = gpio
    return data.Variant(variant.folder, pins=pins)


def two_nets_on_one_gpio(variant):
    """(pins.json entry moved, its index, the entry whose GPIO it takes, the two nets): the
    buzzer onto the LED data line on every board, and each variant's own roles too."""
    pins = variant.pins
    cases = [("buzzer.pin", None, pins["leds"]["pin"], "BUZZER and LED_DATA_3V3")]
    if "bank" in pins["mux"]:       # a bank's enable line onto the first select line
        cases.append(("mux.bank", 1, pins["mux"]["select"][0], "MUX_EN1 and MUX_S0"))
    if "more_cs" in pins["nfc"]:    # a second reader onto the first one's chip select
        cases.append(("nfc.more_cs", 0, pins["nfc"]["cs"], "NFC_CS and NFC_CS_MORE0"))
    return cases


def test_erc_fails_when_the_pin_map_puts_two_nets_on_one_gpio(variant):
    for path, index, gpio, nets in two_nets_on_one_gpio(variant):
        main = circuit.build_main(moved(variant, path, index, gpio))
        errors = [m for sev, m in erc.run_erc(main) if sev == erc.ERROR]
        assert any(nets in m and "GPIO%d" % gpio in m for m in errors), (path, errors)
        # and the GPIO check names the same mistake before anything is wired
        problems = gpio_check.check(moved(variant, path, index, gpio).pins)
        assert any("GPIO%d is used 2 times" % gpio in p for p in problems), problems


def test_the_gpio_check_holds_each_variants_own_roles(variant):
    # ESP32 Series Datasheet: GPIO34-39 are input only, GPIO12 high at reset selects a 1.8 V
    # flash supply; ESP32-WROOM-32E datasheet: GPIO6-11 are the module's flash
    pins = variant.pins
    cases = [("leds.pin", None, 34, "input only"), ("mux.adc", 0, 25, "ADC2")]
    if "bank" in pins["mux"]:
        # an enable line is an output, pulled up to 3.3 V at reset
        cases += [("mux.bank", 0, 35, "input only"), ("mux.bank", 1, 12, "strapping pin"),
                  ("mux.bank", 1, 7, "SPI flash")]
    if "more_cs" in pins["nfc"]:
        cases += [("nfc.more_cs", 1, 39, "input only"), ("nfc.more_cs", 0, 8, "SPI flash")]
    for path, index, gpio, expect in cases:
        problems = gpio_check.check(moved(variant, path, index, gpio).pins)
        label = "%s%s = GPIO%d" % (path, "" if index is None else "[%d]" % index, gpio)
        assert any(p.startswith(label) and expect in p for p in problems), (label, problems)


# --- the card readers: one SPI bus, a chip select each ---

def test_every_reader_is_on_the_shared_bus_with_its_own_chip_select(variant, boards):
    # the MFRC522s share SCK, MOSI, MISO and the reset line; cs selects the first reader, each
    # of more_cs one more (the Agent Avenue board: three); every module is fed from the buck's
    # 3.3 V and its select pulled up to it; where several share the bus, a module's MISO
    # reaches it through a buffer that its own select enables (hardware/README.md, Card
    # readers)
    main = boards["main"]
    nfc = variant.pins["nfc"]
    selects = [nfc["cs"]] + nfc.get("more_cs", [])
    headers = parts_of(main, "nfc_header")
    assert len(headers) == len(selects)
    for header, cs in zip(headers, selects):
        sda = net_pins(pin(header, "SDA"))
        assert socket_pin(main, cs) in sda, header.ref
        for signal, key in (("SCK", "sck"), ("MOSI", "mosi"), ("RST", "rst")):
            assert socket_pin(main, nfc[key]) in net_pins(pin(header, signal)), (header.ref,
                                                                                 signal)
        assert pin(header, "3.3V").net.name == circuit.V3_NFC   # their own buck
        assert pin(header, "GND").net.name == circuit.GND
        pull = [p for p in sda if p.part.fields.get("Role") == "r_cs_pu"]
        assert len(pull) == 1 and circuit.V3_NFC in [q.net.name for q in pull[0].part.pins]
        miso = net_pins(pin(header, "MISO"))
        if len(selects) == 1:
            assert socket_pin(main, nfc["miso"]) in miso, header.ref
        else:
            assert socket_pin(main, nfc["miso"]) not in miso, header.ref
            buf = [p.part for p in miso if p.part.fields.get("Role") == "miso_buffer"]
            assert len(buf) == 1, header.ref
            assert pin(buf[0], "~{OE}") in sda  # enabled by this reader's select alone
            assert socket_pin(main, nfc["miso"]) in net_pins(pin(buf[0], "Y"))
        # no other reader's select on this one's SDA
        others = [socket_pin(main, g) for g in selects if g != cs]
        assert not any(p in sda for p in others), header.ref
