import importlib.machinery
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from shared_rules.protocol import Rules  # noqa: E402


# The firmware imports the modules a board runs rarely for each call and drops them after it
# (firmware/ondemand.py: on a board that gives their code's heap back). Tests run the firmware
# in CPython too, where such an import compiled the source again when no .pyc may be written
# (PYTHONDONTWRITEBYTECODE: five sixths of the secrecy test's time) and read and unmarshalled
# the .pyc otherwise (a quarter more than this). The tests keep each source's code in memory,
# by the file's path, modification time and size: the module is still made afresh from it at
# every import, so a module that kept state between calls would still be seen.
def _keep_compiled_code():
    get_code = importlib.machinery.SourceFileLoader.get_code
    codes = {}

    def cached(self, fullname):
        path = self.get_filename(fullname)
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        code = codes.get(key)
        if code is None:
            code = codes[key] = get_code(self, fullname)
        return code

    importlib.machinery.SourceFileLoader.get_code = cached


_keep_compiled_code()


def pytest_configure(config):
    """The simulated devices of the whole run boot one compiled tree of the device's code
    (.mpy, as `agentboard deploy` puts on a board), built here once before the workers start
    and named to them, and to the `agentboard` processes the tests start, by the environment
    (host_tools/sim/server.py DEVICE_CODE_ENV): booted from the sources, every device
    compiled each module at every boot and each console op's module at every op."""
    from host_tools.bench.common import build_device_tree
    from host_tools.sim.server import DEVICE_CODE_ENV
    if hasattr(config, "workerinput"):
        return  # a worker: its controller made the run's trees
    import tempfile
    config._run_trees = []
    if not os.environ.get(DEVICE_CODE_ENV):
        tree = tempfile.mkdtemp(prefix="agentboard-device-code-")
        build_device_tree(tree, with_sim=True)
        os.environ[DEVICE_CODE_ENV] = tree
        config._run_trees.append(tree)
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        # the hundreds of Python processes the tests start (each `agentboard` command, each
        # simulator's server, the workers) compiled every module they import, no .pyc being
        # written (0.30 s an `agentboard --version` against 0.21): their bytecode is cached
        # for the run in a folder of its own, none is written into the checkout
        cache = tempfile.mkdtemp(prefix="agentboard-pycache-")
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = cache
        config._run_trees.append(cache)


def pytest_unconfigure(config):
    import shutil
    for tree in getattr(config, "_run_trees", ()):
        shutil.rmtree(tree, ignore_errors=True)

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


def micropython_cmd():
    if os.path.exists(MICROPYTHON):
        return MICROPYTHON
    raise RuntimeError("no MicroPython unix port at %s: run `make setup`" % MICROPYTHON)


class MicroServer:
    """`micropython -m shared_rules serve` as a long-lived process, one line per request."""

    def __init__(self):
        self.proc = subprocess.Popen([micropython_cmd(), "-m", "shared_rules", "serve"],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def ask_line(self, line):
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line.rstrip("\n") + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        if not out:
            raise RuntimeError("the MicroPython rules server died")
        return json.loads(out)

    def close(self):
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def micro():
    server = MicroServer()
    yield server
    server.close()


class Both:
    """Asks CPython and MicroPython the same request; their answers must be identical."""

    def __init__(self, micro):
        self.rules = Rules()
        self.micro = micro

    def ask(self, req):
        line = json.dumps(req)
        a = self.rules.handle_line(line)
        a = json.loads(json.dumps(a))  # tuples -> lists, as on the wire
        b = self.micro.ask_line(line)
        # compared as canonical text, not as values: 1 == 1.0 == True in Python, but not on the
        # wire; key order is not part of the protocol (docs/rules-protocol.md)
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (
            "CPython and MicroPython disagree on %s" % line)
        return a


@pytest.fixture(scope="session")
def both(micro):
    return Both(micro)


@pytest.fixture(scope="module")
def running_game(tmp_path_factory):
    """A simulated board's flash with a game of Agent DOG under way: one move played (a
    module's tests share it; each test file gets its own)."""
    from host_tools.games.track.players import Table, find
    flash = str(tmp_path_factory.mktemp("running") / "flash")
    t = Table(seed=4, flash=flash)
    try:
        t.new_game(4)
        t.play("13", find(t.st, "13", 0, 13))
    finally:
        t.close()
    return flash


# the fixture every Playwright test opens Debian's Chromium through (tests/host/test_web*.py)
BROWSER_FIXTURE = "browser"


def pytest_collection_modifyitems(config, items):
    """A test that opens the browser is a `browser` test (make test-fast leaves them out): told
    by its fixtures, so a new page test cannot forget the mark."""
    for item in items:
        if BROWSER_FIXTURE in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` (make test), but the files that share a whole game (played.GROUPS)
    go to one worker as one unit, so it is played once there, and a file of many games
    spreads them over the workers, a game a unit (played.SPREAD); the longest units first
    (played.weights). (xdist's own `loadgroup`
    cannot group files with this pytest: it marks the tests' node ids through an attribute
    pytest 9 no longer reads.)"""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling
    import played

    class SharedGames(LoadFileScheduling):
        weights = None

        def _split_scope(self, nodeid):
            return played.unit(nodeid)

        def _assign_work_unit(self, node):
            # the longest unit left goes first (played.weights): xdist hands the units out in
            # order of their number of tests, which sent the whole games, a few tests each,
            # last, and the run waited on one worker playing them at its end
            if self.weights is None:
                self.weights = played.weights(list(self.workqueue))
            self.workqueue.move_to_end(played.longest(self.workqueue, self.weights), last=False)
            LoadFileScheduling._assign_work_unit(self, node)
    return SharedGames(config, log)


CHROMIUM = "/usr/bin/chromium"  # Debian's: Playwright's own download is not reachable here
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, one per test module (the page tests)."""
    from playwright.sync_api import sync_playwright
    assert os.path.exists(CHROMIUM), "Debian's chromium is missing: `make test` installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
