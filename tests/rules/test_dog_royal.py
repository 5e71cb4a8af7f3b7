# DOG Royal (`game: "dog-royal"`) scenario tests: the rank order and green cards, the king,
# the knight, the citizen's jump, the jester's short move into its home, the special spaces
# and their draws, the own-start-space capture, ranks in moves, events and answers, hints.
# Counted by hand from seed 001 (German part, "Royal", quoted) and dog-rules.md ("DOG Royal
# only" and the readings table). 4 players on `dog-4` unless said: starts red 0 blue 16 green
# 32 yellow 48; special spaces 8 24 40 56 (dog-6: 8 24 40 56 72 88). A colour's list is
# [king, knight, citizen, jester] (rk()). Pieces parked in a home stand on h2..h4 so that they
# cannot move (h1 free): the tests then see only the piece they are about.
from dogbook import (royal, position, rk, outcomes, legal, apply, applied, refused, hints,
                     of_type, same_events, move, mv, cap, steps, ALL_HOME)

DRAW = {"type": "draw", "seat": "red"}


def king_only(loc):
    """Red's king at loc, the other three in red's home h2..h4 (h1 free)."""
    return rk(king=loc, knight="h2", citizen="h3", jester="h4")


def jester_only(loc):
    """Red's jester at loc, the other three in red's home h2..h4 (h1 free)."""
    return rk(king="h2", knight="h3", citizen="h4", jester=loc)


def knight_only(loc):
    """Red's knight at loc, the other three in red's home h2..h4 (h1 free)."""
    return rk(king="h2", knight=loc, citizen="h3", jester="h4")


def jump(frm, to):
    return {"type": "jump", "from": frm, "to": to, "rank": "citizen"}


# -- the rank order and the green cards -------------------------------------------------------

def test_a_piece_may_not_pass_a_higher_rank(both):
    # DE "Eine Figur darf immer nur gleichrangige oder rangniedrigere Figuren überholen. Ein
    # Bürger darf also an anderen Bürgern oder Narren vorbeiziehen." Red jester 10, blue
    # citizen 12: passing 12 is barred; ending on it takes it (DE "Schlagen": "Ansonsten darf
    # jede Figur jede andere schlagen (auch ranghöhere)").
    pos = royal(red=rk(jester=10), blue=rk(citizen=12))
    assert legal(both, pos, "5") == []
    assert legal(both, pos, "3") == []
    assert outcomes(both, pos, "2") == {(10, 12)}
    assert outcomes(both, pos, "1-7") == {(10, 11), (10, 12)}
    new, events = applied(both, pos, move("2", 10, 12))
    same_events(events, [mv(10, 12, rank="jester"), cap(12, "blue", rank="citizen")])
    assert new["pieces"]["blue"] == ["start"] * 4
    refused(both, pos, move("5", 10, 15))


def test_same_or_lower_ranks_may_be_passed(both):
    assert outcomes(both, royal(red=rk(citizen=10), blue=rk(citizen=12, jester=13)), "5") == {
        (10, 15)}
    assert outcomes(both, royal(red=rk(knight=10), blue=rk(knight=12)), "5") == {(10, 15)}
    assert outcomes(both, royal(red=rk(king=10), blue=rk(knight=12, citizen=13, jester=14)),
                    "5") == {(10, 15)}


def test_the_rank_order_holds_for_own_pieces_too(both):
    # DE "Zwischen den Figuren wird eine Rangfolge eingeführt, die auch für die Figuren der
    # eigenen Farbe gilt." Red jester 10 cannot pass red king 12.
    assert outcomes(both, royal(red=rk(king=12, jester=10)), "5") == {(12, 17)}


def test_green_cards_are_the_4_and_the_10(both):
    # readings "which cards are green: 4 and 10"; DE "Mit grünen Karten wird die Rangfolge der
    # Figuren außer Kraft gesetzt." Red jester 10, blue king 11: every other card either ends
    # on the king (a non-king cannot) or passes it; the 4 (both ways) and the 10 pass it.
    pos = royal(red=jester_only(10), blue=rk(king=11))
    for card in ("2", "3", "5", "6", "8", "9", "12", "13", "1/11", "1-7"):
        assert legal(both, pos, card) == [], card
    assert outcomes(both, pos, "4") == {(10, 14), (10, 6)}
    assert outcomes(both, pos, "10") == {(10, 20)}


def test_green_cards_do_not_lift_a_blocking_start_space(both):
    # DE "Ein Startfeld, das mit einer gleichfarbigen Figur besetzt ist, blockiert aber
    # weiterhin (Ausnahme: Ritter)." Blue jester on blue's 16 blocks red's jester both ways.
    pos = royal(red=rk(jester=14), blue=rk(jester=16))
    assert legal(both, pos, "10") == []
    assert outcomes(both, pos, "4") == {(14, 10)}


def test_home_pieces_are_never_passed_even_with_a_green_card(both):
    # DE "Auch im Ziel darf weiterhin nicht übersprungen werden." Red jester 62, red king h1:
    # the 4 forward reaches h2 only past the king (and h1 is taken): track 2, or back to 58.
    pos = royal(red=rk(king="h1", jester=62))
    assert outcomes(both, pos, "4") == {(62, 2), (62, 58)}


# -- the king -------------------------------------------------------------------------------

def test_the_king_moves_only_with_counts_1_to_7(both):
    # DE "Dafür darf der König nur mit Karten des Wertes 1 bis 7 laufen."; readings "king and
    # 1/11: the 1 only (and entering)"
    pos = royal(red=king_only(10))
    for card, n in (("2", 2), ("3", 3), ("5", 5), ("6", 6)):
        assert outcomes(both, pos, card) == {(10, 10 + n)}, card
    assert outcomes(both, pos, "4") == {(10, 14), (10, 6)}
    assert outcomes(both, pos, "1-7") == steps(10, range(1, 8))
    assert outcomes(both, pos, "1/11") == {(10, 11)}
    for card in ("8", "9", "10", "12", "13"):
        assert legal(both, pos, card) == [], card
    refused(both, pos, move("8", 10, 18))
    refused(both, pos, move("1/11", 10, 21))


def test_a_start_card_may_enter_a_king(both):
    # DE "Startkarten zum Starten ... dürfen auf einen König gespielt ... werden."
    pos = royal(red=rk(knight="h2", citizen="h3", jester="h4"))
    assert outcomes(both, pos, "13") == {("red:start", 0, "rank", "king")}
    assert outcomes(both, pos, "1/11") == {("red:start", 0, "rank", "king")}
    new, events = applied(both, pos, move("13", "red:start", 0, rank="king"))
    assert new["pieces"]["red"] == [0, "h2", "h3", "h4"]
    assert events == [mv("red:start", 0, rank="king")]


def test_a_king_is_taken_only_by_a_king(both):
    # DE "Seine Majestät der König darf nur von anderen Königen geschlagen werden!"
    assert legal(both, royal(red=jester_only(10), blue=rk(king=15)), "5") == []
    pos = royal(red=king_only(10), blue=rk(king=15))
    assert outcomes(both, pos, "5") == {(10, 15)}
    new, events = applied(both, pos, move("5", 10, 15))
    same_events(events, [mv(10, 15, rank="king"), cap(15, "blue", rank="king")])
    assert new["pieces"]["blue"] == ["start"] * 4
    # no piece ends on a king, an own one neither; a green card does not change that
    assert outcomes(both, royal(red=rk(king=15, knight="h2", citizen="h3", jester=10)),
                    "5") == {(15, 20)}
    assert outcomes(both, royal(red=knight_only(11), blue=rk(king=15)), "4") == {(11, 7)}


def test_the_own_start_space_takes_any_colour_a_king_too(both):
    # DE "Sonderfall blockierte Startfelder: Eine fremde Figur auf dem eigenen Startfeld darf
    # von jeder startenden Figur geschlagen werden. Somit darf z.B. auch ein fremder König auf
    # meinem eigenen Startfeld von einem startenden Narren (aber auch von einem Narren, der
    # eine komplette Runde gelaufen ist) geschlagen werden."
    pos = royal(red=rk(king="h2", knight="h3", citizen="h4"), blue=rk(king=0))
    assert outcomes(both, pos, "13") == {("red:start", 0, "rank", "jester")}
    new, events = applied(both, pos, move("13", "red:start", 0, rank="jester"))
    same_events(events, [mv("red:start", 0, rank="jester"), cap(0, "blue", rank="king")])
    assert new["pieces"]["red"] == ["h2", "h3", "h4", 0]
    assert new["pieces"]["blue"] == ["start"] * 4
    # the jester that went round: 59 60 61 62 63 0 (h1 would be a 7th step)
    pos = royal(red=jester_only(58), blue=rk(king=0))
    assert outcomes(both, pos, "6") == {(58, 0)}
    new, events = applied(both, pos, move("6", 58, 0))
    same_events(events, [mv(58, 0, rank="jester"), cap(0, "blue", rank="king")])
    # on another colour's start space (yellow's 48) the king rule holds
    assert legal(both, royal(red=jester_only(43), blue=rk(king=48)), "5") == []


# -- start cards and ranks in moves -----------------------------------------------------------

def test_start_cards_enter_any_waiting_rank_one_move_each(both):
    # contract "Pieces": "legal lists one such move per rank waiting in the start area and
    # always writes rank". Red jester 30; king, knight and citizen wait. 30 + 13 = 43 passes
    # green's empty 32 and the special space 40 (passing it draws nothing).
    pos = royal(red=rk(jester=30))
    entries = {("red:start", 0, "rank", r) for r in ("king", "knight", "citizen")}
    assert outcomes(both, pos, "13") == entries | {(30, 43)}
    assert outcomes(both, pos, "1/11") == entries | {(30, 31), (30, 41)}
    new, events = applied(both, pos, move("13", "red:start", 0, rank="knight"))
    assert new["pieces"]["red"] == ["start", 0, "start", 30]
    assert events == [mv("red:start", 0, rank="knight")]     # an entry draws nothing
    assert new["cards_left"]["red"] == 4


def test_apply_accepts_a_missing_rank_only_when_one_piece_waits(both):
    pos = royal(red=rk(king=10, knight=20, citizen=30))
    new, events = applied(both, pos, {"card": "13", "path": [["red:start", 0]]})
    assert new["pieces"]["red"] == [10, 20, 30, 0]
    assert events == [mv("red:start", 0, rank="jester")]
    ans = apply(both, royal(red=rk(king=10, knight=20)),
                {"card": "13", "path": [["red:start", 0]]})
    assert ans["ok"] is False      # the kind is asked in test_dog_errors.py


# -- magnet, swap and copy with ranks -----------------------------------------------------------

def test_magnet_and_swap_may_move_a_king(both):
    # DE "... sowie ein Magnet oder ein Tauscher dürfen auf einen König gespielt bzw.
    # angewandt werden." A swap event carries [own rank, other rank].
    pos = royal(red=king_only(10), blue=rk(knight=20))
    assert outcomes(both, pos, "magnet") == {(10, 19)}
    assert outcomes(both, pos, "swap") == {("swap", 10, 20)}
    new, events = applied(both, pos, {"card": "swap", "swap": [10, 20]})
    assert events == [{"type": "swap", "at": [10, 20], "rank": ["king", "knight"]}]
    assert new["pieces"]["red"] == [20, "h2", "h3", "h4"]
    assert new["pieces"]["blue"] == ["start", 10, "start", "start"]
    new, events = applied(both, royal(red=jester_only(10), blue=rk(king=20)),
                          {"card": "swap", "swap": [10, 20]})
    assert events == [{"type": "swap", "at": [10, 20], "rank": ["jester", "king"]}]
    assert new["pieces"]["blue"] == [10, "start", "start", "start"]


def test_a_copy_moves_a_king_only_as_the_copied_card_would(both):
    # DE "Achtung: Ein Kopierer darf für einen König nur dann gespielt werden, wenn die zuvor
    # gespielte Karte auch für den König regulär eingesetzt werden kann."
    pos = lambda card: royal(red=king_only(10), blue=rk(knight=20), last_card=card)  # noqa
    assert legal(both, pos("8"), "copy") == []
    assert legal(both, pos("13"), "copy") == []
    assert outcomes(both, pos("5"), "copy") == {(10, 15)}
    assert outcomes(both, pos("1/11"), "copy") == {(10, 11)}
    assert outcomes(both, pos("4"), "copy") == {(10, 14), (10, 6)}
    assert outcomes(both, pos("magnet"), "copy") == {(10, 19)}
    waiting = royal(red=rk(knight="h2", citizen="h3", jester="h4"), last_card="13")
    assert outcomes(both, waiting, "copy") == {("red:start", 0, "rank", "king")}


def test_a_copied_4_or_10_is_green(both):
    # contract "copy": "a copied 4 or 10 is green"
    pos = lambda card: royal(red=jester_only(10), blue=rk(king=12), last_card=card)  # noqa
    assert outcomes(both, pos("4"), "copy") == {(10, 14), (10, 6)}
    assert outcomes(both, pos("10"), "copy") == {(10, 20)}
    assert legal(both, pos("9"), "copy") == []


# -- the knight -----------------------------------------------------------------------------

def test_a_knight_passes_a_start_blocker_but_may_not_stop_there(both):
    # DE "Ritter: Für den Ritter sind Startfelder, die von einer gleichfarbigen Figur besetzt
    # sind, keine Blockade. Er darf sie nicht betreten, aber über sie hinweg ziehen."
    pos = royal(red=knight_only(14), blue=rk(jester=16))
    assert outcomes(both, pos, "5") == {(14, 19)}
    assert legal(both, pos, "2") == []
    assert outcomes(both, pos, "4") == {(14, 18), (14, 10)}
    assert outcomes(both, pos, "1-7") == {(14, 15)} | steps(14, range(3, 8))
    # the magnet passes nothing: it stops behind the blocker
    assert outcomes(both, pos, "magnet") == {(14, 15)}


def test_a_knight_still_needs_a_green_card_to_pass_a_blocking_king(both):
    # DE "So darf er an einem König auf dessen Startfeld vorbeiziehen, benötigt dafür aber eine
    # grüne Karte."
    pos = royal(red=knight_only(14), blue=rk(king=16))
    assert legal(both, pos, "5") == []
    assert outcomes(both, pos, "4") == {(14, 18), (14, 10)}


def test_a_knight_passes_a_start_blocker_with_the_4_backward(both):
    # contract: "passes a piece that blocks on its own-coloured start space, forward or with
    # the 4 backward"; a citizen in the same place cannot
    assert outcomes(both, royal(red=knight_only(18), blue=rk(jester=16)), "4") == {
        (18, 22), (18, 14)}
    assert outcomes(both, royal(red=rk(king="h2", knight="h3", citizen=18, jester="h4"),
                                blue=rk(jester=16)), "4") == {(18, 22)}


def test_only_a_knight_enters_its_home_past_an_own_piece_on_its_start_space(both):
    # DE "Als einzige Figur kann der Ritter beim ins Ziel ziehen auch über einen eigenen Stein
    # auf dem Startfeld in sein eigenes Ziel ziehen." Knight 62, own citizen on 0:
    # 5 -> 63 0 1 2 3 or 63 0 h1 h2 h3; 3 -> 1 or h1; 2 would stop on the citizen.
    pos = royal(red=rk(knight=62, citizen=0))
    assert outcomes(both, pos, "5") == {(62, 3), (62, "red:h3"), (0, 5)}
    assert outcomes(both, pos, "3") == {(62, 1), (62, "red:h1"), (0, 3)}
    assert outcomes(both, pos, "2") == {(0, 2)}
    new, events = applied(both, pos, move("5", 62, "red:h3"))
    assert new["pieces"]["red"] == ["start", "h3", 0, "start"]
    assert events == [mv(62, "red:h3", rank="knight")]
    # a king in the knight's place is stopped by the own jester on 0
    pos = royal(red=rk(king=62, jester=0))
    assert outcomes(both, pos, "5") == {(0, 5)}
    assert outcomes(both, pos, "3") == {(0, 3)}


def test_a_knight_passes_its_own_king_on_the_start_space_only_with_a_green_card(both):
    # the rank order also holds here: knight 62, own king on 0
    pos = royal(red=rk(king=0, knight=62))
    assert outcomes(both, pos, "5") == {(0, 5)}
    assert outcomes(both, pos, "4") == {(62, 2), (62, "red:h2"), (62, 58), (0, 4), (0, 60)}


# -- the citizen ----------------------------------------------------------------------------

def test_a_citizen_may_jump_to_the_next_free_special_space(both):
    # DE "Bürger: Wenn der Bürger auf ein Sonderfeld zieht, darf er, nachdem er eine Karte
    # gezogen hat, auf das nächste freie Sonderfeld im Uhrzeigersinn springen. Damit kann er
    # auch an ranghöheren Figuren oder an blockierten Startfeldern vorbeikommen." Citizen 5
    # + 3 = 8 (special); the jump to 24 passes blue's king blocking on 16. Both choices listed;
    # the jump draws nothing: cards_left 5 - 1 + 1; events move, draw, then jump.
    pos = royal(red=rk(citizen=5), blue=rk(king=16))
    assert outcomes(both, pos, "3") == {(5, 8), (5, 8, "jump", 24)}
    new, events = applied(both, pos, move("3", 5, 8, jump=24))
    assert events == [mv(5, 8, rank="citizen"), DRAW, jump(8, 24)]
    assert new["pieces"]["red"] == ["start", "start", 24, "start"]
    assert new["cards_left"]["red"] == 5 and new["last_card"] == "3"
    new, events = applied(both, pos, move("3", 5, 8))
    assert events == [mv(5, 8, rank="citizen"), DRAW]
    assert new["pieces"]["red"] == ["start", "start", 8, "start"]
    assert new["cards_left"]["red"] == 5


def test_the_citizens_jump_skips_occupied_special_spaces(both):
    # readings "citizen jump target occupied: skipped: the next FREE special space clockwise;
    # none free: no jump"
    pos = royal(red=rk(citizen=5), blue=rk(jester=24))
    assert outcomes(both, pos, "3") == {(5, 8), (5, 8, "jump", 40)}
    refused(both, pos, move("3", 5, 8, jump=24))
    full = royal(red=rk(citizen=5), blue=rk(jester=24), green=rk(jester=40),
                 yellow=rk(jester=56))
    assert outcomes(both, full, "3") == {(5, 8)}
    refused(both, full, move("3", 5, 8, jump=24))


def test_the_citizens_jump_goes_round_the_track(both):
    # 56 -> next special clockwise is 8, past red's own jester blocking on 0
    pos = royal(red=rk(citizen=53, jester=0))
    assert outcomes(both, pos, "3") == {(53, 56), (53, 56, "jump", 8), (0, 3)}


def test_only_a_citizen_jumps(both):
    for pieces in (rk(jester=5), rk(king=5), rk(knight=5)):
        pos = royal(red=pieces)
        assert outcomes(both, pos, "3") == {(5, 8)}
        refused(both, pos, move("3", 5, 8, jump=24))


def test_a_citizen_jumps_after_the_magnet_and_the_4_backward(both):
    # the magnet and the 4 backward are counted moves of the player's card: they draw, so
    # the citizen may jump
    assert outcomes(both, royal(red=rk(citizen=3), blue=rk(jester=9)), "magnet") == {
        (3, 8), (3, 8, "jump", 24)}
    assert outcomes(both, royal(red=rk(citizen=12)), "4") == {
        (12, 16), (12, 8), (12, 8, "jump", 24)}


# -- the jester -------------------------------------------------------------------------------

def test_a_jester_may_leave_up_to_2_points_unused_going_into_its_home(both):
    # DE "Narr: Der Narr kann, wenn er ins Ziel hineinzieht, bis zu 2 Punkte verfallen lassen."
    # Jester 61: 62 63 0 h1 h2 h3 h4 are steps 1..7.
    pos = royal(red=rk(jester=61))
    # 8: whole on the track (5); h4 with 7 (1 unused), h3 with 6 (2 unused)
    assert outcomes(both, pos, "8") == {(61, 5), (61, "red:h4"), (61, "red:h3")}
    # 9: track 6; h4 with 7 (2 unused); 8 steps do not fit
    assert outcomes(both, pos, "9") == {(61, 6), (61, "red:h4")}
    # 5: track 2, h2 whole, h1 with 4; 3 steps end on 0, the track: not allowed
    assert outcomes(both, pos, "5") == {(61, 2), (61, "red:h2"), (61, "red:h1")}
    new, events = applied(both, pos, move("8", 61, "red:h3"))
    assert events == [mv(61, "red:h3", rank="jester")]
    assert new["pieces"]["red"] == ["start", "start", "start", "h3"]
    assert new["cards_left"]["red"] == 4 and new["last_card"] == "8"


def test_a_jesters_short_move_respects_the_home_pieces(both):
    # red king in h4: the 7-step end is taken, the 6-step end h3 is free
    assert outcomes(both, royal(red=rk(king="h4", jester=61)), "8") == {(61, 5), (61, "red:h3")}


def test_a_jester_uses_every_point_on_the_track_and_inside_its_home(both):
    # DE "Im Verlaufe des Spiels darf der Narr auf der umlaufenden Bahn – wie alle anderen
    # Figuren auch – keine Punkte verfallen lassen."; readings "jester short move: only a move
    # that ends in the jester's own home"; contract "a jester already in its home uses every
    # point"
    assert outcomes(both, royal(red=rk(jester=10)), "5") == {(10, 15)}
    home = royal(red=rk(jester="h1"))
    assert legal(both, home, "5") == []
    assert outcomes(both, home, "3") == {("red:h1", "red:h4")}
    assert outcomes(both, home, "2") == {("red:h1", "red:h3")}
    # from its own start space no move enters the home, short or not
    assert outcomes(both, royal(red=rk(jester=0)), "6") == {(0, 6)}
    # no other rank gets short moves
    assert outcomes(both, royal(red=rk(citizen=61)), "8") == {(61, 5)}


# -- special spaces and draws -----------------------------------------------------------------

def test_ending_a_counted_move_on_a_special_space_draws_a_card(both):
    # DE "Ein Spieler, der eine Figur aktiv auf ein Sonderfeld ... zieht, zieht sofort eine
    # zusätzliche Karte vom Kartenstapel. Dies kann durch eine Zahlenkarte oder durch den
    # Magneten geschehen." Contract: a count, the 4 backward, the 1-7, the magnet; readings
    # "cards_left with a draw: minus 1 for the card played, plus 1 for the draw".
    cases = [(royal(red=rk(jester=5)), move("3", 5, 8)),
             (royal(red=rk(jester=5)), move("1-7", 5, 8)),
             (royal(red=rk(jester=3), blue=rk(jester=9)), move("magnet", 3, 8)),
             (royal(red=rk(jester=12)), move("4", 12, 8)),
             (royal(red=rk(jester=5), last_card="3"), move("copy", 5, 8)),
             (royal(red=rk(jester=23)), move("1/11", 23, 24)),
             (royal(red=rk(jester=27)), move("13", 27, 40))]
    for pos, m in cases:
        new, events = applied(both, pos, m)
        assert of_type(events, "draw") == [DRAW], m
        assert new["cards_left"]["red"] == 5, m
        assert new["pieces"]["red"][3] == m["path"][0][1], m


def test_passing_a_special_space_draws_nothing(both):
    new, events = applied(both, royal(red=rk(jester=5)), move("5", 5, 10))
    assert events == [mv(5, 10, rank="jester")] and new["cards_left"]["red"] == 4


def test_special_spaces_are_royal_only(both):
    # seed: the special spaces are part of the "Royal" rules; contract lists them under "DOG
    # Royal only": in `dog` ending on 8 draws nothing
    new, events = applied(both, position(red=[5]), move("3", 5, 8))
    assert events == [mv(5, 8)] and new["cards_left"]["red"] == 4


def test_a_swap_onto_a_special_space_draws_nothing(both):
    # DE "Durch Tauschen von zwei Figuren (von denen eine auf einem Sonderfeld steht) bekommt
    # der Spieler keine neue Karte."; readings "special space reached by a swap or an entry:
    # no draw". No draw, so no jump for the citizen either.
    pos = royal(red=rk(citizen=20), blue=rk(jester=8))
    assert outcomes(both, pos, "swap") == {("swap", 20, 8)}
    new, events = applied(both, pos, {"card": "swap", "swap": [20, 8]})
    assert events == [{"type": "swap", "at": [20, 8], "rank": ["citizen", "jester"]}]
    assert new["cards_left"]["red"] == 4
    assert new["pieces"]["red"] == ["start", "start", 8, "start"]


def test_a_swap_with_a_king_onto_a_special_space_draws_nothing(both):
    # the same rule with the other piece a king (a swap may move a king, contract "King"):
    # red's citizen 20 changes places with green's king on the special space 40, and both end
    # where the other stood; neither reaches a special space by a counted move
    pos = royal(red=rk(citizen=20), green=rk(king=40))
    assert ("swap", 20, 40) in outcomes(both, pos, "swap")
    new, events = applied(both, pos, {"card": "swap", "swap": [20, 40]})
    assert events == [{"type": "swap", "at": [20, 40], "rank": ["citizen", "king"]}]
    assert new["cards_left"]["red"] == 4
    assert new["pieces"]["red"] == ["start", "start", 40, "start"]
    assert new["pieces"]["green"] == [20, "start", "start", "start"]


def test_the_mover_draws_when_moving_the_teammates_piece(both):
    # draw event names the mover's seat: finished red moves green's jester 37 -> 40
    pos = royal(red=ALL_HOME, green=rk(jester=37))
    new, events = applied(both, pos, move("3", 37, 40))
    assert of_type(events, "draw") == [DRAW]
    assert new["cards_left"]["red"] == 5 and new["cards_left"]["green"] == 5


def test_a_draw_keeps_a_lone_seat_playing_and_skips_empty_seats(both):
    # readings "draws and round end: seats are skipped when they hold no cards; the round ends
    # when no seat holds cards"
    lone = {"red": 1, "blue": 0, "green": 0, "yellow": 0}
    new, events = applied(both, royal(red=rk(jester=5), cards_left=lone), move("3", 5, 8))
    assert new["cards_left"]["red"] == 1 and new["to_move"] == "red"
    assert not of_type(events, "round_end")
    new, events = applied(both, royal(red=rk(jester=5), cards_left=lone), move("5", 5, 10))
    assert of_type(events, "round_end") == [{"type": "round_end", "dealer": "blue"}]
    new, events = applied(both, royal(red=rk(jester=5), cards_left={
        "red": 1, "blue": 0, "green": 2, "yellow": 0}), move("3", 5, 8))
    assert new["to_move"] == "green" and new["cards_left"]["red"] == 1


def test_special_spaces_on_the_6_seat_board(both):
    # dog-6 special spaces 8 24 40 56 72 88: 56 jumps on to 72 there (not to 8), 88 to 8
    new, events = applied(both, royal(players=6, red=rk(jester=85)), move("3", 85, 88))
    assert of_type(events, "draw") == [DRAW] and new["cards_left"]["red"] == 5
    new, events = applied(both, royal(players=6, red=rk(jester=69)), move("3", 69, 72))
    assert of_type(events, "draw") == [DRAW]
    assert outcomes(both, royal(players=6, red=rk(citizen=85)), "3") == {
        (85, 88), (85, 88, "jump", 8)}
    assert outcomes(both, royal(players=6, red=rk(citizen=53)), "3") == {
        (53, 56), (53, 56, "jump", 72)}
    new, events = applied(both, royal(players=5, red=rk(citizen=53)), move("3", 53, 56, jump=72))
    assert events == [mv(53, 56, rank="citizen"), DRAW, jump(56, 72)]


# -- a finished player, events, hints ---------------------------------------------------------

def test_rank_and_king_rules_hold_for_the_teammates_pieces(both):
    # contract: "The rank order and king rules hold for a finished player's moves of the
    # teammate's pieces."
    pos = royal(red=ALL_HOME, green=rk(king=40))
    assert legal(both, pos, "8") == []
    assert outcomes(both, pos, "5") == {(40, 45)}
    pos = royal(red=ALL_HOME, green=rk(jester=40), blue=rk(king=43))
    assert legal(both, pos, "5") == []
    assert outcomes(both, pos, "4") == {(40, 44), (40, 36)}


def test_events_name_the_rank_of_each_piece(both):
    new, events = applied(both, royal(red=rk(knight=10), blue=rk(citizen=15)), move("5", 10, 15))
    same_events(events, [mv(10, 15, rank="knight"), cap(15, "blue", rank="citizen")])
    assert new["game"] == "dog-royal"


def test_hints_for_a_citizen_include_its_jump_targets(both):
    # readings "hints for a citizen: its targets include its jump targets"
    assert hints(both, royal(red=rk(citizen=5)), "3") == ([5], {"5": [8, 24]})


def test_hints_for_swap_and_for_a_jesters_short_move(both):
    # red knight on its own start 0 cannot swap; blue's king on 16 is protected
    pos = royal(red=rk(king=10, knight=0), blue=rk(king=16, jester=20), green=rk(citizen=30))
    assert hints(both, pos, "swap") == ([10], {"10": [20, 30]})
    assert hints(both, royal(red=rk(jester=61)), "8") == (
        [61], {"61": [5, "red:h3", "red:h4"]})


# -- rules of the seed no other test here pins -----------------------------------------------

def test_a_knight_with_the_magnet_stops_behind_a_start_blocker(both):
    # DE "Ritter": "Alle anderen Figuren auf dem Startfeld können vom Ritter mit beliebigen
    # anderen blauen und roten Karten (Ausnahme: Magnet) übersprungen werden." Red knight 10,
    # blue jester blocking on blue's 16: the 1-7 takes the knight past it (17) but never onto
    # it; the magnet draws it up to 15, directly behind the blocker, and no further.
    pos = royal(red=knight_only(10), blue=rk(jester=16))
    assert outcomes(both, pos, "1-7") == {(10, 11), (10, 12), (10, 13), (10, 14), (10, 15),
                                          (10, 17)}
    assert outcomes(both, pos, "magnet") == {(10, 15)}


def test_the_royal_start_is_made_once_not_at_each_round(both):
    # DE "Royal": "Diesen Sonderstart gibt es nur zu Spielbeginn – nicht vor jeder neuen
    # Runde." and "Es werden zu Rundenbeginn immer 5 Karten ausgeteilt." Red plays the last
    # card of the round: the new round deals 5 cards each and puts no piece on a start space.
    pos = royal(red=rk(jester=20), blue=rk(knight=30), dealer="red", last_card="9",
                cards_left={"red": 1, "blue": 0, "green": 0, "yellow": 0})
    new, events = applied(both, pos, move("5", 20, 25))
    assert events[-1] == {"type": "round_end", "dealer": "blue"}
    assert new["cards_left"] == {"red": 5, "blue": 5, "green": 5, "yellow": 5}
    assert new["pieces"]["red"] == ["start", "start", "start", 25]
    assert new["pieces"]["blue"] == ["start", 30, "start", "start"]
    assert new["pieces"]["green"] == ["start"] * 4 and new["pieces"]["yellow"] == ["start"] * 4
