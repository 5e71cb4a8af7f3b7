# `agentboard replay FILE` of a malformed record: one line on stderr starting "agentboard:", exit
# 1, nothing on stdout, never "a bug in agentboard". An Agent Avenue record
# (docs/agent-avenue-board.md "The game record") is checked as strictly as a DOG record
# (docs/board-protocols.md): a number is a whole number by its JSON type (2.0 and true are not
# 2 and 1), a name is a string, and every decision is a move the rules core takes as given (a
# field the decision cannot have is refused, not ignored).
import json
import os
import subprocess

import pytest

from conftest import ROOT

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
FAILED = 1


def run_replay(path):
    out = subprocess.run([AGENTBOARD, "replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)
    return out.returncode, out.stdout, out.stderr


def assert_refused(path, *fragments):
    code, out, err = run_replay(path)
    assert code == FAILED, (code, out[-300:], err)
    assert out == "", out[-300:]  # the whole record is checked before anything is printed
    assert err.startswith("agentboard: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "bug" not in err and "Traceback" not in err, err
    for f in fragments:
        assert f in err, (f, err)


def avenue_record(seed=5, advanced=True, seats=(1, 1)):
    """A whole random game of Agent Avenue written as the board exports it."""
    from shared_rules.avenue import randgame, tables, move
    tb = tables.load()
    _, _, st = randgame.start(tb, seed, advanced, seats)
    turns = []

    def report(before, mv, events):
        side = before.who_acts()
        turns.append({"side": tb.sides[side], "move": move.to_json(tb, before, mv)})

    randgame.play(seed, advanced, seats, report=report)
    return {"format": "agentboard-record/1", "game": "agent-avenue", "layout": "agent-avenue",
            "mode": "advanced" if advanced else "simple", "players": seats[0] + seats[1],
            "seats": {"green": seats[0], "blue": seats[1]}, "active": tb.sides[st.active],
            "offer": [tb.market_names[c] for c in st.offer] if advanced else None,
            "turns": turns}


def dog_record(seed=3, players=3):
    """A whole random game of Agent DOG written as the board exports it."""
    from shared_rules import randgame, notation
    turns = []

    def report(before, seat, k, mv, events):
        turn = {"seat": before.lay.colours[seat], "move": notation.to_json(before, mv)}
        if k >= 0:
            turn["card"] = before.game.cards.names[k]
        turns.append(turn)

    st, _ = randgame.play(seed, players, report=report)
    return {"format": "agentboard-record/1", "players": players,
            "seats": [st.lay.colours[c] for c in st.seats], "dealer": turns[0]["seat"],
            "turns": turns}


@pytest.fixture(scope="module")
def avenue():
    return avenue_record()


@pytest.fixture(scope="module")
def dog():
    return dog_record()


def written(tmp_path, rec, change=None):
    rec = json.loads(json.dumps(rec))
    if change is not None:
        change(rec)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec))
    return path


def test_the_good_records_replay(tmp_path, avenue, dog):
    # the records the cases below spoil are whole games that replay
    for rec, first in ((avenue, "La Via delle Spie / Agent Avenue, advanced mode"),
                       (dog, "Agent DOG, 3 players")):
        code, out, err = run_replay(written(tmp_path, rec))
        assert code == 0 and err == "" and out.startswith(first), (code, err, out[:200])


def _seats(**seats):
    def change(rec):
        rec["seats"] = seats
    return change


def _field(key, value):
    def change(rec):
        rec[key] = value
    return change


def _first_recruit(**extra):
    def change(rec):
        turn = next(t for t in rec["turns"] if "recruit" in t["move"])
        turn["move"].update(extra)
    return change


def _first_move(**extra):
    def change(rec):
        turn = next(t for t in rec["turns"] if "card" in t["move"])
        turn["move"].update(extra)
    return change


def _turn(n, **fields):
    def change(rec):
        rec["turns"][n].update(fields)
    return change


AVENUE_BAD = [
    # (name, the change to a good record, what the line says)
    ("seats 1.0", _seats(green=1.0, blue=1), "seats must give each side's players"),
    ("seats true", _seats(green=True, blue=1), "seats must give each side's players"),
    ("seats as text", _seats(green="1", blue=1), "seats must give each side's players"),
    ("seats of one side", _seats(green=1), "seats must give each side's players"),
    ("seats null", _field("seats", None), "seats must give each side's players"),
    ("players 2.0", _field("players", 2.0), "players must be 2, the seats' sum, not 2.0"),
    ("players true", _field("players", True), "players must be 2, the seats' sum, not true"),
    ("an offer of lists", _field("offer", [["masterplan"], "outpost", "watchtower"]),
     "offer must list the first 3 black-market cards"),
    ("an offer of numbers", _field("offer", [1, 2, 3]), "offer must list"),
    ("an offer with a card twice", _field("offer", ["outpost", "outpost", "watchtower"]),
     "offer must list"),
    ("mode as a list", _field("mode", ["advanced"]), "mode must be simple or advanced"),
    ("active as a list", _field("active", ["green"]), "active must be green or blue"),
    ("turns not a list", _field("turns", {"1": 2}), "turns must be a list"),
    ("a turn not an object", lambda r: r["turns"].__setitem__(0, 5),
     "turn 1 must be an object with side and move"),
    ("a turn without side", lambda r: r["turns"][0].pop("side"), "turn 1 has no side"),
    ("side as a list", _turn(0, side=["green"]), "turn 1: side must be green or blue"),
    ("move not an object", _turn(0, move="recruit"), "turn 1: move must be a move object"),
    ("a recruit naming a seat", _first_recruit(seat=0),
     "is not legal there: a recruit decision has no field 'seat'"),
    ("a decision with a track move's card", _first_recruit(card="5"),
     "is not legal there: a recruit decision has no field 'card'"),
    ("too many turns", lambda r: r["turns"].extend([r["turns"][0]] * 5001),
     "more than any game (5000)"),
]


@pytest.mark.parametrize("change,says", [pytest.param(c, s, id=n) for n, c, s in AVENUE_BAD])
def test_a_malformed_avenue_record_gets_one_clear_line(tmp_path, avenue, change, says):
    assert_refused(written(tmp_path, avenue, change), says)


DOG_BAD = [
    # the same strictness, in the checks DOG records always had
    ("players 3.0", _field("players", 3.0), "players must be one of 2, 3, 4, not 3.0"),
    ("seats true", lambda r: r["seats"].__setitem__(0, True), "seats: true is not a colour"),
    # a move with a field it cannot have is not the move that was played
    ("a rank in Agent DOG", _first_move(rank="king"),
     "is not legal there: Agent DOG pieces have no rank"),
    ("an unknown field", _first_move(note="x"), "is not legal there: a move of Agent DOG has "
                                                "no field 'note'"),
    ("a pass with a card", lambda r: r["turns"][0].__setitem__("move", {"pass": True,
                                                                        "card": "5"}),
     "is not legal there: a pass is {\"pass\": true} alone"),
]


@pytest.mark.parametrize("change,says", [pytest.param(c, s, id=n) for n, c, s in DOG_BAD])
def test_a_malformed_dog_record_gets_one_clear_line(tmp_path, dog, change, says):
    assert_refused(written(tmp_path, dog, change), says)
