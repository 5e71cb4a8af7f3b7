# Hostile input to the simulated board: the control channel (docs/board-protocols.md, section
# 2) and the device console behind it. Each bad request gets one clear error, the board keeps
# serving, and nothing changes: the physical world, the LEDs and the game are byte for byte
# what they were.
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from host_tools.games.track.players import Table
from host_tools.sim.requests import MAX_LINE, MAX_WAIT_MS

pytestmark = pytest.mark.micropython


@pytest.fixture(scope="module")
def table():
    t = Table(seed=4)
    t.new_game(2)
    yield t
    t.close()


def snapshot(t):
    """What a bad request must leave as it was, as raw text."""
    world = json.dumps(t.sim.request({"op": "world"}), sort_keys=True)
    leds = json.dumps(t.sim.request({"op": "leds"}), sort_keys=True)
    lines = t.sim.request({"op": "console", "send": {"op": "public"}})["lines"]
    view = [line for line in lines if '"re": "public"' in line]
    status = [line for line in t.sim.request({"op": "console", "send": {"op": "status"}})[
        "lines"] if '"re": "status"' in line]
    enrolled = json.loads(status[0])["cards_enrolled"]
    return world, leds, view, enrolled


BAD_CONTROL = [
    {"op": "press", "button": "back", "ms": "x"},
    {"op": "press", "button": "confirm", "ms": "x"},
    {"op": "press", "button": "back", "ms": -5},
    {"op": "press", "button": "back", "ms": True},
    {"op": "press", "button": "back", "ms": 10 ** 9},
    {"op": "press", "button": "power"},
    {"op": "_restore", "snap": {"pieces": {}}},
    {"op": "fault", "kind": "noise", "at": "5", "ms": -1},
    {"op": "fault", "kind": "noise"},
    {"op": "fault", "kind": "meteor", "at": "5"},
    {"op": "wait", "ms": MAX_WAIT_MS + 1},
    {"op": "wait", "ms": -1},
    {"op": "wait"},
    {"op": "place", "piece": "red-1", "at": "20", "upsidedown": True},
    {"op": "slide", "piece": "red-1", "path": []},
    {"op": "card", "card": "5", "uid": "04a1b2c3d4e5f6"},
    {"op": "card", "uid": "04 a1 b2 c3 d4 e5"},
    {"op": "console", "send": "public"},
    {"op": "console", "send": {"no": "op"}},
    {"op": 7},
    ["op", "world"],
    "world",
]


def test_a_bad_control_request_is_refused_and_changes_nothing(table):
    before = snapshot(table)
    for req in BAD_CONTROL:
        ans = table.sim.request(req)
        assert ans["ok"] is False and ans["error"] == "bad_request", (req, ans)
        assert ans["reason"] and "Traceback" not in ans["reason"]
        table.ask({"op": "wait", "ms": 2500})  # long enough for a held button to pass
        assert snapshot(table) == before, req


BAD_CONSOLE = [
    ({"op": "new_game", "game": "chess", "players": 2}, "bad_request"),
    ({"op": "new_game", "players": "2"}, "bad_request"),
    ({"op": "new_game", "players": 5}, "bad_request"),
    ({"op": "new_game", "players": 2, "seats": ["red", "red"]}, "bad_request"),
    ({"op": "new_game", "players": 2, "seats": [{"x": 1}, "red"]}, "bad_request"),
    ({"op": "new_game", "players": 2, "dealer": "blue"}, "bad_request"),
    ({"op": "enrol", "uid": "04 a1 b2 c3 d4 e5 f6", "card": "5"}, "bad_request"),
    ({"op": "enrol", "uid": "+4a1b2c3d4e5f6", "card": "5"}, "bad_request"),
    ({"op": "enrol", "uid": "0x04a1b2c3d4e5", "card": "5"}, "bad_request"),
    ({"op": "enrol", "uid": 12345678, "card": "5"}, "bad_request"),
    ({"op": "enrol", "uid": "04a1b2c3d4e5f6", "card": "joker"}, "bad_request"),
    ({"op": "enrol", "card": "5"}, "bad_request"),
    ({"op": "calibrate", "step": "everything"}, "not_now"),
    ({"op": "fly"}, "bad_request"),
    ({"op": "public", "pad": "x" * 5000}, "bad_request"),
]


def test_a_bad_console_command_is_refused_and_changes_nothing(table):
    before = snapshot(table)
    for cmd, kind in BAD_CONSOLE:
        ans = table.send(cmd) if len(json.dumps(cmd)) < 2048 else None
        if ans is None:  # a line too long for the console: answered without an op
            lines = table.ask({"op": "console", "send": cmd})["lines"]
            ans = json.loads([line for line in lines if '"re"' in line][0])
        assert ans["ok"] is False and ans["error"] == kind, (cmd, ans)
        assert ans["reason"] and "Traceback" not in ans["reason"]
        table.wait()
        assert snapshot(table) == before, cmd


def test_faults_can_be_cleared(table):
    table.ask({"op": "fault", "kind": "dead_sensor", "at": "20", "ms": 60000})
    table.wait(300)
    assert "20" in table.send({"op": "status"})["faults"]
    table.ask({"op": "fault", "kind": "clear", "at": "20"})
    table.wait(300)
    assert table.send({"op": "status"})["faults"] == []


def headless(lines, timeout=120):
    """Feeds raw bytes to `python -m host_tools.sim --headless`; returns its answers."""
    proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless", "--seed", "2"],
                          input=b"".join(lines), cwd=ROOT, capture_output=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def test_the_control_channel_survives_any_line():
    status = b'{"op": "console", "send": {"op": "status"}}\n'
    bad = [b"not json\n", b'{"op": "world"\xff}\n', b"[" * 100000 + b"\n",
           b'{"op": "console", "send": {"op": "public", "pad": "' + b"x" * (MAX_LINE * 16)
           + b'"}}\n', b'{"op": "wait", "ms": NaN}\n', b"\n"]
    answers = headless([x for b in bad for x in (b, status)])
    # one answer per non-empty line, a refusal for each bad one, and the device alive after
    assert len(answers) == 2 * (len(bad) - 1) + 1
    for j in range(0, 2 * (len(bad) - 1), 2):
        assert answers[j]["ok"] is False and answers[j]["error"] == "bad_request", answers[j]
        assert any('"re": "status"' in line and '"ok": true' in line
                   for line in answers[j + 1]["lines"]), answers[j + 1]
    assert all("Traceback" not in json.dumps(a) for a in answers)


def test_a_device_that_is_off_says_so_and_how_to_start_it(table):
    t = Table(seed=6)
    try:
        t.ask({"op": "power_cut"})
        for req in ({"op": "console"}, {"op": "wait", "ms": 10}, {"op": "leds"},
                    {"op": "console", "send": {"op": "public"}}):
            ans = t.sim.request(req)
            assert ans["ok"] is False and ans["error"] == "device_off", ans
            assert "power_on" in ans["reason"]
        assert t.sim.request({"op": "world"})["ok"]  # the pieces are still there
        assert t.sim.request({"op": "power_on"})["ok"]
        assert t.send({"op": "status"})["ok"]
    finally:
        t.close()
