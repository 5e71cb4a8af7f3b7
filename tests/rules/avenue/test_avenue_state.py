# Agent Avenue's lookups on a position that every layer asks the rules core instead of working
# them out itself (shared_rules/avenue/state.py, legality.pair_allowed): who acts, whether a
# black-market card may lie in the market deck, the pair rule of a play. Expectations come from
# seed 002 and docs/agent-avenue-rules.md / docs/agent-avenue-board.md, and each is checked on
# CPython and on the MicroPython unix port (the board runs the same core).
import json
import os
import subprocess

from avenuebook import pos, recruit_pos, market_pos
from conftest import ROOT, micropython_cmd
from shared_rules.avenue import legality, position, tables

TB = tables.load()
ADVANCED = {"mode": "advanced", "offer": ["masterplan", "outpost", "spycation"],
            "ongoing": {"green": ["watchtower"], "blue": ["getaway_car"]}}

# (position, the side that acts): "the active side in phase play, the side taking in phase
# market" (docs/agent-avenue-board.md, public view); a recruit is a decision of the active
# side's turn, recorded under it (the game record's turns, "with the side that made it")
WHO_ACTS = [
    (pos(active="green"), "green"),
    (pos(active="blue"), "blue"),
    (recruit_pos("enforcer", "mole", active="blue"), "blue"),
    # 002 CHIARIMENTI 11: both pawns on the market, the active side takes first
    (market_pos(["green", "blue"], {"green": 2, "blue": 2}, green=2, blue=9), "green"),
    # the active side took; the other side takes now, though green is still active
    (market_pos(["blue"], {"green": 2, "blue": 2}, green=2, blue=9), "blue"),
    # and with blue active, blue first
    (market_pos(["blue", "green"], {"green": 2, "blue": 2}, active="blue", green=2, blue=9),
     "blue"),
]

# (card, may it lie in the market deck): "le carte rimanenti formano il mazzo Mercato Nero"
# (002 Modalità Avanzata PREPARAZIONE): every card but the offer's; an ongoing card stays in
# front of its side "per il resto della partita"
IN_MARKET_DECK = [
    ("masterplan", False), ("outpost", False), ("spycation", False),  # the offer
    ("watchtower", False), ("getaway_car", False),  # ongoing, in front of green / blue
    ("sinister_twin", True), ("smoke_screen", True), ("security_system", True),
]

# (up, down, forced, allowed): "Le 2 carte devono avere nome diverso"; PROMEMORIA 1: identical
# names only when every card in the hand bears that name (declared: forced)
PAIRS = [
    ("enforcer", "mole", False, True),
    ("enforcer", "enforcer", False, False),
    ("enforcer", "enforcer", True, True),
    ("double_agent", "sidekick", True, True),  # forced on a pair that differs: not this rule's
]

# runs unchanged on both interpreters: the answers as one JSON line
SCRIPT = """
import json, sys
from shared_rules.avenue import legality, position, tables
tb = tables.load()
case = json.loads(sys.stdin.read())
out = {"who": [], "deck": [], "pairs": []}
for p in case["who"]:
    out["who"].append(tb.sides[position.parse(tb, p).who_acts()])
st = position.parse(tb, case["deck_position"])
for name in case["deck"]:
    out["deck"].append(st.in_market_deck(tb.market_index[name]))
for up, down, forced in case["pairs"]:
    out["pairs"].append(legality.pair_allowed(tb.agent_index[up], tb.agent_index[down], forced))
print(json.dumps(out))
"""


def deck_position():
    return market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8, **ADVANCED)


def expected():
    return {"who": [side for _, side in WHO_ACTS],
            "deck": [inside for _, inside in IN_MARKET_DECK],
            "pairs": [ok for _, _, _, ok in PAIRS]}


def case():
    return {"who": [p for p, _ in WHO_ACTS], "deck_position": deck_position(),
            "deck": [name for name, _ in IN_MARKET_DECK],
            "pairs": [[up, down, forced] for up, down, forced, _ in PAIRS]}


def test_who_acts_is_the_side_taking_in_the_market_else_the_active_side():
    for p, side in WHO_ACTS:
        assert TB.sides[position.parse(TB, p).who_acts()] == side, p


def test_the_market_deck_holds_every_card_but_the_offer_and_the_ongoing_ones():
    st = position.parse(TB, deck_position())
    for name, inside in IN_MARKET_DECK:
        assert st.in_market_deck(TB.market_index[name]) == inside, name


def test_a_pair_of_one_name_is_allowed_only_when_forced():
    for up, down, forced, ok in PAIRS:
        got = legality.pair_allowed(TB.agent_index[up], TB.agent_index[down], forced)
        assert got == ok, (up, down, forced)


def test_a_refill_not_in_the_market_deck_is_illegal_and_one_in_it_is_taken():
    # the core's check of a market move asks the same lookup the board's tap pad asks
    from shared_rules.avenue import move as M
    from shared_rules.errors import BadInput
    st = position.parse(TB, deck_position())
    card = TB.market_index["masterplan"]
    for name, inside in IN_MARKET_DECK:
        if TB.market_index[name] == card:
            continue
        mv = M.market(card, TB.market_index[name], 0)
        try:
            legality.check(st, mv)
            refused = None
        except BadInput as e:
            refused = e.reason
        assert (refused is None) == inside, (name, refused)
        if refused is not None:
            assert "not in the market deck" in refused


def test_the_same_answers_on_micropython():
    env = dict(os.environ, MICROPYPATH=ROOT)
    out = subprocess.run([micropython_cmd(), "-c", SCRIPT], cwd=ROOT, env=env,
                         input=json.dumps(case()), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == expected()
    here = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-c", SCRIPT],
                          cwd=ROOT, input=json.dumps(case()), capture_output=True, text=True,
                          timeout=120)
    assert here.returncode == 0, here.stderr[-2000:]
    assert json.loads(here.stdout.strip().splitlines()[-1]) == expected()
