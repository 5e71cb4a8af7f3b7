# Driver tests that run on the real MicroPython unix port against the simulated hardware
# (tests/mp/*_tests.py). Each MicroPython test function becomes one pytest case here.
import json
import os
import re
import subprocess
import tempfile

import pytest

from conftest import ROOT, micropython_cmd

MP_DIR = os.path.join(ROOT, "tests", "mp")
MODULES = sorted(f[:-3] for f in os.listdir(MP_DIR) if f.endswith("_tests.py"))
_results = {}


def run_module(mod):
    if mod not in _results:
        with tempfile.TemporaryDirectory(prefix="agentboard-mp-") as scratch:
            out = subprocess.run([micropython_cmd(), "tests/mp/runner.py", mod, scratch],
                                 cwd=ROOT, capture_output=True, text=True, timeout=600)
        res = {}
        for line in out.stdout.splitlines():
            if line.startswith('{"') and '"test"' in line:
                r = json.loads(line)
                if "test" in r:
                    res[r["test"]] = r
        _results[mod] = (res, out.stdout + out.stderr)
    return _results[mod]


def cases():
    for mod in MODULES:
        src = open(os.path.join(MP_DIR, mod + ".py")).read()
        # a module that runs tests written elsewhere (a CPython test file's plain scenarios)
        # names that file in a line FROM = "path"
        borrowed = re.findall(r'^FROM = "([^"]+)"', src, re.M)
        if borrowed:
            src = open(os.path.join(ROOT, borrowed[0])).read()
        for name in re.findall(r"^def (test_\w+)\(", src, re.M):
            yield mod, name


@pytest.mark.micropython
@pytest.mark.parametrize("mod,name", list(cases()), ids=lambda v: v)
def test_on_micropython(mod, name):
    res, log = run_module(mod)
    r = res.get(name)
    assert r is not None, "MicroPython did not report %s.%s:\n%s" % (mod, name, log[-3000:])
    assert r["ok"], "%s.%s failed on MicroPython: %s\n%s" % (mod, name, r.get("error"),
                                                            log[-3000:])
