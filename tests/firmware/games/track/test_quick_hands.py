# Quick hands: every kind of move carried out at about 100 ms of board time per action (a
# piece lifted and slid on at once, then 100 ms waits), on the simulated boards with the real
# firmware, as an outside check played 4-player DOG on dog-4 and had green's 6 slid from 32
# over 33..38 refused with a `reject` naming 32.
#
# The board's timing (firmware/loop.py, firmware/hal/scanner.py): 50 scans a second (SCAN_MS 20);
# a sensor's new class counts once it held for 2 scans in a row, 20 to 40 ms after the change;
# the referee judges the board in that scan when no other sensor is part way to a change, else
# after one still scan more (20 ms); the card reader is polled on every other scan (40 ms). The
# simulator's slide rests about 50 ms on each location it passes
# (host_tools/sim/data/physics.json): 2 or 3 scans, so each is seen, taken then empty, and the
# referee waits on a space the move passes (TRANSIT_MS). What the outside check's hand did to
# be refused (when a change counted after 4 scans) was a rest of 80 ms or more on a space it
# passed (a slide paused, or a piece carried space by space): that space was seen taken, then
# empty again, as every space of a slide now is. Such a space must not rule out the move
# being made (it did: once the piece left it, the board showed a lifted piece and a refusal
# naming only where it came from), nor take a citizen's jump away.
import pytest

from host_tools.games.track.players import Table, find
from shared_rules import movegen, notation
from shared_rules.apply import apply as rules_apply
from shared_rules.move import legal_moves

pytestmark = pytest.mark.micropython

QUICK_MS = 100      # board time per action of the quick hand
SLIDE_MS = 50       # the simulator's rest on each location of a slide (physics.json)
JUDGED_MS = 100     # a change is judged by then: seen (2 scans of 20 ms), one still scan more
CARD_TRIES = 3      # 100-ms waits for the reader (polled every 40 ms) to read a card
PAUSE_MS = 2 * JUDGED_MS  # a hand stopping on a space it passes: seen and judged there
COUNTING_MS = 300   # a person counting spaces rests about this long on each
TRANSIT_MS = 600    # firmware/games/track/referee.py: how long such a rest may last before it is refused
KING, KNIGHT, CITIZEN, JESTER = 0, 1, 2, 3  # a colour's pieces in rank order
# docs/dog-rules.md: the 6-seat board's colours (index order) and the ranks the seats start with
DOG6_FIRST = {0: KING, 1: KNIGHT, 2: CITIZEN, 3: JESTER, 4: KING, 5: KNIGHT}
# a 4-player DOG game's opening, red first: (card, from, to) per seat
TWO_EACH = [("2", 0, 2), ("2", 16, 18), ("2", 32, 34), ("2", 48, 50)]


def kinds(events):
    return [e.get("event") for e in events]


def moves(events):
    return [e["move"] for e in events if e.get("event") == "move"]


def refused(events):
    return [sorted(e.get("locations", [])) for e in events if e.get("event") == "reject"]


def quick_card(t, kind):
    """The card on the reader until the board has read it (its poll comes every 40 ms),
    then off; the events since."""
    n = len(t.events)
    t.ask({"op": "card", "card": kind})
    for _ in range(CARD_TRIES):
        t.wait(QUICK_MS)
        if "card" in kinds(t.since(n)):
            break
    t.ask({"op": "card_off"})
    t.wait(QUICK_MS)
    assert "card" in kinds(t.since(n)), t.since(n)
    return t.since(n)


def settle(t, n, path_len):
    """100-ms waits until the board has said what it makes of the move (a slide lands after
    50 ms per location and is judged 100 ms later)."""
    for _ in range((path_len * SLIDE_MS + JUDGED_MS) // QUICK_MS + 2):
        t.wait(QUICK_MS)
        if {"move", "reject"} & set(kinds(t.since(n))):
            break
    return t.since(n)


def quick_slide(t, frm, path, victim=None, settled_lift=False):
    """Lift at frm and slide over path at once (after taking the victim off the last
    location first, a capture); settled_lift: wait 100 ms between lift and slide."""
    n = len(t.events)
    held = None
    if victim:
        held = t.lift(victim)
        t.wait(QUICK_MS)
    piece = t.lift(frm)
    if settled_lift:
        t.wait(QUICK_MS)
    t.ask({"op": "slide", "piece": piece, "path": path})
    return settle(t, n, len(path)), held


def slide_and_rest(t, piece, path, rest_ms):
    """Slides a held piece over path and leaves it standing on the last location rest_ms."""
    t.ask({"op": "slide", "piece": piece, "path": path})
    t.wait((len(path) - 1) * SLIDE_MS + rest_ms)


def track(a, b, step=1, n=64):
    """The track spaces from a to b (both included), stepping forward or backward."""
    out = [a % n]
    while out[-1] != b % n:
        out.append((out[-1] + step) % n)
    return [str(x) for x in out]


def expected(t, card, frm, to):
    """The move the rules core makes of it, in the protocol's JSON form."""
    return notation.to_json(t.st, find(t.st, card, frm, to))


def played(t, card, frm, to):
    """The players' own copy of the game takes the move too (Table.check compares)."""
    t.st = rules_apply(t.st, find(t.st, card, frm, to))[0]


def dog4(plays=()):
    t = Table(seed=3, board="dog-4")
    t.new_game(4, game="dog")
    for card, frm, to in plays:
        t.play(card, find(t.st, card, frm, to))
    return t


# -- the outside check's move, and its variants ------------------------------------------------

@pytest.mark.parametrize("from_start, settled_lift", [
    (False, False),  # lift, slide over 33..38 at once
    (True, False),   # the slide starts on 32 itself: the start space read back 50 ms
    (False, True),   # the lift seen before the slide begins
])
def test_greens_6_slid_from_32_over_33_to_38_at_quick_hands_is_accepted(from_start,
                                                                         settled_lift):
    t = dog4(TWO_EACH[:2])
    try:
        assert t.public()["to_move"] == "green"
        want = expected(t, "6", 32, 38)
        quick_card(t, "6")
        path = track(33, 38) if not from_start else track(32, 38)
        evs, _ = quick_slide(t, "32", path, settled_lift=settled_lift)
        assert refused(evs) == [] and moves(evs) == [want], evs
        assert want == {"card": "6", "path": [[32, 38]]}
        played(t, "6", 32, 38)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


def test_a_6_whose_hand_rests_on_a_space_it_passes_is_refused_only_if_it_stays():
    # green's 6 from 32: the hand stops on 35 (seen there), lifts the piece again and slides
    # on to 38. A hand carrying a piece space by space rests on each (a person counting,
    # 150 to 400 ms): the board does not refuse the piece on 35 while a 6 of it is under way
    # and passes there, only once it stays longer than TRANSIT_MS (firmware/games/track/referee.py); once
    # lifted again the board shows only green's piece gone from 32, which its 6 is still
    # making (the old referee named 32 alone: the outside check's refusal), and the move
    # counts where it lands.
    t = dog4(TWO_EACH[:2])
    try:
        quick_card(t, "6")
        n = len(t.events)
        slide_and_rest(t, t.lift("32"), track(33, 35), PAUSE_MS)
        assert refused(t.since(n)) == [], t.since(n)
        t.wait(TRANSIT_MS)  # it stays: a placement, refused where no 6 of green ends
        assert refused(t.since(n)) == [["32", "35"]], t.since(n)
        piece = t.lift("35")
        t.wait(PAUSE_MS)  # in the air: 35 is seen empty again
        assert refused(t.since(n)) == [["32", "35"]], t.since(n)
        t.ask({"op": "slide", "piece": piece, "path": track(36, 38)})
        evs = settle(t, len(t.events), 3)
        assert moves(evs) == [{"card": "6", "path": [[32, 38]]}], t.since(n)
        assert refused(t.since(n)) == [["32", "35"]]
        played(t, "6", 32, 38)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


def test_a_piece_carried_space_by_space_is_never_refused():
    # a person's counting hand: green's 6 from 32, resting 300 ms on every space it passes
    t = dog4(TWO_EACH[:2])
    try:
        quick_card(t, "6")
        n = len(t.events)
        piece = t.lift("32")
        for at in track(33, 38):
            t.ask({"op": "slide", "piece": piece, "path": [at]})
            t.wait(COUNTING_MS)
            if at != "38":
                piece = t.lift(at)
        evs = settle(t, n, 1)
        assert refused(t.since(n)) == [] and moves(evs) == [
            {"card": "6", "path": [[32, 38]]}], t.since(n)
        played(t, "6", 32, 38)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


def test_a_1_7_carried_space_by_space_is_taken_where_it_stays():
    # a counting hand carries green's piece from 32 over 33.. resting on each; the 1-7 could
    # end on every one of them, so none is the move until the piece stays (the old referee
    # took a 1 at the first rest, and the piece went on against the board's will)
    t = dog4(TWO_EACH[:2])
    try:
        quick_card(t, "1-7")
        n = len(t.events)
        piece = t.lift("32")
        for at in track(33, 37):
            t.ask({"op": "slide", "piece": piece, "path": [at]})
            t.wait(COUNTING_MS)
            assert moves(t.since(n)) == [], (at, t.since(n))
            if at != "37":
                piece = t.lift(at)
        t.wait(TRANSIT_MS)
        assert refused(t.since(n)) == [] and moves(t.since(n)) == [
            {"card": "1-7", "path": [[32, 37]]}], t.since(n)
        played(t, "1-7", 32, 37)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


def test_confirm_takes_a_move_whose_piece_rests_on_a_longer_ones_way_at_once():
    t = dog4(TWO_EACH[:2])
    try:
        quick_card(t, "1-7")
        n = len(t.events)
        t.place(t.lift("32"), "35")
        t.wait(JUDGED_MS)
        assert moves(t.since(n)) == []
        t.ask({"op": "press", "button": "confirm", "ms": QUICK_MS})
        t.wait(QUICK_MS)
        assert moves(t.since(n)) == [{"card": "1-7", "path": [[32, 35]]}], t.since(n)
        played(t, "1-7", 32, 35)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


# -- every kind of move at quick hands ------------------------------------------------------------

def test_a_plain_move_a_1_7_and_a_backward_4_at_quick_hands():
    t = dog4()
    try:
        # the 1-7's 6 ends on a space its 7 passes: taken once the piece stayed TRANSIT_MS
        # there (a hand carrying it on would have moved it by then)
        for card, frm, to, path, rest in (("5", 0, 5, track(1, 5), 0),
                                          ("4", 16, 12, track(15, 12, -1), 0),  # backward
                                          ("1-7", 32, 38, track(33, 38), TRANSIT_MS)):
            want = expected(t, card, frm, to)
            quick_card(t, card)
            n = len(t.events)
            evs, _ = quick_slide(t, str(frm), path)
            if rest:
                assert moves(evs) == [], (card, evs)
                t.wait(rest)
                evs = t.since(n)
            assert refused(evs) == [] and moves(evs) == [want], (card, evs)
            played(t, card, frm, to)
            t.wait(QUICK_MS)
            t.check()
    finally:
        t.close()


def test_entering_and_a_capture_by_sliding_onto_a_piece_at_quick_hands():
    # red 2 (0 -> 2), blue 4 backward (16 -> 12), green and yellow 2: then red enters with
    # the 13, blue goes on to 14 and red's 12 from 2 slides onto it, knocking it out
    t = dog4([("2", 0, 2), ("4", 16, 12), ("2", 32, 34), ("2", 48, 50)])
    try:
        want = expected(t, "13", "red:start", 0)
        assert want == {"card": "13", "path": [["red:start", 0]]}
        quick_card(t, "13")
        evs, _ = quick_slide(t, t.taken_spot("red"), ["0"])
        assert refused(evs) == [] and moves(evs) == [want], evs
        played(t, "13", "red:start", 0)
        for card, frm, to in (("2", 12, 14), ("2", 34, 36), ("2", 50, 52)):
            t.play(card, find(t.st, card, frm, to))  # blue's piece goes on to 14
        want = expected(t, "12", 2, 14)
        quick_card(t, "12")
        evs, victim = quick_slide(t, "2", track(3, 14), victim="14")
        assert refused(evs) == [] and moves(evs) == [want], evs
        assert {"event": "effect", "kind": "knock_out", "at": 14, "to": "blue:start",
                "colour": "blue"} in evs
        n = len(t.events)
        t.place(victim, t.free_spot("blue"))
        t.wait(QUICK_MS)
        t.wait(QUICK_MS)
        assert {"event": "turn", "seat": "blue"} in t.since(n), t.since(n)
        played(t, "12", 2, 14)
        t.check()
    finally:
        t.close()


def test_a_swap_at_quick_hands():
    # a swap is no slide: both pieces lifted, then put down in each other's place
    t = dog4(TWO_EACH)
    try:
        want = expected(t, "swap", 2, 18)
        assert want == {"card": "swap", "swap": [2, 18]}
        quick_card(t, "swap")
        n = len(t.events)
        red = t.lift("2")
        blue = t.lift("18")
        t.wait(QUICK_MS)
        t.place(red, "18")
        t.place(blue, "2")
        evs = settle(t, n, 0)
        assert refused(evs) == [] and moves(evs) == [want], evs
        played(t, "swap", 2, 18)
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()


def test_the_partner_4_segments_slid_at_quick_hands():
    # the card split among pieces (DOG's 1-7 moves one piece: above) is Agent DOG's Partner 4
    # (tests/firmware/games/track/test_referee.py's opening): red 13 -> 15 and teammate green 45 -> 47, each
    # segment a slide, the second begun 100 ms after the first
    t = Table(seed=3)
    try:
        t.new_game(4)
        for card, frm, to in (("13", 0, 13), ("10", 16, 26), ("13", 32, 45), ("13", 48, 61)):
            t.play(card, find(t.st, card, frm, to))
        quick_card(t, "partner")
        n = len(t.events)
        t.ask({"op": "slide", "piece": t.lift("13"), "path": track(14, 15)})
        t.wait(QUICK_MS)
        t.ask({"op": "slide", "piece": t.lift("45"), "path": track(46, 47)})
        evs = settle(t, n, 2)
        assert refused(evs) == [] and "move" in kinds(evs), evs
        view = t.public()
        assert view["board"]["15"] == "red" and view["board"]["47"] == "green"
        assert "13" not in view["board"] and "45" not in view["board"]
    finally:
        t.close()


def test_dog_royal_on_the_6_seat_board_at_quick_hands_reads_the_ranks_where_they_land():
    t = Table(seed=4, board="dog-6")
    try:
        t.new_game(6, game="dog-royal", first=DOG6_FIRST)
        for frm, to in ((0, 5), (16, 21)):  # red's king, then blue's knight
            want = expected(t, "5", frm, to)
            quick_card(t, "5")
            evs, _ = quick_slide(t, str(frm), track(frm + 1, to, n=96))
            assert refused(evs) == [] and moves(evs) == [want], evs
            played(t, "5", frm, to)
            t.wait(QUICK_MS)
            t.check()  # the ranks too: red's king on 5, blue's knight on 21
        assert t.public()["ranks"]["5"] == "king" and t.public()["ranks"]["21"] == "knight"
    finally:
        t.close()


def test_a_citizen_whose_hand_rests_on_a_space_it_passes_may_still_jump_on():
    # DOG Royal, red's citizen plays an 8 from 0 to special space 8, where it may jump on to
    # the next free one (24). The hand stops on 4 (seen there), slides on and lets the piece
    # stand on 8: that is a complete 8, but the jump may still grow out of it, so the board
    # waits (the old referee, taking 4 for part of the move, accepted the 8 there and then);
    # the citizen jumps on and the jump is the move.
    t = Table(seed=3, board="dog-4")
    try:
        t.new_game(2, game="dog-royal", first={0: CITIZEN, 2: KING})
        k = t.st.game.cards.index["8"]
        jump = [m for m in legal_moves(t.st, k) if movegen.jump_of(m.b) >= 0]
        assert len(jump) == 1
        want = notation.to_json(t.st, jump[0])
        assert want["path"] == [[0, 8]] and want["jump"] == 24
        quick_card(t, "8")
        n = len(t.events)
        slide_and_rest(t, t.lift("0"), track(1, 4), PAUSE_MS)
        assert refused(t.since(n)) == [], t.since(n)  # seen on 4, which its 8 passes
        slide_and_rest(t, t.lift("4"), track(5, 8), PAUSE_MS)
        assert moves(t.since(n)) == [], t.since(n)
        t.ask({"op": "slide", "piece": t.lift("8"), "path": ["24"]})
        evs = settle(t, len(t.events), 1)
        assert moves(evs) == [want], t.since(n)
        t.st = rules_apply(t.st, jump[0])[0]
        t.wait(QUICK_MS)
        t.check()
    finally:
        t.close()
