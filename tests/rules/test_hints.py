# `hints`: what the board may light (protocol: hints depend on public information only).
from rulebook import position


def hints(both, pos, card):
    ans = both.ask({"op": "hints", "position": pos, "card": card})
    assert ans["ok"], ans
    key = lambda v: (type(v) is str, v)  # noqa: E731  numbers first, in order
    return sorted(ans["movable"], key=key), {k: sorted(v, key=key)
                                             for k, v in ans["targets"].items()}


def test_number_card_hints(both):
    movable, targets = hints(both, position(red=[62, 20], blue=[44]), "3")
    # red 62 -> 1 or red:h1; red 20 is undercover (hole) -> 23; blue 44 undercover -> 47
    assert movable == [20, 44, 62]
    assert targets == {"62": [1, "red:h1"], "20": [23], "44": [47]}


def test_start_card_hints_light_the_start_area(both):
    movable, targets = hints(both, position(red=[30]), "13")
    assert "red:start" in movable and targets["red:start"] == [0]


def test_swap_hints_every_undercover_piece_and_the_others_as_targets(both):
    movable, targets = hints(both, position(red=[4], blue=[20], green=[44]), "swap")
    assert movable == [4, 20, 44]
    assert targets == {"4": [20, 44], "20": [4, 44], "44": [4, 20]}


def test_partner_targets_are_final_spaces_and_burned_pieces_add_none(both):
    # red 11 and red 9 share 4 steps: 11 ends on 15, 14 or 13; 11 -> 12 happens only when
    # 9 then steps onto 12 and burns it, so 12 is no target of 11
    movable, targets = hints(both, position(red=[9, 11]), "partner")
    assert movable == [9, 11]
    assert targets["11"] == [13, 14, 15]
    assert targets["9"] == [10, 11, 12, 13]


def test_no_hints_for_an_unplayable_card(both):
    assert hints(both, position(red=[30], last_card=None), "copy") == ([], {})
    assert hints(both, position(red=[30]), "swap") == ([], {})


# -- the referee's Partner 4 lights: where the next segment may end ---------------------------
# The board follows a Partner 4 segment by segment (a piece lifted and put down); its LEDs show,
# for a lifted piece, where it may be put down with the steps left so that the card can still
# be finished. Expected sets come from a brute-force walk over every sequence of single steps
# (no order reduction): a placement is right when some complete sequence begins with that
# piece walking there.
from shared_rules import layout as _layout, position as _position, split
from shared_rules.segments import segment_hints

LAY = _layout.load()


def _brute_segment_ends(st, sp, left):
    want = {}

    # a run ends at the first step of another piece: later steps of `first` are new segments
    def walk_runs(work, steps, first, run, open_run):
        if steps == 0:
            want.setdefault(st.pos[first], set()).update(run)
            return
        for p in sp.movable:
            for o in (0, 1):
                d = split.dest(work, sp, p, o)
                if d < 0:
                    continue
                nxt = work.copy()
                split.step(nxt, p, d)
                if first < 0:
                    walk_runs(nxt, steps - 1, p, [d], True)
                elif open_run and p == first:
                    walk_runs(nxt, steps - 1, first, run + [d], True)
                else:
                    walk_runs(nxt, steps - 1, first, run, False)

    walk_runs(st, left, -1, [], True)
    return want


def _segments(obj, left=4):
    st = _position.parse(obj)
    sp = split.Split(st, st.plays(st.to_move))
    before = (bytes(st.pos), bytes(st.board))
    movable, targets = segment_hints(st, sp, left)
    assert (bytes(st.pos), bytes(st.board)) == before  # every step taken back
    got = {f: set(t) for f, t in targets.items()}
    assert sorted(movable) == sorted(got)
    return st, sp, got


def test_partner_segment_lights_are_the_placements_some_complete_move_begins_with():
    cases = [position(red=[9, 11], green=[10, 13], blue=[12, 20]),
             position(players=3, red=[17, 18, 19, 20], blue=[21, 22], green=[62, 63]),
             position(red=[62, 63, 0, "h2"], green=[29, 31], blue=[30, 60]),
             position(red=[30, 61], green=[31]),
             position(players=2, red=[60, 63], green=[0, 4])]
    for obj in cases:
        st, sp, got = _segments(obj)
        assert got == _brute_segment_ends(st, sp, 4), obj


def test_partner_segment_lights_in_the_middle_of_the_card():
    # red walked 9 -> 11 (2 steps, burning nobody on 10? green stands there: burned); what is
    # left is 2 steps, from the position the players made
    st = _position.parse(position(red=[9, 14], green=[10, 13], blue=[12, 20]))
    sp = split.Split(st, st.plays(st.to_move))
    work = st.copy()
    p = st.at(9)
    for _ in range(2):
        split.step(work, p, split.dest(work, sp, p, 0))
    movable, targets = segment_hints(work, sp, 2)
    got = {f: set(t) for f, t in targets.items()}
    assert got == _brute_segment_ends(work, sp, 2)
    # counted by hand: red 11 may go 1 or 2 (to 12 burning the undercover blue there, 13
    # burning green); red 14 may go to 15 or 16; green 13 is red's teammate: 14 is red (burn
    # is allowed), so 14 and 15
    assert got[11] == {12, 13} and got[14] == {15, 16} and got[13] == {14, 15}


def test_partner_segment_lights_turn_into_home_where_the_piece_passes_its_start_space():
    # red on 62 with 4 steps: along the track 63, 0, 1, 2, or through the start space 0 into
    # home: h1 after 3 steps, h2 after 4 (counted along the board)
    st, sp, got = _segments(position(red=[62]))
    h1 = LAY.home(0, 0)
    assert got[62] == {63, 0, 1, 2, h1, h1 + 1}


def test_partner_segment_lights_leave_out_placements_after_which_the_card_cannot_be_finished():
    # blue on its start space 16 and yellow on 48 block. Red 13 has room for 2 steps (14, 15),
    # green 14 for 1, red 46 for 1: the 4 steps need all three, green before red 13 burns it.
    # Red 13 put down first on 14 or 15 burns green and leaves 3 or 2 steps with room for 2 or
    # 1: no light on red 13. Green 14 -> 15 and red 46 -> 47 each leave a finishable card.
    st, sp, got = _segments(position(red=[13, 46], green=[14], blue=[16], yellow=[48]))
    assert got == {14: {15}, 46: {47}}
    assert got == _brute_segment_ends(st, sp, 4)
