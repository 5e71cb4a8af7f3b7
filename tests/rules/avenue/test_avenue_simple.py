# Agent Avenue, simple mode (seed 002 "Modalità Semplice" and its "PROMEMORIA E CHIARIMENTI"):
# a scenario for every rule and clarification. Every request runs on CPython and on MicroPython
# (`both`), and the expected numbers are counted by hand from the seed and the card table in
# avenuebook.STEPS (the facts the card pictures held).
from avenuebook import (pos, recruit_pos, applied, apply, legal, error_of, of_type,
                        pawn_moves, end_of, steps)


# -- setup and the decisions of each phase ------------------------------------------------------
def test_start_position_offers_play_and_a_discard(both):
    # PREPARAZIONE: 4 cards each, the rest (38 - 8 = 30) is the deck; pawns on their homes
    start = pos(deck=30)
    assert legal(both, start) == [{"play": "any"}, {"discard": {"seat": 0}}]


def test_recruit_phase_offers_both_cards_to_the_other_side(both):
    assert legal(both, recruit_pos("enforcer", "mole")) == [{"recruit": "up"}, {"recruit": "down"}]


# -- FASE DI GIOCO --------------------------------------------------------------------------------
def test_play_two_different_cards_then_draw_back_to_four(both):
    # hand 4 - 2 played = 2; draws 2 (only after both are played) -> 4; deck 30 - 2 = 28
    after, events = applied(both, pos(deck=30), {"play": {"up": "enforcer", "down": "mole"}})
    assert after["phase"] == "recruit" and after["active"] == "green"
    assert after["played"] == {"up": "enforcer", "down": "mole", "up_seat": 0}
    assert after["hands"] == {"green": [4], "blue": [4]} and after["deck"] == 28
    assert events == [{"type": "play", "side": "green"},
                      {"type": "draw", "side": "green", "seat": 0, "n": 2}]


def test_the_two_cards_must_have_different_names(both):
    # "Le 2 carte devono avere nome diverso"
    assert error_of(both, pos(), {"play": {"up": "enforcer", "down": "enforcer"}}) == "illegal"


def test_identical_cards_only_when_the_whole_hand_bears_that_name(both):
    # PROMEMORIA 1: "Nel raro caso in cui tutte le carte nella tua mano abbiano lo stesso nome, è
    # consentito giocare 2 carte identiche" -- declared with forced (the core cannot see hands)
    after, _ = applied(both, pos(), {"play": {"up": "enforcer", "down": "enforcer",
                                              "forced": True}})
    assert after["played"] == {"up": "enforcer", "down": "enforcer", "up_seat": 0}


def test_forced_cannot_name_two_different_cards(both):
    assert error_of(both, pos(), {"play": {"up": "enforcer", "down": "mole",
                                           "forced": True}}) == "illegal"


def test_forced_pair_of_a_single_copy_card_is_illegal(both):
    # the sidekick exists once (1x Scagnozzo): no hand can hold two
    assert error_of(both, pos(), {"play": {"up": "sidekick", "down": "sidekick",
                                           "forced": True}}) == "illegal"


def test_a_card_whose_copies_are_all_in_play_cannot_be_played(both):
    # 1x Talpa, already in blue's play; 6x Sicaria, 3 + 3 in play
    p = pos(agents={"green": {"enforcer": 3}, "blue": {"mole": 1, "enforcer": 3}}, deck=20)
    assert error_of(both, p, {"play": {"up": "mole", "down": "saboteur"}}) == "illegal"
    assert error_of(both, p, {"play": {"up": "saboteur", "down": "enforcer"}}) == "illegal"


def test_discard_lays_one_aside_and_draws_one(both):
    # "scartare una carta ... per poi pescarne una nuova": hand stays 4, deck 30 - 1, discards 3
    after, events = applied(both, pos(deck=30), {"discard": {"seat": 0}})
    assert after["phase"] == "play" and after["active"] == "green"
    assert after["hands"]["green"] == [4] and after["deck"] == 29
    assert after["discards_left"] == {"green": [3], "blue": [4]}
    assert events == [{"type": "discard", "side": "green", "seat": 0},
                      {"type": "draw", "side": "green", "seat": 0, "n": 1}]


def test_discards_several_times_a_turn_but_four_in_the_whole_game(both):
    # "anche più volte nello stesso turno, ma solo 4 volte nel corso di tutta la partita"
    p = pos(deck=30)
    for left in (3, 2, 1, 0):
        p, _ = applied(both, p, {"discard": {"seat": 0}})
        assert p["discards_left"]["green"] == [left] and p["active"] == "green"
    assert p["deck"] == 26
    assert legal(both, p) == [{"play": "any"}]
    assert error_of(both, p, {"discard": {"seat": 0}}) == "illegal"


def test_no_discard_with_an_empty_deck(both):
    # PROMEMORIA 2: "Se il mazzo Agenti è vuoto, non puoi scartare carte Agente"
    p = pos(deck=0)
    assert legal(both, p) == [{"play": "any"}]
    assert error_of(both, p, {"discard": {"seat": 0}}) == "illegal"


def test_empty_deck_no_more_draws_play_on_with_the_hand(both):
    # PROMEMORIA 3: hand 4 - 2 = 2 and nothing to draw
    after, events = applied(both, pos(deck=0), {"play": {"up": "enforcer", "down": "mole"}})
    assert after["hands"]["green"] == [2] and after["deck"] == 0
    assert of_type(events, "draw") == []


def test_the_last_card_of_the_deck_is_drawn_alone(both):
    # deck 1: hand 2 after playing draws the 1 card left -> 3
    after, events = applied(both, pos(deck=1), {"play": {"up": "enforcer", "down": "mole"}})
    assert after["hands"]["green"] == [3] and after["deck"] == 0
    assert of_type(events, "draw") == [{"type": "draw", "side": "green", "seat": 0, "n": 1}]


def test_a_hand_above_four_stays_and_draws_nothing(both):
    # PROMEMORIA 4 "Non esiste un limite massimo": 6 cards (after a Mind Control), play 2 -> 4
    p = pos(hands={"green": [6], "blue": [4]}, deck=20)
    after, events = applied(both, p, {"play": {"up": "enforcer", "down": "mole"}})
    assert after["hands"]["green"] == [4] and of_type(events, "draw") == []


def test_a_side_with_fewer_than_two_cards_cannot_play(both):
    # two cards are played; a position with one card left offers no play
    p = pos(hands={"green": [1], "blue": [4]}, deck=0)
    assert legal(both, p) == []
    assert error_of(both, p, {"play": {"up": "enforcer", "down": "mole"}}) == "illegal"


# -- FASE DI RECLUTAMENTO --------------------------------------------------------------------------
def test_the_other_side_recruits_the_chosen_card_the_active_side_the_other(both):
    # green played enforcer (up) and mole (down); blue takes the enforcer: its first, +1 (7 -> 8);
    # green then takes the mole: -3 backwards, counter-clockwise (0 -> 11). Blue moves first.
    after, events = applied(both, recruit_pos("enforcer", "mole"), {"recruit": "up"})
    assert after["agents"] == {"green": {"mole": 1}, "blue": {"enforcer": 1}}
    assert after["pawns"] == {"green": 11, "blue": 8}
    assert events == [
        {"type": "recruit", "side": "blue", "agent": "enforcer", "count": 1},
        {"type": "recruit", "side": "green", "agent": "mole", "count": 1},
        {"type": "pawn", "side": "blue", "from": 7, "to": 8, "steps": 1},
        {"type": "pawn", "side": "green", "from": 0, "to": 11, "steps": -3},
    ]
    # FASE FINALE: nobody won, so the turn passes to blue
    assert after["active"] == "blue" and after["phase"] == "play" and "played" not in after


def test_recruiting_the_face_down_card(both):
    # blue takes the mole (7 -> 4), green the enforcer (0 -> 1)
    after, _ = applied(both, recruit_pos("enforcer", "mole"), {"recruit": "down"})
    assert after["agents"] == {"green": {"enforcer": 1}, "blue": {"mole": 1}}
    assert after["pawns"] == {"green": 1, "blue": 4}


def test_steps_count_the_agents_of_that_name_already_in_play(both):
    # "Controlla quanti agenti hai in campo con lo stesso nome, incluso quello appena reclutato":
    # green with 1 sentinel recruits its 2nd: +2; blue with 2 recruits its 3rd: +6 (7 -> 13)
    p = recruit_pos("saboteur", "sentinel", agents={"green": {"sentinel": 1},
                                                    "blue": {"sentinel": 2}}, green=1)
    after, events = applied(both, p, {"recruit": "down"})
    # blue took the sentinel (3rd: +6), green the saboteur (1st: -1, 1 -> 0)
    assert pawn_moves(events) == [("blue", 7, 13, 6), ("green", 1, 0, -1)]
    p = recruit_pos("saboteur", "sentinel", agents={"green": {"sentinel": 1},
                                                    "blue": {"sentinel": 2}}, green=1)
    after, events = applied(both, p, {"recruit": "up"})
    # blue took the saboteur (1st: -1, 7 -> 6), green the sentinel (2nd: +2, 1 -> 3)
    assert pawn_moves(events) == [("blue", 7, 6, -1), ("green", 1, 3, 2)]


def test_the_seeds_example_card_moves_minus_one_six_minus_one(both):
    # the rulebook's example (Doppiogiochista): 1 in play -1, 2 in play +6, 3 in play -1
    for have, expect in ((0, -1), (1, 6), (2, -1)):
        agents = {"green": {"double_agent": have} if have else {}, "blue": {}}
        p = recruit_pos("codebreaker", "double_agent", agents=agents, green=3, blue=12)
        after, events = applied(both, p, {"recruit": "up"})
        assert pawn_moves(events) == [("green", 3, (3 + expect) % 14, expect)]
        assert expect == steps("double_agent", have + 1)


def test_fourth_to_sixth_copy_moves_as_the_third(both):
    # PROMEMORIA 5: "se recluti il 4°, 5° o 6° agente con lo stesso nome, lo consideri come se
    # fosse il tuo 3°": the enforcer's third icon is +3 whatever the count
    for have in (3, 4, 5):
        agents = {"green": {"enforcer": have}, "blue": {}}
        p = recruit_pos("codebreaker", "enforcer", agents=agents, green=1, blue=12)
        after, events = applied(both, p, {"recruit": "up"})
        assert of_type(events, "recruit")[1] == {"type": "recruit", "side": "green",
                                                 "agent": "enforcer", "count": have + 1}
        assert pawn_moves(events) == [("green", 1, 4, 3)]


def test_zero_or_no_number_moves_nothing(both):
    # "Se il numero è zero o l'icona non contiene nessun numero, non muovere la tua pedina":
    # a first sentinel (0), a first codebreaker (0): no pawn event at all
    after, events = applied(both, recruit_pos("sentinel", "codebreaker", green=3, blue=10),
                            {"recruit": "up"})
    assert pawn_moves(events) == []
    assert after["pawns"] == {"green": 3, "blue": 10}


# -- FASE FINALE ----------------------------------------------------------------------------------
def test_catch_by_reaching_the_other_pawn_exactly(both):
    # A: "deve aver raggiunto o sorpassato la posizione della pedina avversaria": green on 5,
    # blue on 7; green's first daredevil +2 reaches 7; blue's first codebreaker moves nothing
    p = recruit_pos("codebreaker", "daredevil", green=5, blue=7)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"] == {"green": 7, "blue": 7}
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "catch"}
    assert after["winner"] == "green" and after["phase"] == "recruit"
    assert after["active"] == "green" and "played" not in after


def test_catch_by_passing_the_other_pawn(both):
    # PROMEMORIA 8: green on 5 with a daredevil recruits its 2nd: +3 -> 8, past blue on 7
    p = recruit_pos("codebreaker", "daredevil", green=5, blue=7,
                    agents={"green": {"daredevil": 1}, "blue": {}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events)["winner"] == "green" and end_of(events)["reason"] == "catch"


def test_blue_catches_green_across_space_zero(both):
    # blue on 7, green on 12: blue needs 5 steps; its 3rd sentinel (+6) lands on 13, past 12
    p = recruit_pos("sentinel", "codebreaker", active="blue", green=12, blue=7,
                    agents={"green": {}, "blue": {"sentinel": 2}})
    after, events = applied(both, p, {"recruit": "down"})  # green takes the codebreaker
    assert after["pawns"] == {"green": 12, "blue": 13}
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "catch"}


def test_a_caught_pawn_that_escapes_forward_the_same_turn_is_not_caught(both):
    # PROMEMORIA 7: blue active on 7, green on 5. Green (moving first) takes its 3rd enforcer,
    # +3 -> 8, past blue; then blue takes its 3rd sentinel, +6 -> 13, ahead again. Net: green
    # needed 2, moved 3, blue moved 6: gap 2 - 3 + 6 = 5, nobody caught.
    p = recruit_pos("enforcer", "sentinel", active="blue", green=5, blue=7,
                    agents={"green": {"enforcer": 2}, "blue": {"sentinel": 2}})
    after, events = applied(both, p, {"recruit": "up"})
    assert pawn_moves(events) == [("green", 5, 8, 3), ("blue", 7, 13, 6)]
    assert end_of(events) is None and after["active"] == "green"


def test_a_pawn_stepping_back_onto_the_other_is_caught(both):
    # PROMEMORIA 9: "Se la pedina del tuo avversario si muove all'indietro e la sua posizione è
    # uguale ... alla tua": blue on 6 recruits a first saboteur (-1) onto green on 5; green moved
    # nothing (first codebreaker) and still catches
    p = recruit_pos("saboteur", "codebreaker", green=5, blue=6)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"] == {"green": 5, "blue": 5}
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "catch"}


def test_a_pawn_stepping_back_behind_the_other_is_caught(both):
    # ... "o indietro rispetto alla tua": blue on 6 takes the mole, -3 -> 3, behind green on 5
    p = recruit_pos("mole", "codebreaker", green=5, blue=6)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["pawns"]["blue"] == 3
    assert end_of(events)["winner"] == "green"


def test_three_codebreakers_win(both):
    # B: green with 2 codebreakers recruits a 3rd (the icon moves nothing)
    p = recruit_pos("enforcer", "codebreaker", agents={"green": {"codebreaker": 2}, "blue": {}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "codebreakers"}


def test_three_daredevils_lose(both):
    # C: green with 2 daredevils recruits a 3rd: green loses, so blue wins
    p = recruit_pos("enforcer", "daredevil", agents={"green": {"daredevil": 2}, "blue": {}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "daredevils"}
    assert after["winner"] == "blue"


def test_the_other_sides_third_codebreaker_wins_in_this_final_phase(both):
    # a win is judged for both sides at the end of every turn: blue takes its 3rd codebreaker
    # during green's turn and wins there
    p = recruit_pos("codebreaker", "enforcer", agents={"green": {}, "blue": {"codebreaker": 2}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "codebreakers"}


def test_a_win_waits_for_the_final_phase_and_the_active_side_wins_a_tie(both):
    # PROMEMORIA 6: "Se il tuo avversario recluta la sua 3a Crittografa, continui a giocare fino
    # alla Fase Finale. Se catturi la pedina avversaria in quello stesso turno, il giocatore di
    # turno vince": blue takes its 3rd codebreaker, then green's first daredevil (+2) catches
    # blue from 5 to 7. Both would win: green, whose turn it is.
    p = recruit_pos("codebreaker", "daredevil", green=5, blue=7,
                    agents={"green": {}, "blue": {"codebreaker": 2}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "catch", "tie": True}


def test_both_sides_meeting_a_lose_condition_the_active_side_wins(both):
    # "Entrambi i giocatori soddisfano una condizione per perdere": both recruit a 3rd daredevil
    # (forced pair: 2 + 2 + 2 = all 6 copies); both would win through the other's loss
    p = recruit_pos("daredevil", "daredevil",
                    agents={"green": {"daredevil": 2}, "blue": {"daredevil": 2}}, active="blue")
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "daredevils",
                              "tie": True}


def test_one_side_meeting_a_win_and_a_lose_condition_the_active_side_wins(both):
    # "Un giocatore soddisfa una condizione per vincere e una per perdere": green (active, on 5)
    # takes its 3rd daredevil (lose) while blue steps back from 6 onto it (-1, saboteur): green
    # catches (win). Green is the active side: green wins, by its first reason, catch.
    p = recruit_pos("saboteur", "daredevil", green=5, blue=6,
                    agents={"green": {"daredevil": 2}, "blue": {}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "catch", "tie": True}
    # the same board with blue active (blue played; green took the daredevil): blue wins,
    # by its reason, green's three daredevils
    p = recruit_pos("daredevil", "saboteur", active="blue", green=5, blue=6,
                    agents={"green": {"daredevil": 2}, "blue": {}})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "daredevils",
                              "tie": True}


# -- "Terminare le carte" ------------------------------------------------------------------------
def test_cards_out_the_side_closer_to_catching_wins(both):
    # deck empty, blue (next) holds 1 card: "meno di 2 carte Agente". Pawns green 0, blue 5 and
    # nothing moves (two first codebreaker/sentinel): green needs 5, blue needs 14 - 5 = 9.
    p = recruit_pos("codebreaker", "sentinel", blue=5, deck=0,
                    hands={"green": [2], "blue": [1]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "cards_out"}


def test_cards_out_the_other_side_closer_wins(both):
    # green 0, blue 10: green needs 10, blue needs 4: blue wins though green played
    p = recruit_pos("codebreaker", "sentinel", blue=10, deck=0,
                    hands={"green": [2], "blue": [1]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "blue", "reason": "cards_out"}


def test_cards_out_at_equal_distance_the_active_side_wins(both):
    # "I giocatori terminano le carte e le loro pedine sono equidistanti": 0 and 7, 7 each way
    for active, nxt in (("green", "blue"), ("blue", "green")):
        hands = {active: [2], nxt: [1]}
        p = recruit_pos("codebreaker", "sentinel", active=active, deck=0, hands=hands)
        after, events = applied(both, p, {"recruit": "up"})
        assert end_of(events) == {"type": "end", "winner": active, "reason": "cards_out",
                                  "tie": True}


def test_no_cards_out_while_the_next_side_holds_two_or_the_deck_has_cards(both):
    for hands, deck in (({"green": [2], "blue": [2]}, 0), ({"green": [2], "blue": [1]}, 1)):
        p = recruit_pos("codebreaker", "sentinel", blue=5, deck=deck, hands=hands)
        after, events = applied(both, p, {"recruit": "up"})
        assert end_of(events) is None and after["active"] == "blue"


def test_cards_out_looks_at_the_next_side_not_the_active_one(both):
    # the active side (green) is down to 1 card, blue holds 2: the game goes on to blue
    p = recruit_pos("codebreaker", "sentinel", blue=5, deck=0,
                    hands={"green": [1], "blue": [2]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) is None and after["active"] == "blue"


# -- a finished game --------------------------------------------------------------------------------
def test_requests_on_a_finished_game_answer_game_over(both):
    p = recruit_pos("codebreaker", "daredevil", green=5, blue=7)
    after, _ = applied(both, p, {"recruit": "up"})
    assert after["winner"] == "green"
    assert both.ask({"op": "legal", "position": after})["error"] == "game_over"
    assert apply(both, after, {"recruit": "up"})["error"] == "game_over"
