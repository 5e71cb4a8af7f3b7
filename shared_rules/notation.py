# Moves in the protocol's JSON form, written from the compact Move (read back: notation_parse.py).
from shared_rules import movegen
from shared_rules.cards import STEPS, SWAP, MAGNET, SWAP_OWN


def to_json(st, mv) -> dict:
    if mv.card < 0:
        return {"pass": True}
    game = st.game
    lay = st.lay
    out = {"card": game.cards.names[mv.card]}
    if mv.act == SWAP or mv.act == SWAP_OWN:
        out["swap"] = [st.pos[mv.a], st.pos[mv.b]]
    elif mv.act == STEPS or mv.act == MAGNET:
        frm = st.pos[mv.a]
        out["path"] = [[lay.loc_json(frm), lay.loc_json(movegen.dest_of(mv.b))]]
        if game.ranked and frm >= lay.nboard:
            out["rank"] = game.rank_name(mv.a)  # which piece comes into play
        j = movegen.jump_of(mv.b)
        if j >= 0:
            out["jump"] = j
    else:
        out["path"] = split_path(st, mv)
    if mv.meet:
        out["meet"] = list(mv.meet)
    return out


def split_total(st, mv):
    return st.game.cards.steps[movegen.effective(st, mv.card)][0]


def split_path(st, mv):
    # replay the single steps and write consecutive steps of one piece as one segment
    from shared_rules import split  # (loaded with the first split: movegen.moves says why)
    lay = st.lay
    work = st.copy()
    sp = split.Split(st, st.plays(st.to_move))
    path = []
    last = -1
    for (p, o) in split.unpack(mv.a, split_total(st, mv)):
        d = split.dest(work, sp, p, o)
        if p == last:
            path[-1][1] = lay.loc_json(d)
        else:
            path.append([lay.loc_json(work.pos[p]), lay.loc_json(d)])
        last = p
        split.step(work, p, d)
    return path


def from_json(st, obj):
    """Parse a protocol MOVE for the position st. Raises BadInput: bad_request for a field of
    the wrong shape, illegal for a move `legal` would not list as given. The reader is its own
    module (notation_parse.py), loaded when a move is first read."""
    from shared_rules import notation_parse
    return notation_parse.from_json(st, obj)
