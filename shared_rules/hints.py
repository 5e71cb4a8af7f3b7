# What the board may light for a card: the pieces that can move and where each can end up.
# Built from the legal moves, which are colour-blind for undercover pieces, so hints show
# public information only.
from shared_rules import movegen
from shared_rules.cards import SWAP, SPLIT


def hints(st, cards, k):
    """Returns (movable, targets): a list of locations and {location: [locations]}."""
    movable = []
    targets = {}
    origin = bytearray(st.pos)
    e = movegen.effective(st, cards, k)
    total = cards.steps[e][0] if e >= 0 and cards.action[e] == SPLIT else 0

    def add(frm, to):
        if frm not in movable:
            movable.append(frm)
        if to >= 0:
            t = targets.get(frm)
            if t is None:
                targets[frm] = [to]
            elif to not in t:
                t.append(to)

    def visit(a, b):
        if not total:
            add(origin[a], origin[b] if act_is_swap else b)
            if act_is_swap:
                add(origin[b], origin[a])
            return
        # st stands after the split's steps here: targets are the final spaces of moved
        # pieces that were not burned later in the same card
        for (p, _) in movegen.split_code_steps(a, total):
            now = st.pos[p]
            add(origin[p], now if now < st.lay.nboard else -1)

    act_is_swap = e >= 0 and cards.action[e] == SWAP
    movegen.moves(st, cards, k, visit)
    return movable, targets
