# Agent Avenue, the team variant (seed 002 "Variante a squadre" and its "CHIARIMENTI ADDIZIONALI
# PER LA VARIANTE A SQUADRE"): 4 players (2 against 2) and 3 players (2 against 1), simple and
# advanced, on CPython and MicroPython. Hands and discards are per seat: hands {side: [seat 0,
# seat 1]}.
from avenuebook import (pos, recruit_pos, market_pos, applied, legal, error_of, of_type,
                        pawn_moves, end_of, apply)

TEAMS = {"green": 2, "blue": 2}
GREEN_TEAM = {"green": 2, "blue": 1}


def team(**kw):
    kw.setdefault("seats", TEAMS)
    return pos(**kw)


def test_four_players_start_each_seat_may_discard(both):
    # PREPARAZIONE: "4 carte agente a ogni giocatore": 16 dealt, deck 38 - 16 = 22
    p = team(deck=22)
    assert p["hands"] == {"green": [4, 4], "blue": [4, 4]}
    assert legal(both, p) == [{"play": "any"}, {"discard": {"seat": 0}},
                              {"discard": {"seat": 1}}]


def test_each_teammate_plays_one_card_and_draws_back(both):
    # FASE DI GIOCO: seat 1 plays face up, seat 0 face down; each hand 4 - 1 = 3 draws 1;
    # deck 22 - 2 = 20; the face-up seat draws first
    after, events = applied(both, team(deck=22), {"play": {"up": "enforcer", "down": "mole",
                                                           "up_seat": 1, "down_seat": 0}})
    assert after["played"] == {"up": "enforcer", "down": "mole", "up_seat": 1}
    assert after["hands"]["green"] == [4, 4] and after["deck"] == 20
    assert of_type(events, "draw") == [{"type": "draw", "side": "green", "seat": 1, "n": 1},
                                       {"type": "draw", "side": "green", "seat": 0, "n": 1}]


def test_one_teammate_cannot_play_both_cards(both):
    assert error_of(both, team(), {"play": {"up": "enforcer", "down": "mole", "up_seat": 0,
                                            "down_seat": 0}}) == "illegal"


def test_a_team_names_its_seats(both):
    ans = apply(both, team(), {"play": {"up": "enforcer", "down": "mole"}})
    assert ans["error"] == "bad_request"


def test_the_last_card_of_the_deck_goes_to_the_face_up_player(both):
    # CHIARIMENTI 1: "Se all'inizio della Fase di Gioco nel mazzo agenti è rimasta una sola
    # carta, il compagno di squadra che gioca la propria carta scoperta pesca quell'ultima carta"
    for up_seat in (0, 1):
        after, events = applied(both, team(deck=1), {"play": {
            "up": "enforcer", "down": "mole", "up_seat": up_seat, "down_seat": 1 - up_seat}})
        hands = [3, 3]
        hands[up_seat] = 4
        assert after["hands"]["green"] == hands and after["deck"] == 0
        assert of_type(events, "draw") == [{"type": "draw", "side": "green", "seat": up_seat,
                                            "n": 1}]


def test_team_cards_must_differ_unless_the_hand_is_all_that_name(both):
    # "Le carte giocate devono avere nomi differenti"; CHIARIMENTI 2: identical only when all
    # the face-down player's cards bear the face-up card's name (forced)
    mv = {"up": "enforcer", "down": "enforcer", "up_seat": 0, "down_seat": 1}
    assert error_of(both, team(), {"play": mv}) == "illegal"
    mv["forced"] = True
    after, _ = applied(both, team(), {"play": mv})
    assert after["played"]["up"] == after["played"]["down"] == "enforcer"


def test_two_discards_per_teammate(both):
    # "solo 2 volte nel corso dell'intera partita (anche il tuo compagno di squadra può scartare
    # 2 volte)": seat 0 discards twice, then only seat 1 may
    p = team(deck=22)
    for left in (1, 0):
        p, _ = applied(both, p, {"discard": {"seat": 0}})
        assert p["discards_left"]["green"] == [left, 2]
    assert legal(both, p) == [{"play": "any"}, {"discard": {"seat": 1}}]
    assert error_of(both, p, {"discard": {"seat": 0}}) == "illegal"
    p, events = applied(both, p, {"discard": {"seat": 1}})
    assert p["discards_left"]["green"] == [0, 1] and p["deck"] == 19
    assert events[0] == {"type": "discard", "side": "green", "seat": 1}


def test_three_players_the_lone_player_discards_four(both):
    # CHIARIMENTI 4: "il giocatore da solo può scartare fino a 4 carte ..., mentre i compagni di
    # squadra possono scartare fino a 2 carte ciascuno"
    p = pos(seats=GREEN_TEAM, active="blue", deck=26)
    assert p["discards_left"] == {"green": [2, 2], "blue": [4]}
    for left in (3, 2, 1, 0):
        p, _ = applied(both, p, {"discard": {"seat": 0}})
        assert p["discards_left"]["blue"] == [left]
    bad = pos(seats=GREEN_TEAM, discards={"green": [3, 2], "blue": [4]})
    assert both.ask({"op": "legal", "position": bad})["error"] == "bad_position"


def test_the_lone_player_plays_both_cards(both):
    p = pos(seats=GREEN_TEAM, active="blue", deck=26)
    after, events = applied(both, p, {"play": {"up": "enforcer", "down": "mole"}})
    assert after["hands"]["blue"] == [4] and after["deck"] == 24
    assert error_of(both, p, {"play": {"up": "enforcer", "down": "mole", "up_seat": 0,
                                       "down_seat": 1}}) == "illegal"


def test_the_team_shares_one_pawn_and_one_tableau(both):
    # the other team recruits the chosen card for its shared pawn: blue team takes the sentinel
    # (its 2nd: +2, 7 -> 9), green team the saboteur (-1, 0 -> 13)
    p = recruit_pos("sentinel", "saboteur", seats=TEAMS,
                    played={"up": "sentinel", "down": "saboteur", "up_seat": 1},
                    agents={"green": {}, "blue": {"sentinel": 1}}, deck=19)
    after, events = applied(both, p, {"recruit": "up"})
    assert after["agents"] == {"green": {"saboteur": 1}, "blue": {"sentinel": 2}}
    assert pawn_moves(events) == [("blue", 7, 9, 2), ("green", 0, 13, -1)]


def test_cards_out_a_teammate_with_no_card(both):
    # "il mazzo agenti è vuoto e un avversario non ha carte in mano": blue's seat 1 is empty.
    # Pawns 0 and 4, nothing moves: green needs 4, blue 10: green wins
    p = recruit_pos("codebreaker", "sentinel", seats=TEAMS, blue=4, deck=0,
                    hands={"green": [3, 3], "blue": [2, 0]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "cards_out"}
    # a teammate with one card can still play its one card: the game goes on
    p = recruit_pos("codebreaker", "sentinel", seats=TEAMS, blue=4, deck=0,
                    hands={"green": [3, 3], "blue": [1, 1]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) is None and after["active"] == "blue"


def test_cards_out_the_lone_player_needs_two(both):
    # green (a team) plays; blue plays alone and holds 1 card: out
    p = recruit_pos("codebreaker", "sentinel", seats=GREEN_TEAM, blue=4, deck=0,
                    hands={"green": [3, 3], "blue": [1]})
    after, events = applied(both, p, {"recruit": "up"})
    assert end_of(events) == {"type": "end", "winner": "green", "reason": "cards_out"}


def test_team_market_the_side_agrees_who_takes(both):
    # CHIARIMENTI 3: "concorda con il tuo compagno di squadra chi vuole prendere una carta": seat
    # 1's hand gives the sentinel to the outpost: [4, 4 - 1] draws back to [4, 4]
    p = market_pos(["green"], {"green": 2, "blue": 1}, seats=TEAMS, green=2, blue=8,
                   offer=["outpost", "masterplan", "spycation"])
    after, events = applied(both, p, {"market": "outpost", "refill": "watchtower", "seat": 1,
                                      "agent": "sentinel"})
    assert after["hands"]["green"] == [4, 4]
    assert of_type(events, "draw") == [{"type": "draw", "side": "green", "seat": 1, "n": 1}]
    assert error_of(both, p, {"market": "outpost", "refill": "watchtower", "seat": 2,
                              "agent": "sentinel"}) == "illegal"


def test_team_mind_control_goes_to_the_chosen_teammate(both):
    p = market_pos(["green"], {"green": 2, "blue": 1}, seats=TEAMS, green=2, blue=8,
                   agents={"green": {}, "blue": {"enforcer": 1}}, deck=21,
                   offer=["mind_control", "masterplan", "spycation"])
    after, _ = applied(both, p, {"market": "mind_control", "refill": "watchtower", "seat": 1,
                                 "agent": "enforcer"})
    assert after["hands"]["green"] == [4, 5] and after["agents"]["blue"] == {}
