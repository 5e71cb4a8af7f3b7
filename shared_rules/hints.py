# What the board may light for a card: the pieces that can move and where each can end up.
# Built from the legal moves, which are colour-blind for undercover pieces, so hints show
# public information only.
from shared_rules import movegen
from shared_rules.cards import SWAP, SWAP_OWN, SPLIT


def hints(st, k):
    """Returns (movable, targets): a list of locations and {location: its targets}, each a
    bytearray of locations in the order the moves were found."""
    h = Hints(st, k)
    movegen.moves(st, k, h.visit)
    return h.movable, h.targets


class Hints:
    """The hints of card kind k, collected from its legal moves as a walk visits them
    (visit(a, b)), so a caller that walks the moves anyway (the referee's judge) needs no
    second walk: movable (locations) and targets ({location: bytearray of locations}: a swap
    among 24 pieces has 24 of 23 targets each, which as lists of ints held 7 KB of heap on the
    64-bit port for as long as the card was in play, as bytearrays 1.5 KB; a location fits in a
    byte on every board)."""

    def __init__(self, st, k):
        self.st = st
        self.movable = []
        self.targets = {}
        self.origin = bytearray(st.pos)
        self.one = bytearray(1)  # a target looked for in a piece's targets (add)
        e = movegen.effective(st, k)
        cards = st.game.cards
        self.act = cards.action[e] if e >= 0 else -1
        self.total = 0
        if self.act == SPLIT:  # (split.py is loaded with the first split: movegen.moves)
            from shared_rules import split
            self.total = cards.steps[e][0]
            self.unpack = split.unpack

    def add(self, frm, to):
        if frm not in self.movable:
            self.movable.append(frm)
        if to >= 0:
            t = self.targets.get(frm)
            if t is None:
                self.targets[frm] = bytearray((to,))
            else:
                # (MicroPython's bytearray has no `in` for an int; find looks at C speed, for
                # a byte held here, so nothing is allocated)
                one = self.one
                one[0] = to
                if t.find(one) < 0:
                    t.append(to)

    # visit is called for every legal move of a card as it is played: it keeps its frame within
    # MicroPython's 11 words (docs/measuring.md, "Frames"), or each call would allocate it on
    # the heap
    def visit(self, a, b):
        act = self.act
        if act == SWAP:  # two undercover pieces: each is a target of the other
            self.add(self.origin[a], self.origin[b])
            self.add(self.origin[b], self.origin[a])
        elif act == SWAP_OWN:  # your piece, and the pieces it can change places with
            self.add(self.origin[a], self.origin[b])
        elif self.total:
            self._visit_split(self.unpack(a, self.total))
        else:
            to = movegen.dest_of(b)
            self.add(self.origin[a], to)
            to = movegen.jump_of(b)
            if to >= 0:
                self.add(self.origin[a], to)

    def _visit_split(self, moved):
        # moved: the split's (piece, steps), from split.unpack; st stands after the split's
        # steps here: targets are the final spaces of moved pieces that were not burned later
        # in the same card
        for k in range(len(moved)):
            p = moved[k][0]
            now = self.st.pos[p]
            if now >= self.st.lay.nboard:
                now = -1
            self.add(self.origin[p], now)


# The next segment of a split card (the referee's judge follows a Partner 4 piece by piece):
# shared_rules/segments.py, loaded with the first split a board follows, as split.py is.

def segment_ends(st, sp, p, left, visit):
    """segments.segment_ends: visit(location) for every space piece p may be put down on by
    the next segment of the split card."""
    from shared_rules import segments
    return segments.segment_ends(st, sp, p, left, visit)


def segment_movable(st, sp, left):
    """segments.segment_movable: the pieces (locations) the next segment may move."""
    from shared_rules import segments
    return segments.segment_movable(st, sp, left)
