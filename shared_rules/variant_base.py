# The track games (Agent DOG, DOG, DOG Royal) share one set of mechanics: a track and homes,
# start areas and start spaces, hopping and blocking, knock-outs, turns, rounds, teams and the
# win. A Variant holds what one game adds to them, as a few hooks and tables, the way
# python-chess holds its variants as small subclasses over one Board: which pieces a seat may
# move, which pieces a moving piece may not pass or land on, what a move causes after it is
# made. Move generation (movegen.py) and applying moves (apply.py) ask these hooks once per
# card, never per step, and walk with the tables they return.
#
# A Variant is one game on one board (a layout and a card table); variants are found by name.
from shared_rules import movegen

NO_LIMIT = 255


class Variant:
    name = "?"
    title = "?"              # the game's name for a person
    cards_name = "?"
    ranked = False           # a colour's pieces are ranked by their order (DOG Royal)
    draws = False            # cards may be drawn during a round (DOG Royal's special spaces)
    hand = 5                 # cards dealt to each seat at the start of a round
    own_capture_out = False  # knocking out an own or a teammate's piece puts the mover out

    def __init__(self, lay, cards):
        self.lay = lay
        self.cards = cards
        ppc = lay.ppc
        self.prot = bytearray(lay.n)  # scratch: pieces on their own start space, per card
        self.movable = bytearray(lay.npieces)  # scratch: pieces the seat may move, per card
        self.same = [self.prot] * ppc  # every rank walks with the protected start spaces
        # per rank (a piece's index within its colour; all alike unless the game ranks them):
        self.limits = bytearray([NO_LIMIT] * ppc)  # the most steps of a counted move
        self.short = bytearray(ppc)  # points a move ending in its home may leave unused
        self.jumps = bytearray(ppc)  # 1: may jump on from a special space it ends on
        self.walk = movegen.Walk(self)  # refers to the tables above: subclasses fill them
        self.max_hand = self.hand  # the most cards a seat can hold (with draws: more)

    # -- which pieces a seat moves ----------------------------------------------------------
    def fill_movable(self, st, colour):
        """Marks in self.movable the pieces the seat playing `colour` may move with an
        ordinary card (a number, a start card): its own pieces on the board."""
        lay = self.lay
        m = self.movable
        for p in range(lay.npieces):
            m[p] = 1 if p // lay.ppc == colour and st.pos[p] < lay.nboard else 0
        return m

    # -- passing and landing --------------------------------------------------------------
    def fill_protected(self, st):
        """Marks in self.prot the track spaces with a piece on its own-coloured start space:
        it cannot be passed nor knocked out, own pieces included."""
        lay = self.lay
        prot = self.prot
        for t in range(lay.n):
            prot[t] = 0
        for c in range(lay.ncol):
            s = lay.start[c]
            q = st.board[s]
            if q and (q - 1) // lay.ppc == c:
                prot[s] = 1
        return prot

    def pass_tables(self, st, colour, green):
        """(blocks, lands): per piece rank (the index within its colour), a table over the
        track of the spaces a moving piece may not pass (1) and may not end on (1). Without
        ranks every piece has the same two tables: the protected start spaces."""
        self.fill_protected(st)
        return self.same, self.same

    # -- what a move causes ------------------------------------------------------------------
    def card_moves(self, st, act, colour, visit):
        """Walks the moves of a card only this game has (DOG's magnet and swap)."""
        return False

    def back_dest(self, w, p, loc, n):
        """Walks a backward count (DOG's 4)."""
        return False

    def jump_on(self, w, p, loc, t):
        """Walks the jump on from special space t (DOG Royal's citizen)."""
        return False

    def after_move(self, old, new, colour, e, mv, moved, captured, events):
        """Effects of a card's move once its pieces stand (Agent DOG: flips, reveals,
        meetings; DOG Royal: drawing on a special space, the citizen's jump)."""

    def tag(self, ev, p):
        """An event naming piece p, with what the game tells about it (DOG Royal: the rank)."""
        return ev

    def orders(self, st, code, total):
        """The orders in which the effects of the split move `code` may be carried out (st
        stands after its steps): [None] when there is nothing to order."""
        return [None]

    # -- reasons for a person ------------------------------------------------------------------
    def why_not_movable(self, st, colour, p):
        return "you may move only %s pieces" % self.lay.colours[colour]

    def explain(self, st, e, colour, mv):
        """A reason specific to this game why move mv of card kind e is illegal, or None."""
        return None
