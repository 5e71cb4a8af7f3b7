# Agent Avenue: bad input gets the protocol's error kind with a reason, on both interpreters, and
# the server keeps serving; a refused move changes nothing.
import copy
import json
import subprocess

import pytest

from conftest import ROOT, micropython_cmd
from test_avenue_helpers import pos, recruit_pos, market_pos

GOOD = pos(deck=30)


def without(p, field):
    p = copy.deepcopy(p)
    del p[field]
    return p


def changed(p, **fields):
    p = copy.deepcopy(p)
    p.update(fields)
    return p


def legal_of(p):
    return {"op": "legal", "position": p}


def apply_of(p, move):
    return {"op": "apply", "position": p, "move": move}


PLAY = {"play": {"up": "enforcer", "down": "mole"}}
MARKET = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8,
                    offer=["smoke_screen", "spycation", "outpost"])
RECRUIT = recruit_pos("enforcer", "mole")
FINISHED = changed(recruit_pos("enforcer", "mole", green=7), winner="green")
del FINISHED["played"]

BAD = [
    # bad_request: the op, missing fields, unknown names, wrong shapes
    ("bad_request", {"op": "hints", "position": GOOD, "card": "enforcer"}),
    ("bad_request", legal_of(without(GOOD, "mode"))),
    ("bad_request", legal_of(without(GOOD, "active"))),
    ("bad_request", legal_of(without(GOOD, "phase"))),
    ("bad_request", legal_of(without(GOOD, "pawns"))),
    ("bad_request", legal_of(without(GOOD, "hands"))),
    ("bad_request", legal_of(without(GOOD, "deck"))),
    ("bad_request", legal_of(without(GOOD, "discards_left"))),
    ("bad_request", legal_of(without(RECRUIT, "played"))),
    ("bad_request", legal_of(without(MARKET, "pending"))),
    ("bad_request", legal_of(without(MARKET, "moved"))),
    ("bad_request", legal_of(without(MARKET, "offer"))),
    ("bad_request", legal_of(without(MARKET, "market_deck"))),
    ("bad_request", legal_of(changed(RECRUIT, played={"up": "enforcer"}))),
    ("bad_request", {"op": "apply", "position": GOOD}),
    ("bad_request", apply_of(GOOD, {"play": {"up": "enforcer"}})),
    ("bad_request", apply_of(GOOD, {"play": {"up": "enforcer", "down": "spy"}})),
    ("bad_request", apply_of(GOOD, {"play": {"up": "enforcer", "down": "mole", "forced": 1}})),
    ("bad_request", apply_of(GOOD, {"play": "any"})),
    ("bad_request", apply_of(GOOD, {"discard": 0})),
    ("bad_request", apply_of(GOOD, {"discard": {"seat": "0"}})),
    ("bad_request", apply_of(GOOD, {"fly": True})),
    ("bad_request", apply_of(GOOD, {"discard": {"seat": 0}, "play": PLAY["play"]})),
    ("bad_request", apply_of(GOOD, "play")),
    ("bad_request", apply_of(RECRUIT, {"recruit": "left"})),
    ("bad_request", apply_of(MARKET, {"market": "time_machine", "refill": "masterplan"})),
    ("bad_request", apply_of(MARKET, {"market": "smoke_screen", "refill": "masterplan"})),
    ("bad_request", apply_of(MARKET, {"market": "spycation", "refill": "masterplan",
                                      "agent": "enforcer"})),
    ("bad_request", apply_of(MARKET, {"market": "outpost", "agent": "sentinel"})),
    ("bad_request", apply_of(MARKET, {"market": "outpost", "refill": "masterplan",
                                      "agent": "sentinel", "seat": "1"})),
    ("bad_request", apply_of(MARKET, {"market": "smoke_screen", "refill": "masterplan",
                                      "top": "joker"})),
    # bad_position: values that cannot exist
    ("bad_position", legal_of(changed(GOOD, mode="hard"))),
    ("bad_position", legal_of(changed(GOOD, active="red"))),
    ("bad_position", legal_of(changed(GOOD, phase="lunch"))),
    ("bad_position", legal_of(changed(GOOD, pawns={"green": 14, "blue": 7}))),
    ("bad_position", legal_of(changed(GOOD, pawns={"green": -1, "blue": 7}))),
    ("bad_position", legal_of(changed(GOOD, pawns={"green": 3}))),
    ("bad_position", legal_of(changed(GOOD, pawns={"green": 3, "blue": 3}))),
    ("bad_position", legal_of(changed(RECRUIT, pawns={"green": 3, "blue": 3}))),
    ("bad_position", legal_of(changed(GOOD, seats={"green": 3, "blue": 1}))),
    ("bad_position", legal_of(changed(GOOD, seats={"green": 2, "blue": 1}))),  # hands [4] only
    ("bad_position", legal_of(changed(GOOD, hands={"green": [4, 4], "blue": [4]}))),
    ("bad_position", legal_of(changed(GOOD, hands={"green": [-1], "blue": [4]}))),
    ("bad_position", legal_of(changed(GOOD, discards_left={"green": [5], "blue": [4]}))),
    ("bad_position", legal_of(changed(GOOD, deck=39))),
    ("bad_position", legal_of(changed(GOOD, deck=31))),  # 31 + 8 in hands > 38 cards
    ("bad_position", legal_of(changed(GOOD, deck=True))),
    ("bad_position", legal_of(changed(GOOD, agents={"green": {"enforcer": 7}, "blue": {}}))),
    ("bad_position", legal_of(changed(GOOD, agents={"green": {"enforcer": 4},
                                                    "blue": {"enforcer": 3}}))),
    ("bad_position", legal_of(changed(GOOD, agents={"green": {"spy": 1}, "blue": {}}))),
    ("bad_position", legal_of(changed(RECRUIT, agents={"green": {"mole": 1}, "blue": {}}))),
    ("bad_position", legal_of(changed(RECRUIT, played={"up": "enforcer", "down": "spy"}))),
    ("bad_position", legal_of(changed(RECRUIT, played={"up": "enforcer", "down": "mole",
                                                       "up_seat": 1}))),
    ("bad_position", legal_of(changed(MARKET, offer=["smoke_screen", "smoke_screen",
                                                     "outpost"]))),
    ("bad_position", legal_of(changed(MARKET, offer=["smoke_screen", "outpost"]))),
    ("bad_position", legal_of(changed(MARKET, offer=["smoke_screen", None, "outpost"]))),
    ("bad_position", legal_of(changed(MARKET, ongoing={"green": ["spycation"], "blue": []}))),
    ("bad_position", legal_of(changed(MARKET, ongoing={"green": ["masterplan"],
                                                       "blue": ["masterplan"]}))),
    ("bad_position", legal_of(changed(MARKET, ongoing={"green": ["mind_control"],
                                                       "blue": []}))),
    ("bad_position", legal_of(changed(MARKET, market_deck=13))),  # 3 + 13 > 15
    ("bad_position", legal_of(changed(MARKET, mode="simple"))),
    ("bad_position", legal_of(changed(MARKET, pending=[]))),
    ("bad_position", legal_of(changed(MARKET, pending=["blue"]))),  # blue on 8: no market
    ("bad_position", legal_of(changed(MARKET, pending=["green", "green"]))),
    ("bad_position", legal_of(changed(MARKET, moved={"green": 3, "blue": -5}))),  # both from 13
    ("bad_position", legal_of(changed(MARKET, offer=[None, None, None], market_deck=0))),
    ("bad_position", legal_of(changed(GOOD, winner="red"))),
    # illegal: the rules refuse the decision
    ("illegal", apply_of(GOOD, {"recruit": "up"})),
    ("illegal", apply_of(RECRUIT, PLAY)),
    ("illegal", apply_of(MARKET, {"discard": {"seat": 0}})),
    ("illegal", apply_of(GOOD, {"discard": {"seat": 1}})),
    ("illegal", apply_of(changed(GOOD, deck=0), {"discard": {"seat": 0}})),
    ("illegal", apply_of(GOOD, {"play": {"up": "enforcer", "down": "mole", "up_seat": 1}})),
    ("illegal", apply_of(changed(GOOD, agents={"green": {}, "blue": {"mole": 1}}, deck=29),
                         PLAY)),
    ("illegal", apply_of(MARKET, {"market": "masterplan", "refill": "watchtower"})),
    ("illegal", apply_of(MARKET, {"market": "smoke_screen", "refill": "watchtower",
                                  "top": "mole", "seat": 1})),
    ("illegal", apply_of(changed(MARKET, agents={"green": {}, "blue": {"mole": 1}}, deck=21),
                         {"market": "smoke_screen", "refill": "watchtower", "top": "mole"})),
    # game_over: a finished game
    ("game_over", legal_of(FINISHED)),
    ("game_over", apply_of(FINISHED, {"recruit": "up"})),
]


@pytest.mark.parametrize("kind,req", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_gets_its_error_kind(both, kind, req):
    a = both.ask(req)
    assert a["ok"] is False and a["error"] == kind, a
    assert a["reason"] and "internal error" not in a["reason"]


def test_the_good_positions_behind_the_bad_ones_are_good(both):
    # each bad case above changes one thing in a position the core accepts
    for p in (GOOD, MARKET, RECRUIT):
        assert both.ask(legal_of(p))["ok"] is True


def test_server_keeps_serving_after_every_bad_line_on_both_interpreters():
    lines = ["{not json", "[]"] + [json.dumps(r) for _, r in BAD]
    lines.append(json.dumps(legal_of(GOOD)))
    text = "\n".join(lines) + "\n"
    outs = []
    for cmd in ([micropython_cmd(), "-m", "shared_rules", "serve"],
                [ROOT + "/.venv/bin/python", "-m", "shared_rules", "serve"]):
        out = subprocess.run(cmd, input=text, capture_output=True, text=True, cwd=ROOT,
                             timeout=120)
        answers = [json.loads(x) for x in out.stdout.splitlines()]
        assert len(answers) == len(lines), out.stderr
        assert answers[-1] == {"ok": True, "moves": [{"play": "any"}, {"discard": {"seat": 0}}]}
        assert all(a["ok"] is False for a in answers[:-1])
        assert out.returncode == 0
        outs.append(answers)
    assert outs[0] == outs[1]


def test_a_refused_move_changes_nothing(both):
    p = copy.deepcopy(MARKET)
    before = json.dumps(p, sort_keys=True)
    ans = both.ask(apply_of(p, {"market": "smoke_screen", "refill": "watchtower", "top": None}))
    assert ans["error"] == "illegal"
    assert json.dumps(p, sort_keys=True) == before
    # and the same position still answers as before
    assert both.ask(legal_of(p))["moves"][0] == {"market": "smoke_screen", "needs": ["top"]}
