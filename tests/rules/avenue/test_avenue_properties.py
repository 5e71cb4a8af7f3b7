# Agent Avenue properties over random positions (hypothesis, CPython in process; the scenario and
# game tests check MicroPython gives the same answers): pawn steps follow the card table for the
# count in play, a 4th-6th copy moves as the 3rd, the end step treats the two sides alike (only
# the tie rule favours the active side), and random games end.
import copy
import json
import os

from hypothesis import given, settings, strategies as hs, HealthCheck

from conftest import ROOT
from shared_rules.protocol import Rules
from shared_rules.avenue import randgame, position, tables
from avenuebook import (STEPS, COPIES, AGENTS, ONGOING, INSTANT, MARKET, recruit_pos,
                        market_pos, steps, of_type, end_of, other)

RULES = Rules()
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SPACES = 14
MOST_IN_PLAY = 20
HALF = 7  # green's home 0, blue's home 7: turning the board half way swaps the sides


def ask(req):
    return json.loads(json.dumps(RULES.handle(copy.deepcopy(req))))


@hs.composite
def recruit_positions(draw, advanced=False):
    """A phase-recruit position: agents in play, the two cards played, pawns apart; with
    advanced, ongoing cards in front of the sides and an offer from the rest."""
    up = draw(hs.sampled_from(AGENTS))
    down = draw(hs.sampled_from(AGENTS))
    if up == down and COPIES[up] < 2:
        down = "enforcer" if up != "enforcer" else "mole"
    left = dict(COPIES)
    left[up] -= 1
    left[down] -= 1
    agents = {"green": {}, "blue": {}}
    in_play = 0
    for a in AGENTS:
        for side in ("green", "blue"):
            # up to 2 each, so the recruit may bring a 3rd; at most 20 in all leaves cards for
            # the hands (8) and the deck
            n = draw(hs.integers(0, min(left[a], 2, MOST_IN_PLAY - in_play)))
            if n:
                agents[side][a] = n
                left[a] -= n
                in_play += n
    green = draw(hs.integers(0, SPACES - 1))
    blue = (green + draw(hs.integers(1, SPACES - 1))) % SPACES
    active = draw(hs.sampled_from(["green", "blue"]))
    more = {}
    if advanced:
        cards = draw(hs.permutations(MARKET))
        k = draw(hs.integers(0, 4))
        j = draw(hs.integers(0, 4))
        more = {"mode": "advanced", "ongoing": {
            "green": [c for c in cards[:k] if c in ONGOING],
            "blue": [c for c in cards[k:k + j] if c in ONGOING]},
            "offer": list(cards[k + j:k + j + 3]), "market_deck": 15 - (k + j + 3)}
    deck = 38 - 8 - 2 - in_play
    return recruit_pos(up, down, agents=agents, green=green, blue=blue, active=active,
                       deck=min(deck, 10), **more)


def counted(p, side, agent):
    return p["agents"][side].get(agent, 0)


@SETTINGS
@given(recruit_positions(), hs.sampled_from(["up", "down"]))
def test_pawn_steps_follow_the_table_for_the_count_in_play(p, take):
    ans = ask({"op": "apply", "position": p, "move": {"recruit": take}})
    assert ans["ok"], ans
    active = p["active"]
    taken = p["played"][take]
    kept = p["played"]["down" if take == "up" else "up"]
    for side, agent in ((other(active), taken), (active, kept)):
        n = counted(p, side, agent) + 1
        want = steps(agent, n)
        moves = [e for e in of_type(ans["events"], "pawn") if e["side"] == side]
        assert [e["steps"] for e in moves] == ([want] if want else [])
        assert ans["position"]["pawns"][side] == (p["pawns"][side] + want) % SPACES
        assert counted(ans["position"], side, agent) == n


@SETTINGS
@given(hs.sampled_from([a for a in AGENTS if COPIES[a] == 6]), hs.integers(3, 5),
       hs.integers(0, SPACES - 1))
def test_a_fourth_to_sixth_copy_moves_as_the_third(agent, have, green):
    def green_steps(n_have):
        p = recruit_pos("mole", agent, agents={"green": {agent: n_have}, "blue": {}},
                        green=green, blue=(green + 5) % SPACES, deck=10)
        ans = ask({"op": "apply", "position": p, "move": {"recruit": "up"}})
        assert ans["ok"], ans
        return (ans["position"]["pawns"]["green"] - green) % SPACES

    assert green_steps(have) == green_steps(2) == STEPS[agent][2] % SPACES


# -- the two sides alike --------------------------------------------------------------------------
def mirror(value):
    """The same game with the sides' colours swapped and the board turned half way: every side
    name swaps and every space moves by 7 (homes 0 <-> 7, market 2 5 9 12 onto each other)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            k2 = other(k) if k in ("green", "blue") else k
            if k in ("from", "to") and isinstance(v, int):
                out[k2] = (v + HALF) % SPACES
            elif k == "pawns":
                out[k2] = {other(s): (v[s] + HALF) % SPACES for s in v}
            else:
                out[k2] = mirror(v)
        return out
    if isinstance(value, list):
        return [mirror(v) for v in value]
    if value in ("green", "blue"):
        return other(value)
    return value


def canonical(value):
    return json.loads(json.dumps(value, sort_keys=True))


@SETTINGS
@given(recruit_positions(advanced=True), hs.booleans(), hs.sampled_from(["up", "down"]))
def test_the_end_step_treats_both_sides_alike(p, advanced, take):
    if not advanced:
        p = recruit_pos(p["played"]["up"], p["played"]["down"], agents=p["agents"],
                        green=p["pawns"]["green"], blue=p["pawns"]["blue"], active=p["active"],
                        deck=p["deck"])
    a = ask({"op": "apply", "position": p, "move": {"recruit": take}})
    b = ask({"op": "apply", "position": mirror(p), "move": {"recruit": take}})
    assert a["ok"] and b["ok"], (a, b)
    assert canonical(mirror(a["position"])) == canonical(b["position"])
    assert canonical(mirror(a["events"])) == canonical(b["events"])
    end = end_of(a["events"])
    if end and end.get("tie"):
        assert end["winner"] == p["active"]  # the tie rule: the side whose turn it is


@hs.composite
def end_step_positions(draw):
    """Phase market, the pending side taking an ongoing card that changes nothing at once: the
    apply runs the end step on the position as it stands (deck not empty: no cards out)."""
    p = draw(recruit_positions(advanced=True))
    side = draw(hs.sampled_from(["green", "blue"]))
    used = set(p["ongoing"]["green"] + p["ongoing"]["blue"])
    free = [c for c in ONGOING if c not in used and c != "getaway_car"]
    rest = [c for c in MARKET if c not in used and c not in free[:1]]
    offer = [free[0]] + rest[:2]
    spot = draw(hs.sampled_from([2, 5, 9, 12]))
    others = [s for s in range(SPACES) if s != spot]
    pawns = {side: spot, other(side): draw(hs.sampled_from(others))}
    moved = {side: draw(hs.integers(-6, 12)), other(side): draw(hs.integers(-6, 12))}
    start = {s: (pawns[s] - moved[s]) % SPACES for s in pawns}
    if start["green"] == start["blue"]:
        moved[other(side)] += 1
    agents = p["agents"]
    for s in agents:  # bring in the played cards too, so some sides hold 3
        for card in (p["played"]["up"], p["played"]["down"]):
            if draw(hs.booleans()) and sum(a.get(card, 0) for a in agents.values()) < COPIES[card]:
                agents[s][card] = agents[s].get(card, 0) + 1
    q = market_pos([side], moved, agents=agents, green=pawns["green"], blue=pawns["blue"],
                   ongoing=p["ongoing"], offer=offer, market_deck=15 - 3 - len(used),
                   deck=2, active=p["active"])
    return q, free[0]


@SETTINGS
@given(end_step_positions())
def test_only_the_tie_rule_looks_at_whose_turn_it_is(case):
    p, card = case
    rest = [c for c in MARKET if c not in p["offer"] and c not in
            p["ongoing"]["green"] + p["ongoing"]["blue"]]
    move = {"market": card, "refill": rest[0]}
    a = ask({"op": "apply", "position": p, "move": move})
    flipped = copy.deepcopy(p)
    flipped["active"] = other(p["active"])
    b = ask({"op": "apply", "position": flipped, "move": move})
    assert a["ok"] and b["ok"], (a, b)
    ea = end_of(a["events"])
    eb = end_of(b["events"])
    assert (ea is None) == (eb is None)
    if ea is None:
        return
    assert ea.get("tie", False) == eb.get("tie", False)
    if ea.get("tie"):
        assert ea["winner"] == p["active"] and eb["winner"] == flipped["active"]
    else:
        assert ea == eb


# -- whole games ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 10 ** 6), hs.booleans(), hs.sampled_from([(1, 1), (2, 1), (1, 2), (2, 2)]))
def test_random_games_end_and_every_position_reads_back(seed, advanced, seats):
    tb = tables.load()
    seen = []

    def report(before, mv, events):
        dumped = position.dump(before)
        assert position.dump(position.parse(tb, json.loads(json.dumps(dumped)))) == dumped
        seen.append(len(events))

    st, n = randgame.play(seed, advanced, seats, report=report)
    assert st.winner in (0, 1) and n == len(seen) > 0
    final = position.dump(st)
    assert final["winner"] in ("green", "blue")
    assert ask({"op": "legal", "position": final})["error"] == "game_over"


def test_the_test_tables_are_the_data_files():
    # the tests count with the facts as written in avenuebook; the core reads its data
    # files: they must say the same, or one of them was edited alone
    tb = tables.load()
    for a in AGENTS:
        i = tb.agent_index[a]
        assert tb.copies[i] == COPIES[a]
        assert tuple(tb.agent_steps(i, n) for n in range(1, len(STEPS[a]) + 1)) == STEPS[a]
    assert sorted(tb.market_names) == sorted(MARKET)
    assert [c for c in tb.market_names if tb.ongoing[tb.market_index[c]]] == ONGOING
    assert sum(COPIES.values()) == 38 and len(INSTANT) + len(ONGOING) == 15


def test_every_card_has_its_names_in_three_languages():
    with open(os.path.join(ROOT, "shared_rules", "data", "agent-avenue-names.json")) as f:
        names = json.load(f)
    # the Italian names the seed's components list gives (Componenti)
    italian = {"Doppiogiochista", "Sicaria", "Crittografa", "Sabotatore", "Spavaldo", "Picciotto",
               "Scagnozzo", "Talpa"}
    assert {a["names"]["it"] for a in names["agents"]} == italian
    assert sorted(a["name"] for a in names["agents"]) == AGENTS
    assert sorted(c["name"] for c in names["market"]) == sorted(MARKET)
    for item in names["agents"] + names["market"]:
        assert set(item["names"]) == {"it", "en", "fr"} and item["names"]["en"]
        assert item["name_confidence"]
