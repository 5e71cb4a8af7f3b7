# Bad input gets the protocol's error answer, and the server keeps serving (both interpreters).
import json
import subprocess

import pytest

from conftest import ROOT, micropython_cmd
from rulebook import position

GOOD = {"op": "legal", "position": position(red=[10]), "card": "5"}


def with_position(**changes):
    pos = position(red=[10])
    pos.update(changes)
    return {"op": "legal", "position": pos, "card": "5"}


def with_pieces(**pieces):
    pos = position(red=[10])
    pos["pieces"].update(pieces)
    return {"op": "legal", "position": pos, "card": "5"}


BAD = [
    ("bad_request", "{not json"),
    ("bad_request", "[1, 2]"),
    ("bad_request", ""),
    ("bad_request", {"op": "fly", "position": position()}),
    ("bad_request", {"position": position()}),
    ("bad_request", {"op": "legal", "card": "5"}),
    ("bad_request", {"op": "legal", "position": position()}),
    ("bad_request", {"op": "legal", "position": position(), "card": "4"}),
    ("bad_request", {"op": "legal", "position": position(), "card": 5}),
    ("bad_request", {"op": "apply", "position": position(red=[10])}),
    ("bad_request", {"op": "apply", "position": position(red=[10]), "move": {"card": "joker"}}),
    ("bad_request", {"op": "apply", "position": position(red=[10]),
                     "move": {"card": "5", "path": [[10, 99]]}}),
    ("bad_request", {"op": "apply", "position": position(red=[10]), "move": {"card": "5"}}),
    ("bad_request", {"op": "apply", "position": position(red=[10]), "move": "5"}),
    ("bad_request", {"op": "legal", "position": {"players": 4, "pieces": {}}, "card": "5"}),
    ("bad_position", with_pieces(blue=[10, "start", "start", "start"])),  # two on 10
    ("bad_position", with_pieces(blue=["start", "start", "start"])),  # 3 pieces
    ("bad_position", with_pieces(blue=[64, "start", "start", "start"])),  # no space 64
    ("bad_position", with_pieces(blue=["h5", "start", "start", "start"])),
    ("bad_position", with_pieces(blue=["red:h1", "start", "start", "start"])),
    ("bad_position", with_pieces(blue=["h2", "h2", "start", "start"])),
    ("bad_position", with_pieces(purple=["start"] * 4)),
    ("bad_position", with_position(players=5)),
    ("bad_position", with_position(players=True)),
    ("bad_position", with_position(to_move="yellow", players=3, pieces={
        "red": [10, "start", "start", "start"], "blue": ["start"] * 4, "green": ["start"] * 4})),
    ("bad_position", with_position(players=2, pieces={
        "red": [10, "start", "start", "start"], "green": ["start"] * 4,
        "blue": [20, "start", "start", "start"]})),  # blue is not a seat but on the board
    ("bad_position", with_position(seats=["red", "red", "blue", "green"])),
    ("bad_position", with_position(last_card="copy")),
    ("bad_position", with_position(last_card="4")),
    ("bad_position", with_position(cards_left={"red": 7})),
    ("bad_position", with_position(out=["red"])),  # the seat to move cannot be out
    ("bad_position", with_position(dealer="purple")),
    ("illegal", {"op": "apply", "position": position(red=[10]),
                 "move": {"card": "5", "path": [[10, 16]]}}),
    ("illegal", {"op": "apply", "position": position(red=[10]),
                 "move": {"card": "5", "path": [[20, 25]]}}),
    ("illegal", {"op": "apply", "position": position(red=[10], blue=[30]),
                 "move": {"card": "5", "path": [[30, 35]]}}),
    ("illegal", {"op": "apply", "position": position(red=[10]),
                 "move": {"card": "5", "path": [[10, 12], [12, 15]]}}),
    ("illegal", {"op": "apply", "position": position(red=[10]),
                 "move": {"card": "partner", "path": [[10, 12]]}}),
    ("illegal", {"op": "apply", "position": position(red=[10]),
                 "move": {"card": "partner", "path": [[10, 16]]}}),
]


@pytest.mark.parametrize("kind,req", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_gets_its_error_kind(both, kind, req):
    line = req if isinstance(req, str) else json.dumps(req)
    a = both.rules.handle_line(line)
    b = both.micro.ask_line(line) if line else a
    assert a == b
    assert a["ok"] is False and a["error"] == kind, a
    assert a["reason"] and "internal error" not in a["reason"]


def test_server_keeps_serving_after_every_bad_line_on_both_interpreters():
    lines = [r if isinstance(r, str) else json.dumps(r) for _, r in BAD]
    lines.append(json.dumps(GOOD))
    text = "\n".join(lines) + "\n"
    for cmd in ([micropython_cmd(), "-m", "shared_rules", "serve"],
                [ROOT + "/.venv/bin/python", "-m", "shared_rules", "serve"]):
        out = subprocess.run(cmd, input=text, capture_output=True, text=True, cwd=ROOT,
                             timeout=60)
        answers = [json.loads(x) for x in out.stdout.splitlines()]
        assert len(answers) == len(lines), out.stderr
        assert answers[-1] == {"ok": True, "moves": [{"card": "5", "path": [[10, 15]]}]}
        assert out.returncode == 0


def test_a_bad_move_changes_nothing(both):
    pos = position(red=[10], blue=[15])
    before = json.dumps(pos, sort_keys=True)
    both.ask({"op": "apply", "position": pos, "move": {"card": "5", "path": [[10, 16]]}})
    assert json.dumps(pos, sort_keys=True) == before
