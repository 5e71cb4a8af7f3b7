# Scenario tests: turn order, Zugzwang and passing, round end, finished players, winning.
from rulebook import position, legal, single, applied, apply, of_type


def test_turn_passes_clockwise(both):
    new, _ = applied(both, position(red=[10]), {"card": "5", "path": [[10, 15]]})
    assert new["to_move"] == "blue" and new["cards_left"]["red"] == 4
    assert new["last_card"] == "5"


def test_seats_that_are_out_or_without_cards_are_skipped(both):
    pos = position(red=[10], out=["blue"], cards_left={"blue": 0, "green": 0, "yellow": 3})
    new, _ = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert new["to_move"] == "yellow"


def test_last_seat_with_cards_keeps_playing(both):
    pos = position(red=[10], cards_left={"red": 2, "blue": 0, "green": 0, "yellow": 0})
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert new["to_move"] == "red" and not of_type(events, "round_end")


def test_round_ends_when_nobody_holds_cards(both):
    # 3. End of a round: the stack passes clockwise; 5 new cards; the dealer starts
    pos = position(red=[10], dealer="red", out=["green"], last_card="7",
                   cards_left={"red": 1, "blue": 0, "green": 0, "yellow": 0})
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert events[-1] == {"type": "round_end", "dealer": "blue"}
    assert new["dealer"] == "blue" and new["to_move"] == "blue"
    assert new["cards_left"] == {"red": 5, "blue": 5, "green": 5, "yellow": 5}
    assert new["out"] == [] and new["last_card"] is None


def test_pass_with_4_players_puts_the_seat_out(both):
    # REQUIREMENT TO TAKE YOUR TURN: no card can be completed -> out of the round
    pos = position(red=[10], last_card="9")
    new, events = applied(both, pos, {"pass": True})
    assert events[0] == {"type": "out", "seat": "red", "reason": "pass"}
    assert new["out"] == ["red"] and new["cards_left"]["red"] == 0
    assert new["last_card"] == "9" and new["to_move"] == "blue"


def test_pass_with_2_or_3_players_discards_one_card(both):
    # PLAYING WITH 2 OR 3 PLAYERS: discard one card without moving; not out of the round
    pos = position(players=3, red=[10])
    new, events = applied(both, pos, {"pass": True})
    assert new["out"] == [] and new["cards_left"]["red"] == 4 and events == []


def test_legal_never_lists_pass(both):
    assert legal(both, position(red=["h1", "h2", "h3", "h4"], green=["h4"]), "12") == []


def test_finished_player_moves_the_teammates_pieces(both):
    # WHICH PIECES: with all own pieces home you move your teammate's pieces
    pos = position(red=["h1", "h2", "h3", "h4"], green=[40, "h4"])
    assert single(legal(both, pos, "5")) == {(40, 45)}
    # and start cards bring the teammate's pieces in on the teammate's start space
    assert ("green:start", 32) in single(legal(both, pos, "13"))


def test_finished_player_uses_the_teammates_start_space_restriction(both):
    pos = position(red=["h1", "h2", "h3", "h4"], green=[32], blue=[20])
    assert (20, 23) not in single(legal(both, pos, "3"))
    pos = position(red=["h1", "h2", "h3", "h4"], green=[40], blue=[20])
    assert (20, 23) in single(legal(both, pos, "3"))


def test_team_wins_with_all_eight_pieces_home(both):
    pos = position(red=["h2", "h3", "h4", 62], green=["h1", "h2", "h3", "h4"])
    new, events = applied(both, pos, {"card": "3", "path": [[62, "red:h1"]]})
    assert events[-1] == {"type": "win", "seats": ["red", "green"]}


def test_one_team_member_home_is_not_a_win(both):
    pos = position(red=["h2", "h3", "h4", 62], green=[40])
    new, events = applied(both, pos, {"card": "3", "path": [[62, "red:h1"]]})
    assert not of_type(events, "win")


def test_single_player_wins_with_2_or_3_players(both):
    pos = position(players=3, red=["h2", "h3", "h4", 62])
    new, events = applied(both, pos, {"card": "3", "path": [[62, "red:h1"]]})
    assert events[-1] == {"type": "win", "seats": ["red"]}


def test_requests_on_a_won_game_answer_game_over(both):
    won = position(red=["h1", "h2", "h3", "h4"], green=["h1", "h2", "h3", "h4"], to_move="blue",
                   blue=[20])
    for req in ({"op": "legal", "card": "5"}, {"op": "hints", "card": "5"},
                {"op": "apply", "move": {"card": "5", "path": [[20, 25]]}}):
        req["position"] = won
        ans = both.ask(req)
        assert ans["ok"] is False and ans["error"] == "game_over"


def test_a_reveal_can_complete_the_other_team(both):
    # red moves an undercover blue piece into red's home; revealed, it goes to blue's last
    # free home space and completes blue + yellow
    pos = position(red=[30], blue=["h1", "h2", "h3", 60], yellow=["h1", "h2", "h3", "h4"])
    new, events = applied(both, pos, {"card": "6", "path": [[60, "red:h2"]]})
    assert events[-1] == {"type": "win", "seats": ["blue", "yellow"]}


def test_an_undercover_piece_of_your_own_colour_can_finish_your_team(both):
    # red's last piece is the undercover one on 60: revealed in red's home it stays (5 steps:
    # 61, 62, 63, 0, h1) and red + green are complete
    pos = position(red=["h2", "h3", "h4", 60], green=["h1", "h2", "h3", "h4"],
                   blue=["h1", "h2", "h3", 30])
    new, events = applied(both, pos, {"card": "5", "path": [[60, "red:h1"]]})
    assert of_type(events, "reveal")[0]["outcome"] == "stays"
    assert events[-1] == {"type": "win", "seats": ["red", "green"]}
