# A move in compact form, and the full list of legal moves of a card as Move objects (for
# tools and the protocol; the device walks the generator in movegen directly).
from shared_rules import movegen
from shared_rules.cards import SPLIT


class Move:
    """STEPS: a = piece, b = destination. SWAP: a, b = the two pieces. SPLIT: a = split code.
    meet: order of the meeting points when several fire. A pass has card -1."""

    def __init__(self, card, act, a=0, b=0, meet=None):
        self.card = card
        self.act = act
        self.a = a
        self.b = b
        self.meet = meet


def split_fired(st, code, total):
    """Meeting points the split move `code` fires; st must stand after its steps."""
    lay = st.lay
    fired = []
    for (p, _) in movegen.split_code_steps(code, total):
        loc = st.pos[p]
        if loc < lay.n and lay.meeting[loc] and loc not in fired:
            fired.append(loc)
    fired.sort()
    return fired


def permutations(items):
    if len(items) <= 1:
        return [list(items)]
    out = []
    for i in range(len(items)):
        rest = items[:i] + items[i + 1:]
        for tail in permutations(rest):
            out.append([items[i]] + tail)
    return out


def legal_moves(st, cards, k):
    found = []
    e = movegen.effective(st, cards, k)
    total = cards.steps[e][0] if e >= 0 and cards.action[e] == SPLIT else 0

    def visit(a, b):
        if total:
            found.append((a, split_fired(st, a, total)))
        else:
            found.append((a, b))

    act = movegen.moves(st, cards, k, visit)
    out = []
    for (a, b) in found:
        if total and len(b) > 1:
            for order in permutations(b):
                out.append(Move(k, act, a, 0, order))
        elif total:
            out.append(Move(k, act, a, 0))
        else:
            out.append(Move(k, act, a, b))
    return out


def _factorial(n):
    f = 1
    for i in range(2, n + 1):
        f *= i
    return f


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
        k = 1
        fired = None
        if self.total:
            fired = split_fired(self.st, a, self.total)
            k = _factorial(len(fired))
        if self.n <= self.want < self.n + k:
            self.a = a
            self.b = b
            if fired is not None and len(fired) > 1:
                self.meet = permutations(fired)[self.want - self.n]
        self.n += k


def count_moves(st, cards, k):
    e = movegen.effective(st, cards, k)
    total = cards.steps[e][0] if e >= 0 and cards.action[e] == SPLIT else 0
    pick = _Pick(st, total, -1)
    movegen.moves(st, cards, k, pick.visit)
    return pick.n


def nth_move(st, cards, k, i):
    """The i-th legal move of card k (in legal_moves order) without listing the others."""
    e = movegen.effective(st, cards, k)
    total = cards.steps[e][0] if e >= 0 and cards.action[e] == SPLIT else 0
    pick = _Pick(st, total, i)
    act = movegen.moves(st, cards, k, pick.visit)
    return Move(k, act, pick.a, pick.b, pick.meet)
