# Playing a move: check it against the legal moves, carry out the card's own move, then what
# the game makes of it (shared_rules/variant.py: Agent DOG's flips, reveals and meetings once
# the whole card is played; DOG Royal's draw and jump), then who is out, who has won and whose
# turn it is.
#
# Events are the referee's full knowledge: they name the colours of undercover pieces that were
# knocked out or revealed. What players may see is decided elsewhere (hints, the view).
from shared_rules import movegen
from shared_rules.cards import STEPS, SWAP, SPLIT, MAGNET, SWAP_OWN
from shared_rules.errors import BadInput
try:
    from micropython import const
except ImportError:  # CPython: the names stay plain module constants
    def const(__expr):  # positional only (the __ prefix), as micropython.const is
        return __expr


def illegal(reason):
    return BadInput("illegal", reason)


def is_legal(st, mv):
    found = []

    def visit(a, b):
        if a == mv.a and b == mv.b:
            found.append(1)
            return True

    movegen.moves(st, mv.card, visit)
    return bool(found)


def apply(st, mv, legal=False):
    """Returns (new State, events). Raises BadInput('illegal') and leaves st untouched.
    legal=True: the caller took mv from the legal moves of this very position (the referee's
    judge did), so they are not walked again to check it."""
    if mv.card < 0:
        return _pass(st)
    game = st.game
    cards = game.cards
    new = st.copy()
    events = []
    seat = st.to_move
    colour = st.plays(seat)
    e = movegen.effective(st, mv.card)
    if e < 0:
        from shared_rules.explain import NOTHING_TO_COPY
        raise illegal(NOTHING_TO_COPY)
    act = cards.action[e]
    if act != mv.act:
        raise illegal("the move does not fit the card %s" % cards.names[mv.card])
    captured = []
    moved = []
    if act == STEPS or act == MAGNET:
        _steps(st, new, e, colour, mv, legal, events, captured, moved)
    elif act == SWAP or act == SWAP_OWN:
        _swap(st, new, act, mv, legal, events)
    else:
        _split(st, new, e, colour, mv, events, captured, moved)
    game.after_move(st, new, colour, e, mv, moved, captured, events)
    if game.own_capture_out:
        _out_on_own_capture(new, seat, captured, events)
    if new.cards[seat] > 0:
        new.cards[seat] -= 1
    new.last_card = e
    _finish_turn(new, events)
    return new, events


def _steps(st, new, e, colour, mv, legal, events, captured, moved):
    # a card's own move of one piece: the steps of a number card, or the magnet's pull
    if not legal and not is_legal(st, mv):
        from shared_rules.explain import explain  # the reasons: loaded when needed
        raise illegal(explain(st, e, colour, mv))
    game = st.game
    lay = st.lay
    p = mv.a
    d = movegen.dest_of(mv.b)
    moved.append(p)
    frm = new.pos[p]
    q = new.at(d)
    if q >= 0:
        new.put(q, lay.start_area(q // lay.ppc))
        captured.append(q)
    new.put(p, d)
    events.append(game.tag({"type": "move", "from": lay.loc_json(frm),
                            "to": lay.loc_json(d)}, p))
    if q >= 0:
        events.append(_capture(game, q, d))


def _swap(st, new, act, mv, legal, events):
    # two undercover pieces are a pair in either order; DOG names its own piece first
    if not legal and not is_legal(st, mv) and not (
            act == SWAP and is_legal(st, _reversed(mv))):
        from shared_rules.explain import explain_swap
        raise illegal(explain_swap(st, act))
    game = st.game
    a = mv.a
    b = mv.b
    la = new.pos[a]
    lb = new.pos[b]
    new.put(a, st.lay.start_area(0))  # lift one off first so neither overwrites the other
    new.put(b, la)
    new.put(a, lb)
    ev = {"type": "swap", "at": [la, lb]}
    if game.ranked:
        ev["rank"] = [game.rank_name(a), game.rank_name(b)]
    events.append(ev)


def _out_on_own_capture(new, seat, captured, events):
    # a game where capturing a piece of one's own side puts the mover out of the round
    lay = new.lay
    for q in captured:
        if new.same_team(seat, q // lay.ppc):
            new.out |= 1 << seat
            new.cards[seat] = 0
            events.append({"type": "out", "seat": lay.colours[seat], "reason": "own_capture"})
            break


# changes() writes into a buffer its caller keeps (CHANGES_BYTES long), so that the referee's
# listing of every legal move of a card as it is played allocates nothing per move: at
# CH_SQUARES how many board locations change, then each as (location, occupied after) from
# CH_SQUARE; at CH_AREAS how many start areas change, then each as (colour, pieces after -
# before + 1) from CH_AREA. A board location fits in a byte on every layout.
CH_SQUARES = const(0)
CH_SQUARE = const(1)  # up to 3: the mover's square, and where it lands (a citizen's jump: two)
CH_AREAS = const(7)
CH_AREA = const(8)    # up to 2: the mover's own area, and a knocked-out piece's
CHANGES_BYTES = const(12)


def changes(st, act, a, b, out):
    """What the card's own move (a, b) does to the board, as sensors that see occupancy alone
    would, written into out (see CH_* above): the board locations whose occupant changes (and
    the special space a citizen jumps on from, which it stands on for a while), and the start
    areas whose count changes. The occupancy view of the move apply() carries out (a citizen's
    jump included), without its other effects. (The referee asks this of every legal move of
    a card as it is played: few locals, so that its frame stays within MicroPython's 11 words,
    docs/measuring.md "Frames".)"""
    out[CH_AREAS] = 0
    if act == SWAP or act == SWAP_OWN:
        out[CH_SQUARES] = 2
        out[CH_SQUARE] = st.pos[a]
        out[CH_SQUARE + 1] = 1
        out[CH_SQUARE + 2] = st.pos[b]
        out[CH_SQUARE + 3] = 1
        return
    out[CH_SQUARES] = 0
    if st.pos[a] < st.lay.nboard:
        _square(out, st.pos[a], 0)
    else:
        _area(out, a // st.lay.ppc, 0)  # comes into play: one piece fewer
    # a and b go on as the piece on the destination (if any) and the jump after it (if any):
    # two fresh names would put this frame on the heap
    d = movegen.dest_of(b)
    b = movegen.jump_of(b)
    a = st.at(d)
    if a >= 0:
        _area(out, a // st.lay.ppc, 2)  # knocked out: one piece more
    if b < 0:
        _square(out, d, 1)
    else:
        _square(out, d, 0)  # the citizen stands there (taking what stood there) and goes on
        _square(out, b, 1)


def _square(out, loc, after):
    k = CH_SQUARE + 2 * out[CH_SQUARES]
    out[k] = loc
    out[k + 1] = after
    out[CH_SQUARES] += 1


def _area(out, colour, delta):
    k = CH_AREA + 2 * out[CH_AREAS]
    out[k] = colour
    out[k + 1] = delta
    out[CH_AREAS] += 1


def _reversed(mv):
    from shared_rules.move import Move
    return Move(mv.card, mv.act, mv.b, mv.a, mv.meet)


def _capture(game, q, at):
    lay = game.lay
    return game.tag({"type": "capture", "at": lay.loc_json(at),
                     "colour": lay.colours[q // lay.ppc]}, q)


def _split(st, new, e, colour, mv, events, captured, moved):
    from shared_rules import split  # (loaded with the first split: movegen.moves says why)
    lay = st.lay
    game = st.game
    total = game.cards.steps[e][0]
    sp = split.Split(st, colour)
    seg_piece = -1
    seg_from = 0
    seg_to = 0
    burned = []
    for (p, o) in split.unpack(mv.a, total):
        if p not in sp.movable:
            from shared_rules.explain import PARTNER_PIECES
            raise illegal(PARTNER_PIECES)
        d = split.dest(new, sp, p, o)
        if d < 0:
            from shared_rules.explain import partner_blocked
            raise illegal(partner_blocked(lay, new.pos[p]))
        if p != seg_piece:
            if seg_piece >= 0:
                _segment_events(game, events, seg_from, seg_to, burned)
            seg_piece = p
            seg_from = new.pos[p]
            burned = []
        q = split.step(new, p, d)
        seg_to = d
        if p not in moved:
            moved.append(p)
        if q >= 0:
            captured.append(q)
            burned.append((q, d))
    _segment_events(game, events, seg_from, seg_to, burned)


def _segment_events(game, events, frm, to, burned):
    lay = game.lay
    events.append({"type": "move", "from": lay.loc_json(frm), "to": lay.loc_json(to)})
    for (q, at) in burned:
        events.append(_capture(game, q, at))


def _pass(st):
    new = st.copy()
    seat = st.to_move
    events = []
    if st.team_game():
        new.out |= 1 << seat
        new.cards[seat] = 0
        events.append({"type": "out", "seat": st.lay.colours[seat], "reason": "pass"})
    elif new.cards[seat] > 0:
        new.cards[seat] -= 1  # without teams: discard one card, stay in the round
    _finish_turn(new, events)
    return new, events


def _finish_turn(new, events):
    lay = new.lay
    won = new.winners()
    if won:
        events.append({"type": "win", "seats": [lay.colours[c] for c in won]})
        return
    seats = new.seats
    i = seats.index(new.to_move)
    for j in range(1, len(seats) + 1):
        c = seats[(i + j) % len(seats)]
        if new.in_round(c):
            new.to_move = c
            return
    # nobody holds cards: the next seat clockwise deals and starts the next round
    d = seats[(seats.index(new.dealer) + 1) % len(seats)]
    new.dealer = d
    new.to_move = d
    new.out = 0
    new.last_card = -1
    for c in seats:
        new.cards[c] = new.game.hand
    events.append({"type": "round_end", "dealer": lay.colours[d]})
