# DOG scenario tests: turns and rounds, passing, teams with 4 and 6 players and playing alone
# with 2, 3 and 5, winning, the game start, the 6-seat board `dog-6`, the `layout` defaults,
# and answers repeating `game` and `layout`. Counted by hand from seed 001 (German part unless
# said, quoted) and dog-rules.md. `dog-6`: track 0..95, clockwise red 0, blue 16, white 32,
# green 48, yellow 64, black 80.
from dogbook import (position, royal, rk, outcomes, legal, applied, of_type, where,
                     move, mv, cap, ALL_HOME, SEATS, DOG6)

STARTS6 = {"red": 0, "blue": 16, "white": 32, "green": 48, "yellow": 64, "black": 80}


def win_seats(events):
    wins = of_type(events, "win")
    assert len(wins) == 1, events
    return set(wins[0]["seats"])   # the contract fixes no order inside "seats"


# -- turns and rounds -----------------------------------------------------------------------

def test_the_turn_passes_clockwise(both):
    # DE "Anschließend ist der im Uhrzeigersinn nächste Spieler mit seinem Zug an der Reihe"
    new, _ = applied(both, position(red=[10]), move("5", 10, 15))
    assert new["to_move"] == "blue" and new["cards_left"]["red"] == 4
    assert new["last_card"] == "5"
    new, _ = applied(both, position(players=3, to_move="green", green=[40]), move("5", 40, 45))
    assert new["to_move"] == "red"


def test_turn_order_on_the_6_seat_board(both):
    # clockwise red, blue, white, green, yellow, black; with 5 players black is no seat
    new, _ = applied(both, position(players=6, to_move="blue", blue=[20]), move("5", 20, 25))
    assert new["to_move"] == "white"
    new, _ = applied(both, position(players=6, to_move="yellow", yellow=[70]),
                     move("5", 70, 75))
    assert new["to_move"] == "black"
    new, _ = applied(both, position(players=6, to_move="black", black=[84]), move("5", 84, 89))
    assert new["to_move"] == "red"
    new, _ = applied(both, position(players=5, to_move="yellow", yellow=[70]),
                     move("5", 70, 75))
    assert new["to_move"] == "red"


def test_seats_out_or_without_cards_are_skipped(both):
    # contract "Turns, rounds, Zugzwang: as Agent DOG"
    pos = position(red=[10], out=["blue"], cards_left={"blue": 0, "green": 0, "yellow": 3})
    new, _ = applied(both, pos, move("5", 10, 15))
    assert new["to_move"] == "yellow"


def test_the_round_ends_when_nobody_holds_cards(both):
    # DE "Eine Runde ist zu Ende, wenn alle Karten ausgespielt oder abgelegt wurden." ...
    # "gibt den Kartenstapel an seinen linken Nachbarn weiter, der in dieser Runde beginnt";
    # 5 cards each (contract); the copy does not cross rounds (last_card null).
    pos = position(red=[10], dealer="red", out=["green"], last_card="9",
                   cards_left={"red": 1, "blue": 0, "green": 0, "yellow": 0})
    new, events = applied(both, pos, move("5", 10, 15))
    assert events[-1] == {"type": "round_end", "dealer": "blue"}
    assert new["dealer"] == "blue" and new["to_move"] == "blue"
    assert new["cards_left"] == {"red": 5, "blue": 5, "green": 5, "yellow": 5}
    assert new["out"] == [] and new["last_card"] is None


def test_the_round_end_on_the_6_seat_board(both):
    # 5 players: after yellow deals, red (black is no seat); 6 players: after black, red
    pos = position(players=5, to_move="yellow", dealer="yellow", yellow=[70],
                   cards_left={"red": 0, "blue": 0, "white": 0, "green": 0, "yellow": 1})
    new, events = applied(both, pos, move("5", 70, 75))
    assert events[-1] == {"type": "round_end", "dealer": "red"}
    assert new["cards_left"] == {c: 5 for c in SEATS[5]} and new["to_move"] == "red"
    pos = position(players=6, to_move="black", dealer="black", black=[84],
                   cards_left={"red": 0, "blue": 0, "white": 0, "green": 0, "yellow": 0,
                               "black": 1})
    new, events = applied(both, pos, move("5", 84, 89))
    assert events[-1] == {"type": "round_end", "dealer": "red"}
    assert new["cards_left"] == {c: 5 for c in DOG6}


# -- Zugzwang and passing ---------------------------------------------------------------------

def test_legal_never_lists_pass(both):
    # red has nothing on the track: a 5 has no move; `pass` is never a listed move
    assert legal(both, position(red=[]), "5") == []


def test_a_team_seat_that_cannot_play_is_out_of_the_round(both):
    # DE "Kann ein Spieler keine seiner Figuren bewegen, so zeigt er seine Karten vor. Die
    # Karten verfallen ... Der Spieler scheidet für diese Runde aus."; 4 and 6 players.
    for players, nxt in ((4, "blue"), (6, "blue")):
        pos = position(players=players, red=[10], last_card="9")
        new, events = applied(both, pos, {"pass": True})
        assert events[0] == {"type": "out", "seat": "red", "reason": "pass"}
        assert new["out"] == ["red"] and new["cards_left"]["red"] == 0
        assert new["last_card"] == "9" and new["to_move"] == nxt


def test_alone_a_seat_that_cannot_play_discards_one_card(both):
    # DE "Sonderregel für 2, 3 und 5 Spieler": "muss er eine seiner Karten abwerfen und darf
    # eine neue Karte nachziehen. Wenn er mit dieser Karte auch nicht ziehen kann, muss er ...
    # eine seiner Handkarten abwerfen"; contract: `pass` is cards_left minus 1, not out.
    for players, nxt in ((2, "green"), (3, "blue"), (5, "blue")):
        pos = position(players=players, red=[10])
        new, events = applied(both, pos, {"pass": True})
        assert not of_type(events, "out"), players
        assert new["out"] == [] and new["cards_left"]["red"] == 4, players
        assert new["to_move"] == nxt, players


# -- teams ------------------------------------------------------------------------------------

def test_a_finished_player_moves_the_teammates_pieces_with_4_players(both):
    # DE "Nachdem ein Spieler alle seine Figuren ins Ziel gezogen hat, hilft er seinem Partner
    # und bewegt dessen Figuren"; red + green. 40 + 13 = 53 passes yellow's empty 48.
    pos = position(red=ALL_HOME, green=[40], blue=[20])
    assert outcomes(both, pos, "5") == {(40, 45)}
    assert outcomes(both, pos, "13") == {(40, 53), ("green:start", 32)}


def test_teams_on_the_6_seat_board(both):
    # contract: on dog-6 red+green, blue+yellow, white+black (seats facing each other).
    # Green's start is 48 there; black's 80.
    pos = position(players=6, red=ALL_HOME, green=[40], white=[20])
    assert outcomes(both, pos, "5") == {(40, 45)}
    assert outcomes(both, pos, "13") == {(40, 53), ("green:start", 48)}
    pos = position(players=6, to_move="white", white=ALL_HOME, black=[70], green=[60])
    assert outcomes(both, pos, "5") == {(70, 75)}
    # 70 + 13: 80 (black's start, empty) after 10 steps, then h1 h2 h3, or on to 83
    assert outcomes(both, pos, "13") == {(70, 83), (70, "black:h3"), ("black:start", 80)}
    pos = position(players=6, to_move="blue", blue=ALL_HOME, yellow=[50], red=[20])
    assert outcomes(both, pos, "5") == {(50, 55)}


def test_a_finished_players_teammate_start_space_restriction(both):
    # "A finished player plays the teammate's colour": finished red enters green pieces; an
    # own (green) piece on green's start 32 makes entering impossible
    pos = position(red=ALL_HOME, green=[32])
    assert outcomes(both, pos, "13") == {(32, 45)}


# -- winning ----------------------------------------------------------------------------------

def test_a_team_wins_with_all_eight_pieces_home(both):
    # DE "Das Team, das es als Erstes geschafft hat, mit allen 8 Figuren ins Ziel zu ziehen,
    # gewinnt das Spiel." Red 62 + 3: 63, 0, h1.
    pos = position(red=["h2", "h3", "h4", 62], green=ALL_HOME)
    new, events = applied(both, pos, move("3", 62, "red:h1"))
    assert win_seats(events) == {"red", "green"}


def test_one_team_member_home_is_no_win(both):
    # DE "Es ist nicht möglich, als einzelner Spieler zu gewinnen."
    pos = position(red=["h2", "h3", "h4", 62], green=[40])
    new, events = applied(both, pos, move("3", 62, "red:h1"))
    assert not of_type(events, "win")
    assert new["to_move"] == "blue"


def test_the_helping_player_can_complete_the_team(both):
    # red finished moves green 30 -> 31, 32, h1
    pos = position(red=ALL_HOME, green=["h2", "h3", "h4", 30])
    new, events = applied(both, pos, move("3", 30, "green:h1"))
    assert win_seats(events) == {"red", "green"}


def test_a_team_wins_on_the_6_seat_board(both):
    # white 30 + 3: 31, 32 (white's start), h1; black complete
    pos = position(players=6, to_move="white", white=["h2", "h3", "h4", 30], black=ALL_HOME)
    new, events = applied(both, pos, move("3", 30, "white:h1"))
    assert win_seats(events) == {"white", "black"}


def test_alone_the_first_with_four_pieces_home_wins(both):
    # DE (2, 3, 5 players) "Gewonnen hat der Spieler, der als erster 4 Figuren im Ziel hat."
    for players in (2, 3):
        pos = position(players=players, red=["h2", "h3", "h4", 62])
        new, events = applied(both, pos, move("3", 62, "red:h1"))
        assert win_seats(events) == {"red"}, players
    # 5 players on dog-6: red 94 + 3: 95, 0, h1
    pos = position(players=5, red=["h2", "h3", "h4", 94])
    new, events = applied(both, pos, move("3", 94, "red:h1"))
    assert win_seats(events) == {"red"}


def test_requests_on_a_won_game_answer_game_over(both):
    won = position(red=ALL_HOME, green=ALL_HOME, to_move="blue", blue=[20])
    for req in ({"op": "legal", "card": "5"}, {"op": "hints", "card": "5"},
                {"op": "apply", "move": move("5", 20, 25)}):
        req["position"] = won
        ans = both.ask(req)
        assert ans["ok"] is False and ans["error"] == "game_over", ans


# -- the game start ---------------------------------------------------------------------------

def test_the_start_position_one_piece_on_each_start_space(both):
    # DE "Zu Spielbeginn dürfen die Spieler jeweils noch eine Spielfigur auf ihr Startfeld
    # setzen."; contract "Game start". Red cannot enter (own piece on 0): 13 forward only.
    pos = position(red=[0], blue=[16], green=[32], yellow=[48])
    assert outcomes(both, pos, "13") == {(0, 13)}
    assert outcomes(both, pos, "1/11") == {(0, 1), (0, 11)}
    pos = position(players=6, to_move="white", **{c: [s] for c, s in STARTS6.items()})
    assert outcomes(both, pos, "13") == {(32, 45)}


def test_the_royal_start_position_says_which_rank_stands_on_the_start_space(both):
    # DE Royal: "stellt jeder Spieler ... eine beliebige eigene Figur auf sein Startfeld"; red
    # chose its king: it cannot go 13, and nobody can enter while it stands there.
    pos = royal(red=rk(king=0), blue=rk(knight=16), green=rk(citizen=32), yellow=rk(jester=48))
    assert legal(both, pos, "13") == []
    assert outcomes(both, pos, "1/11") == {(0, 1)}
    assert outcomes(both, pos, "5") == {(0, 5)}


# -- the 6-seat board -------------------------------------------------------------------------

def test_dog_6_has_96_spaces_and_wraps_from_95_to_0(both):
    # red 94: 95, 0, h1 (3) or on to 1; 5: 95 0 h1 h2 h3 or 3
    pos = position(players=6, red=[94])
    assert outcomes(both, pos, "3") == {(94, 1), (94, "red:h1")}
    assert outcomes(both, pos, "5") == {(94, 3), (94, "red:h3")}
    # blue 90 + 8 = 98 -> 2 (blue's home lies past 16)
    assert outcomes(both, position(players=6, to_move="blue", blue=[90]), "8") == {(90, 2)}


def test_dog_6_start_spaces_every_16(both):
    for colour, start in STARTS6.items():
        pos = position(players=6, to_move=colour)
        assert outcomes(both, pos, "13") == {("%s:start" % colour, start)}, colour


def test_dog_6_homes_past_each_start_space(both):
    # black 78: 79, 80, h1; yellow 62: 63, 64, h1; green 46: 47, 48, h1
    for colour, frm in (("black", 78), ("yellow", 62), ("green", 46), ("white", 30)):
        pos = position(players=6, to_move=colour, **{colour: [frm]})
        assert outcomes(both, pos, "3") == {(frm, frm + 3), (frm, "%s:h1" % colour)}, colour


def test_dog_6_blockers_are_the_own_coloured_start_spaces(both):
    # white on 32 is protected on dog-6; green on 32 is not (green's start is 48 there)
    assert legal(both, position(players=6, red=[30], white=[32]), "5") == []
    new, events = applied(both, position(players=6, red=[30], green=[32]), move("2", 30, 32))
    assert of_type(events, "capture") == [cap(32, "green")]
    assert outcomes(both, position(players=6, to_move="green", green=[46, 48]), "5") == {
        (48, 53)}


def test_five_players_play_on_dog_6_without_black(both):
    # default seats for 5: red blue white green yellow
    pos = position(players=5, to_move="white", white=[30])
    new, events = applied(both, pos, move("5", 30, 35))
    assert new["to_move"] == "green"
    assert events == [mv(30, 35)]
    # as Agent DOG's answers: seats and cards_left name the seats only
    assert new.get("seats", SEATS[5]) == SEATS[5]
    assert sorted(new["cards_left"]) == sorted(SEATS[5])


# -- layouts and answers repeating game and layout ------------------------------------------

def test_layout_defaults_by_player_count(both):
    # contract: "for dog and dog-royal "dog-4" with 2-4 players, "dog-6" with 5 and 6"
    for players in (5, 6):
        assert outcomes(both, position(players=players, red=[90]), "5") == {(90, 95)}
    for players in (2, 3, 4):
        assert outcomes(both, position(players=players, red=[60]), "5") == {
            (60, 1), (60, "red:h1")}      # 61 62 63 0 h1: dog-4 has 64 spaces


def test_answers_repeat_game_and_layout(both):
    # contract: "Every position in an answer repeats the request's `game` and `layout`."
    for pos in (position(red=[10], layout="dog-4"), royal(red=rk(jester=10), layout="dog-4"),
                position(players=6, red=[10], layout="dog-6"),
                royal(players=5, red=rk(jester=10), layout="dog-6")):
        new, _ = applied(both, pos, move("5", 10, 15))
        assert new["game"] == pos["game"] and new["layout"] == pos["layout"], pos


def test_answers_without_a_requested_layout(both):
    # The request names no layout: the answer names the game and the default layout for the
    # number of players (docs/dog-rules.md: "every position in the answer names both")
    for players, default in ((4, "dog-4"), (6, "dog-6")):
        new, _ = applied(both, position(players=players, red=[10]), move("5", 10, 15))
        assert new["game"] == "dog"
        assert new["layout"] == default


def test_a_royal_answer_keeps_the_rank_order(both):
    # contract "Pieces": every answer keeps the order (index = rank)
    pos = royal(red=rk(king=20, citizen=30, jester=10), blue=rk(knight=15))
    new, events = applied(both, pos, move("5", 10, 15))
    assert new["pieces"]["red"] == [20, "start", 30, 15]
    assert new["pieces"]["blue"] == ["start"] * 4
    assert where(new, "green") == ["start"] * 4
    assert of_type(events, "move") == [mv(10, 15, rank="jester")]
