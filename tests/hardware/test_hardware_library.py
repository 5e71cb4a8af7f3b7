# The parts library (hardware/design/parts.json) against the KiCad 6 libraries (Debian's
# kicad-symbols and kicad-footprints, installed by `make kicad-libs`): every footprint exists
# and has a pad for each pin and a pin for each pad, so the netlists import into KiCad's PCB
# editor; every pin number (and name and electrical type, where KiCad names one) agrees with the
# KiCad symbol the package mirrors.
import pytest

from hardware.design import circuit, data, kicad_lib

# SKiDL builds the circuit (and KiCad's libraries check its parts)
pytestmark = pytest.mark.hardware

LIB = data.parts()
PACKAGES = sorted(LIB["packages"])
PLACEHOLDER_NAMES = ("~",)


def kicad_name_is_real(name):
    return name not in PLACEHOLDER_NAMES and not name.startswith("Pin_")


@pytest.mark.parametrize("package", PACKAGES)
def test_package_matches_its_kicad_symbol_and_footprint(package):
    pkg = LIB["packages"][package]
    ours = circuit.package_pins(LIB, package)
    numbers = [p[0] for p in ours]
    assert len(numbers) == len(set(numbers)), "duplicate pin numbers"
    pads = kicad_lib.footprint_pads(pkg["footprint"])
    assert set(numbers) == pads, "pins %s vs pads %s" % (sorted(numbers), sorted(pads))
    theirs = {num: (name, kind) for num, name, kind in kicad_lib.symbol_pins(pkg["symbol"])}
    assert set(numbers) == set(theirs)
    for num, name, kind in ours:
        kname, kkind = theirs[num]
        if pkg.get("names") != "ours" and kicad_name_is_real(kname):
            assert name == kname, (num, name, kname)
        if pkg.get("types") != "ours":
            assert kind == kkind, (num, kind, kkind)


def test_every_component_uses_a_known_package():
    for key, comp in LIB["components"].items():
        assert comp["package"] in LIB["packages"], key
        assert comp["why"] and comp["part_number"] and comp["value"], key


def test_the_reader_finds_a_known_symbol_and_refuses_an_unknown_one():
    # KiCad's 74HC4067: I0 on pin 9, COM on pin 1, VCC on pin 24 (TI CD74HC4067 datasheet).
    pins = {num: name for num, name, _ in kicad_lib.symbol_pins("74xx:CD74HC4067M")}
    assert (pins["9"], pins["1"], pins["24"]) == ("I0", "COM", "VCC")
    with pytest.raises(kicad_lib.LibraryMissing):
        kicad_lib.symbol_pins("74xx:NO_SUCH_PART")
    with pytest.raises(kicad_lib.LibraryMissing):
        kicad_lib.footprint_pads("Package_SO:NO_SUCH_FOOTPRINT")
