# `agentboard monitor`: the board's public view and its events in words (shared_rules/describe.py)
# as they happen, each line stamped with the time and coloured when it goes to a terminal, plain
# when piped; `--json` keeps the board's own JSON lines (keys sorted) for tools.
import io
import json
import os
import pty
import re
import subprocess
import time

import pytest

from conftest import ROOT
from host_tools.monitor import Printer

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
STAMP = re.compile(r"^\x1b\[2m\d\d:\d\d:\d\d\x1b\[0m ")


def monitor(flash, *extra):
    out = subprocess.run([AGENTBOARD, "monitor", "--sim-flash", flash, "--polls", "1"] +
                         list(extra), capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


@pytest.mark.micropython
def test_monitor_says_the_game_and_its_events_in_words_when_piped(running_game):
    lines = monitor(running_game)
    # the simulated board boots from its flash with every piece back in its start area: it
    # finds the game there and says where the board differs from it
    assert lines[0] == ("The game on the board: Agent DOG, 4 players · the board differs from "
                        "the game · cards in hand: blue 5, green 5, red 4, yellow 5.")
    assert lines[1].startswith("The board started (no build number on its flash): 110 cards "
                               "enrolled, ")
    assert lines[2] == "The board found its game on the flash after 1 turn: blue to move."
    assert lines[3] == ("The board differs from the game at 13, 16, 32, 48, red's start area, "
                        "blue's start area, green's start area and yellow's start area.")
    for line in lines:  # piped: plain words, no time, no colour, no JSON
        assert not ANSI.search(line) and "{" not in line and "_" not in line, line


@pytest.mark.micropython
def test_monitor_json_keeps_the_boards_lines_for_tools(running_game):
    lines = [json.loads(line) for line in monitor(running_game, "--json")]
    assert lines[0]["phase"] == "mismatch" and lines[0]["to_move"] == "blue"
    assert [e["event"] for e in lines[1:]] == ["boot", "resumed", "mismatch"]
    assert lines[2] == {"event": "resumed", "turns": 1, "to_move": "blue"}


@pytest.mark.micropython
def test_monitor_on_a_terminal_stamps_and_colours_each_line(running_game):
    leader, follower = pty.openpty()
    proc = subprocess.Popen([AGENTBOARD, "monitor", "--sim-flash", running_game, "--polls",
                             "1"], stdout=follower, stderr=subprocess.PIPE, cwd=ROOT)
    os.close(follower)
    said = b""
    end = time.time() + 120
    while time.time() < end:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the monitor ended
            break
        if not chunk:
            break
        said += chunk
    proc.wait(timeout=30)
    os.close(leader)
    assert proc.returncode == 0
    lines = said.decode().replace("\r\n", "\n").splitlines()
    assert len(lines) == 4
    for line in lines:
        assert STAMP.match(line), repr(line)
    assert lines[0].endswith("\x1b[1mThe game on the board: Agent DOG, 4 players · the board "
                             "differs from the game · cards in hand: blue 5, green 5, red 4, "
                             "yellow 5.\x1b[0m")
    assert lines[3].endswith("\x1b[33mThe board differs from the game at 13, 16, 32, 48, red's "
                             "start area, blue's start area, green's start area and yellow's "
                             "start area.\x1b[0m")  # yellow: put right


def test_what_each_line_looks_like():
    clock = lambda: time.struct_time((2024, 5, 6, 12, 34, 56, 0, 127, -1))  # noqa: E731
    out = io.StringIO()
    p = Printer(out, tty=True, clock=clock)
    p.event({"event": "reject", "reason": "two cards on the reader"})
    p.event({"event": "turn", "side": "blue"})  # the Agent Avenue board's, by its fields
    assert out.getvalue().splitlines() == [
        "\x1b[2m12:34:56\x1b[0m \x1b[31mRefused: two cards on the reader.\x1b[0m",
        "\x1b[2m12:34:56\x1b[0m Blue's turn."]
    out = io.StringIO()
    Printer(out, json_lines=True, tty=True).event({"event": "turn", "seat": "red", "a": 1})
    assert out.getvalue() == '{"a": 1, "event": "turn", "seat": "red"}\n'  # never stamped
