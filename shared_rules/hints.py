# What the board may light for a card: the pieces that can move and where each can end up.
# Built from the legal moves, which are colour-blind for undercover pieces, so hints show
# public information only.
from shared_rules import movegen, split
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
        e = movegen.effective(st, k)
        cards = st.game.cards
        self.act = cards.action[e] if e >= 0 else -1
        self.total = cards.steps[e][0] if self.act == SPLIT else 0

    def add(self, frm, to):
        if frm not in self.movable:
            self.movable.append(frm)
        if to >= 0:
            t = self.targets.get(frm)
            if t is None:
                self.targets[frm] = bytearray((to,))
            else:
                for x in t:  # (MicroPython's bytearray has no `in` for an int)
                    if x == to:
                        return
                t.append(to)

    def visit(self, a, b):
        origin = self.origin
        act = self.act
        if act == SWAP:  # two undercover pieces: each is a target of the other
            self.add(origin[a], origin[b])
            self.add(origin[b], origin[a])
        elif act == SWAP_OWN:  # your piece, and the pieces it can change places with
            self.add(origin[a], origin[b])
        elif self.total:
            # st stands after the split's steps here: targets are the final spaces of moved
            # pieces that were not burned later in the same card
            st = self.st
            for (p, _) in split.unpack(a, self.total):
                now = st.pos[p]
                self.add(origin[p], now if now < st.lay.nboard else -1)
        else:
            self.add(origin[a], movegen.dest_of(b))
            j = movegen.jump_of(b)
            if j >= 0:
                self.add(origin[a], j)


def segment_ends(st, sp, p, left, visit):
    """The split card's next segment for piece p (st stands some steps into the card, sp holds
    its fixed facts): visit(location) for every space p may be put down on after 1..left single
    steps from where it stands, such that the steps still left after it can be played. These
    are exactly the placements a referee following the card step by step accepts. Wherever the
    piece may turn into home, the walk forks into the home and along the track. A visit that
    returns True stops the walk, and segment_ends returns True. The steps are taken in st and
    taken back before it returns."""
    if split.dest(st, sp, p, 1) >= 0 and _step_on(st, sp, p, left, 1, visit):
        return True
    return _step_on(st, sp, p, left, 0, visit)


def _step_on(st, sp, p, steps, o, visit):
    # one step of p (o=1: into home), a visit if the card can be finished from there, then on
    d = split.dest(st, sp, p, o)
    if d < 0:
        return False
    frm = st.pos[p]
    q = split.step(st, p, d)
    stop = split.completable(st, sp, steps - 1) and visit(d)
    if not stop and steps > 1:
        stop = segment_ends(st, sp, p, steps - 1, visit)
    split.unstep(st, p, frm, d, q)
    return stop


def segment_movable(st, sp, left):
    """The pieces (locations) that may be put down somewhere by the next segment of a split
    card with `left` steps to go (see segment_ends). Pieces are asked by where they stand, and
    only movable ones, so nothing depends on which colour hides under an undercover piece."""
    out = []
    lay = st.lay
    for loc in range(lay.nboard):
        q = st.board[loc]
        if q and (q - 1) in sp.movable and _can_end(st, sp, q - 1, left):
            out.append(loc)
    return out


def _stop(d):
    return True


def _can_end(st, sp, p, left):
    return segment_ends(st, sp, p, left, _stop)


def segment_hints(st, sp, left):
    """(movable, targets) of the next segment of a split card with `left` steps to go."""
    movable = segment_movable(st, sp, left)
    targets = {}
    for loc in movable:
        ends = []

        def add(d):
            if d not in ends:
                ends.append(d)

        segment_ends(st, sp, st.at(loc), left, add)
        targets[loc] = ends
    return movable, targets
