# Scenario tests: the Partner 4 (seed 000 CARD DESCRIPTIONS, seed 004 and the protocol readings).
from rulebook import position, legal, paths, applied, apply, of_type


def test_partner_splits_four_steps_over_own_and_teammate_pieces(both):
    # four steps between red 9 and green 29 (no holes or meeting points reached): 4+0, 3+1,
    # ... 0+4; with all four, green 29 -> 30 -> 31 -> 32 (its start) may also turn into its home
    pos = position(red=[9], green=[29])
    got = paths(legal(both, pos, "partner"))
    expected = {((9, 13),), ((9, 12), (29, 30)), ((9, 11), (29, 31)), ((9, 10), (29, 32)),
                ((29, 33),), ((29, "green:h1"),)}
    # the generator may list a split in either order; compare the outcomes (from -> to per piece)
    assert {_outcome(p) for p in got} == {_outcome(p) for p in expected}


def _outcome(path):
    start = {}
    end = {}
    for a, b in path:
        piece = next((k for k, v in end.items() if v == a), a)
        start.setdefault(piece, a)
        end[piece] = b
    return frozenset((start[k], end[k]) for k in end)


def test_partner_may_not_move_visible_opponents(both):
    pos = position(red=[9], blue=[29])
    assert {_outcome(p) for p in paths(legal(both, pos, "partner"))} == {frozenset({(9, 13)})}


def test_partner_moves_undercover_pieces_even_with_own_piece_on_start(both):
    # seed 004: undercover pieces may still be moved with the 4 while your start is occupied
    pos = position(red=[0], blue=[20])
    outcomes = {_outcome(p) for p in paths(legal(both, pos, "partner"))}
    assert frozenset({(20, 24)}) in outcomes


def test_partner_burns_every_piece_stepped_onto(both):
    # seed 004: "Alle Figuren (auch eigene), die mit der 4 erreicht oder überholt werden, sind
    # verbrannt": red 9 -> 13 passes blue on 11
    pos = position(red=[9], blue=[11])
    new, events = applied(both, pos, {"card": "partner", "path": [[9, 13]]})
    assert of_type(events, "capture") == [{"type": "capture", "at": 11, "colour": "blue"}]
    assert new["pieces"]["blue"] == ["start"] * 4


def test_partner_burning_a_teammate_puts_the_mover_out(both):
    pos = position(red=[9], green=[11])
    new, events = applied(both, pos, {"card": "partner", "path": [[9, 13]]})
    assert {"type": "out", "seat": "red", "reason": "own_capture"} in events


def test_partner_cannot_pass_a_piece_on_its_own_start_space(both):
    pos = position(red=[14], blue=[16])
    assert apply(both, pos, {"card": "partner", "path": [[14, 18]]})["error"] == "illegal"
    for p in paths(legal(both, pos, "partner")):
        assert all(b != 17 and b != 18 for a, b in p if a == 14)


def test_partner_flips_and_meetings_wait_for_the_last_step(both):
    # 20 (hole) -> 21, 22, 23 (hole) and 6 -> 7 (hole)... no: red 5 -> 8 is a meeting only if
    # it ends there. Here the undercover blue 20 ends on hole 23 after passing normal spaces:
    # no flip at all; and red 6 -> 7 -> 8 -> 9 passes meeting point 8: no meeting.
    pos = position(red=[6], blue=[20], green=[2])
    new, events = applied(both, pos, {"card": "partner", "path": [[20, 23], [6, 7]]})
    assert of_type(events, "flip") == [{"type": "flip", "at": 7, "undercover": True}]
    new, events = applied(both, pos, {"card": "partner", "path": [[6, 10]]})
    assert of_type(events, "meeting") == []


def test_partner_meeting_fires_for_a_piece_ending_there(both):
    pos = position(red=[6], green=[2])
    new, events = applied(both, pos, {"card": "partner", "path": [[6, 8], [2, 4]]})
    # after all steps: red on 8 -> nearest behind is green, now undercover on hole 4
    assert of_type(events, "meeting") == [{"type": "meeting", "point": 8, "from": 4, "to": 7}]


def test_several_meetings_need_an_order_from_the_mover(both):
    # red 6 -> 8 and green 22 -> 24 both end on meeting points; blue 14 is behind 24
    pos = position(red=[6], green=[22], blue=[14])
    moves = [m for m in legal(both, pos, "partner")
             if _outcome(tuple(tuple(s) for s in m["path"])) == frozenset({(6, 8), (22, 24)})]
    assert sorted(m["meet"] for m in moves) == [[8, 24], [24, 8]]
    ans = apply(both, pos, {"card": "partner", "path": [[6, 8], [22, 24]]})
    assert ans["error"] == "illegal" and "meet" in ans["reason"]
    for order in ([8, 24], [24, 8]):
        new, events = applied(both, pos, {"card": "partner", "path": [[6, 8], [22, 24]],
                                          "meet": order})
        assert [e["point"] for e in of_type(events, "meeting")] == order


def test_partner_visible_piece_enters_only_its_own_home(both):
    # red moves green's piece 30 -> 31 -> 32 (green start) -> green:h1 -> green:h2
    pos = position(red=[50], green=[30])
    new, events = applied(both, pos, {"card": "partner", "path": [[30, "green:h2"]]})
    assert "h2" in new["pieces"]["green"]
    pos = position(red=[62], green=[30])
    assert apply(both, pos, {"card": "partner", "path": [[30, "red:h2"]]})["error"] == "illegal"


def test_partner_undercover_piece_enters_the_movers_home_and_is_revealed():
    # In agent-dog-4 every hole lies exactly four steps before a start space, so this cannot
    # happen there; a layout with a hole on 62 (data only) shows the rule: blue undercover on
    # 62 -> 63 -> 0 -> red:h1 -> red:h2 with red moving, then revealed: to blue's deepest home.
    import json
    from shared_rules import cards as cards_mod, position as position_mod, notation
    from shared_rules.agentdog import AgentDog
    from shared_rules.apply import apply as apply_move
    from shared_rules.layout import Layout
    from shared_rules import _data
    spec = _data.load("agent-dog-4.json")
    spec["holes"] = spec["holes"] + [62]
    game = AgentDog(Layout(spec), cards_mod.load())
    st = position_mod.parse(position(red=[30], blue=[62]), game)
    mv = notation.from_json(st, {"card": "partner", "path": [[62, "red:h2"]]})
    new, events = apply_move(st, mv)
    assert of_type(events, "reveal") == [{"type": "reveal", "at": "red:h2", "colour": "blue",
                                          "outcome": "to_home", "to": "blue:h4"}]
    assert of_type(events, "flip") == []
    # and a visible piece on that layout still goes only to its own colour's home
    st = position_mod.parse(position(red=[30], green=[61]), game)
    try:
        notation.from_json(st, {"card": "partner", "path": [[61, "red:h1"]]})
        raise AssertionError("a green piece entered red's home")
    except position_mod.BadInput as e:
        assert e.kind in ("illegal", "bad_request")
    json.dumps(events)


def test_partner_begins_on_start_space_means_before_the_card(both):
    # red 63 -> 0 -> h1 -> h2 -> h3: it did not begin on its start space, so home is open
    pos = position(red=[63])
    assert frozenset({(63, "red:h3")}) in {_outcome(p) for p in paths(legal(both, pos, "partner"))}
    # red on 0 cannot step into home even after other pieces used some steps
    pos = position(red=[0, 50])
    for p in paths(legal(both, pos, "partner")):
        assert all(b not in ("red:h1", "red:h2", "red:h3", "red:h4") for a, b in p)


def test_partner_piece_moved_onto_its_own_start_space_blocks_later_steps(both):
    # green 31 -> 32 (its own start) first; then red 29 cannot pass 32
    pos = position(red=[29], green=[31])
    assert apply(both, pos, {"card": "partner",
                             "path": [[31, 32], [29, 32]]})["error"] == "illegal"
    # the other order is legal: red 29 -> 30 -> 31 burns green, -> 32 (green's start, free)
    new, events = applied(both, pos, {"card": "partner", "path": [[29, 33]]})
    assert of_type(events, "capture")[0]["colour"] == "green"


def test_partner_opponents_once_own_or_teammate_pieces_are_home(both):
    pos = position(red=["h1", "h2", "h3", "h4"], green=[40], blue=[29])
    outcomes = {_outcome(p) for p in paths(legal(both, pos, "partner"))}
    assert frozenset({(29, 33)}) in outcomes
    pos = position(red=[9], green=["h1", "h2", "h3", "h4"], blue=[29])
    outcomes = {_outcome(p) for p in paths(legal(both, pos, "partner"))}
    assert frozenset({(29, 33)}) in outcomes


def test_partner_moves_any_colour_with_2_or_3_players(both):
    pos = position(players=3, red=[9], blue=[29])
    outcomes = {_outcome(p) for p in paths(legal(both, pos, "partner"))}
    assert frozenset({(29, 33)}) in outcomes


def test_partner_must_use_all_four_steps(both):
    pos = position(red=[9])
    ans = apply(both, pos, {"card": "partner", "path": [[9, 12]]})
    assert ans["error"] == "illegal" and "4" in ans["reason"]


def test_partner_unplayable_when_four_steps_cannot_be_made(both):
    # only red h1 with h4 free: h1 -> h2 -> h3 -> h4 is three steps; nothing else can move
    pos = position(red=["h1"], green=["h1", "h2", "h3", "h4"])
    assert legal(both, pos, "partner") == []
