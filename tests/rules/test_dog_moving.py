# DOG (`game: "dog"`) scenario tests: counts and hopping, taking, the own-start-space blocker,
# entering, home, the 4 forward and backward, the 1-7, and Agent DOG's rules being absent.
# Every expectation is counted by hand from seed 001 (German part unless said, quoted) and
# the contract dog-rules.md ("The rules (both games)" and the readings table), 4 players on
# `dog-4` (track 0..63, starts red 0 blue 16 green 32 yellow 48) unless a test says otherwise.
from dogbook import (position, outcomes, legal, applied, refused, of_type, same_events,
                     where, move, mv, cap, steps)


# -- counts and hopping ------------------------------------------------------------------

def test_number_cards_move_one_piece_exactly_their_count(both):
    # 001 DE "Bewegen und Schlagen": "Spielt ein Spieler z.B. eine 5 aus, muss er eine seiner
    # Spielfiguren um genau 5 Felder im Uhrzeigersinn weiterbewegen." Red 10 alone on the track
    # (three pieces in the start area); 10 + 12 = 22 passes blue's empty start 16.
    pos = position(red=[10])
    for card, n in (("2", 2), ("3", 3), ("5", 5), ("6", 6), ("8", 8), ("9", 9), ("10", 10),
                    ("12", 12)):
        assert outcomes(both, pos, card) == {(10, 10 + n)}, card
    # the start cards: their count, or enter (contract "Cards")
    assert outcomes(both, pos, "13") == {(10, 23), ("red:start", 0)}
    assert outcomes(both, pos, "1/11") == {(10, 11), (10, 21), ("red:start", 0)}
    # the 4: exactly 4 forward or exactly 4 backward
    assert outcomes(both, pos, "4") == {(10, 14), (10, 6)}


def test_the_track_wraps_from_63_to_0(both):
    # blue 60 + 8: 61 62 63 0 1 2 3 4 (red's start 0 is empty; blue's home lies past 16)
    pos = position(to_move="blue", blue=[60])
    assert outcomes(both, pos, "8") == {(60, 4)}


def test_hopping_counts_the_hopped_spaces(both):
    # DE "Beim Bewegen dürfen eigene und fremde Figuren übersprungen werden ..., wobei das
    # übersprungene Feld mitgezählt wird." 10 -> 11(blue) 12 13(blue) 14(green) 15
    pos = position(red=[10], blue=[11, 13], green=[14])
    assert outcomes(both, pos, "5") == {(10, 15)}


def test_only_own_pieces_move(both):
    # DE "Grundsätzlich können nur eigene Figuren gezogen werden."
    pos = position(red=[10], green=[30], blue=[50])
    assert outcomes(both, pos, "5") == {(10, 15)}


# -- taking ------------------------------------------------------------------------------

def test_ending_on_a_piece_takes_it_back_to_its_start_area(both):
    # DE "Endet der Zug ... auf einem Feld, auf dem bereits eine Figur steht, so wird diese
    # Figur ... geschlagen und in den gleichfarbigen Start zurückgestellt."
    # In `dog` events carry no rank (contract "Pieces": only dog-royal adds "rank").
    new, events = applied(both, position(red=[10], blue=[15, 20]), move("5", 10, 15))
    same_events(events, [mv(10, 15), cap(15, "blue")])
    assert where(new, "blue") == sorted([20, "start", "start", "start"], key=str)
    assert where(new, "red") == sorted([15, "start", "start", "start"], key=str)


def test_taking_an_own_piece_has_no_penalty(both):
    # DE "(auch eine eigene)"; contract: "taking an own or a teammate's piece has no penalty in
    # these games (unlike Agent DOG)": no `out`, red keeps its cards, the turn goes on.
    new, events = applied(both, position(red=[10, 15]), move("5", 10, 15))
    same_events(events, [mv(10, 15), cap(15, "red")])
    assert not of_type(events, "out")
    assert new["out"] == [] and new["cards_left"]["red"] == 4 and new["to_move"] == "blue"
    assert where(new, "red") == sorted([15, "start", "start", "start"], key=str)


def test_taking_a_teammates_piece_has_no_penalty(both):
    # 4 players: red + green are a team (contract "Selecting the game")
    new, events = applied(both, position(red=[10], green=[15]), move("5", 10, 15))
    same_events(events, [mv(10, 15), cap(15, "green")])
    assert new["out"] == [] and new["cards_left"]["red"] == 4 and new["to_move"] == "blue"
    assert where(new, "green") == ["start"] * 4


# -- the own-start-space blocker ----------------------------------------------------------

def test_a_piece_on_its_own_start_space_cannot_be_passed_or_taken(both):
    # DE "Startfeld": "Eine Spielfigur auf ihrem gleichfarbigen Startfeld blockiert eigene und
    # fremde Figuren." ... "ist geschützt und kann nicht geschlagen ... werden". Blue on 16.
    # Reading "passing when landing exactly on a blocked piece": illegal.
    pos = position(red=[14], blue=[16])
    assert legal(both, pos, "5") == []          # 14 -> 19 passes 16
    assert legal(both, pos, "2") == []          # 14 -> 16 would take the protected piece
    assert outcomes(both, pos, "1/11") == {(14, 15), ("red:start", 0)}   # 11 passes 16
    refused(both, pos, move("2", 14, 16))
    refused(both, pos, move("5", 14, 19))


def test_the_blocker_stops_own_pieces_too(both):
    # DE "blockiert eigene und fremde Figuren": red 0 blocks red 62 (62 -> 63 -> 0 ...)
    pos = position(red=[0, 62])
    assert outcomes(both, pos, "5") == {(0, 5)}
    assert outcomes(both, pos, "2") == {(0, 2)}   # 62 + 2 = 0: the own protected piece


def test_the_blocker_blocks_however_it_got_there(both):
    # DE "Dabei ist es gleich, ob sie durch Herausziehen aus dem Start oder durch Umrunden der
    # Laufstrecke auf das Starfeld gezogen wurde." Red 60 goes 4 forward (61, 62 hopping blue,
    # 63, 0) onto its own start space; then blue 62 cannot pass it with a 3 (63, 0, 1).
    pos = position(red=[60], blue=[62])
    assert (60, 0) in outcomes(both, pos, "4")
    new, _ = applied(both, pos, move("4", 60, 0))
    assert new["to_move"] == "blue"
    assert legal(both, new, "3") == []
    assert legal(both, new, "2") == []            # 62 + 2 = 0: protected


def test_another_colours_start_space_protects_nobody(both):
    # only the own-coloured start space protects: yellow on blue's 16 is taken like any piece
    new, events = applied(both, position(red=[14], yellow=[16]), move("2", 14, 16))
    same_events(events, [mv(14, 16), cap(16, "yellow")])


# -- start cards and entering ---------------------------------------------------------------

def test_start_cards_enter_a_piece_on_the_own_start_space(both):
    # DE "Um eine Figur vom Start auf das Starfeld setzen zu können, wird eine Startkarte
    # benötigt"; the start cards are the 1/11 and the 13 (contract "Cards").
    pos = position(red=[20])
    assert outcomes(both, pos, "13") == {(20, 33), ("red:start", 0)}   # 20+13 passes empty 32
    assert outcomes(both, pos, "1/11") == {(20, 21), (20, 31), ("red:start", 0)}
    assert outcomes(both, pos, "12") == {(20, 32)}
    new, events = applied(both, pos, move("13", "red:start", 0))
    assert events == [mv("red:start", 0)]
    assert where(new, "red") == sorted([0, 20, "start", "start"], key=str)


def test_entering_takes_another_colour_on_the_own_start_space(both):
    # contract: "Start cards ... (taking a piece of another colour there ...)"
    new, events = applied(both, position(red=[20], blue=[0]), move("13", "red:start", 0))
    same_events(events, [mv("red:start", 0), cap(0, "blue")])
    assert where(new, "blue") == ["start"] * 4


def test_entering_onto_a_teammate_takes_it_without_penalty(both):
    new, events = applied(both, position(red=[20], green=[0]), move("1/11", "red:start", 0))
    same_events(events, [mv("red:start", 0), cap(0, "green")])
    assert new["out"] == [] and new["cards_left"]["red"] == 4


def test_entering_is_impossible_onto_an_own_piece(both):
    # contract: "impossible while an own piece stands there"
    pos = position(red=[0])
    assert outcomes(both, pos, "13") == {(0, 13)}
    assert outcomes(both, pos, "1/11") == {(0, 1), (0, 11)}
    refused(both, pos, move("13", "red:start", 0))


def test_no_entering_with_an_empty_start_area(both):
    # 20+13 = 33 takes red's own 33 (allowed); 25 -> 38, 29 -> 42, 33 -> 46
    pos = position(red=[20, 25, 29, 33])
    assert outcomes(both, pos, "13") == {(20, 33), (25, 38), (29, 42), (33, 46)}


# -- home ---------------------------------------------------------------------------------

def test_home_is_entered_moving_forward_past_the_own_start_space(both):
    # DE "Eine Figur kann immer nur vorwärts über das Startfeld ins Ziel gezogen werden."
    # Red 62: 63, 0, h1 with 3 (or stay on the track: 1); 63, 0, h1..h4 with 6; an 8 cannot
    # fit (6 steps reach h4) and every point must be used (DE "Zugzwang").
    pos = position(red=[62])
    assert outcomes(both, pos, "3") == {(62, 1), (62, "red:h1")}
    assert outcomes(both, pos, "6") == {(62, 4), (62, "red:h4")}
    assert outcomes(both, pos, "8") == {(62, 6)}


def test_the_seeds_tip_60_with_a_5_goes_home(both):
    # DE (the 4): from 60 "mit der nächsten Karte (eine 1-7, 5, 6 oder 8) gleich ins Ziel":
    # 61 62 63 0 h1 with the 5; h4 with the 8
    pos = position(red=[60])
    assert outcomes(both, pos, "5") == {(60, 1), (60, "red:h1")}
    assert outcomes(both, pos, "8") == {(60, 4), (60, "red:h4")}


def test_no_home_straight_from_the_own_start_space(both):
    # DE "Allerdings darf das nicht direkt vom Startfeld aus geschehen, auch wenn die Figur
    # bereits eine Runde gelaufen ist."
    pos = position(red=[0])
    assert outcomes(both, pos, "2") == {(0, 2)}
    assert outcomes(both, pos, "5") == {(0, 5)}
    refused(both, pos, move("2", 0, "red:h2"))


def test_home_pieces_cannot_be_passed_or_taken_or_moved_backward(both):
    # DE "Ziel": "Dort darf weder übersprungen noch geschlagen oder rückwärts gelaufen werden."
    # red 61 and red h2: 5 would end on h2 (62 63 0 h1 h2), 6 would pass it: track only;
    # 3 ends on red's own start 0; the 4 reaches h1 (62 63 0 h1) or goes back to 57; the h2
    # piece cannot go 4 forward (h3 h4 then nothing) nor backward.
    pos = position(red=[61, "h2"])
    assert outcomes(both, pos, "5") == {(61, 2)}
    assert outcomes(both, pos, "6") == {(61, 3)}
    assert outcomes(both, pos, "3") == {(61, 0)}
    assert outcomes(both, pos, "4") == {(61, 1), (61, "red:h1"), (61, 57)}


def test_moves_inside_the_home(both):
    pos = position(red=["h1", 30])
    assert outcomes(both, pos, "2") == {("red:h1", "red:h3"), (30, 32)}
    assert outcomes(both, pos, "3") == {("red:h1", "red:h4"), (30, 33)}
    assert outcomes(both, pos, "4") == {(30, 34), (30, 26)}     # h1 + 4 does not fit
    pos = position(red=["h1", "h2", 30])
    assert outcomes(both, pos, "2") == {("red:h2", "red:h4"), (30, 32)}


# -- the 4 forward and backward --------------------------------------------------------------

def test_the_4_backward_hops_like_a_forward_move(both):
    # DE "Wenn eine Figur rückwärts gezogen wird, dürfen dabei andere Spielfiguren
    # übersprungen werden." 10 -> 9 8(blue) 7(green) 6
    pos = position(red=[10], blue=[8], green=[7])
    assert outcomes(both, pos, "4") == {(10, 14), (10, 6)}
    new, events = applied(both, pos, move("4", 10, 6))
    assert events == [mv(10, 6)]


def test_the_4_backward_cannot_pass_or_take_a_blocker(both):
    # contract: "4 backward: ... may not pass a blocking piece"; landing on it is taking a
    # protected piece (readings: illegal)
    assert outcomes(both, position(red=[18], blue=[16]), "4") == {(18, 22)}
    assert outcomes(both, position(red=[20], blue=[16]), "4") == {(20, 24)}
    # red 2 going back passes red's own start 0, blocked by red's own piece there
    assert outcomes(both, position(red=[0, 2]), "4") == {(0, 4), (0, 60), (2, 6)}


def test_the_4_backward_takes_a_piece_it_ends_on(both):
    new, events = applied(both, position(red=[10], blue=[6]), move("4", 10, 6))
    same_events(events, [mv(10, 6), cap(6, "blue")])


def test_the_4_backward_from_the_own_start_space(both):
    # readings: "a piece on its own start space may go 4 backward (the seed's tip)"; DE
    # "Besonders reizvoll ist es, eine Figur, die auf dem Startfeld steht, um 4 Felder
    # rückwärts zu ziehen."
    pos = position(red=[0])
    assert outcomes(both, pos, "4") == {(0, 4), (0, 60)}
    new, events = applied(both, pos, move("4", 0, 60))
    assert where(new, "red") == sorted([60, "start", "start", "start"], key=str)


def test_the_4_backward_never_touches_the_start_area_or_a_home(both):
    # readings: "the 4 backward into or out of the start area: impossible"; contract: it
    # "never leaves or enters a home". Red 2 with three pieces waiting: forward 6, back 62
    # (1 0 63 62, red's start 0 empty); nothing from or to the start area or a home.
    assert outcomes(both, position(red=[2]), "4") == {(2, 6), (2, 62)}
    assert outcomes(both, position(red=["h3", 30]), "4") == {(30, 34), (30, 26)}
    refused(both, position(red=[2]), move("4", "red:start", 60))


# -- the 1-7 --------------------------------------------------------------------------------

def test_1_7_moves_one_piece_any_count_from_1_to_7(both):
    # DE "Mit dieser Karte wird eine Figur um bis zu 7 Felder vorwärts gezogen."; readings
    # "1-7: one piece, 1..7 steps; legal lists every count that is legal"
    assert outcomes(both, position(red=[10]), "1-7") == steps(10, range(1, 8))
    # two pieces: every count of each, never split (each move one single segment)
    assert outcomes(both, position(red=[10, 30]), "1-7") == (
        steps(10, range(1, 8)) | steps(30, range(1, 8)))


def test_1_7_stops_at_a_blocker(both):
    # 14 -> 15 only: 16 is blue's protected piece, 17.. pass it
    assert outcomes(both, position(red=[14], blue=[16]), "1-7") == {(14, 15)}


def test_1_7_into_home(both):
    # red 62: track 63 0 1 2 3 4 5 (counts 1..7); home h1..h4 with counts 3..6
    expected = steps(62, range(1, 8)) | {(62, "red:h1"), (62, "red:h2"), (62, "red:h3"),
                                         (62, "red:h4")}
    assert outcomes(both, position(red=[62]), "1-7") == expected


def test_1_7_applied_with_a_chosen_count(both):
    new, events = applied(both, position(red=[10]), move("1-7", 10, 13))
    assert events == [mv(10, 13)] and new["last_card"] == "1-7"


# -- Agent DOG's rules are absent -----------------------------------------------------------

def test_no_holes_no_undercover_no_meeting_points_in_dog(both):
    # readings: "Agent DOG rules (holes, undercover, meetings, partner 4) do not exist in
    # dog/dog-royal". 4 is a hole in agent-dog-4 (a flip there); 8 a meeting point (it would
    # pull blue 3 onto the hole 7). In `dog` both are plain spaces, and 8 draws nothing.
    new, events = applied(both, position(red=[2]), move("2", 2, 4))
    assert events == [mv(2, 4)]
    new, events = applied(both, position(red=[6], blue=[3]), move("2", 6, 8))
    assert events == [mv(6, 8)]
    assert where(new, "blue") == sorted([3, "start", "start", "start"], key=str)
    assert new["cards_left"]["red"] == 4
    # a blue piece on the Agent DOG hole 12 is an ordinary blue piece: red cannot move it
    assert outcomes(both, position(red=[30], blue=[12]), "5") == {(30, 35)}


# -- the seed's worked example and the unranked pieces ----------------------------------------

def test_the_seeds_example_green_holds_a_4_a_1_7_and_a_magnet(both):
    # DE "Beispiel": "Der grüne Spieler besitzt als Handkarten eine 4, eine 1-7 und einen
    # Magneten. Er könnte mit der hinteren Figur (A) und der 1-7 oder dem Magneten bis auf das
    # schwarze Feld hinter die rote Figur vorrücken oder mit der 1-7 sechs Felder vorwärts gehen
    # und die rote Figur schlagen. Andererseits könnte er mit der 1-7 die Figur B ein Feld
    # vorrücken um im Ziel die Lücke zu füllen. Etwas risikoreicher wäre es, mit der 4 die Figur
    # C vier Felder zurückzuziehen (auf das Feld vor der roten Figur), um in der nächsten Runde
    # dann mit der 1-7 ins Ziel zu ziehen. Dann bestünde aber die Gefahr, dass der rote Spieler
    # mit einer 1/11 oder einer 1-7 die Figur C schlagen könnte." The picture is lost; a board
    # that fits the text: red on 27, green A on 21 (six behind it), C on green's start 32 (four
    # back is 28, the space ahead of red), B on h2 with h3 the gap and green's fourth on h4.
    pos = position(to_move="green", red=[27], green=[21, "h2", 32, "h4"])
    assert outcomes(both, pos, "1-7") == (
        steps(21, range(1, 8))                       # 26: behind red; 27: takes red
        | {("green:h2", "green:h3")}                  # B fills the gap (h4 is taken)
        | steps(32, range(1, 8)))                     # C: never home straight from its start
    assert outcomes(both, pos, "magnet") == {(21, 26),  # A up behind red
                                             (32, 20)}  # C: the next piece ahead is A on 21
    assert outcomes(both, pos, "4") == {(21, 25), (21, 17), (32, 36), (32, 28)}
    new, events = applied(both, pos, move("1-7", 21, 27))   # six forward takes red
    same_events(events, [mv(21, 27), cap(27, "red")])
    new, events = applied(both, pos, move("4", 32, 28))     # C four back, ahead of red
    assert events == [mv(32, 28)]
    # the risk: red takes C with the 1 of a 1/11 or of a 1-7
    red_turn = dict(new, to_move="red")
    assert (27, 28) in outcomes(both, red_turn, "1/11")
    assert (27, 28) in outcomes(both, red_turn, "1-7")
    _, events = applied(both, red_turn, move("1/11", 27, 28))
    same_events(events, [mv(27, 28), cap(28, "green")])
    # or, next round, C goes home with the 1-7: 29 30 31 32 h1 (h2 is B's)
    assert (28, "green:h1") in outcomes(both, dict(new, to_move="green"), "1-7")


def test_in_dog_the_pieces_carry_no_rank(both):
    # DE "Spielvorbereitung": "Die Spieler stellen ihre Spielfiguren mit der bedruckten Seite
    # nach unten (die bedruckte Seite wird für die „Royal“-Regel benötigt und bleibt ansonsten
    # verdeckt)": in `dog` the list order means nothing. Red's last-listed piece passes blue's
    # first-listed one, which in `dog-royal` (a jester and a king) it could not.
    pos = position(red=["start", "start", "start", 10], blue=[12])
    assert outcomes(both, pos, "5") == {(10, 15)}
    royal_pos = dict(pos, game="dog-royal")
    assert outcomes(both, royal_pos, "5") == set()
