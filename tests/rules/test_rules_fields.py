# A move names only what `legal` writes for it (docs/rules-protocol.md "MOVE", docs/dog-rules.md
# "Cards", docs/agent-avenue-rules.md "Decisions"): `apply` takes a move as given only when it is
# one `legal` lists, as python-chess checks a move against the legal ones. A field the move
# cannot have (a jump in a game without jumps, a swap with a numbered card, a rank on a piece
# already in play, an order of meetings where at most one fires, another game's field) is
# `illegal`; a field of the wrong shape is `bad_request`; a position's `seats` that is not the
# whole object is `bad_position`. Every request is asked of CPython and MicroPython.
import copy

import pytest

import dogbook
import rulebook
from avenuebook import pos as avenue_pos, recruit_pos, market_pos
from test_parity import positions_of_a_game

AGENT_DOG = rulebook.position


def _with(move, **extra):
    out = copy.deepcopy(move)
    out.update(extra)
    return out


def _apply(both, position, move):
    return both.ask({"op": "apply", "position": position, "move": move})


# -- Agent DOG, DOG, DOG Royal: (position, a move legal there, fields added to it) -----------------
RED_0 = dogbook.position(red=[0])
ROYAL_CITIZEN = dogbook.royal(red=dogbook.rk(citizen=5))   # 5 -> 8 ends on a special space
UNDERCOVER_PAIR = AGENT_DOG(red=[10], blue=[20], yellow=[44])  # 20 and 44 are holes

ILLEGAL_FIELDS = [
    # DOG: no piece jumps (only a DOG Royal citizen does); 24 is a special space of dog-4
    ("dog jump", RED_0, {"card": "5", "path": [[0, 5]]}, {"jump": 24}),
    ("dog magnet jump", dogbook.position(red=[10], blue=[20]),
     {"card": "magnet", "path": [[10, 19]]}, {"jump": 24}),
    # a numbered card moves along a path: it names no swap
    ("dog swap on a 5", RED_0, {"card": "5", "path": [[0, 5]]}, {"swap": [0, 5]}),
    ("agent-dog swap on a 5", AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]]},
     {"swap": [10, 15]}),
    # a swap names its pieces in `swap`: no path, no jump
    ("dog path on a swap", dogbook.position(red=[10], blue=[20]),
     {"card": "swap", "swap": [10, 20]}, {"path": [[10, 20]]}),
    ("agent-dog path on a swap", UNDERCOVER_PAIR, {"card": "swap", "swap": [20, 44]},
     {"path": [[20, 44]]}),
    ("royal jump on a swap", dogbook.royal(red=dogbook.rk(citizen=5), blue=dogbook.rk(king=20)),
     {"card": "swap", "swap": [5, 20]}, {"jump": 24}),
    # ranks are DOG Royal's, and name only a piece coming into play
    ("dog rank", RED_0, {"card": "5", "path": [[0, 5]]}, {"rank": "king"}),
    ("agent-dog rank", AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]]},
     {"rank": "king"}),
    ("royal rank on the board", ROYAL_CITIZEN, {"card": "3", "path": [[5, 8]]},
     {"rank": "citizen"}),
    ("royal rank on a jump", ROYAL_CITIZEN, {"card": "3", "path": [[5, 8]], "jump": 24},
     {"rank": "citizen"}),
    ("royal rank on a swap", dogbook.royal(red=dogbook.rk(king=10), blue=dogbook.rk(king=20)),
     {"card": "swap", "swap": [10, 20]}, {"rank": "king"}),
    # an entry is no counted move: it does not jump
    ("royal jump on an entry", ROYAL_CITIZEN,
     {"card": "13", "path": [["red:start", 0]], "rank": "king"}, {"jump": 8}),
    # `meet` orders meeting points when one move fires several; a one-piece move fires one
    ("agent-dog meet on an 8", AGENT_DOG(red=[0], blue=[60]), {"card": "8", "path": [[0, 8]]},
     {"meet": [8]}),
    ("agent-dog empty meet", AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]]},
     {"meet": []}),
    ("agent-dog meet on a partner firing one", AGENT_DOG(red=[6, 30]),
     {"card": "partner", "path": [[6, 8], [30, 32]]}, {"meet": [8]}),
    ("agent-dog meet on a swap", UNDERCOVER_PAIR, {"card": "swap", "swap": [20, 44]},
     {"meet": [8, 24]}),
    ("dog empty meet", RED_0, {"card": "5", "path": [[0, 5]]}, {"meet": []}),
    # a pass is {"pass": true} alone
    ("pass with a card", AGENT_DOG(red=[10]), {"pass": True}, {"card": "5"}),
    ("pass with a path", RED_0, {"pass": True}, {"path": [[0, 5]]}),
    # fields of no track move: another game's, or none at all
    ("agent-dog with an avenue field", AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]]},
     {"recruit": "up"}),
    ("royal with an unknown field", ROYAL_CITIZEN, {"card": "3", "path": [[5, 8]]},
     {"note": "hi"}),
]

MALFORMED_FIELDS = [
    # the value of a field the protocol knows, of the wrong shape or out of range
    ("dog jump as text", RED_0, {"card": "5", "path": [[0, 5]]}, {"jump": "24"}),
    ("dog jump off the special spaces", RED_0, {"card": "5", "path": [[0, 5]]}, {"jump": 25}),
    ("dog jump null", RED_0, {"card": "5", "path": [[0, 5]]}, {"jump": None}),
    ("agent-dog jump: its board has no special space", AGENT_DOG(red=[10]),
     {"card": "5", "path": [[10, 15]]}, {"jump": 24}),
    ("pass false", AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]]}, {"pass": False}),
    ("pass as a number", RED_0, {"card": "5", "path": [[0, 5]]}, {"pass": 1}),
]


def _cases(rows, kind):
    return [pytest.param(p, good, extra, kind, id=name) for name, p, good, extra in rows]


@pytest.mark.parametrize("position,good,extra,kind",
                         _cases(ILLEGAL_FIELDS, "illegal") + _cases(MALFORMED_FIELDS,
                                                                    "bad_request"))
def test_a_track_move_with_a_field_it_cannot_have_is_refused(both, position, good, extra, kind):
    assert _apply(both, position, good)["ok"] is True  # the move itself is legal there
    ans = _apply(both, position, _with(good, **extra))
    assert ans["ok"] is False and ans["error"] == kind, ans
    assert "internal error" not in ans["reason"]


def test_the_reason_names_the_field_and_the_first_in_sorted_order(both):
    ans = _apply(both, RED_0, {"card": "5", "path": [[0, 5]], "zz": 1, "jump": 24, "rank": "x"})
    assert ans["ok"] is False and ans["reason"].startswith("DOG has no jumps"), ans
    assert ans["error"] == "illegal"
    ans = _apply(both, AGENT_DOG(red=[10]), {"card": "5", "path": [[10, 15]], "zeta": 1,
                                              "alpha": 2})
    assert ans["ok"] is False and ans["error"] == "illegal" and "'alpha'" in ans["reason"], ans
    ans = _apply(both, ROYAL_CITIZEN, {"card": "3", "path": [[5, 8]], "rank": "citizen"})
    assert ans["ok"] is False and "'rank' names the piece that comes into" in ans["reason"], ans


def test_a_citizens_jump_and_an_order_of_several_meetings_are_still_taken(both):
    # the fields where they belong: DOG Royal's citizen jumps (dog-rules.md), and Agent DOG's
    # Partner 4 firing two meeting points needs `meet` (rules-protocol.md readings)
    ans = _apply(both, ROYAL_CITIZEN, {"card": "3", "path": [[5, 8]], "jump": 24})
    assert ans["ok"] is True and {"type": "jump", "from": 8, "to": 24,
                                  "rank": "citizen"} in ans["events"], ans
    pos = AGENT_DOG(red=[6], green=[22], blue=[14])
    ans = _apply(both, pos, {"card": "partner", "path": [[6, 8], [22, 24]], "meet": [24, 8]})
    assert ans["ok"] is True, ans
    entry = {"card": "13", "path": [["red:start", 0]], "rank": "king"}
    assert _apply(both, ROYAL_CITIZEN, entry)["ok"] is True


# -- every move `legal` lists, with a field it lacks, is not a listed move -----------------------
TRACK_CARDS = {
    "agent-dog": ["1/11", "2", "5", "8", "13", "swap", "copy", "partner"],
    "dog": ["1/11", "4", "1-7", "8", "13", "swap", "magnet", "copy"],
    "dog-royal": ["1/11", "4", "1-7", "3", "8", "13", "swap", "magnet", "copy"],
}
SPECIAL = {"agent-dog": None, "dog": 24, "dog-royal": 24}  # a special space of the board
MEETING = {"agent-dog": [8, 24], "dog": None, "dog-royal": None}  # its meeting points


def _strays(game, move):
    """Well-formed values of fields a track move may carry, each missing from move."""
    frm, to = (move["swap"] if "swap" in move else move["path"][0])[:2]
    strays = [{"rank": "king"}, {"pass": True}, {"seat": "red"}, {"discard": {"seat": 0}}]
    strays.append({"path": [[frm, to]]} if "swap" in move else {"swap": [frm, to]})
    if SPECIAL[game] is not None:
        strays.append({"jump": SPECIAL[game]})
    if MEETING[game] is not None:
        strays.append({"meet": MEETING[game]})
    return [s for s in strays if not set(s) & set(move)]


def _canonical(move):
    return sorted(move.items(), key=lambda kv: kv[0])


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(TRACK_CARDS))
def test_a_listed_move_with_a_stray_field_is_illegal_on_positions_of_a_real_game(both, game):
    refused = 0
    for position in positions_of_a_game(40, 4, every=25, game=game):
        for card in TRACK_CARDS[game]:
            ans = both.ask({"op": "legal", "position": position, "card": card})
            if not ans["ok"]:
                continue
            listed = [_canonical(m) for m in ans["moves"]]
            for move in ans["moves"][:2]:
                assert _apply(both, position, move)["ok"] is True
                for extra in _strays(game, move):
                    wrong = _with(move, **extra)
                    if _canonical(wrong) in listed:
                        continue  # a citizen's jump or a rank legal lists as a move of its own
                    got = _apply(both, position, wrong)
                    assert got["ok"] is False and got["error"] == "illegal", (wrong, got)
                    refused += 1
    assert refused > 100


# -- Agent Avenue: a decision names only its own fields ---------------------------------------
PLAY = {"play": {"up": "enforcer", "down": "mole"}}
TEAM = avenue_pos(seats={"green": 2, "blue": 1})
TEAM_PLAY = {"play": {"up": "enforcer", "down": "mole", "up_seat": 0, "down_seat": 1}}
MARKET = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8,
                    offer=["smoke_screen", "masterplan", "outpost"],
                    agents={"green": {"enforcer": 1}, "blue": {"mole": 1}}, deck=20)
MARKET2 = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8,
                     offer=["surveillance_truck", "spycation", "mind_control"],
                     agents={"green": {"enforcer": 1}, "blue": {"mole": 1}}, deck=20)
SMOKE = {"market": "smoke_screen", "refill": "watchtower", "top": "sentinel"}
SPY = {"market": "spycation", "refill": "watchtower", "agent": "enforcer", "again": False}

AVENUE_ILLEGAL = [
    ("recruit with a seat", recruit_pos("enforcer", "mole"), {"recruit": "up"}, {"seat": 0}),
    ("recruit with a card", recruit_pos("enforcer", "mole"), {"recruit": "down"},
     {"card": "5"}),
    ("discard with a card", avenue_pos(), {"discard": {"seat": 0}}, {"card": "mole"}),
    ("play with a seat", avenue_pos(), PLAY, {"seat": 0}),
    ("a track move's path on a play", avenue_pos(), PLAY, {"path": [[0, 5]]}),
    ("ongoing card with an agent", MARKET, {"market": "masterplan", "refill": "watchtower"},
     {"agent": "mole"}),
    ("smoke screen with again", MARKET, SMOKE, {"again": True}),
    ("smoke screen with an agent", MARKET, SMOKE, {"agent": "sentinel"}),
    ("outpost with a top card", MARKET, {"market": "outpost", "refill": "watchtower",
                                         "agent": None}, {"top": "mole"}),
    ("surveillance truck with an agent", MARKET2, {"market": "surveillance_truck",
                                                   "refill": "watchtower"}, {"agent": "mole"}),
    ("mind control with again", MARKET2, {"market": "mind_control", "refill": "watchtower",
                                          "agent": "mole"}, {"again": False}),
    ("spycation with an unknown field", MARKET2, SPY, {"note": 1}),
]
AVENUE_ILLEGAL_IN_BODY = [
    ("discard naming a card", avenue_pos(), {"discard": {"seat": 0}}, "discard",
     {"up": "mole"}),
    ("play with an agent", avenue_pos(), PLAY, "play", {"agent": "mole"}),
    ("team play with a seat", TEAM, TEAM_PLAY, "play", {"seat": 1}),
]


@pytest.mark.parametrize("position,good,extra", [
    pytest.param(p, good, extra, id=name) for name, p, good, extra in AVENUE_ILLEGAL])
def test_an_avenue_decision_with_a_field_it_cannot_have_is_illegal(both, position, good, extra):
    assert _apply(both, position, good)["ok"] is True  # the decision itself is legal there
    ans = _apply(both, position, _with(good, **extra))
    assert ans["ok"] is False and ans["error"] == "illegal", ans
    assert repr(sorted(extra)[0]) in ans["reason"], ans


@pytest.mark.parametrize("position,good,body,extra", [
    pytest.param(p, good, body, extra, id=name)
    for name, p, good, body, extra in AVENUE_ILLEGAL_IN_BODY])
def test_an_avenue_decision_body_with_a_field_it_cannot_have_is_illegal(both, position, good,
                                                                        body, extra):
    assert _apply(both, position, good)["ok"] is True
    wrong = copy.deepcopy(good)
    wrong[body].update(extra)
    ans = _apply(both, position, wrong)
    assert ans["ok"] is False and ans["error"] == "illegal", ans


def test_spycations_again_is_true_or_false(both):
    # a field of the wrong type is bad_request (agent-avenue-rules.md "Errors"); null is not
    # false, also where nothing is taken back (green has no agent in play)
    ans = _apply(both, MARKET2, _with(SPY, again=None))
    assert ans["ok"] is False and ans["error"] == "bad_request" and "again" in ans["reason"], ans
    assert _apply(both, MARKET2, SPY)["ok"] is True
    nothing = copy.deepcopy(MARKET2)
    nothing["agents"]["green"] = {}
    ignored = {"market": "spycation", "refill": "watchtower", "agent": None}
    ans = _apply(both, nothing, _with(ignored, again=None))
    assert ans["ok"] is False and ans["error"] == "bad_request" and "again" in ans["reason"], ans
    assert _apply(both, nothing, _with(ignored, again=False))["ok"] is True


@pytest.mark.parametrize("seats", [{"green": 1}, {"blue": 2}, None, {}, [1, 1], 2],
                         ids=["green only", "blue only", "null", "empty", "a list", "a number"])
def test_avenue_seats_when_given_name_both_sides(both, seats):
    # POSITION: "seats": {"green": 1|2, "blue": 1|2}, optional (default 1/1); when given it is
    # that object, and a value that is not one of its values is bad_position
    p = avenue_pos()
    p["seats"] = seats
    ans = both.ask({"op": "legal", "position": p})
    assert ans["ok"] is False and ans["error"] == "bad_position", ans
    assert "seats" in ans["reason"]
    del p["seats"]
    assert both.ask({"op": "legal", "position": p})["ok"] is True  # left out: 1 and 1


def _avenue_decisions(seed, advanced, seats):
    """(position, the decision as the board records it) of every decision of a random game."""
    from shared_rules.avenue import randgame, position as av_position, move as av_move, tables
    tb = tables.load()
    out = []

    def report(before, mv, events):
        out.append((av_position.dump(before), av_move.to_json(tb, before, mv)))

    randgame.play(seed, advanced, seats, report=report)
    return out


@pytest.mark.parametrize("advanced,seats", [(False, (1, 1)), (True, (2, 1)), (True, (2, 2))])
def test_a_recorded_decision_with_a_stray_field_is_illegal(both, advanced, seats):
    refused = 0
    for position, decision in _avenue_decisions(7, advanced, seats):
        assert _apply(both, position, decision)["ok"] is True
        other = {"up": "mole"} if "market" in decision else {"seat": 0}
        for extra in ({"card": "5"}, other):
            got = _apply(both, position, _with(decision, **extra))
            assert got["ok"] is False and got["error"] == "illegal", (decision, extra, got)
            refused += 1
        body = next(iter(decision)) if len(decision) == 1 else None
        if body is not None and type(decision[body]) is dict:
            wrong = copy.deepcopy(decision)
            wrong[body]["top"] = "mole"
            got = _apply(both, position, wrong)
            assert got["ok"] is False and got["error"] == "illegal", (wrong, got)
            refused += 1
    assert refused > 10
