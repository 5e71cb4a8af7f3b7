# Every GPIO of hardware/pins.json against the ESP32's restrictions (hardware/design/esp32.json,
# from Espressif's ESP32 datasheet, the ESP32-WROOM-32E datasheet and the ESP32-DevKitC V4
# guide) and against what its circuit does at reset (hardware/design/roles.json). The table
# itself is checked against those documents' facts, restated here.
import copy
import os

import pytest

from hardware.design import data, gpio_check
from conftest import ROOT

PINS = data.load_json(os.path.join(ROOT, "hardware", "pins.json"))
ESP = data.esp32()

# ESP32 Series Datasheet, 'Pins': no GPIO20, 24, 28-31; GPIO34-39 input only.
EXISTING = set(range(0, 20)) | {21, 22, 23, 25, 26, 27} | set(range(32, 40))
INPUT_ONLY = set(range(34, 40))
# ESP32-WROOM-32E datasheet: GPIO6-11 drive the module's SPI flash.
FLASH = set(range(6, 12))
# ESP32 Series Datasheet, 'Strapping Pins'.
STRAPPING = {0, 2, 5, 12, 15}
# ESP32 Series Datasheet, ADC: ADC1 on GPIO32-39, ADC2 on GPIO0, 2, 4, 12-15, 25-27.
ADC1 = set(range(32, 40))
ADC2 = {0, 2, 4, 12, 13, 14, 15, 25, 26, 27}
# ESP32-DevKitC V4 guide, Header Block J2 and J3: 19 pins each; GPIO37 and 38 not brought out.
HEADER_PINS = 19


def test_the_restriction_table_matches_the_datasheets():
    table = {int(k): v for k, v in ESP["gpio"].items()}
    assert set(table) == EXISTING
    assert {g for g, v in table.items() if v.get("input_only")} == INPUT_ONLY
    assert {g for g, v in table.items() if "flash" in v} == FLASH
    assert {g for g, v in table.items() if v.get("strapping")} == STRAPPING == \
        {int(g) for g in ESP["strapping"]}
    assert {g for g, v in table.items() if v.get("adc", "").startswith("ADC1")} == ADC1
    assert {g for g, v in table.items() if v.get("adc", "").startswith("ADC2")} == ADC2
    assert {g for g, v in table.items() if "console" in v} == {1, 3}
    assert [len(ESP["devkitc"][j]) for j in ("J2", "J3")] == [HEADER_PINS, HEADER_PINS]
    assert gpio_check.header_gpios(ESP) == EXISTING - {37, 38}
    # GPIO12 high at reset selects a 1.8 V flash supply; GPIO0 low starts the download mode.
    assert "high" not in ESP["strapping"]["12"]["allowed_at_reset"]
    assert "low" not in ESP["strapping"]["0"]["allowed_at_reset"]


def test_the_board_pin_map_passes():
    assert gpio_check.check(PINS) == []


def with_pin(path, value, index=None):
    pins = copy.deepcopy(PINS)
    node = pins
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    if index is None:
        node[keys[-1]] = value
    else:
        node[keys[-1]][index] = value
    return pins


def unused_gpio(candidates):
    used = {g for _, _, g in data.gpio_uses(PINS)}
    return next(g for g in candidates if g not in used)


@pytest.mark.parametrize("path,index,gpio,expect", [
    ("buzzer.pin", None, 34, "input only"),                     # an output on an input-only pin
    ("nfc.cs", None, 39, "input only"),
    ("buttons.confirm", None, 35, "no internal pulls"),         # a pull-up button on GPIO35
    ("mux.adc", 0, 4, "ADC2"),                                  # analog on ADC2: dead with Wi-Fi
    ("mux.adc", 3, 25, "ADC2"),
    ("mux.adc", 5, 21, "no ADC"),
    ("leds.pin", None, 6, "SPI flash"),
    ("buzzer.pin", None, 11, "SPI flash"),
    ("nfc.sck", None, 1, "UART"),                               # the REPL's TX
    ("buttons.back", None, 3, "UART"),
    ("buttons.back", None, 0, "strapping pin"),     # held for safe boot: download mode instead
    ("buzzer.pin", None, 0, "strapping pin"),       # the transistor's base holds GPIO0 low
    ("nfc.miso", None, 12, "strapping pin"),        # the reader may drive MISO high: 1.8 V flash
    ("nfc.miso", None, 2, "strapping pin"),         # ... or GPIO2 high: no download mode
    ("mux.adc", 1, 37, "not brought out"),          # GPIO37 exists but not on the DevKitC
    ("buzzer.pin", None, 20, "no such GPIO"),
    ("buzzer.pin", None, "22", "no such GPIO"),
    ("buzzer.pin", None, PINS["leds"]["pin"], "used 2 times"),
])
def test_each_restriction_catches_its_case(path, index, gpio, expect):
    problems = gpio_check.check(with_pin(path, gpio, index))
    assert any(expect in p for p in problems), problems
    label = "%s%s = GPIO%s" % (path, "" if index is None else "[%d]" % index, gpio)
    assert any(p.startswith(label) or label in p for p in problems), problems


@pytest.mark.parametrize("path,gpio", [
    ("buzzer.pin", 12),         # low at reset is what GPIO12 wants
    ("buttons.confirm", 15),    # GPIO15 only silences the boot log when low
    ("nfc.rst", 2),             # an output to a CMOS input floats at reset
])
def test_strapping_pins_are_allowed_where_their_circuit_keeps_the_boot_level(path, gpio):
    assert gpio == unused_gpio([gpio])
    assert gpio_check.check(with_pin(path, gpio)) == []


def test_every_role_names_a_gpio_entry_of_the_pin_map():
    uses = data.gpio_uses(PINS)
    assert len(uses) == 19      # 4 select, 6 ADC, 5 SPI/reset, LED data, 2 buttons, buzzer
    pins = copy.deepcopy(PINS)
    del pins["buzzer"]
    with pytest.raises(data.DesignError, match="buzzer.pin"):
        data.gpio_uses(pins)
