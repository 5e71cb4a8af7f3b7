# Scenario tests: holes and undercover pieces, reveals in home, swap, copy, meeting points.
# Holes (protocol board): 4 7 12 20 23 28 36 39 44 52 55 60; meeting points 8 24 40 56.
from rulebook import position, legal, single, paths, applied, apply, of_type, where


def test_landing_on_a_hole_turns_the_piece_undercover(both):
    new, events = applied(both, position(red=[10]), {"card": "2", "path": [[10, 12]]})
    assert of_type(events, "flip") == [{"type": "flip", "at": 12, "undercover": True}]


def test_leaving_a_hole_for_a_normal_space_turns_it_upright(both):
    new, events = applied(both, position(red=[12]), {"card": "3", "path": [[12, 15]]})
    assert of_type(events, "flip") == [{"type": "flip", "at": 15, "undercover": False}]


def test_hole_to_hole_stays_undercover_with_no_flip(both):
    # UNDERCOVER PIECES: passing normal spaces but landing on a hole: not revealed
    new, events = applied(both, position(red=[12]), {"card": "8", "path": [[12, 20]]})
    assert of_type(events, "flip") == []


def test_anyone_may_move_an_undercover_piece(both):
    pos = position(red=[30], blue=[20])  # blue on hole 20 is undercover
    assert single(legal(both, pos, "3")) == {(30, 33), (20, 23)}


def test_no_undercover_moves_while_own_piece_on_own_start_space(both):
    pos = position(red=[0], blue=[20])
    assert single(legal(both, pos, "3")) == {(0, 3)}
    # reading: the restriction holds for 1/11 and 13 too
    assert (20, 33) not in single(legal(both, pos, "13"))
    assert (20, 21) not in single(legal(both, pos, "1/11"))


def test_restriction_is_about_your_own_start_space_only(both):
    # a blue piece on blue's start does not stop red from moving undercover pieces
    pos = position(red=[30], blue=[16, 20])
    assert (20, 23) in single(legal(both, pos, "3"))


def test_undercover_piece_goes_only_into_the_movers_home(both):
    # seed 004: "Du darfst untergetauchte Figuren nur auf deine eigenen Zielfelder ziehen"
    pos = position(red=[30], blue=[60])  # blue undercover on 60, red to move
    # 60 -> 61, 62, 63, 0 (red start), h1, h2: six steps into red's home
    assert (60, "red:h2") in single(legal(both, pos, "6"))
    # the same blue piece near blue's start cannot go into blue's home with red moving
    pos = position(red=[30], blue=[12])
    assert single(legal(both, pos, "6")) == {(30, 36), (12, 18)}


def _reveal(both, colour, **extra):
    pos = position(red=[30], **{colour: [60] + extra.pop(colour, [])}, **extra)
    new, events = applied(both, pos, {"card": "6", "path": [[60, "red:h2"]]})
    return new, of_type(events, "reveal")


def test_reveal_own_colour_stays(both):
    pos = position(red=[30, 60])
    new, events = applied(both, pos, {"card": "6", "path": [[60, "red:h2"]]})
    assert of_type(events, "reveal") == [{"type": "reveal", "at": "red:h2", "colour": "red",
                                          "outcome": "stays", "to": "red:h2"}]
    assert "h2" in new["pieces"]["red"]


def test_reveal_teammate_goes_back_to_its_start_area_and_is_no_knock_out(both):
    new, rev = _reveal(both, "green")
    assert rev == [{"type": "reveal", "at": "red:h2", "colour": "green", "outcome": "to_start",
                    "to": "green:start"}]
    assert new["pieces"]["green"] == ["start"] * 4 and new["out"] == []


def test_reveal_opponent_goes_to_its_deepest_free_home_space(both):
    new, rev = _reveal(both, "blue", blue=["h4", "h2"])
    assert rev[0]["outcome"] == "to_home" and rev[0]["to"] == "blue:h3"
    assert sorted(new["pieces"]["blue"]) == ["h2", "h3", "h4", "start"]


def test_swap_exchanges_two_undercover_pieces(both):
    pos = position(red=[30], blue=[20], green=[44])
    moves = legal(both, pos, "swap")
    assert paths(moves) == {("swap", 20, 44)}
    new, events = applied(both, pos, {"card": "swap", "swap": [20, 44]})
    assert new["pieces"]["blue"][0] == 44 and new["pieces"]["green"][0] == 20
    assert events == [{"type": "swap", "at": [20, 44]}]


def test_swap_needs_two_undercover_pieces(both):
    assert legal(both, position(red=[30], blue=[20]), "swap") == []
    ans = apply(both, position(red=[30], blue=[20]), {"card": "swap", "swap": [20, 30]})
    assert ans["error"] == "illegal"


def test_swap_is_allowed_with_own_piece_on_start_space(both):
    # BESETZTES STARTFELD: undercover pieces may still be moved by a swap
    pos = position(red=[0], blue=[20], green=[44])
    assert len(legal(both, pos, "swap")) == 1


def test_swap_lists_every_pair(both):
    pos = position(red=[4], blue=[20], green=[44])
    assert paths(legal(both, pos, "swap")) == {("swap", 4, 20), ("swap", 4, 44), ("swap", 20, 44)}


def test_copy_plays_the_last_card(both):
    pos = position(red=[10], last_card="5")
    moves = legal(both, pos, "copy")
    assert moves == [{"card": "copy", "path": [[10, 15]]}]
    new, _ = applied(both, pos, moves[0])
    assert new["last_card"] == "5"  # a copy of a copy copies the same card


def test_copy_of_a_start_card_may_enter(both):
    pos = position(red=[10], last_card="1/11")
    assert single(legal(both, pos, "copy")) == {(10, 11), (10, 21), ("red:start", 0)}


def test_copy_cannot_open_a_round(both):
    pos = position(red=[10], last_card=None)
    assert legal(both, pos, "copy") == []
    ans = apply(both, pos, {"card": "copy", "path": [[10, 15]]})
    assert ans["error"] == "illegal"


def test_meeting_pulls_the_nearest_piece_behind_to_the_hole_behind(both):
    # SPY MEETING POINTS: red lands on 8; the nearest piece behind is blue on 2 -> hole 7
    pos = position(red=[5], blue=[2], green=[60])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting") == [{"type": "meeting", "point": 8, "from": 2, "to": 7}]
    assert of_type(events, "flip") == [{"type": "flip", "at": 7, "undercover": True}]
    assert new["pieces"]["blue"][0] == 7


def test_meeting_searches_back_around_the_track(both):
    # the rulebook example: a red piece about to enter its home is pulled past it
    pos = position(red=[62, 5], blue=[17])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting") == [{"type": "meeting", "point": 8, "from": 62, "to": 7}]


def test_meeting_can_pull_a_piece_off_its_own_start_space(both):
    pos = position(red=[0, 5], blue=[16])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting")[0]["from"] == 0


def test_meeting_pulls_undercover_pieces_without_a_flip(both):
    pos = position(red=[5], blue=[60])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting")[0]["from"] == 60
    assert of_type(events, "flip") == []


def test_meeting_with_nobody_behind_does_nothing(both):
    pos = position(red=[5, "h1"], blue=["h1"])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting") == []


def test_meeting_with_the_hole_already_taken_moves_nothing(both):
    pos = position(red=[5], blue=[7, 2])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert of_type(events, "meeting") == [{"type": "meeting", "point": 8, "from": 7, "to": 7}]
    assert sorted(new["pieces"]["blue"], key=str)[:2] == [2, 7]


def test_passing_a_meeting_point_does_nothing(both):
    pos = position(red=[5], blue=[2])
    new, events = applied(both, pos, {"card": "5", "path": [[5, 10]]})
    assert of_type(events, "meeting") == []


def test_meeting_after_a_knock_out_on_the_meeting_point(both):
    pos = position(red=[5], blue=[8, 1])
    new, events = applied(both, pos, {"card": "3", "path": [[5, 8]]})
    assert [e["type"] for e in events] == ["move", "capture", "meeting", "flip", "turn"][:4]
    assert of_type(events, "meeting")[0]["from"] == 1
    assert where(new, "blue") == sorted([7, "start", "start", "start"], key=str)
