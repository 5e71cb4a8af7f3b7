# DOG (`game: "dog"`) scenario tests for the red cards: the magnet, the swap, the copy, and
# `hints` for the new cards. Counted by hand from seed 001 (German part unless said, quoted)
# and dog-rules.md; 4 players on `dog-4` (starts red 0 blue 16 green 32 yellow 48).
from dogbook import (position, outcomes, legal, applied, refused, hints, where, move, mv,
                     steps, ALL_HOME)


# -- the magnet -------------------------------------------------------------------------------

def test_magnet_moves_directly_behind_the_next_piece(both):
    # DE "Mit dem Magneten wird eine Figur vorwärts direkt auf das Feld hinter die nächste
    # Figur (egal welcher Farbe) gezogen. ... Es ist nicht erlaubt, vorher stehen zu bleiben."
    pos = position(red=[10], blue=[20])
    assert outcomes(both, pos, "magnet") == {(10, 19)}
    new, events = applied(both, pos, move("magnet", 10, 19))
    assert events == [mv(10, 19)]
    assert new["last_card"] == "magnet" and new["cards_left"]["red"] == 4


def test_magnet_counts_own_pieces_and_goes_round_the_track(both):
    # "the next piece on the track ahead of it (any colour)": red 10 stops behind red 30; red
    # 30's next piece ahead is red 10 (31 .. 63, 0 .. 9; red's start 0 empty): it stops on 9
    pos = position(red=[10, 30])
    assert outcomes(both, pos, "magnet") == {(10, 29), (30, 9)}


def test_magnet_with_nobody_else_on_the_track_or_the_next_piece_directly_ahead(both):
    # contract: "with no other piece on the track, or with the next piece directly ahead, it
    # has no move with that piece"
    assert legal(both, position(red=[10]), "magnet") == []
    assert legal(both, position(red=[10], blue=[11]), "magnet") == []


def test_magnet_stops_behind_a_blocker(both):
    # the next piece is blue's protected piece on 16: red stops on 15
    assert outcomes(both, position(red=[10], blue=[16]), "magnet") == {(10, 15)}


def test_magnet_never_enters_a_home_and_ignores_home_pieces(both):
    # DE "Der Magnet ist nur auf der umlaufenden Bahn einzusetzen. Mit einem Magneten kann ein
    # Spieler nicht ins Ziel ziehen, bzw. im Ziel Figuren vorwärts bewegen." Red 60's next
    # track piece is green 5 (red h1 does not count): 61 62 63 0 .. 4, never into red's home.
    pos = position(red=[60, "h1"], green=[5])
    assert outcomes(both, pos, "magnet") == {(60, 4)}
    # red 62 with blue 1 ahead stops on its own start space 0, not in its home
    assert outcomes(both, position(red=[62], blue=[1]), "magnet") == {(62, 0)}
    refused(both, pos, move("magnet", 60, "red:h2"))


# -- the swap ---------------------------------------------------------------------------------

def test_swap_changes_an_own_piece_with_another_colour(both):
    # DE "Tausch: Mit dieser Karte muss eine eigene Spielfigur mit einer vom Gegner oder
    # Partner getauscht werden". Own piece first, in the move and in the event.
    pos = position(red=[10], blue=[20])
    assert outcomes(both, pos, "swap") == {("swap", 10, 20)}
    new, events = applied(both, pos, {"card": "swap", "swap": [10, 20]})
    assert events == [{"type": "swap", "at": [10, 20]}]
    assert where(new, "red") == sorted([20, "start", "start", "start"], key=str)
    assert where(new, "blue") == sorted([10, "start", "start", "start"], key=str)
    assert new["last_card"] == "swap" and new["cards_left"]["red"] == 4


def test_swap_with_the_teammate(both):
    # "vom Gegner oder Partner": green is red's teammate
    assert outcomes(both, position(red=[10], green=[30]), "swap") == {("swap", 10, 30)}


def test_swap_excludes_protected_and_home_pieces(both):
    # DE "Geschützte Spielfiguren (Figuren auf dem gleichfarbigen Startfeld) oder Figuren, die
    # schon im Ziel sind, dürfen nicht getauscht werden." Blue 16 and green 32 are protected,
    # blue h1 is home; red 0 (own start) cannot be swapped either. Only 10 <-> yellow 50.
    pos = position(red=[10, 0], blue=[16, "h1"], green=[32], yellow=[50])
    assert outcomes(both, pos, "swap") == {("swap", 10, 50)}
    refused(both, pos, {"card": "swap", "swap": [10, 16]})
    refused(both, pos, {"card": "swap", "swap": [0, 50]})


def test_swap_cannot_be_played_with_only_own_or_protected_pieces(both):
    # DE "Sind nur eigene bzw. geschützte Figuren auf dem Weg, kann die Karte nicht
    # ausgespielt werden."
    assert legal(both, position(red=[10, 20]), "swap") == []
    assert legal(both, position(red=[10], blue=[16], green=[32]), "swap") == []
    assert legal(both, position(red=[10], blue=["h1"]), "swap") == []
    assert legal(both, position(red=["h1"], blue=[20]), "swap") == []   # no own track piece


def test_a_finished_player_swaps_the_teammates_pieces(both):
    # contract: "an own piece (a finished player: the teammate's) on the track"
    pos = position(red=ALL_HOME, green=[30], blue=[20], yellow=[50])
    assert outcomes(both, pos, "swap") == {("swap", 30, 20), ("swap", 30, 50)}
    new, events = applied(both, pos, {"card": "swap", "swap": [30, 20]})
    assert events == [{"type": "swap", "at": [30, 20]}]
    assert where(new, "green") == sorted([20, "start", "start", "start"], key=str)


# -- the copy ---------------------------------------------------------------------------------

def test_copy_plays_the_last_card(both):
    # DE "Kopie: Diese Karte kopiert die letzte gespielte Karte ... als ob er die zuvor
    # gespielte Karte selbst ausgespielt hätte." A copy carries the fields of the copied card.
    pos = position(red=[10], last_card="5")
    assert outcomes(both, pos, "copy") == {(10, 15)}
    new, events = applied(both, pos, move("copy", 10, 15))
    assert events == [mv(10, 15)]
    assert new["cards_left"]["red"] == 4


def test_copy_is_never_the_first_card_of_a_round(both):
    # DE "Sie kann also nicht als erste Karte einer neuen Runde ... ausgespielt werden."
    pos = position(red=[10], last_card=None)
    assert legal(both, pos, "copy") == []
    refused(both, pos, move("copy", 10, 15))


def test_a_copied_4_goes_either_way_and_a_copied_1_7_any_count(both):
    # readings "a copy of 1-7 or 4: any count 1..7, or either direction, whatever the copied
    # player chose"; DE "Wird eine Kopie z.B. nach einer 1-7 gespielt (der Spieler ist 3
    # Felder weit gezogen), darf der Ausspieler auch 1-7 Felder weit gehen"
    assert outcomes(both, position(red=[10], last_card="4"), "copy") == {(10, 14), (10, 6)}
    assert outcomes(both, position(red=[10], last_card="1-7"), "copy") == steps(10, range(1, 8))


def test_copy_of_start_cards_magnet_and_swap(both):
    # "any of its functions": a copied 1/11 enters or goes 1 or 11
    assert outcomes(both, position(red=[10], last_card="1/11"), "copy") == {
        (10, 11), (10, 21), ("red:start", 0)}
    assert outcomes(both, position(red=[10], blue=[20], last_card="magnet"), "copy") == {
        (10, 19)}
    assert outcomes(both, position(red=[10], blue=[20], last_card="swap"), "copy") == {
        ("swap", 10, 20)}


def test_a_copy_of_a_copy_copies_the_same_card(both):
    # contract: "a copy of a copy copies the same card" (last_card stays the copied card)
    pos = position(red=[10], blue=[30], last_card="5")
    new, _ = applied(both, pos, move("copy", 10, 15))
    assert new["last_card"] == "5" and new["to_move"] == "blue"
    assert outcomes(both, new, "copy") == {(30, 35)}


def test_a_player_alone_with_cards_copies_their_own_card(both):
    # DE "In diesem Fall ist es möglich, dass er mit der Kopie eine eigene Karte kopiert."
    # Red holds 2 cards, nobody else any: red plays a 5 and stays to move; the copy copies it.
    pos = position(red=[10], cards_left={"red": 2, "blue": 0, "green": 0, "yellow": 0})
    new, events = applied(both, pos, move("5", 10, 15))
    assert new["to_move"] == "red" and new["last_card"] == "5"
    assert not [e for e in events if e["type"] == "round_end"]
    assert outcomes(both, new, "copy") == {(15, 20)}


# -- hints for the new cards --------------------------------------------------------------------

def test_swap_hints_own_pieces_movable_targets_what_they_swap_with(both):
    # readings "hints for swap: every own piece that can swap is movable; its targets are the
    # pieces it can swap with". Red 0 (own start) cannot swap; blue 16 is protected.
    assert hints(both, position(red=[10, 0], blue=[20, 16], green=[30]), "swap") == (
        [10], {"10": [20, 30]})


def test_hints_for_the_4_the_1_7_and_the_magnet(both):
    assert hints(both, position(red=[10]), "4") == ([10], {"10": [6, 14]})
    assert hints(both, position(red=[10]), "1-7") == ([10], {"10": list(range(11, 18))})
    # red 10 stops behind blue 20; red 30's next piece ahead is red 10 (round the track)
    assert hints(both, position(red=[10, 30], blue=[20]), "magnet") == (
        [10, 30], {"10": [19], "30": [9]})


def test_hints_light_the_start_area_for_a_start_card(both):
    assert hints(both, position(red=[30]), "13") == (
        [30, "red:start"], {"30": [43], "red:start": [0]})


def test_no_hints_for_an_unplayable_card(both):
    assert hints(both, position(red=[30], last_card=None), "copy") == ([], {})
    assert hints(both, position(red=[10, 20]), "swap") == ([], {})
    assert hints(both, position(red=[10]), "magnet") == ([], {})
