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
