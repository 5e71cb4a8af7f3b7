# Whole games played once per test run and shared by the test files that read them. A whole
# game on the simulated board takes seconds to minutes: a file that needs a game another file
# plays asks for it here, by its key, and the first to ask plays it. With pytest-xdist every
# worker has its own run, so the files that share a game are listed in GROUPS: make test's
# scheduler (conftest.py) sends them to one worker as one unit, and the game is played once.

import json
import os
import pickle

from shared_rules import variant, variant_base

# file -> its group: the files that share the Agent Avenue game of seed 19 (advanced, 1 / 2)
GROUPS = {"tests/firmware/games/avenue/test_avenue_board_games.py": "avenue-19",
          "tests/host/games/avenue/test_avenue_board_record.py": "avenue-19"}
_avenue = {}


class AvenueGame:
    """What a whole Agent Avenue game on the simulated board leaves: every console line the
    firmware said, the players' final position, how many decisions it took, and the record
    the board exported at its end."""

    def __init__(self, lines, st, decisions, record):
        self.lines = lines
        self.st = st
        self.decisions = decisions
        self.record = record


def checked(players):
    """After every decision the board's public view is the players' position."""
    from host_tools.games.avenue.players import same_game
    view = players.view()
    wrong = same_game(players, view)
    assert not wrong, "after decision %d: %s" % (players.decisions, "; ".join(wrong))


def avenue(seed, mode, seats):
    """The whole game (seed, mode, seats) played on the simulated board to its end, the view
    checked after every decision; played once per worker."""
    from host_tools.games.avenue.players import Players
    key = (seed, mode, tuple(seats))
    if key not in _avenue:
        p = Players(seed, mode, seats)
        try:
            checked(p)
            st = p.play_to_end(checked)
            p.drain()
            record = p.console({"op": "export"})["record"]
            _avenue[key] = AvenueGame(list(p.lines), st, p.decisions, record)
        finally:
            p.close()
    return _avenue[key]


# files whose whole games spread over the workers: each parametrized test's case goes with
# the cases of the same id in that file (one game each), the file's other tests (those over
# every game, which read the games the others played from `across`) as a unit of their own.
# The others here play a game per case and share nothing but session fixtures: one worker
# playing them one after the other made the longest chains of the run.
SPREAD = ("tests/firmware/games/track/test_dog_board_games.py", "tests/host/test_outside_checks.py",
          "tests/firmware/games/track/test_dog_board_putright.py", "tests/firmware/test_power.py")


# the files that read a variant's generated circuits (tests/hardware/circuits.py builds them
# once per worker): a case whose id is a variant's name goes to that variant's unit, as do
# the files of one variant
CIRCUITS = {"tests/hardware/test_hardware_variants.py": None,
            "tests/hardware/test_hardware_analog.py": None,
            "tests/hardware/test_hardware_power.py": None,
            "tests/hardware/test_hardware_design.py": "agent-dog-4",
            "tests/hardware/test_avenue_board_hardware.py": "agent-avenue"}


_variant_names = []


def _variants():
    """The board variants' names (hardware/variants/*), read once."""
    if not _variant_names:
        from hardware.design import data
        _variant_names.extend(os.path.basename(f) for f in data.variant_folders())
    return _variant_names


def unit(nodeid):
    """The unit of work a test goes to a worker in (conftest.py's scheduler): its file, its
    file's group (GROUPS), in a SPREAD file its case's id, in a CIRCUITS file its variant's."""
    path = nodeid.split("::", 1)[0]
    case = nodeid[nodeid.index("[") + 1:-1] if nodeid.endswith("]") and "[" in nodeid else None
    if path in SPREAD and case is not None:
        return path + "[" + case + "]"
    if path in CIRCUITS:
        v = CIRCUITS[path] or case
        if v in _variants():
            return "circuits[" + v + "]"
    return GROUPS.get(path, path)


# the seconds each file's tests kept their worker busy in one measured `make test` run (its units
# share them evenly): the scheduler hands out the longest units first, so no worker starts a long
# one at the end. The time on the worker, not the CPU: a deploy to a virtual board waits on its
# serial line far more than it computes, and held its worker for minutes as the last unit
UNIT_SECONDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unit_seconds.json")


def _unit_file(scope):
    """The file (or group, or "circuits") a unit of work belongs to."""
    return scope.split("[", 1)[0]


def measured():
    """file (or group, or "circuits") -> its seconds in the measured run (UNIT_SECONDS)."""
    with open(UNIT_SECONDS, encoding="utf-8") as f:
        return json.load(f)["seconds"]


def weights(scopes, seconds=None):
    """scope -> its estimated seconds, for the units of work scopes (unit()): its file's
    measured seconds (default measured()) shared evenly among the file's units; a unit of a
    file not measured weighs 0."""
    seconds = measured() if seconds is None else seconds
    shares = {}
    for scope in scopes:
        shares[_unit_file(scope)] = shares.get(_unit_file(scope), 0) + 1
    return dict((scope, seconds.get(_unit_file(scope), 0.0) / shares[_unit_file(scope)])
                for scope in scopes)


def from_junit(xml_text):
    """file (or group, or "circuits") -> the seconds of its tests (setup, call and teardown:
    pytest's junit `time`), from the report of `pytest --junitxml`."""
    import xml.etree.ElementTree as ET
    out = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        path = case.get("classname").replace(".", "/")  # tests/host/test_x[/Class]
        while not os.path.isfile(_in_checkout(path + ".py")) and "/" in path:
            path = path.rsplit("/", 1)[0]  # a class's tests: the file holds the class
        path += ".py"
        name = _unit_file(unit(path + "::" + case.get("name")))
        out[name] = out.get(name, 0.0) + float(case.get("time"))
    # (a file under a twentieth of a second weighs nothing, as one not measured)
    return dict((name, round(seconds, 1)) for name, seconds in out.items()
                if round(seconds, 1) > 0)


def _in_checkout(rel):
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), rel)


def longest(scopes, weights):
    """The unit to hand out next: the heaviest, the first of equals (the scopes' own order)."""
    return max(scopes, key=lambda scope: weights.get(scope, 0.0))


_across = {}


def across(tmp_path_factory, key, make):
    """make()'s value, made once per run across every worker: the first to ask makes it
    while the others asking wait (a lock file), then all read the pickled value from the
    run's shared temporary folder."""
    import fcntl
    if key in _across:
        return _across[key]
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the workers' folders are popen-gwN under the run's own
    folder = root / "played"
    folder.mkdir(exist_ok=True)
    path = folder / (key + ".pickle")
    with open(str(folder / (key + ".lock")), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held by a worker making it: wait for it
        if path.exists():
            with open(str(path), "rb") as f:
                value = _Unpickler(f).load()
        else:
            value = make()
            part = folder / (key + ".part")
            with open(str(part), "wb") as f:
                _Pickler(f).dump(value)
            os.replace(str(part), str(path))
    _across[key] = value
    return value


class _Pickler(pickle.Pickler):
    """A game's positions pickled with their game (shared_rules.variant) as its name and
    board: the game is loaded again where they are read (it holds the move generator's
    scratch, no data)."""

    def persistent_id(self, obj):
        if isinstance(obj, variant_base.Variant):
            return (obj.name, obj.lay.name)
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid):
        return variant.load(pid[0], pid[1])


if __name__ == "__main__":
    # python tests/played.py build/junit.xml: UNIT_SECONDS from a `make test
    # PYTEST_ARGS=--junitxml=build/junit.xml` run on the 2-core machine
    import sys
    import time
    with open(sys.argv[1], encoding="utf-8") as f:
        got = from_junit(f.read())
    with open(UNIT_SECONDS, "w", encoding="utf-8") as f:
        json.dump({"why": "the seconds each file's tests (or group's, or the circuits') kept their "
                          "worker busy in one `make test` run on the 2-core machine: "
                          "tests/played.py weights() reads them, so that the scheduler hands "
                          "out the longest units first. Measure again when a file's time "
                          "changes much: python tests/played.py build/junit.xml after make "
                          "test PYTEST_ARGS=--junitxml=build/junit.xml",
                   "measured": time.strftime("%Y-%m-%d"),
                   "seconds": dict(sorted(got.items()))}, f, indent=1)
        f.write("\n")
