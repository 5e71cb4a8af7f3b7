"""make bench's figures file (docs/measuring.md, "The figures of a run"): what it writes, and
that every figure the bench notes is listed in the docs under the name it is written with."""
import json
import os
import re

from host_tools.bench import common
from conftest import ROOT

BENCH = os.path.join(ROOT, "host_tools", "bench")


def test_the_figures_file_holds_every_figure_noted(tmp_path):
    del common.FIGURES[:]
    assert common.figure("scan.x.ms", 5.3, "ms", 20) == 5.3
    common.figure("heap.x.mpy", None, "wK", 72)  # a heap that never finished: no value
    path = common.write_figures(str(tmp_path / "build" / "bench.json"))
    with open(path) as f:
        got = json.load(f)
    assert got["format"] == "agentboard-bench/1" and re.match(r"\d{4}-\d\d-\d\dT", got["time"])
    assert got["figures"] == [
        {"name": "scan.x.ms", "value": 5.3, "unit": "ms", "target": 20},
        {"name": "heap.x.mpy", "value": None, "unit": "wK", "target": 72}]
    del common.FIGURES[:]


def _pattern(name):
    # a figure's name as the bench writes it, with %s/%d parts as any run of name characters
    return re.escape(name).replace("%s", "[A-Za-z0-9_-]+").replace("%d", "[0-9]+")


def test_every_figure_the_bench_notes_is_listed_in_the_docs():
    with open(os.path.join(ROOT, "docs", "measuring.md")) as f:
        listed = re.findall(r"`([a-z0-9_.A-Z-]+)`", f.read())
    names = []
    for fn in sorted(os.listdir(BENCH)):
        if fn.endswith(".py"):
            with open(os.path.join(BENCH, fn)) as f:
                names += re.findall(r'figure\(\s*"([^"]+)"', f.read())
    assert len(names) >= 20
    for name in names:
        pat = re.compile("^" + _pattern(name) + "$")
        # the docs write varying parts in capitals (BOARD, SCENE, ...) or list a family with
        # its first member and a suffix: a name matches if some listed name does, either way
        doc = [n for n in listed if pat.match(n) or re.match(
            "^" + re.sub(r"[A-Z]+", "[A-Za-z0-9_-]+", re.escape(n)).replace("\\-", "-") + "$",
            name.replace("%s", "x").replace("%d", "1"))]
        assert doc, "%s is written to build/bench.json but not listed in docs/measuring.md" % name
