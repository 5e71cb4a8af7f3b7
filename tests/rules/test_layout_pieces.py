# How a board's pieces are numbered (shared_rules/layout.py: piece_colour, piece_slot, piece,
# pieces_of), the one decoding the firmware and the host tools use. Expectations from
# docs/rules-protocol.md and docs/dog-rules.md: a position lists each colour's four pieces, and
# that list's order stays with the pieces ("every answer keeps that order").
from shared_rules import layout, position
from shared_rules.ranks import RANKS

BOARDS = ("agent-dog-4", "dog-4", "dog-6")
PIECES_PER_COLOUR = 4


def test_each_colour_has_four_pieces_numbered_by_colour_then_slot():
    for name in BOARDS:
        lay = layout.load(name)
        seen = []
        for c in range(len(lay.colours)):
            mine = list(lay.pieces_of(c))
            assert len(mine) == PIECES_PER_COLOUR, name
            assert [lay.piece_colour[p] for p in mine] == [c] * PIECES_PER_COLOUR
            assert [lay.piece_slot[p] for p in mine] == list(range(PIECES_PER_COLOUR))
            assert [lay.piece(c, k) for k in range(PIECES_PER_COLOUR)] == mine
            seen += mine
        assert sorted(seen) == list(range(lay.npieces)) and len(set(seen)) == len(seen), name


def test_the_piece_a_position_lists_kth_for_a_colour_is_that_colours_slot_k():
    # every colour's k-th listed piece on a track space of its own: the decoding finds it again
    for game, players, name in (("dog", 6, "dog-6"), ("dog-royal", 4, "dog-4"),
                                ("agent-dog", 4, "agent-dog-4")):
        lay = layout.load(name)
        pieces = {}
        spot = {}
        for c, colour in enumerate(lay.colours):
            k = c % PIECES_PER_COLOUR
            row = ["start"] * PIECES_PER_COLOUR
            row[k] = lay.start[c] + 1  # one step past its start space: a plain track space
            pieces[colour] = row
            spot[c] = (lay.start[c] + 1, k)
        st = position.parse({"game": game, "players": players, "to_move": lay.colours[0],
                             "pieces": pieces})
        for c, (loc, k) in spot.items():
            p = st.at(loc)
            assert (lay.piece_colour[p], lay.piece_slot[p]) == (c, k), (game, c)
            assert p == lay.piece(c, k)
            if st.game.ranked:
                assert st.game.rank_name(p) == RANKS[k]
