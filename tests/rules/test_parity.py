# The rules core must answer identically on CPython and on the MicroPython unix port.
import json
import subprocess

import pytest

from conftest import ROOT, micropython_cmd
from shared_rules import randgame, position, cards as cards_mod
from rulebook import COLOURS

CARDS = ["2", "3", "5", "6", "7", "8", "9", "10", "12", "1/11", "13", "swap", "copy", "partner"]


def run_demo(interpreter, seed, players, game="agent-dog"):
    out = subprocess.run([interpreter, "-m", "shared_rules", "demo", str(seed), str(players),
                          game], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_seeded_random_games_are_identical(seed, players):
    a = run_demo(ROOT + "/.venv/bin/python", seed, players)
    b = run_demo(micropython_cmd(), seed, players)
    assert a == b
    assert " win ==" in a  # each game was played to the end


@pytest.mark.parametrize("game,players", [(g, n) for g in ("dog", "dog-royal")
                                          for n in (2, 3, 4, 5, 6)])
def test_seeded_dog_games_are_identical(game, players):
    a = run_demo(ROOT + "/.venv/bin/python", 7, players, game)
    b = run_demo(micropython_cmd(), 7, players, game)
    assert a == b
    assert " win ==" in a


def positions_of_a_game(seed, players, every=7, game="agent-dog"):
    seen = []

    def report(before, seat, k, mv, events):
        if len(seen) < 400:
            seen.append(position.dump(before, game != "agent-dog"))

    randgame.play(seed, players, report=report, game=game)
    return seen[::every]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_protocol_answers_agree_on_positions_from_real_games(both, players):
    asked = 0
    for pos in positions_of_a_game(10 + players, players):
        for card in CARDS:
            for op in ("legal", "hints"):
                both.ask({"op": op, "position": pos, "card": card})
                asked += 1
        ans = both.ask({"op": "legal", "position": pos, "card": "partner"})
        for mv in ans.get("moves", [])[:5]:
            both.ask({"op": "apply", "position": pos, "move": mv})
            asked += 1
    assert asked > 200


DOG_CARDS = ["2", "3", "4", "5", "6", "8", "9", "10", "12", "1-7", "1/11", "13", "swap",
             "magnet", "copy"]


@pytest.mark.slow
@pytest.mark.parametrize("game,players", [("dog", 4), ("dog", 5), ("dog-royal", 3),
                                          ("dog-royal", 6)])
def test_dog_protocol_answers_agree_on_positions_from_real_games(both, game, players):
    asked = 0
    for pos in positions_of_a_game(20 + players, players, every=11, game=game):
        for card in DOG_CARDS:
            both.ask({"op": "hints", "position": pos, "card": card})
            legal = both.ask({"op": "legal", "position": pos, "card": card})
            asked += 2
            for mv in legal.get("moves", [])[:2]:
                both.ask({"op": "apply", "position": pos, "move": mv})
                asked += 1
        legal = both.ask({"op": "legal", "position": pos, "card": "1-7"})
        for mv in legal.get("moves", [])[:3]:
            both.ask({"op": "apply", "position": pos, "move": mv})
            asked += 1
    assert asked > 200


def test_colours_in_positions_are_the_protocol_colours():
    for pos in positions_of_a_game(3, 4, every=50):
        assert set(pos["pieces"]) <= set(COLOURS)
        json.dumps(pos)


def test_nth_move_walks_the_same_list_as_legal_moves():
    from shared_rules.move import legal_moves, count_moves, nth_move
    from shared_rules import layout
    cards = cards_mod.load()
    lay = layout.load()
    checked = 0
    for pos in positions_of_a_game(5, 4, every=13):
        st = position.parse(pos)
        for k in range(len(cards.names)):
            full = legal_moves(st, k)
            assert count_moves(st, k) == len(full)
            for i in range(0, len(full), max(1, len(full) // 5)):
                m = nth_move(st, k, i)
                assert (m.a, m.b, m.meet) == (full[i].a, full[i].b, full[i].meet)
                checked += 1
    assert checked > 50


# -- reasons that quote a request's value (regressions found by a wide parity run) ------------
# MicroPython walks a dict in the order of its hash table, CPython in the order it was written:
# a reason that printed a JSON object with %r, or named the first bad entry of an object, read
# differently on the two interpreters. The objects below are written with their keys out of
# sorted order, so both old behaviours fail here.

ODD = {"zeta": 1, "alpha": [2, {"y": 0, "b": 1}], "mid": 3}
ODD_SHOWN = "{'alpha': [2, {'b': 1, 'y': 0}], 'mid': 3, 'zeta': 1}"


def _dog_pos(**fields):
    pos = {"game": "dog-royal", "players": 2, "to_move": "red",
           "pieces": {"red": [10, "start", "start", "start"], "green": ["start"] * 4}}
    pos.update(fields)
    return pos


def _with_piece(value):
    pos = _dog_pos()
    pos["pieces"]["red"] = [value, "start", "start", "start"]
    return pos


QUOTED = [
    ({"op": "legal", "position": _dog_pos(game=ODD), "card": "5"}, "unknown game " + ODD_SHOWN),
    ({"op": "legal", "position": _dog_pos(), "card": ODD}, "unknown card " + ODD_SHOWN),
    ({"op": "legal", "position": _dog_pos(last_card=ODD), "card": "5"},
     "last_card: %s is not a card" % ODD_SHOWN),
    ({"op": "legal", "position": _dog_pos(to_move=ODD), "card": "5"},
     "to_move: %s is not a colour" % ODD_SHOWN),
    ({"op": "legal", "position": _dog_pos(out=[ODD]), "card": "5"},
     "out: %s is not a colour" % ODD_SHOWN),
    ({"op": "legal", "position": _with_piece(ODD), "card": "5"},
     "red piece %s: no such location" % ODD_SHOWN),
    ({"op": "apply", "position": _dog_pos(), "move": {"card": "5", "path": [[ODD, 15]]}},
     "%s is not a location" % ODD_SHOWN),
    ({"op": "apply", "position": _dog_pos(), "move": {"card": "swap", "swap": [10, ODD]}},
     "%s is not a location" % ODD_SHOWN),
    ({"op": "apply", "position": _dog_pos(), "move": {"card": "5", "path": [[10, 15]],
                                                      "jump": ODD}},
     "'jump': %s is not a special space" % ODD_SHOWN),
    ({"op": "apply", "position": _dog_pos(), "move": {"card": "13", "path": [["red:start", 0]],
                                                      "rank": ODD}},
     "red's %s is not in its start area" % ODD_SHOWN),
    ({"op": "apply", "position": _dog_pos(game="agent-dog"),   # Agent DOG's meeting order
      "move": {"card": "5", "path": [[10, 15]], "meet": [ODD]}},
     "'meet': %s is not a meeting point" % ODD_SHOWN),
]


@pytest.mark.parametrize("req,reason", QUOTED, ids=[str(i) for i in range(len(QUOTED))])
def test_a_quoted_json_object_reads_the_same_on_both_interpreters(both, req, reason):
    ans = both.ask(req)
    assert ans["ok"] is False and reason in ans["reason"], ans


def test_the_first_bad_entry_named_is_the_same_on_both_interpreters(both):
    # two unknown colours, written out of sorted order: the reason names the first in sorted
    # order, whatever order the request wrote them in
    for game in ("dog", "dog-royal", "agent-dog"):
        pieces = {"zz": ["start"] * 4, "red": [10, "start", "start", "start"],
                  "purple": ["start"] * 4, "green": ["start"] * 4}
        pos = {"game": game, "players": 2, "to_move": "red", "pieces": pieces}
        ans = both.ask({"op": "legal", "position": pos, "card": "5"})
        assert ans["reason"] == "pieces: 'purple' is not a colour", ans
        pos = dict(pos, pieces={"red": [10, "start", "start", "start"], "green": ["start"] * 4},
                   cards_left={"x": 1, "red": 3, "beige": 2, "green": 1})
        ans = both.ask({"op": "legal", "position": pos, "card": "5"})
        assert ans["reason"] == "cards_left: 'beige' is not a colour", ans
