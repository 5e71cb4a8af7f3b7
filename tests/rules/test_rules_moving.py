# Scenario tests: moving, hopping, knocking out, the protected start space, entering, home.
# Every expectation is counted by hand from seed 000 (English part) and the protocol readings.
from rulebook import position, legal, single, applied, apply, of_type, where


def test_blue_card_moves_exactly_that_many_steps_clockwise(both):
    # 000 CARD DESCRIPTIONS: "move a piece forward by the exact number of spaces"
    pos = position(red=[10])
    for card, n in (("2", 2), ("3", 3), ("5", 5), ("8", 8), ("9", 9), ("10", 10), ("12", 12)):
        assert single(legal(both, pos, card)) == {(10, 10 + n)}


def test_track_wraps_from_63_to_0(both):
    # red's own start 0 lies on the way; 58 + 8 = 66 -> 2 (staying on the track), or home
    moves = single(legal(both, position(red=[58]), "8"))
    assert (58, 2) in moves


def test_hopping_counts_occupied_spaces(both):
    # HOPPING OVER: "You count spaces occupied by other pieces as normal"
    pos = position(red=[10], blue=[11, 13, 14])  # none on a hole
    assert single(legal(both, pos, "5")) == {(10, 15)}


def test_landing_on_a_piece_knocks_it_out(both):
    pos = position(red=[10], blue=[15, 16])
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert where(new, "blue") == sorted([16, "start", "start", "start"], key=str)
    assert of_type(events, "capture") == [{"type": "capture", "at": 15, "colour": "blue"}]
    assert not of_type(events, "out")


def test_piece_on_its_own_start_space_cannot_be_passed(both):
    # Pieces on their own Starting Spaces: cannot hop over it, cannot knock it out
    pos = position(red=[14], blue=[16])
    assert (14, 19) not in single(legal(both, pos, "5"))
    assert (14, 16) not in single(legal(both, pos, "2"))


def test_protection_applies_to_your_own_piece_too(both):
    # "These rules apply even when it's your own piece": red 0 blocks red 62
    pos = position(red=[0, 62])
    moves = single(legal(both, pos, "5"))
    assert moves == {(0, 5)}


def test_piece_on_another_colours_start_space_is_not_protected(both):
    # only the own-coloured start space protects: yellow on blue's start 16 can be knocked out
    pos = position(red=[14], yellow=[16])
    new, events = applied(both, pos, {"card": "2", "path": [[14, 16]]})
    assert of_type(events, "capture")[0]["colour"] == "yellow"


def test_start_cards_enter_a_piece_onto_the_own_start_space(both):
    # BRINGING NEW PIECES INTO PLAY: 1/11 and 13 move one piece from the start area
    pos = position(red=[20])
    assert ("red:start", 0) in single(legal(both, pos, "13"))
    assert ("red:start", 0) in single(legal(both, pos, "1/11"))
    assert ("red:start", 0) not in single(legal(both, pos, "12"))


def test_1_11_gives_one_or_eleven_steps(both):
    pos = position(red=[1, "h4", "h3", "h2"])
    assert single(legal(both, pos, "1/11")) == {(1, 2), (1, 12)}


def test_entering_knocks_out_another_colour_on_the_start_space(both):
    pos = position(red=[20], blue=[0])
    new, events = applied(both, pos, {"card": "13", "path": [["red:start", 0]]})
    assert of_type(events, "capture") == [{"type": "capture", "at": 0, "colour": "blue"}]
    assert not of_type(events, "out")
    assert sorted(new["pieces"]["red"], key=str)[0] == 0


def test_entering_onto_a_teammate_puts_the_mover_out(both):
    # reading: a teammate's piece there is knocked out and the mover is out
    pos = position(red=[20], green=[0])
    new, events = applied(both, pos, {"card": "13", "path": [["red:start", 0]]})
    assert of_type(events, "out") == [{"type": "out", "seat": "red", "reason": "own_capture"}]
    assert "red" in new["out"] and new["cards_left"]["red"] == 0


def test_entering_is_impossible_onto_your_own_piece(both):
    pos = position(red=[0])
    assert ("red:start", 0) not in single(legal(both, pos, "13"))
    ans = apply(both, pos, {"card": "13", "path": [["red:start", 0]]})
    assert ans["error"] == "illegal"


def test_no_enter_with_an_empty_start_area(both):
    pos = position(red=[0, 5, 9, 13])
    assert all(m["path"][0][0] != "red:start" for m in legal(both, pos, "13"))


def test_home_is_entered_through_the_own_start_space(both):
    # HOME SPACES + reading: reaching the own start space, the piece may go home or stay
    pos = position(red=[62])
    # 62 -> 63 -> 0 -> h1: three steps
    assert single(legal(both, pos, "3")) == {(62, 1), (62, "red:h1")}
    # six steps: 63, 0, h1, h2, h3, h4
    assert single(legal(both, pos, "6")) == {(62, 4), (62, "red:h4")}
    # seven would need a fifth home space
    assert single(legal(both, pos, "7")) == {(62, 5)}


def test_no_home_straight_from_the_start_space(both):
    # "you can't move directly from the starting space to a home space"
    pos = position(red=[0])
    assert single(legal(both, pos, "2")) == {(0, 2)}


def test_home_pieces_cannot_be_passed_or_knocked_out(both):
    pos = position(red=[61, "h2"])
    # 61 -> 62, 63, 0, h1, h2: would knock out h2; 6 steps would pass it: track only
    assert single(legal(both, pos, "5")) == {(61, 2)}
    assert single(legal(both, pos, "6")) == {(61, 3)}
    # 61 -> 62, 63, 0, h1 with four steps is fine (h1 is free); a 12 cannot fit in home
    assert (60, "red:h1") in single(legal(both, position(red=[60, "h2"]), "5"))


def test_moves_inside_home(both):
    pos = position(red=["h1", 30])
    assert ("red:h1", "red:h3") in single(legal(both, pos, "2"))
    assert ("red:h1", "red:h4") in single(legal(both, pos, "3"))
    blocked = position(red=["h1", "h2", 30])
    assert ("red:h1", "red:h3") not in single(legal(both, blocked, "2"))


def test_only_pieces_of_your_colour_or_undercover(both):
    # WHICH PIECES CAN I MOVE: not a visible teammate's or opponent's piece with a number card
    pos = position(red=[10], green=[30], blue=[50])
    assert single(legal(both, pos, "5")) == {(10, 15)}


def test_knocking_out_your_own_piece_puts_you_out(both):
    # KNOCK OUT WITH CAUTION
    pos = position(red=[10, 15])
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert {"type": "out", "seat": "red", "reason": "own_capture"} in events
    assert new["out"] == ["red"] and new["cards_left"]["red"] == 0
    assert new["to_move"] == "blue"


def test_knocking_out_own_piece_puts_you_out_with_3_players_too(both):
    pos = position(players=3, red=[10, 15])
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert new["out"] == ["red"]


def test_knocking_out_an_opponent_in_2_players_is_fine(both):
    pos = position(players=2, red=[10], green=[15])
    new, events = applied(both, pos, {"card": "5", "path": [[10, 15]]})
    assert new["out"] == [] and of_type(events, "capture")[0]["colour"] == "green"


def test_illegal_move_names_the_reason_and_changes_nothing(both):
    pos = position(red=[10])
    ans = apply(both, pos, {"card": "5", "path": [[10, 14]]})
    assert ans["ok"] is False and ans["error"] == "illegal"
    assert "exactly 5" in ans["reason"]
    ans = apply(both, pos, {"card": "5", "path": [[30, 35]]})
    assert ans["error"] == "illegal" and "no piece" in ans["reason"]
