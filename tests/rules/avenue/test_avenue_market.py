# Agent Avenue, advanced mode (seed 002 "Modalità Avanzata" and its "CHIARIMENTI AGGIUNTIVI PER
# LE CARTE MERCATO NERO"): the black market, every card's ability and every clarification, on
# CPython and MicroPython. Black-market spaces 2, 5, 9, 12; homes green 0, blue 7 (facts note).
# Expected numbers are counted by hand in the comments.
from avenuebook import (recruit_pos, market_pos, applied, legal, error_of, of_type,
                        pawn_moves, end_of)

OTHERS = ["outpost", "spycation", "smoke_screen"]  # an offer without masterplan


def adv_recruit(up, down, **kw):
    return recruit_pos(up, down, mode="advanced", **kw)


def take(card, refill="watchtower", **fields):
    mv = {"market": card, "refill": refill}
    mv.update(fields)
    return mv


# -- when a side takes a card -----------------------------------------------------------------------
def test_stopping_exactly_on_a_black_market_space_takes_a_card(both):
    # blue takes the enforcer (+1, 7 -> 8); green's first daredevil +2 stops on 2
    after, events = applied(both, adv_recruit("enforcer", "daredevil"), {"recruit": "up"})
    assert after["phase"] == "market" and after["pending"] == ["green"]
    assert after["moved"] == {"green": 2, "blue": 1}
    assert legal(both, after) == [{"market": "masterplan", "needs": []},
                                  {"market": "outpost", "needs": ["agent"]},
                                  {"market": "spycation", "needs": ["agent", "again"]}]


def test_passing_over_a_black_market_space_takes_nothing(both):
    # CHIARIMENTI: "Se la tua pedina attraversa uno spazio mercato nero ma non ci si ferma sopra":
    # green 1 + 2 = 3, over 2; blue 7 + 1 = 8
    after, events = applied(both, adv_recruit("enforcer", "daredevil", green=1),
                            {"recruit": "up"})
    assert after["phase"] == "play" and after["active"] == "blue" and "pending" not in after


def test_stopping_there_moving_backwards_takes_a_card(both):
    # CHIARIMENTI: "muovendosi all'indietro, prendi comunque una carta": saboteur -1, 3 -> 2
    after, _ = applied(both, adv_recruit("enforcer", "saboteur", green=3), {"recruit": "up"})
    assert after["pending"] == ["green"] and after["pawns"]["green"] == 2


def test_a_recruit_that_does_not_move_takes_no_second_card(both):
    # CHIARIMENTI: "Se, quando risolvi una carta agente che non muove la tua pedina, questa era
    # già su uno spazio mercato nero, non prendi un'altra carta": both pawns already on market
    # spaces (2 and 9) recruit a first codebreaker and a first sentinel, 0 steps each
    after, events = applied(both, adv_recruit("codebreaker", "sentinel", green=2, blue=9),
                            {"recruit": "up"})
    assert pawn_moves(events) == [] and after["phase"] == "play" and after["active"] == "blue"


def test_the_simple_side_of_the_board_has_no_market(both):
    # same move in the simple mode: green stops on 2 and the turn simply ends
    after, _ = applied(both, recruit_pos("enforcer", "daredevil"), {"recruit": "up"})
    assert after["phase"] == "play" and after["pawns"]["green"] == 2 and "offer" not in after


def test_both_pawns_on_the_market_the_active_side_takes_first(both):
    # CHIARIMENTI: "il giocatore di turno prende la carta mercato nero per primo": blue with one
    # enforcer takes a 2nd (+2, 7 -> 9), green's daredevil +2 (0 -> 2); blue moved first, but
    # green (active) is first in pending
    p = adv_recruit("enforcer", "daredevil", agents={"green": {}, "blue": {"enforcer": 1}})
    after, _ = applied(both, p, {"recruit": "up"})
    assert after["pending"] == ["green", "blue"]
    # and with blue active (green takes the 2nd enforcer from 0: +2 -> 2, blue +2 -> 9)
    p = adv_recruit("enforcer", "daredevil", active="blue",
                    agents={"green": {"enforcer": 1}, "blue": {}})
    after, _ = applied(both, p, {"recruit": "up"})
    assert after["pending"] == ["blue", "green"]
    # blue takes masterplan (ongoing, its chain ends), then green takes, then the end step
    after, events = applied(both, after, take("masterplan", "getaway_car"))
    assert after["pending"] == ["green"] and after["ongoing"]["blue"] == ["masterplan"]
    after, events = applied(both, after, take("getaway_car", "leader_of_the_pack"))
    assert after["phase"] == "play" and after["active"] == "green"
    assert after["ongoing"] == {"green": ["getaway_car"], "blue": ["masterplan"]}


def test_taking_refills_the_same_place_from_the_market_deck(both):
    # "Prendi quella carta e rimpiazzala immediatamente": masterplan out, watchtower in its place
    p = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8, market_deck=10)
    after, events = applied(both, p, take("masterplan", "watchtower"))
    assert after["offer"] == ["watchtower", "outpost", "spycation"]
    assert after["market_deck"] == 9
    assert after["ongoing"] == {"green": ["masterplan"], "blue": []}
    assert events[:2] == [{"type": "market", "side": "green", "card": "masterplan"},
                          {"type": "refill", "card": "watchtower"}]


def test_the_refill_comes_before_the_ability_and_a_chain_can_take_it(both):
    # CHIARIMENTI: refill "prima di risolvere l'abilità"; "Se la pedina si ferma di nuovo su uno
    # spazio mercato nero, prendi un'ulteriore carta"; the active side finishes its chain before
    # the other side takes. Green on 2 (from 0), blue on 9 (from 7, a 2nd enforcer), both pending.
    # Smoke screen reveals an enforcer: green's 3rd, +3, 2 -> 5, a market space again.
    p = market_pos(["green", "blue"], {"green": 2, "blue": 2}, green=2, blue=9,
                   agents={"green": {"enforcer": 2}, "blue": {"enforcer": 2}},
                   offer=["smoke_screen", "masterplan", "outpost"], market_deck=10, deck=20)
    after, events = applied(both, p, take("smoke_screen", "surveillance_truck", top="enforcer"))
    assert events == [
        {"type": "market", "side": "green", "card": "smoke_screen"},
        {"type": "refill", "card": "surveillance_truck"},
        {"type": "recruit", "side": "green", "agent": "enforcer", "count": 3},
        {"type": "pawn", "side": "green", "from": 2, "to": 5, "steps": 3},
    ]
    assert after["deck"] == 19 and after["pending"] == ["green", "blue"]
    assert after["offer"] == ["surveillance_truck", "masterplan", "outpost"]
    # green takes the card that refilled the offer: +1, 5 -> 6; then blue takes
    after, events = applied(both, after, take("surveillance_truck", "getaway_car"))
    assert pawn_moves(events) == [("green", 5, 6, 1)] and after["pending"] == ["blue"]
    assert after["moved"] == {"green": 6, "blue": 2}


def test_only_the_end_step_judges_a_catch_made_during_the_market(both):
    # green from 3 to 5 (+2) and pending, blue on 7: smoke screen reveals the sidekick, +4 ->
    # 9, past blue and onto a market space, so green takes again (masterplan). End step: gap at
    # the turn's start 7 - 3 = 4, green moved 2 + 4 = 6: 4 - 6 < 0, green caught blue.
    p = market_pos(["green"], {"green": 2, "blue": 0}, green=5, blue=7,
                   offer=["smoke_screen", "masterplan", "outpost"])
    after, events = applied(both, p, take("smoke_screen", "spycation", top="sidekick"))
    assert after["pending"] == ["green"] and after["pawns"]["green"] == 9
    after, events = applied(both, after, take("masterplan", "getaway_car"))
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "catch"}
    assert "pending" not in after and "moved" not in after and after["phase"] == "market"


# -- abilities that cannot be resolved --------------------------------------------------------------
def test_an_ability_that_cannot_be_resolved_is_ignored(both):
    # CHIARIMENTI: "Se un'abilità non può essere risolta, viene ignorata": smoke screen with an
    # empty agent deck, spycation with no agent in play, mind control with none on the other side
    base = dict(green=2, blue=8, hands={"green": [4], "blue": [4]})
    for card, fields, deck in (("smoke_screen", {"top": None}, 0),
                               ("spycation", {"agent": None}, 10),
                               ("mind_control", {"agent": None}, 10)):
        p = market_pos(["green"], {"green": 2, "blue": 1}, deck=deck,
                       offer=[card, "masterplan", "outpost"], **base)
        after, events = applied(both, p, take(card, **fields))
        assert [e["type"] for e in events] == ["market", "refill"]
        assert after["pawns"] == {"green": 2, "blue": 8} and after["active"] == "blue"


def test_null_is_illegal_where_the_core_sees_the_ability_can_be_resolved(both):
    # abilities are mandatory: a deck with cards, own agents in play, the other's agents in play
    agents = {"green": {"enforcer": 1}, "blue": {"sentinel": 1}}
    for card, fields in (("smoke_screen", {"top": None}), ("spycation", {"agent": None}),
                         ("mind_control", {"agent": None})):
        p = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8, agents=agents,
                       offer=[card, "masterplan", "outpost"])
        assert error_of(both, p, take(card, **fields)) == "illegal"


def test_hand_abilities_accept_null_the_core_cannot_see_hands(both):
    for card in ("outpost", "secret_recruit", "double_trouble"):
        p = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8,
                       offer=[card, "masterplan", "smoke_screen"])
        after, events = applied(both, p, take(card, agent=None))
        assert [e["type"] for e in events] == ["market", "refill"]
        assert after["hands"] == {"green": [4], "blue": [4]}


def test_smoke_screen_with_an_empty_deck_cannot_name_a_card(both):
    p = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8, deck=0,
                   offer=["smoke_screen", "masterplan", "outpost"])
    assert error_of(both, p, take("smoke_screen", top="enforcer")) == "illegal"


# -- ongoing cards ----------------------------------------------------------------------------------
def test_an_ongoing_card_taken_does_not_change_the_recruit_just_made(both):
    # CHIARIMENTI: "non ha effetto sulla carta agente appena reclutata": green's first enforcer
    # moved it +1 (1 -> 2); taking the watchtower then moves nothing
    after, _ = applied(both, adv_recruit("codebreaker", "enforcer", green=1,
                                         offer=["watchtower", "outpost", "spycation"]),
                       {"recruit": "up"})
    assert after["pending"] == ["green"] and after["pawns"]["green"] == 2
    after, events = applied(both, after, take("watchtower", "masterplan"))
    assert pawn_moves(events) == [] and after["pawns"]["green"] == 2
    assert after["ongoing"]["green"] == ["watchtower"]
    # ... "è attiva per il resto della partita": green's next enforcer (its 2nd) goes +2 + 2
    p = adv_recruit("codebreaker", "enforcer", green=3, blue=11,
                    agents={"green": {"enforcer": 1}, "blue": {}},
                    ongoing={"green": ["watchtower"], "blue": []},
                    offer=["masterplan", "outpost", "spycation"])
    after, events = applied(both, p, {"recruit": "up"})
    assert pawn_moves(events) == [("green", 3, 7, 4)]


def test_an_ongoing_card_taken_this_turn_counts_at_this_turns_end_step(both):
    # CHIARIMENTI: no effect on the recruit just made, "Invece, è attiva per il resto della
    # partita"; Telecamera: "Durante la fase finale, se l'avversario è sul tuo spazio Casa, vinci".
    # Green (active) on 3, blue on 1. Blue takes the saboteur: -1, 1 -> 0, green's home; green its
    # first daredevil: +2, 3 -> 5, a black-market space. No catch: the gap was 1 - 3 = 12 (mod
    # 14), green moved 2, blue -1: 12 - 2 - 1 = 9.
    p = adv_recruit("saboteur", "daredevil", green=3, blue=1,
                    offer=["security_system", "masterplan", "outpost"])
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"] == {"green": 5, "blue": 0} and after["pending"] == ["green"]
    assert end_of(events) is None
    # taking the Telecamera now wins at this very turn's final phase ...
    won, events = applied(both, after, take("security_system", "watchtower"))
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "security_system"}
    # ... and taking another card leaves the game going on to blue
    going, events = applied(both, after, take("masterplan", "watchtower"))
    assert end_of(events) is None and going["active"] == "blue"


def test_an_ongoing_card_also_fires_on_a_recruit_by_an_ability(both):
    # CHIARIMENTI: "Si attiva in qualsiasi modo recluti la carta agente": green has the
    # watchtower, no enforcer in play; secret recruit from the hand: its 1st, +1 + 2 = 3, 2 -> 5
    p = market_pos(["green"], {"green": 2, "blue": 1}, green=2, blue=8,
                   ongoing={"green": ["watchtower"], "blue": []},
                   offer=["secret_recruit", "masterplan", "outpost"], market_deck=9)
    after, events = applied(both, p, take("secret_recruit", "spycation", agent="enforcer"))
    assert pawn_moves(events) == [("green", 2, 5, 3)]
    assert after["pending"] == ["green"]  # 5 is a market space: the chain goes on


def test_leader_of_the_pack_three_daredevils_win(both):
    # green 3 with 2 daredevils takes a 3rd (no number: no move); blue's enforcer 10 -> 11
    p = adv_recruit("enforcer", "daredevil", green=3, blue=10,
                    agents={"green": {"daredevil": 2}, "blue": {}},
                    ongoing={"green": ["leader_of_the_pack"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "daredevils"}


def test_masterplan_seven_different_agents_win(both):
    # green holds 6 kinds; the sidekick (+4, 0 -> 4) is the 7th; blue's codebreaker moves nothing
    six = {"double_agent": 1, "codebreaker": 1, "daredevil": 1, "saboteur": 1, "enforcer": 1,
           "sentinel": 1}
    p = adv_recruit("codebreaker", "sidekick", agents={"green": dict(six), "blue": {}},
                    ongoing={"green": ["masterplan"], "blue": []}, deck=20, offer=OTHERS)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"]["green"] == 4
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "masterplan"}
    # six kinds (a second enforcer adds none, +2: 4 -> 6) is no win
    p = adv_recruit("codebreaker", "enforcer", agents={"green": dict(six), "blue": {}},
                    ongoing={"green": ["masterplan"], "blue": []}, deck=20, offer=OTHERS, green=4, blue=11)
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) is None


def test_security_system_the_other_pawn_on_your_home_wins(both):
    # "se l'avversario è sul tuo spazio Casa, vinci": green on 3, blue 13 + 1 -> 0, green's home
    # (no catch: blue needed 14 - 10 = 4)
    p = adv_recruit("enforcer", "codebreaker", green=3, blue=13,
                    ongoing={"green": ["security_system"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"]["blue"] == 0
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "security_system"}


def test_security_system_looks_at_your_own_home_only(both):
    # "Il tuo spazio Casa è lo spazio sul tabellone con lo stesso colore della tua pedina": blue
    # on its own home (7) wins green nothing
    p = adv_recruit("codebreaker", "sentinel", green=3, blue=7,
                    ongoing={"green": ["security_system"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) is None


def test_getaway_car_on_either_home_space_moves_three_more(both):
    # green 12 + 2 (daredevil) = 0, its own home: +3 more -> 3, a pawn event of its own
    p = adv_recruit("codebreaker", "daredevil", green=12, blue=6,
                    ongoing={"green": ["getaway_car"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert pawn_moves(events) == [("green", 12, 0, 2), ("green", 0, 3, 3)]
    # blue's home too: green 5 + 2 = 7 -> 10 (blue on 11: gap 6, green moved 5, no catch)
    p = adv_recruit("codebreaker", "daredevil", green=5, blue=11,
                    ongoing={"green": ["getaway_car"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert pawn_moves(events) == [("green", 5, 7, 2), ("green", 7, 10, 3)]
    assert end_of(events) is None


def test_getaway_car_needs_a_move_to_stop(both):
    # a pawn already on a home space that recruits a 0-step agent does not stop there anew
    p = adv_recruit("sentinel", "codebreaker", green=0, blue=9,
                    ongoing={"green": ["getaway_car"], "blue": []})
    after, events = applied(both, p, {"recruit": "up"})
    assert pawn_moves(events) == []


def test_getaway_car_also_after_an_ability_move(both):
    # A: "after any move": green pending on 12 reveals a daredevil with the smoke screen, its
    # first, +2 -> 0 (its home), then +3 -> 3
    p = market_pos(["green"], {"green": 2, "blue": 0}, green=12, blue=7,
                   ongoing={"green": ["getaway_car"], "blue": []},
                   offer=["smoke_screen", "masterplan", "outpost"], market_deck=9)
    after, events = applied(both, p, take("smoke_screen", top="daredevil"))
    assert pawn_moves(events) == [("green", 12, 0, 2), ("green", 0, 3, 3)]


def test_watchtower_supercomputer_distraction_device_sinister_twin(both):
    # each changes the steps of one agent: (card, agent, already in play, expected steps)
    cases = [("watchtower", "enforcer", 0, 1 + 2), ("watchtower", "enforcer", 3, 3 + 2),
             ("supercomputer", "codebreaker", 0, 3), ("supercomputer", "codebreaker", 1, 3),
             ("distraction_device", "saboteur", 0, 1), ("distraction_device", "saboteur", 2, 2),
             ("sinister_twin", "double_agent", 0, -2), ("sinister_twin", "double_agent", 1, 12),
             ("sinister_twin", "double_agent", 2, -2)]
    for card, agent, have, expect in cases:
        agents = {"green": {agent: have} if have else {}, "blue": {}}
        p = adv_recruit("sentinel", agent, green=3, blue=13, agents=agents,
                        ongoing={"green": [card], "blue": []})
        after, events = applied(both, p, {"recruit": "up"})
        assert pawn_moves(events) == [("green", 3, (3 + expect) % 14, expect)], card


def test_an_ongoing_win_that_ties_goes_to_the_active_side(both):
    # CHIARIMENTI: "Se questa carta porta a un pareggio, vince il giocatore di turno": blue takes
    # its 3rd codebreaker, green (active) its 7th kind with masterplan: green wins
    six = {"double_agent": 1, "codebreaker": 1, "daredevil": 1, "saboteur": 1, "enforcer": 1,
           "sentinel": 1}
    p = adv_recruit("codebreaker", "sidekick", agents={"green": six, "blue": {"codebreaker": 2}},
                    ongoing={"green": ["masterplan"], "blue": []}, deck=18, offer=OTHERS)
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "masterplan",
                              "tie": True}


# -- instant cards ----------------------------------------------------------------------------------
def mp(card, **kw):
    kw.setdefault("green", 2)
    kw.setdefault("blue", 8)
    kw.setdefault("offer", [card, "masterplan", "leader_of_the_pack"])
    return market_pos(["green"], {"green": 2, "blue": 1}, **kw)


def test_surveillance_truck_one_forward(both):
    after, events = applied(both, mp("surveillance_truck"), take("surveillance_truck"))
    assert pawn_moves(events) == [("green", 2, 3, 1)]


def test_smoke_screen_recruits_the_top_card_of_the_deck(both):
    # deck 22 - 1; the mole, -3: 2 -> 13
    after, events = applied(both, mp("smoke_screen"), take("smoke_screen", "outpost", top="mole"))
    assert after["deck"] == 21 and after["agents"]["green"] == {"mole": 1}
    assert pawn_moves(events) == [("green", 2, 13, -3)]


def test_outpost_recruits_a_sentinel_from_the_hand_and_the_hand_refills(both):
    # CHIARIMENTI: "Se le carte che hai in mano diminuiscono per via di un'abilità come Avamposto,
    # ricordati di pescare": hand 4 - 1 = 3, draws 1, deck 22 - 1; a first sentinel moves 0
    after, events = applied(both, mp("outpost"), take("outpost", agent="sentinel"))
    assert after["agents"]["green"] == {"sentinel": 1}
    assert after["hands"]["green"] == [4] and after["deck"] == 21
    assert of_type(events, "draw") == [{"type": "draw", "side": "green", "seat": 0, "n": 1}]
    assert error_of(both, mp("outpost"), take("outpost", agent="enforcer")) == "illegal"


def test_secret_recruit_needs_an_agent_unlike_every_one_in_play(both):
    agents = {"green": {"enforcer": 1}, "blue": {}}
    p = mp("secret_recruit", agents=agents)
    assert error_of(both, p, take("secret_recruit", agent="enforcer")) == "illegal"
    after, events = applied(both, p, take("secret_recruit", agent="daredevil"))
    # a first daredevil: +2, 2 -> 4; the hand 4 - 1 draws back
    assert pawn_moves(events) == [("green", 2, 4, 2)] and after["hands"]["green"] == [4]


def test_secret_recruit_may_take_what_only_the_other_side_has(both):
    # "unlike every agent you have in play": the other side's agents do not count
    p = mp("secret_recruit", agents={"green": {}, "blue": {"enforcer": 2}})
    after, events = applied(both, p, take("secret_recruit", agent="enforcer"))
    assert after["agents"]["green"] == {"enforcer": 1}


def test_double_trouble_recruits_one_of_a_pair_and_keeps_the_other(both):
    # the hand shows two enforcers: one recruited (+1), one kept: hand 4 - 1 = 3, draws 1
    after, events = applied(both, mp("double_trouble"), take("double_trouble", agent="enforcer"))
    assert after["agents"]["green"] == {"enforcer": 1} and after["hands"]["green"] == [4]
    assert pawn_moves(events) == [("green", 2, 3, 1)]
    # two alike must exist: the sidekick is a single card; 5 enforcers in play leave one
    assert error_of(both, mp("double_trouble"), take("double_trouble", agent="sidekick")) == \
        "illegal"
    p = mp("double_trouble", agents={"green": {"enforcer": 2}, "blue": {"enforcer": 3}})
    assert error_of(both, p, take("double_trouble", agent="enforcer")) == "illegal"
    p = mp("double_trouble", hands={"green": [1], "blue": [4]})
    assert error_of(both, p, take("double_trouble", agent="enforcer")) == "illegal"


def test_spycation_takes_an_agent_back_without_moving(both):
    # "Rimetti in mano 1 Agente che hai in gioco": 2 enforcers -> 1, hand 4 -> 5, no pawn moves
    # (CHIARIMENTI: "Rimuovere una carta agente in gioco con ... Finta Vacanza non fa spostare")
    p = mp("spycation", agents={"green": {"enforcer": 2}, "blue": {}})
    after, events = applied(both, p, take("spycation", agent="enforcer", again=False))
    assert after["agents"]["green"] == {"enforcer": 1} and after["hands"]["green"] == [5]
    assert pawn_moves(events) == [] and of_type(events, "draw") == []
    assert of_type(events, "hand") == [{"type": "hand", "side": "green", "agent": "enforcer",
                                        "to": "green"}]
    assert error_of(both, p, take("spycation", agent="mole", again=False)) == "illegal"


def test_spycation_may_recruit_it_again_at_once(both):
    # "Puoi reclutarlo immediatamente": back to 2 enforcers, the 2nd moves +2 (2 -> 4)
    p = mp("spycation", agents={"green": {"enforcer": 2}, "blue": {}})
    after, events = applied(both, p, take("spycation", agent="enforcer", again=True))
    assert after["agents"]["green"] == {"enforcer": 2} and after["hands"]["green"] == [4]
    assert pawn_moves(events) == [("green", 2, 4, 2)]
    assert [e["type"] for e in events][2:5] == ["hand", "recruit", "pawn"]


def test_mind_control_takes_an_agent_of_the_other_side_into_the_hand(both):
    # CHIARIMENTI: hand 4 + 1 = 5 and no draw ("Peschi solo quando hai meno di 4 carte"); the
    # removal moves no pawn
    p = mp("mind_control", agents={"green": {}, "blue": {"sentinel": 2}})
    after, events = applied(both, p, take("mind_control", agent="sentinel"))
    assert after["agents"] == {"green": {}, "blue": {"sentinel": 1}}
    assert after["hands"]["green"] == [5] and pawn_moves(events) == []
    assert of_type(events, "hand") == [{"type": "hand", "side": "blue", "agent": "sentinel",
                                        "to": "green"}]
    assert error_of(both, p, take("mind_control", agent="enforcer")) == "illegal"


def test_mind_control_can_remove_the_third_codebreaker_of_this_turn(both):
    # CHIARIMENTI: "Puoi usare Controllo Mentale per rimuovere la terza Crittografa che il
    # giocatore avversario ha reclutato in questo turno, impedendogli di vincere": blue takes
    # its 3rd codebreaker, green's daredevil +2 stops on 2; green takes it away before the end
    p = adv_recruit("codebreaker", "daredevil", agents={"green": {}, "blue": {"codebreaker": 2}},
                    offer=["mind_control", "masterplan", "outpost"])
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pending"] == ["green"] and end_of(events) is None
    after, events = applied(both, after, take("mind_control", agent="codebreaker"))
    assert end_of(events) is None and after["active"] == "blue"
    assert after["agents"]["blue"] == {"codebreaker": 2}


# -- the offer running out --------------------------------------------------------------------------
def test_an_empty_market_deck_leaves_a_gap(both):
    p = mp("surveillance_truck", market_deck=0)
    assert error_of(both, p, take("surveillance_truck", "outpost")) == "illegal"
    after, events = applied(both, p, take("surveillance_truck", None))
    assert after["offer"] == [None, "masterplan", "leader_of_the_pack"]
    assert of_type(events, "refill") == []


def test_the_refill_must_come_from_the_market_deck(both):
    p = mp("surveillance_truck", ongoing={"green": ["getaway_car"], "blue": []})
    assert error_of(both, p, take("surveillance_truck", None)) == "illegal"  # deck has 10
    assert error_of(both, p, take("surveillance_truck", "masterplan")) == "illegal"  # in offer
    assert error_of(both, p, take("surveillance_truck", "getaway_car")) == "illegal"  # ongoing
    assert error_of(both, p, take("surveillance_truck", "surveillance_truck")) == "illegal"
    assert error_of(both, p, take("surveillance_truck", "leader_of_the_pack")) == "illegal"


def test_an_empty_offer_adds_nobody_to_pending(both):
    p = adv_recruit("enforcer", "daredevil", offer=[None, None, None], market_deck=0)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"]["green"] == 2 and after["phase"] == "play" and after["active"] == "blue"


def test_a_side_pending_when_the_offer_empties_takes_nothing(both):
    p = market_pos(["green", "blue"], {"green": 2, "blue": 2}, green=2, blue=9,
                   agents={"green": {}, "blue": {"enforcer": 2}},
                   offer=["masterplan", None, None], market_deck=0)
    after, events = applied(both, p, take("masterplan", None))
    assert after["offer"] == [None, None, None]
    assert after["phase"] == "play" and after["active"] == "blue"
    assert after["ongoing"] == {"green": ["masterplan"], "blue": []}


def test_a_card_not_in_the_offer_cannot_be_taken(both):
    assert error_of(both, mp("outpost"), take("smoke_screen", top="enforcer")) == "illegal"


def test_simple_positions_ignore_black_market_fields(both):
    # fields that do not belong to the mode are ignored and not written back
    p = recruit_pos("codebreaker", "sentinel", offer=["masterplan"], market_deck=99)
    after, _ = applied(both, p, {"recruit": "up"})
    assert "offer" not in after and "market_deck" not in after
