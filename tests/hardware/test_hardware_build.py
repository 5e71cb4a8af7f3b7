# `python -m hardware.design build` (what `make hardware` runs after the GPIO check) for every
# board variant the project has (hardware/variants/*): it exits 0 with the ERC at 0 errors and 0
# warnings on every board, and writes for each variant one KiCad netlist per board that KiCad's
# PCB editor can import (every part has a footprint of KiCad's libraries, every net node is a pad
# of its part's footprint), a BOM with the columns reference, value, part number, footprint,
# quantity and why whose quantities follow the variant's maps, and a connection list per
# connector that mates the other end pin for pin. The expected numbers are counted from the maps
# (sensors.json, leds.json, pins.json) and the datasheets' decoupling rules, not from the code.
import contextlib
import csv
import io
import os
import re

import pytest
from simp_sexp import Sexp

from hardware.design import data, kicad_lib
from hardware.design.__main__ import main

# SKiDL builds the circuit (and KiCad's libraries check its parts)
pytestmark = [pytest.mark.hardware, pytest.mark.slow]  # builds every variant

VARIANTS = [os.path.basename(f) for f in data.variant_folders()]
BOM_HEADER = ["board", "reference", "value", "part number", "footprint", "quantity", "why"]
CONNECTION_HEADER = ["pin", "signal", "net", "on this board", "mates with"]
OFF_BOARD = "(off-board)"
SUMMARY = re.compile(r"^(\S+): (\d+) boards, (\d+) parts, ERC (\d+) errors (\d+) warnings -> ")
FOOTPRINT_ID = re.compile(r"^[\w.-]+:[\w.+-]+$")


def variant_of(name):
    return data.Variant(os.path.join(data.VARIANTS_DIR, name))


def expected_boards(v):
    """The main board, one sensor strip per multiplexer the sensor map uses, and one LED-only
    strip when some LED has no sensor under it."""
    muxes = {s["mux"] for s in v.sensors}
    led_only = set(v.leds) - {s["loc"] for s in v.sensors}
    return ["main"] + ["strip-%d" % m for m in sorted(muxes)] + (
        [v.config["led_only_strip"]] if led_only else [])


def readers(pins):
    return 1 + len(pins["nfc"].get("more_cs", []))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("hardware"))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        rc = main(["build", "--out", out])
    return rc, printed.getvalue(), out


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


def test_the_project_has_four_variants():
    assert sorted(VARIANTS) == ["agent-avenue", "agent-dog-4", "dog-4", "dog-6"]


def test_build_writes_every_variant_with_the_erc_clean(built):
    rc, printed, out = built
    assert rc == 0, printed
    lines = printed.splitlines()
    # one summary line per variant and nothing else: a finding would be printed under it
    assert [SUMMARY.match(line).group(1) for line in lines] == sorted(VARIANTS), printed
    for line in lines:
        name, boards, parts, errors, warnings = SUMMARY.match(line).groups()
        v = variant_of(name)
        assert int(boards) == len(expected_boards(v)), line
        assert (errors, warnings) == ("0", "0"), line
        nets = sorted(f[:-len(".net")] for f in os.listdir(os.path.join(out, name))
                      if f.endswith(".net"))
        assert nets == sorted(expected_boards(v)), name
        with open(os.path.join(out, name, "erc.txt"), encoding="utf-8") as f:
            report = f.read().splitlines()
        assert [r.split(":")[0] for r in report] == expected_boards(v), name
        assert all(r.endswith(", 0 errors, 0 warnings") for r in report), report


@pytest.mark.parametrize("name", VARIANTS)
def test_the_bom_has_its_columns_and_counts_follow_the_maps(built, name):
    v = variant_of(name)
    rows = read_csv(os.path.join(built[2], name, "bom.csv"))
    assert rows[0] == BOM_HEADER
    qty = {}
    for row in rows[1:]:
        assert len(row) == len(BOM_HEADER) and all(row), row
        board, refs, value, pn, fp, n, why = row
        qty[value] = qty.get(value, 0) + int(n)
        if board != OFF_BOARD:
            assert FOOTPRINT_ID.match(fp), row
            assert count_refs(refs) == int(n), row
    nmux = len({s["mux"] for s in v.sensors})
    assert qty["DRV5055A3"] == len(v.sensors)
    assert qty["WS2812B"] == len(v.leds) == v.pins["leds"]["count"]
    assert qty["74HC4067"] == nmux
    assert qty["2x08 IDC"] == 2 * nmux          # both ends of each ribbon
    assert qty["16-way IDC ribbon"] == nmux
    assert qty["ESP32-DevKitC-32E"] == 1
    # one header and one module per card reader (cs, then each of more_cs)
    assert qty["RC522"] == qty["RC522 module"] == readers(v.pins)
    # 100 nF: one per sensor (DRV5055: at least 10 nF at each), one per LED (WS2812B), one per
    # IC (each multiplexer, the level shifter, each reader's MISO buffer where several readers
    # share the bus), and the bootstrap capacitor of each buck (the sensors' and the readers')
    buffers = readers(v.pins) if readers(v.pins) > 1 else 0
    assert qty.get("74LVC1G125", 0) == buffers
    assert qty["100nF"] == len(v.sensors) + len(v.leds) + nmux + 1 + buffers + 2
    # the banks' enable lines each pulled up; boards without banks have none
    pull_ups = [r for r in rows[1:] if "bank's enable line" in r[6]]
    assert sum(int(r[5]) for r in pull_ups) == len(v.pins["mux"].get("bank", []))


_pads = {}


def pads_of(footprint):
    if footprint not in _pads:
        _pads[footprint] = kicad_lib.footprint_pads(footprint)
    return _pads[footprint]


def netlist(path):
    with open(path, encoding="utf-8") as f:
        tree = Sexp(f.read())
    assert tree[0] == "export"
    section = {item[0]: item[1:] for item in tree[1:]}
    comps = {}
    for comp in section["components"]:
        fields = {item[0]: item[1] for item in comp[1:] if len(item) == 2}
        assert fields["ref"] not in comps, fields["ref"]
        comps[fields["ref"]] = fields
    nets = []
    for net in section["nets"]:
        fields = {item[0]: item[1] for item in net[1:] if item[0] != "node"}
        nodes = [dict((x[0], x[1]) for x in node[1:]) for node in net[1:] if node[0] == "node"]
        nets.append((fields["code"], fields["name"], nodes))
    return comps, nets


@pytest.mark.parametrize("name", VARIANTS)
def test_every_netlist_imports_into_the_pcb_editor(built, name):
    for board in expected_boards(variant_of(name)):
        comps, nets = netlist(os.path.join(built[2], name, board + ".net"))
        assert comps, board
        for ref, comp in comps.items():
            assert comp["value"] and FOOTPRINT_ID.match(comp["footprint"]), (board, ref)
            pads_of(comp["footprint"])      # raises when KiCad's libraries lack it
        assert len({code for code, _, _ in nets}) == len(nets), board
        assert len({net for _, net, _ in nets}) == len(nets), board
        seen = set()
        for _, net, nodes in nets:
            for node in nodes:
                ref, pad = node["ref"], node["pin"]
                assert ref in comps, (board, net, ref)
                # the PCB editor attaches a net to a footprint's pad by this number
                assert pad in pads_of(comps[ref]["footprint"]), (board, net, ref, pad)
                assert (ref, pad) not in seen, (board, ref, pad)   # one net per pad
                seen.add((ref, pad))
        assert {ref for ref, _ in seen} == set(comps), board    # no part left off every net


@pytest.mark.parametrize("name", VARIANTS)
def test_connection_lists_mate_pin_for_pin(built, name):
    v = variant_of(name)
    folder = os.path.join(built[2], name, "connections")
    files = sorted(os.listdir(folder))
    strips = expected_boards(v)[1:]
    # the main board: two DevKit sockets, a header per reader, a connector per strip; each
    # strip: its one connector
    mains = [f for f in files if f.startswith("main-")]
    assert len(mains) == 2 + readers(v.pins) + len(strips), files
    assert sorted(f for f in files if not f.startswith("main-")) == \
        sorted("%s-J1.csv" % s for s in strips)
    mated = set()
    for f in mains:
        rows = read_csv(os.path.join(folder, f))
        assert rows[0] == CONNECTION_HEADER
        far = rows[1][4].split()[0]
        if far not in strips:
            continue
        theirs = read_csv(os.path.join(folder, "%s-J1.csv" % far))
        assert [r[:2] for r in rows[1:]] == [r[:2] for r in theirs[1:]], (f, far)
        ref = f[len("main-"):-len(".csv")]
        assert all(r[4] == "%s J1 pin %s" % (far, r[0]) for r in rows[1:]), f
        assert all(r[4] == "main %s pin %s" % (ref, r[0]) for r in theirs[1:]), far
        mated.add(far)
    assert mated == set(strips)
