# A move in compact form, and the full list of legal moves of a card as Move objects (for
# tools and the protocol; the device walks the generator in movegen directly).
from shared_rules import movegen
from shared_rules.cards import SPLIT


class Move:
    """STEPS, MAGNET: a = piece, b = destination (with a jump packed in: movegen.jump_of).
    SWAP, SWAP_OWN: a, b = the two pieces. SPLIT: a = the packed single steps (split.pack).
    meet: the order of the meeting points when several fire. A pass has card -1."""

    def __init__(self, card, act, a=0, b=0, meet=None):
        self.card = card
        self.act = act
        self.a = a
        self.b = b
        self.meet = meet


def permutations(items):
    if len(items) <= 1:
        return [list(items)]
    out = []
    for i in range(len(items)):
        rest = items[:i] + items[i + 1:]
        for tail in permutations(rest):
            out.append([items[i]] + tail)
    return out


def _split_total(st, k):
    e = movegen.effective(st, k)
    cards = st.game.cards
    return cards.steps[e][0] if e >= 0 and cards.action[e] == SPLIT else 0


def legal_moves(st, k):
    found = []
    total = _split_total(st, k)
    game = st.game

    def visit(a, b):
        # a split's orders are read while st stands after its steps
        found.append((a, game.orders(st, a, total) if total else b))

    act = movegen.moves(st, k, visit)
    out = []
    for (a, b) in found:
        if total:
            for order in b:
                out.append(Move(k, act, a, 0, order))
        else:
            out.append(Move(k, act, a, b))
    return out


class _Pick:
    # walks the legal moves once, counting them (want < 0) or keeping the want-th one, so a
    # caller can choose among thousands of Partner 4 moves without a list of them all
    def __init__(self, st, total, want):
        self.st = st
        self.total = total
        self.want = want
        self.n = 0
        self.a = 0
        self.b = 0
        self.meet = None

    def visit(self, a, b):
        orders = None
        k = 1
        if self.total:
            orders = self.st.game.orders(self.st, a, self.total)
            k = len(orders)
        if self.n <= self.want < self.n + k:
            self.a = a
            self.b = b
            if orders is not None:
                self.meet = orders[self.want - self.n]
        self.n += k


def count_moves(st, k):
    pick = _Pick(st, _split_total(st, k), -1)
    movegen.moves(st, k, pick.visit)
    return pick.n


def nth_move(st, k, i):
    """The i-th legal move of card k (in legal_moves order) without listing the others."""
    pick = _Pick(st, _split_total(st, k), i)
    act = movegen.moves(st, k, pick.visit)
    return Move(k, act, pick.a, pick.b, pick.meet)
