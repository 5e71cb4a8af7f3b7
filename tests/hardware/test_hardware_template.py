# What a maker builds from: every variant's coords.json (a place in mm for every sensor location,
# LED and reader pad its maps name), the physical rules those places must keep (two pieces fit
# side by side, an LED's light hole clears every piece, pads and the discard pile do not
# overlap), the loader on CPython and on the MicroPython unix port (the simulator's), measuring a
# board from a picture, the 1:1 placement and drilling template (every location drawn once at
# its coordinates, the 100 mm scale bar, the pages tiled for A4 and Letter at 1:1 covering the
# whole sheet), and the build sheets in hardware/BUILD.md equal to what the data gives.
import contextlib
import io
import json
import math
import os
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, micropython_cmd
from hardware.design import buildsheet, coords, coords_make, data, magnets, template
from hardware.design.__main__ import BUILD_DOC, main, marked_block

VARIANTS = [os.path.basename(f) for f in data.variant_folders()]
NS = {"s": template.SVG_NS}
MECH = coords_make.mechanics()
LED_HOLE = MECH["holes"]["led"]["d_mm"]
PIN_HOLE = MECH["holes"]["registration"]["d_mm"]
MM = 1e-6


def variant_of(name):
    return data.Variant(os.path.join(data.VARIANTS_DIR, name))


def table_of(name):
    return coords.load(name)


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


# -- the coordinates --------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_every_location_led_and_reader_of_the_maps_has_a_place(name):
    v = variant_of(name)
    table = table_of(name)
    assert coords.check(table, [s["loc"] for s in v.sensors], v.leds,
                        v.pins["nfc"].get("readers")) == []
    assert len(table["sensors"]) == len(v.sensors) and len(table["leds"]) == len(v.leds)
    # agent-dog-4's maps are hardware/ itself: its coords.json lies there too
    assert coords.path_for(name).endswith(
        "hardware/coords.json" if v.maps_dir == data.HARDWARE_DIR
        else "hardware/variants/%s/coords.json" % name)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_default_says_it_is_an_assumption_and_is_what_the_command_makes(name):
    table = table_of(name)
    if "assumption" not in table:     # a measured board: its own figures, no default to match
        assert "measured" in table["made_by"]
        return
    assert table["assumption"].startswith("ASSUMPTION")
    assert table == json.loads(coords_make.dumps(coords_make.default(variant_of(name))))


def pairs(points):
    names = sorted(points)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            yield a, b, coords.distance(points[a], points[b])


@pytest.mark.parametrize("name", VARIANTS)
def test_two_pieces_fit_on_neighbouring_locations(name):
    table = table_of(name)
    tight = [(a, b, d) for a, b, d in pairs(coords.positions(table)) if d < table["piece_d"]]
    assert tight == []
    assert coords.pitch(table) >= table["piece_d"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_led_hole_clears_every_piece_and_every_other_hole(name):
    # the light shows beside a piece standing on its own location, never under any piece
    table = table_of(name)
    leds = coords.positions(table, "leds")
    clear = table["piece_d"] / 2 + LED_HOLE / 2
    for led, p in leds.items():
        for loc, q in coords.positions(table).items():
            assert coords.distance(p, q) >= clear, (led, loc)
    assert [(a, b) for a, b, d in pairs(leds) if d < LED_HOLE] == []


def box(at, size):
    return (at[0] - size[0] / 2, at[1] - size[1] / 2, at[0] + size[0] / 2, at[1] + size[1] / 2)


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def outlines(table):
    """Every pad's card outline and the module under it, and every area (the discard pile)."""
    module = MECH["parts"]["reader_module"]["size_mm"]
    out = {}
    for name, pad in table["readers"].items():
        out["pad " + name] = box(pad["at"], pad["size"])
        out["module " + name] = box(pad["at"], module)
    for name, area in table.get("areas", {}).items():
        out["area " + name] = box(area["at"], area["size"])
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_pads_and_the_discard_pile_lie_apart_and_clear_of_every_piece_and_led(name):
    table = table_of(name)
    shapes = outlines(table)
    cards = {k: v for k, v in shapes.items() if not k.startswith("module")}
    names = sorted(cards)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(cards[a], cards[b]), (a, b)
    for k, (x0, y0, x1, y1) in cards.items():
        assert 0 <= x0 and x1 <= table["sheet"][0] and 0 <= y0 and y1 <= table["sheet"][1], k
        for section, r in (("sensors", table["piece_d"] / 2), ("leds", LED_HOLE / 2)):
            for loc, (x, y) in coords.positions(table, section).items():
                assert not overlap((x0, y0, x1, y1), (x - r, y - r, x + r, y + r)), (k, loc)
    # no card lying on the discard pile sits over a reader's module
    for pile in [k for k in shapes if k.startswith("area")]:
        for module in [k for k in shapes if k.startswith("module")]:
            assert not overlap(shapes[pile], shapes[module]), (pile, module)


@pytest.mark.parametrize("name", VARIANTS)
def test_dowel_pins_lie_on_the_board_clear_of_every_location(name):
    table = table_of(name)
    bx, by, bw, bh = table["board"]
    assert len(table["pins"]) == 2
    for x, y in table["pins"]:
        assert bx < x < bx + bw and by < y < by + bh
        for loc, q in coords.positions(table).items():
            assert coords.distance((x, y), q) > table["piece_d"] / 2 + PIN_HOLE / 2, loc
    # two pins far apart: the board cannot turn about one of them
    assert coords.distance(*table["pins"]) > min(bw, bh) / 2


def test_the_two_sides_of_the_dog_board_are_one_size():
    # dog-4 and dog-6 are the two sides of one double-sided board
    assert table_of("dog-4")["sheet"] == table_of("dog-6")["sheet"]


def test_check_names_what_is_missing_extra_or_off_the_sheet():
    table = json.loads(json.dumps(table_of("dog-4")))
    del table["sensors"]["17"]
    table["leds"]["seat:purple"] = [1.0, 1.0]
    table["sensors"]["18"] = [-5.0, 20.0]
    v = variant_of("dog-4")
    problems = coords.check(table, [s["loc"] for s in v.sensors], v.leds)
    assert "sensors: no coordinates for 17" in problems
    assert "leds: seat:purple not in the variant's maps" in problems
    assert any(p.startswith("sensors 18 at (-5.0, 20.0) lies off") for p in problems)
    table["readers"]["second"] = dict(table["readers"]["play"])
    assert any("one pad, not 2" in p for p in coords.check(table, [], [], None))


def test_the_loader_refuses_bad_files_with_the_reason(tmp_path):
    with pytest.raises(coords.CoordsError, match="not a board variant"):
        coords.load("no-such-board")
    good = table_of("agent-avenue")
    cases = [({"format": "other"}, "format is not"),
             (dict(good, sensors={"0": [1.0]}), "sensors '0' is not \\[x, y\\]"),
             (dict(good, sheet=None), "'sheet' must be"),
             (dict(good, readers={"up": {"at": [1, 2]}}), "reader 'up' needs")]
    for i, (table, reason) in enumerate(cases):
        path = tmp_path / ("c%d.json" % i)
        path.write_text(json.dumps(table))
        with pytest.raises(coords.CoordsError, match=reason):
            coords.read(str(path))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(coords.CoordsError, match="not JSON"):
        coords.read(str(bad))


def test_neighbours_are_every_other_sensor_within_the_distance_nearest_first():
    table = table_of("dog-6")
    pos = coords.positions(table)
    within = 30.0
    near = coords.neighbours(table, within)
    assert set(near) == set(pos)
    for loc, lst in near.items():
        want = sorted((round(coords.distance(pos[loc], pos[o]), 3), o) for o in pos
                      if o != loc and coords.distance(pos[loc], pos[o]) < within)
        assert [o for _, o in want] == [o for o, _ in lst]
        assert [d for d, _ in want] == pytest.approx([d for _, d in lst], abs=0.001)
    # a track space's nearest are the spaces either side of it, one pitch away
    assert {near["40"][0][0], near["40"][1][0]} == {"39", "41"}


@pytest.mark.micropython
def test_the_loader_runs_on_micropython_as_on_cpython():
    # one line per sensor (the unix port's default heap is small): variant, sensor, nearest
    # distance, its neighbours within 25 mm nearest first
    prog = ("import sys\nsys.path.insert(0, '.')\nfrom hardware.design import coords\n"
            "for v in %r:\n"
            "    t = coords.load(v)\n"
            "    n = coords.neighbours(t, 25)\n"
            "    print(v, '-', '%%.6f' %% coords.pitch(t), '')\n"
            "    for k in sorted(n):\n"
            "        print(v, k, '%%.6f' %% (n[k][0][1] if n[k] else 0), "
            "','.join(o for o, d in n[k]))\n" % (VARIANTS,))
    res = subprocess.run([micropython_cmd(), "-c", prog], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    got = res.stdout.splitlines()
    want = []
    for v in VARIANTS:
        t = coords.load(v)
        n = coords.neighbours(t, 25)
        want.append("%s - %.6f " % (v, coords.pitch(t)))
        want += ["%s %s %.6f %s" % (v, k, n[k][0][1] if n[k] else 0,
                                    ",".join(o for o, _ in n[k])) for k in sorted(n)]
    assert got == want


# -- measuring a board on a picture -----------------------------------------------------------

SCALE, TURN, SHIFT = 3.7, math.radians(4.0), complex(180.0, -95.0)   # px/mm, rotation, px


def to_pixels(xy):
    z = complex(xy[0], xy[1]) * SCALE * complex(math.cos(TURN), math.sin(TURN)) + SHIFT
    return [z.real, z.imag]


def photo_rows(table, names):
    w, h = table["sheet"]
    rows = [("ref:%s" % i, to_pixels(c) + list(c))
            for i, c in enumerate([(0, 0), (w, 0), (w, h), (0, h)])]
    return rows + [(n, to_pixels(table["sensors"][n])) for n in names]


def test_a_picture_measures_every_location_scale_rotation_and_shift_taken_out():
    truth = table_of("agent-dog-4")
    start = json.loads(json.dumps(truth))
    for name in start["sensors"]:              # a board whose coordinates we do not know yet
        start["sensors"][name] = [0.0, 0.0]
    got, residuals, measured = coords_make.from_pixels(start, photo_rows(truth,
                                                                          truth["sensors"]))
    assert max(residuals) < 0.01
    assert sorted(measured) == sorted(truth["sensors"])
    for name, xy in truth["sensors"].items():
        assert got["sensors"][name] == pytest.approx(xy, abs=0.051)
    assert "assumption" not in got and got["made_by"].startswith("measured")


def test_a_measured_location_carries_its_led_and_a_named_led_moves_alone():
    table = table_of("dog-4")
    moved = dict(table["sensors"], **{"5": [table["sensors"]["5"][0] + 3.0,
                                            table["sensors"]["5"][1] - 2.0]})
    rows = photo_rows(dict(table, sensors=moved), ["5"])
    rows.append(("led:seat:red", to_pixels([100.0, 100.0])))
    got, _, _ = coords_make.from_pixels(table, rows)
    old = table["leds"]["5"]
    assert got["leds"]["5"] == pytest.approx([old[0] + 3.0, old[1] - 2.0], abs=0.11)
    assert got["leds"]["seat:red"] == pytest.approx([100.0, 100.0], abs=0.051)
    assert got["leds"]["6"] == table["leds"]["6"]
    assert "assumption" in got           # only one location measured: the rest still assumed


def test_a_bad_points_file_changes_nothing_and_says_why(tmp_path):
    table = table_of("dog-4")
    before = json.dumps(table)
    with pytest.raises(data.DesignError, match="not a location, LED or reader of dog-4: 99"):
        coords_make.from_pixels(table, photo_rows(table, ["5"]) + [("99", [1.0, 2.0])])
    with pytest.raises(data.DesignError, match="at least two references"):
        coords_make.from_pixels(table, photo_rows(table, ["5"])[3:])
    assert json.dumps(table) == before
    csv_path = tmp_path / "points.csv"
    csv_path.write_text("name,px,py,x_mm,y_mm\nref:a,1,2\n")
    with pytest.raises(data.DesignError, match="line 2: ref:a needs 5 columns"):
        coords_make.read_points(str(csv_path))
    csv_path.write_text("# a comment\n5,ten,3\n")
    with pytest.raises(data.DesignError, match="line 2: not a number"):
        coords_make.read_points(str(csv_path))
    out = tmp_path / "coords.json"
    csv_path.write_text("ref:a,0,0,0,0\nref:b,10,0,10,0\n99,1,1\n")
    rc, _, err = run(["coords", "dog-4", "--from-pixels", str(csv_path), "-o", str(out)])
    assert rc == 1 and "99" in err and not out.exists()


def test_the_coords_command_writes_a_measured_board_to_the_file_named(tmp_path):
    table = table_of("agent-avenue")
    points = tmp_path / "points.csv"
    lines = ["name,px,py,x_mm,y_mm"] + [
        "%s,%s" % (n, ",".join("%.4f" % c for c in vals))
        for n, vals in photo_rows(table, table["sensors"])]
    points.write_text("\n".join(lines) + "\n")
    out = tmp_path / "coords.json"
    rc, printed, _ = run(["coords", "agent-avenue", "--from-pixels", str(points),
                          "-o", str(out)])
    assert rc == 0, printed
    got = coords.read(str(out))
    for name, xy in table["sensors"].items():
        assert got["sensors"][name] == pytest.approx(xy, abs=0.051)
    assert "14 sensors" in printed


# -- the template -----------------------------------------------------------------------------

def parse(text):
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "{%s}svg" % template.SVG_NS
    return root


def mm(value):
    assert value.endswith("mm")
    return float(value[:-2])


def one_to_one(root):
    """The SVG's size in mm equals its viewBox: one user unit is one millimetre on paper."""
    vb = [float(c) for c in root.get("viewBox").split()]
    assert mm(root.get("width")) == pytest.approx(vb[2])
    assert mm(root.get("height")) == pytest.approx(vb[3])
    return vb


def scale_bar_mm(node):
    bars = node.findall(".//s:line[@class='scale-bar']", NS)
    assert len(bars) == 1
    b = bars[0]
    assert float(b.get("y1")) == float(b.get("y2"))
    return float(b.get("x2")) - float(b.get("x1"))


@pytest.fixture(scope="module")
def sheets():
    return {name: parse(template.full(table_of(name), variant_of(name), MECH))
            for name in VARIANTS}


@pytest.mark.parametrize("name", VARIANTS)
def test_the_template_draws_every_location_once_at_its_coordinates(sheets, name):
    root = sheets[name]
    table = table_of(name)
    one_to_one(root)
    marks = root.findall(".//s:g[@class='sensor']", NS)
    assert sorted(g.get("data-loc") for g in marks) == sorted(table["sensors"])
    for g in marks:
        c = g.find("s:circle[@class='centre']", NS)
        x, y = table["sensors"][g.get("data-loc")]
        assert (float(c.get("cx")), float(c.get("cy"))) == pytest.approx((x, y), abs=0.006)
        # the crosshair crosses there
        lines = g.findall("s:line", NS)
        assert any(float(ln.get("y1")) == pytest.approx(y, abs=0.006) == float(ln.get("y2"))
                   and float(ln.get("x1")) < x < float(ln.get("x2")) for ln in lines)
        piece = g.find("s:circle[@class='piece']", NS)
        assert float(piece.get("r")) == pytest.approx(table["piece_d"] / 2)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_template_drills_every_led_hole_and_dowel_and_outlines_every_pad(sheets, name):
    root = sheets[name]
    table = table_of(name)
    leds = root.findall(".//s:g[@class='led']", NS)
    assert sorted(g.get("data-led") for g in leds) == sorted(table["leds"])
    for g in leds:
        hole = g.find("s:circle[@class='drill']", NS)
        x, y = table["leds"][g.get("data-led")]
        assert (float(hole.get("cx")), float(hole.get("cy"))) == pytest.approx((x, y), abs=0.006)
        assert 2 * float(hole.get("r")) == pytest.approx(LED_HOLE)
    pins = root.findall(".//s:g[@class='pin']", NS)
    assert len(pins) == len(table["pins"])
    for g, (x, y) in zip(pins, table["pins"]):
        hole = g.find("s:circle[@class='drill']", NS)
        assert (float(hole.get("cx")), float(hole.get("cy"))) == pytest.approx((x, y))
        assert 2 * float(hole.get("r")) == pytest.approx(PIN_HOLE)
    pads = root.findall(".//s:g[@class='reader']", NS)
    assert sorted(g.get("data-reader") for g in pads) == sorted(table["readers"])
    for g in pads:
        pad = table["readers"][g.get("data-reader")]
        r = g.find("s:rect[@class='pad']", NS)
        x0, y0, x1, y1 = box(pad["at"], pad["size"])
        assert [float(r.get(k)) for k in ("x", "y", "width", "height")] == \
            pytest.approx([x0, y0, x1 - x0, y1 - y0], abs=0.006)
        m = g.find("s:rect[@class='module']", NS)
        assert [float(m.get("width")), float(m.get("height"))] == \
            pytest.approx(MECH["parts"]["reader_module"]["size_mm"])


@pytest.mark.parametrize("name", VARIANTS)
def test_the_scale_bar_is_100_mm_under_the_sheet(sheets, name):
    root = sheets[name]
    assert scale_bar_mm(root) == pytest.approx(100.0)
    bar = root.find(".//s:line[@class='scale-bar']", NS)
    assert float(bar.get("y1")) > table_of(name)["sheet"][1]     # in the legend, off the board


def windows(page):
    """The part of the sheet a page shows: (x0, y0, x1, y1) in sheet mm. The window lies on
    the page inside the margins a printer leaves blank."""
    inner = page.findall("s:svg[@class='window']", NS)
    assert len(inner) == 1
    w = inner[0]
    x, y, ww, wh = (float(w.get(k)) for k in ("x", "y", "width", "height"))
    pw, ph = [float(c) for c in page.get("viewBox").split()][2:]
    assert x >= template.PAGE_MARGIN_MM and y >= template.PAGE_MARGIN_MM
    assert x + ww <= pw - template.PAGE_MARGIN_MM and y + wh <= ph - template.PAGE_MARGIN_MM
    vb = [float(c) for c in w.get("viewBox").split()]
    # drawn at 1:1: the window's size on the page equals the sheet area it shows
    assert (ww, wh) == pytest.approx((vb[2], vb[3]))
    return (vb[0], vb[1], vb[0] + vb[2], vb[1] + vb[3])


@pytest.mark.parametrize("paper", sorted(template.PAPERS))
@pytest.mark.parametrize("name", VARIANTS)
def test_the_pages_tile_the_whole_sheet_at_1_to_1(name, paper):
    table = table_of(name)
    pages = [parse(svg) for _, svg in template.pages(table, variant_of(name), paper, MECH)]
    assert len(pages) > 1                   # every board is larger than one sheet of paper
    size = sorted(template.PAPERS[paper])
    wins = []
    for page in pages:
        vb = one_to_one(page)
        assert sorted(vb[2:]) == pytest.approx(size)
        assert scale_bar_mm(page) == pytest.approx(100.0)
        wins.append(windows(page))
    w, h = table["sheet"]
    # every point of the sheet is on some page: the corners, every location, LED, pad and pin
    points = [(0, 0), (w, 0), (0, h), (w, h)] + list(coords.positions(table).values()) + \
        list(coords.positions(table, "leds").values()) + [tuple(p) for p in table["pins"]]
    for pad in list(table["readers"].values()) + list(table.get("areas", {}).values()):
        x0, y0, x1, y1 = box(pad["at"], pad["size"])
        points += [(x0, y0), (x1, y1)]
    for x, y in points:
        assert any(a - MM <= x <= c + MM and b - MM <= y <= d + MM
                   for a, b, c, d in wins), (x, y)
    # neighbouring pages repeat OVERLAP_MM of each other, to be glued crosshairs on crosshairs
    for axis in (0, 1):
        starts = sorted(set(round(win[axis], 3) for win in wins))
        size_ = wins[0][axis + 2] - wins[0][axis]
        assert all(b - a == pytest.approx(size_ - template.OVERLAP_MM)
                   for a, b in zip(starts, starts[1:]))




def test_the_template_command_writes_the_sheet_and_its_pages(tmp_path):
    out = tmp_path / "t" / "avenue.svg"
    rc, printed, _ = run(["template", "agent-avenue", "-o", str(out), "--paper", "letter"])
    assert rc == 0
    names = sorted(os.listdir(out.parent))
    pages = template.pages(table_of("agent-avenue"), variant_of("agent-avenue"), "letter", MECH)
    assert names == sorted(["avenue.svg"] + ["avenue-letter-%d.svg" % (i + 1)
                                             for i in range(len(pages))])
    assert "%d pages" % len(pages) in printed
    for n in names:
        parse((out.parent / n).read_text(encoding="utf-8"))


def test_the_template_command_refuses_a_bad_variant_or_a_coords_file_the_maps_disagree_with(
        tmp_path, monkeypatch):
    with pytest.raises(SystemExit, match="not a board variant"):
        run(["template", "dog-5", "-o", str(tmp_path / "x.svg")])
    rc, _, err = run(["template", "-o", str(tmp_path / "x.svg")])
    assert rc == 2 and "--all" in err
    broken = json.loads(json.dumps(table_of("dog-4")))
    del broken["sensors"]["3"]
    folder = tmp_path / "maps"
    folder.mkdir()
    (folder / "coords.json").write_text(json.dumps(broken))
    monkeypatch.setattr(data.Variant, "__init__", _with_maps(str(folder)))
    rc, _, err = run(["template", "dog-4", "-o", str(tmp_path / "x.svg")])
    assert rc == 1 and "no coordinates for 3" in err
    assert not (tmp_path / "x.svg").exists()


def _with_maps(folder):
    init = data.Variant.__init__

    def patched(self, *a, **k):
        init(self, *a, **k)
        self.maps_dir = folder
    return patched


# -- the build sheets -------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_build_md_carries_each_variants_sheet_as_the_data_gives_it(name):
    with open(BUILD_DOC, encoding="utf-8") as f:
        block = marked_block(f.read(), *buildsheet.markers(name))
    assert block is not None, "hardware/BUILD.md has no build sheet for %s" % name
    assert block == buildsheet.render(variant_of(name)), \
        "stale: run python -m hardware.design sheet %s --doc" % name


def test_build_md_is_linked_from_the_hardware_readme():
    with open(os.path.join(data.HARDWARE_DIR, "README.md"), encoding="utf-8") as f:
        assert "(BUILD.md)" in f.read()


@pytest.mark.parametrize("name", ["agent-dog-4", "dog-4", "dog-6"])
def test_a_colours_homes_and_its_start_area_lie_apart_from_the_others(name):
    # the start-area spots of each colour lie together behind its start space, far from any
    # other colour's: the start-area strip is one group per colour, each on its own board
    v = variant_of(name)
    rows = {r[0]: r for r in buildsheet.cables(v, table_of(name))}
    colours = len(set(s["loc"].split(":")[0] for s in v.sensors if ":s" in s["loc"]))
    spot_strips = set("strip-%d" % s["mux"] for s in v.sensors if ":s" in s["loc"])
    assert sum(rows[st][2] for st in spot_strips) == colours
    track_strips = set("strip-%d" % s["mux"] for s in v.sensors if s["loc"].isdigit())
    assert all(rows[st][2] == 1 for st in track_strips)     # 16 consecutive spaces: one board


def test_a_ribbon_reaches_its_strip_from_the_main_board_with_slack():
    v = variant_of("dog-6")
    table = table_of("dog-6")
    main = table["main_board"]
    sens = coords.positions(table)
    for name, _, _, _, ribbon in buildsheet.cables(v, table):
        strip = [s for s in v.strips if s.name == name][0]
        pts = [sens[loc] for _, loc in strip.sensors] or \
            [coords.positions(table, "leds")[n] for _, n in strip.leds]
        nearest = min(abs(p[0] - main[0]) + abs(p[1] - main[1]) for p in pts)
        assert nearest + buildsheet.SLACK_MM <= ribbon < nearest + buildsheet.SLACK_MM + 50


def test_the_acceptance_limits_pass_the_right_sensor_grade_and_catch_a_wrong_one():
    # DRV5055 grades at 3.3 V: A2 30 mV/mT, A3 15 (the design's), A4 7.5 (TI SBAS640): a
    # strip fitted with the grade either side reads twice or half the swing
    spec = magnets.table()
    tol = spec["sensor"]["sensitivity_tolerance"]
    for name in VARIANTS:
        acc = buildsheet.acceptance(variant_of(name), spec)
        assert acc["min_mv"] < acc["nominal_mv"] * (1 - tol) and \
            acc["nominal_mv"] * (1 + tol) < acc["max_mv"]
        assert acc["strip_low"] < (1 - tol) / (1 + tol) and (1 + tol) / (1 - tol) < \
            acc["strip_high"]
        assert acc["nominal_mv"] * 2 > acc["max_mv"] and acc["nominal_mv"] / 2 < acc["min_mv"]
    lo, hi, fault = buildsheet.empty_window()
    assert fault[0] < lo < 3.3 / 2 < hi < fault[1]


def test_a_pawn_magnet_too_strong_for_the_adc_is_flagged_on_its_sheet():
    # the 8 x 3 mm N45 disc: about 84 mT at the first design's 4.7 mm stack (issue 27, finding
    # 2), about 60 mT at today's 5.7 mm Agent Avenue stack (a 3 mm base): either way a reading
    # past the ESP32 ADC's linear limit, so the build sheet says the design fails
    v = variant_of("agent-avenue")
    v.config = dict(v.config, kit=[{"item": "Magnet", "qty": 2,
                                    "part_number": "N45 NdFeB disc, 8 mm x 3 mm"}])
    acc = buildsheet.acceptance(v)
    sens = magnets.table()["sensor"]["sensitivity_mv_per_mt"]
    assert acc["z_mm"] == pytest.approx(5.7)
    assert acc["nominal_mv"] / sens == pytest.approx(60, abs=1.5)
    assert any("the design fails here" in line for line in buildsheet.render_acceptance(v))
    v.config = dict(v.config, kit=[{"item": "Magnet, king", "qty": 4, "magnet": "rod-4x8",
                                    "part_number": "N45 NdFeB rod, 4 mm x 8 mm"}])
    assert not any("fails" in line for line in buildsheet.render_acceptance(v))
