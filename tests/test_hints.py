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
