"""The Agent Avenue board variant (hardware/variants/agent-avenue): its maps describe the board the
rules need (14 spaces, two homes 7 apart, the market corners) and a circuit that the design
checks pass: three card readers on one bus, each with its own chip select, the pawns told apart
by their magnets' poles, and a power budget that counts every reader."""
import json
import os

import pytest

import circuits
from hardware.design import circuit, data, erc, gpio_check, power
from conftest import ROOT

# SKiDL builds the circuit
pytestmark = pytest.mark.hardware

FOLDER = os.path.join(ROOT, "hardware", "variants", "agent-avenue")
RULES_BOARD = os.path.join(ROOT, "shared_rules", "data", "agent-avenue-board.json")
SPACES = 14  # facts note: a ring of 14 spaces
READERS = ("up", "down", "tap")
RC522_CHIP_MA = 16.5  # MFRC522 datasheet: IDDD 6.5 + IDDA 10 mA, per module
RC522_ANTENNA_MA = 60.0  # IDD(TVDD) with the antenna driver on: one reader's at a time


@pytest.fixture(scope="module")
def variant():
    return data.Variant(FOLDER)


@pytest.fixture(scope="module")
def boards(variant):
    return circuits.boards(variant)  # built once per worker, shared


def test_every_space_has_one_sensor_and_one_led(variant):
    locs = [s["loc"] for s in variant.sensors]
    assert sorted(locs, key=int) == [str(i) for i in range(SPACES)]
    for i in range(SPACES):
        assert str(i) in variant.leds
    assert variant.config["layout"] == "agent-avenue"


def test_the_rules_board_and_the_variant_agree_on_homes(variant):
    with open(RULES_BOARD) as f:
        rules = json.load(f)
    pawns = variant.config["pawns"]
    for piece, p in pawns.items():
        assert piece == p["side"] + "-pawn"
        assert int(p["start"]) == rules["homes"][p["side"]]
    # opposite poles down: one pawn reads upright, the other upside down
    assert sorted(p["reads"] for p in pawns.values()) == ["upright", "upside_down"]


def test_three_readers_share_the_bus_each_with_its_chip_select(variant, boards):
    nfc = variant.pins["nfc"]
    assert tuple(nfc["readers"]) == READERS
    assert len(nfc["more_cs"]) == len(READERS) - 1
    main = boards["main"]
    headers = [p for p, key in main.placed if key == "nfc_header"]
    assert len(headers) == len(READERS)
    cs_nets = set()
    for h in headers:
        pins = dict((p.name, p.net.name if p.net else None) for p in h.pins)
        cs_nets.add(pins["SDA"])
        assert pins["SCK"] == "NFC_SCK" and pins["MOSI"] == "NFC_MOSI"
        assert pins["RST"] == "NFC_RST"
        assert pins["MISO"] != "NFC_MISO"  # through its own buffer (test_hardware_variants)
    assert len(cs_nets) == len(READERS)  # one chip select each


def test_gpios_are_allowed_and_the_erc_is_clean(variant, boards):
    assert gpio_check.check(variant.pins) == []
    for b in boards.values():
        assert erc.run_erc(b) == [], b.name


def test_every_led_of_the_panel_is_named_for_a_seat_or_a_reader(variant):
    extra = [n for n in variant.leds if not n.isdigit()]
    assert sorted(extra) == sorted(["seat:green-0", "seat:green-1", "seat:blue-0", "seat:blue-1"]
                                   + ["reader:" + r for r in READERS])
    assert variant.pins["leds"]["count"] == len(variant.leds)


def test_the_power_budget_counts_every_reader(variant, boards):
    b = power.budget(variant, boards=list(boards.values()))
    lines = [ln for ln in b.lines if ln.name.startswith("RC522")]
    assert len(lines) == 2 and all(ln.qty == len(READERS) for ln in lines)
    assert all(ln.rail == "+3V3_NFC" for ln in lines)  # their own buck, not the DevKit's LDO
    assert lines[0].typ_ma == pytest.approx(len(READERS) * RC522_CHIP_MA)
    assert lines[1].typ_ma == pytest.approx(RC522_ANTENNA_MA)
    assert b.input_max_ma < b.rating_ma


def test_a_board_with_one_reader_has_no_more_cs_role():
    pins = json.load(open(os.path.join(ROOT, "hardware", "pins.json")))
    assert all(path != "nfc.more_cs" for path, _, _ in data.gpio_uses(pins))


def test_the_readme_carries_the_computed_power_budget(variant, boards):
    text = power.render(power.budget(variant, boards=list(boards.values())))
    table = []
    for line in text.splitlines():
        table.append(line)
        if line.startswith("| **USB-C input"):
            break
    readme = open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8").read()
    section = readme[readme.index("## The Agent Avenue board"):]
    assert "\n".join(table) in section
