# The judge (firmware/judge.py) on sensed arrays, without a simulated board: which legal move a
# board that sensors read (a class per sensor, touched or not, a rank band) shows, move by move
# as hands make it. The verdicts are counted from the rules and the judge's contract: a move is
# done when the board is the complete result of exactly one legal outcome and no other could
# still grow out of it; a capture's or swap's square counts once touched, and a complete move
# with an untouched one waits for the confirm button; a square no legal move explains is named
# to be put right. Plain asserts, no pytest: tests/mp/judge_tests.py runs these same scenarios
# on the MicroPython unix port (a case each in test_on_micropython.py).
from dogbook import royal, rk
from judgebook import Scene
from rulebook import position

# DOG Royal's ranks as the sensors read them (a colour's pieces in rank order)
KING, KNIGHT, CITIZEN, JESTER = 0, 1, 2, 3
DOWN = 2  # firmware.hal.scanner's class of an undercover piece (on a hole)


def test_a_slide_is_done_only_once_the_piece_stands_where_the_card_takes_it():
    s = Scene(position(red=[0], blue=[16]), "5")
    assert s.verdict() == "wait" and s.move() is None  # the card played, nothing moved yet
    s.lift("0")
    assert s.verdict() == "wait"  # a piece in the hand may still go anywhere
    s.put("5")
    assert s.verdict() == "done"
    assert s.move() == {"card": "5", "path": [[0, 5]]}


def test_a_piece_resting_on_a_space_its_move_passes_is_under_way_not_refused():
    s = Scene(position(red=[0], blue=[16]), "5").lift("0").put("3")
    # no 5 ends on 3: on its own the board is wrong, but a hand carrying the piece on rests
    # there, so the referee waits (passing) before it names the squares
    assert s.verdict() == "illegal" and s.bad() == ["0", "3"]
    assert s.passing()
    s.lift("3").put("5")
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[0, 5]]}


def test_a_piece_put_past_its_count_is_refused_and_not_under_way():
    s = Scene(position(red=[0], blue=[16]), "5").lift("0").put("7")
    assert s.verdict() == "illegal" and s.bad() == ["0", "7"]
    assert not s.passing()  # 7 lies beyond the 5's way


def test_a_short_move_that_a_longer_one_passes_rests_until_confirmed_or_carried_on():
    # the 1/11: 1 step or 11; a piece on 1 is the 1 done, or the 11 under way
    s = Scene(position(red=[0], blue=[16]), "1/11").lift("0").put("1")
    assert s.verdict() == "resting"
    assert s.move() == {"card": "1/11", "path": [[0, 1]]}
    s.lift("1").put("11")
    assert s.verdict() == "done" and s.move() == {"card": "1/11", "path": [[0, 11]]}


def test_entering_takes_a_piece_from_the_start_area_to_the_start_space():
    s = Scene(position(red=[10], blue=[16]), "13").lift("red:s1")
    assert s.verdict() == "wait"
    s.put("0")
    assert s.verdict() == "done"
    assert s.move() == {"card": "13", "path": [["red:start", 0]]}


def test_a_knock_out_is_done_with_the_victim_lifted_in_the_hand_or_back_in_its_start_area():
    s = Scene(position(red=[0], blue=[5]), "5").lift("0").lift("5")
    assert s.verdict() == "wait"  # both in the hands: nothing stands on 5 yet
    s.put("5")
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[0, 5]]}
    s.put("blue:s4")  # the knocked-out piece goes back to its start area
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[0, 5]]}


def test_a_knock_out_whose_square_nobody_touched_waits_for_the_confirm():
    # the mover held over its victim: the board reads as the knock-out, but 5 never changed
    s = Scene(position(red=[0], blue=[5]), "5").lift("0")
    assert s.verdict() == "ambiguous"
    assert s.move() == {"card": "5", "path": [[0, 5]]}


def test_a_swap_of_undercover_pieces_is_done_once_both_holes_were_touched():
    s = Scene(position(red=[4], blue=[20], green=[36]), "swap")  # three undercover pieces
    s.lift("4").put("4", cls=DOWN)
    assert s.verdict() == "wait"  # with 20 or with 36: the board cannot tell yet
    s.lift("20").put("20", cls=DOWN)
    assert s.verdict() == "done"
    assert s.move() == {"card": "swap", "swap": [4, 20]}


def test_the_only_swap_with_one_hole_touched_waits_for_the_confirm():
    # the sensors see no colours: a swap changes no occupancy, so only touches tell it
    s = Scene(position(red=[4], blue=[20]), "swap").lift("4").put("4", cls=DOWN)
    assert s.verdict() == "ambiguous"
    assert s.move() == {"card": "swap", "swap": [4, 20]}


def test_a_dog_swap_of_an_own_piece_with_another_colours_is_done_once_both_were_touched():
    s = Scene(royal(red=rk(king=3), blue=rk(king=20)), "swap")
    s.lift("3").lift("20")
    assert s.verdict() == "wait"
    s.put("3", rank=KING).put("20", rank=KING)
    assert s.verdict() == "done"
    assert s.move() == {"card": "swap", "swap": [3, 20]}


def test_a_bumped_piece_is_named_and_put_back_it_counts_for_nothing():
    s = Scene(position(red=[0], blue=[30]), "5").lift("30")
    assert s.verdict() == "illegal" and s.bad() == ["30"]
    assert not s.passing()
    s.put("30")
    assert s.verdict() == "wait" and s.bad() == []
    s.lift("0").put("5")
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[0, 5]]}


def test_two_pieces_lifted_that_no_one_move_takes_are_both_named():
    s = Scene(position(red=[0, 10], blue=[30]), "5").lift("0").lift("10")
    assert s.verdict() == "illegal" and s.bad() == ["0", "10"]


def test_a_piece_lifted_and_put_back_decides_nothing():
    s = Scene(position(red=[0, 10], blue=[30]), "5").lift("0").put("0")
    assert s.verdict() == "wait" and s.move() is None and s.bad() == []
    s.lift("10").put("15")
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[10, 15]]}


def test_the_partner_4_is_followed_segment_by_segment():
    s = Scene(position(red=[0, 10], blue=[30]), "partner").lift("0").put("2")
    assert s.verdict() == "wait" and s.judge.left() == 2  # two of the four steps used
    s.touched[:] = bytes(len(s.touched))  # the referee clears touched as a segment is taken
    s.lift("10").put("12")
    assert s.verdict() == "done" and s.judge.left() == 0
    assert s.move() == {"card": "partner", "path": [[0, 2], [10, 12]]}


def test_a_citizen_on_a_special_space_may_still_jump_so_the_confirm_decides():
    s = Scene(royal(red=rk(citizen=3)), "5").lift("3").put("8", rank=CITIZEN)
    assert s.verdict() == "ambiguous"  # it drew there; it may jump to the next free one
    assert s.move() == {"card": "5", "path": [[3, 8]]}
    s.lift("8").put("24", rank=CITIZEN)
    assert s.verdict() == "done"
    assert s.move() == {"card": "5", "path": [[3, 8]], "jump": 24}


def test_a_piece_of_another_rank_where_the_move_puts_one_is_named_with_the_rank_wanted():
    s = Scene(royal(red=rk(king=3)), "5").lift("3").put("8", rank=JESTER)
    assert s.verdict() == "wrong_rank" and s.bad() == ["8"]
    assert list(s.judge.rank_want) == [KING]
    s.lift("8").put("8", rank=KING)
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[3, 8]]}


def test_a_piece_entering_is_a_rank_its_start_area_no_longer_reads():
    # a hand holding the king still a few mm over the start space reads as a smaller rank
    # there (firmware/hal/scanner.py): the knight's entry explains the board, but the knight
    # still stands in red's area, so the judge rests (the referee waits) and takes the king's
    # entry once the king reads on 0 (before: the knight's, at once)
    s = Scene(royal(red=rk(), blue=rk(king=16)), "13").lift("red:s1").put("0", rank=KNIGHT)
    assert s.verdict() == "resting"
    s.bands[s.at("0")] = KING  # let down: its rank rises
    assert s.verdict() == "done"
    assert s.move() == {"card": "13", "path": [["red:start", 0]], "rank": "king"}
    # the knight lifted from the area, its entry is done at once
    s = Scene(royal(red=rk(), blue=rk(king=16)), "13").lift("red:s2").put("0", rank=KNIGHT)
    assert s.verdict() == "done"
    assert s.move() == {"card": "13", "path": [["red:start", 0]], "rank": "knight"}


def test_a_piece_resting_on_a_home_space_its_move_passes_is_under_way():
    # the 5 from 62 goes home to red:h3 (63, 0: its own start space, then h1, h2, h3): a hand
    # carrying it there rests on h1 and h2. h4 lies beyond its count and blue's home off its
    # way: refused at once. (With a change counted after 2 scans a slide is seen on each space
    # it passes; before the home counted, a slide into it was refused on h1.)
    for rest, under_way in (("red:h1", True), ("red:h2", True), ("red:h4", False),
                            ("blue:h1", False)):
        s = Scene(position(red=[62], blue=[16]), "5").lift("62").put(rest)
        assert s.verdict() == "illegal", rest
        assert s.passing() == under_way, rest
    s = Scene(position(red=[62], blue=[16]), "5").lift("62").put("red:h1")
    s.lift("red:h1").put("red:h3")
    assert s.verdict() == "done" and s.move() == {"card": "5", "path": [[62, "red:h3"]]}


def test_a_piece_nobody_lifted_is_no_move_under_way():
    # a piece put on a space a move passes, with no piece lifted (a spare piece, or one from a
    # start area, whose spots the judge does not count): nothing is under way, it is refused
    for at in ("63", "0", "red:h1"):
        s = Scene(position(red=[62], blue=[16]), "5").put(at)
        assert s.verdict() == "illegal" and s.bad() == [at], at
        assert not s.passing(), at
