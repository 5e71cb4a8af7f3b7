# Playing a move: check it against the legal moves, carry it out, then the automatic effects in
# the order the rulebook gives them (seed 004: flips and meetings only once the whole card is
# played), then who is out, who has won and whose turn it is.
#
# Events are the referee's full knowledge: they name the colours of undercover pieces that
# were knocked out or revealed. What players may see is decided elsewhere (hints, the view).
from shared_rules import movegen
from shared_rules.cards import STEPS, SWAP, SPLIT
from shared_rules.errors import BadInput


def illegal(reason):
    return BadInput("illegal", reason)


def is_legal(st, cards, mv):
    found = []

    def visit(a, b):
        if a == mv.a and b == mv.b:
            found.append(1)
            return True

    movegen.moves(st, cards, mv.card, visit)
    return bool(found)


def apply(st, cards, mv):
    """Returns (new State, events). Raises BadInput('illegal') and leaves st untouched."""
    if mv.card < 0:
        return _pass(st)
    new = st.copy()
    events = []
    seat = st.to_move
    colour = st.plays(seat)
    e = movegen.effective(st, cards, mv.card)
    if e < 0:
        raise illegal("copy: no card has been played yet this round, so there is nothing to copy")
    act = cards.action[e]
    if act != mv.act:
        raise illegal("the move does not fit the card %s" % cards.names[mv.card])
    lay = st.lay
    captured = []
    moved = []
    if act == STEPS:
        if not is_legal(st, cards, mv):
            raise illegal(explain_steps(st, cards, e, colour, mv.a, mv.b))
        p = mv.a
        moved.append(p)
        frm = new.pos[p]
        q = new.at(mv.b)
        if q >= 0:
            new.put(q, lay.start_area(q // lay.ppc))
            captured.append(q)
        new.put(p, mv.b)
        events.append({"type": "move", "from": lay.loc_json(frm), "to": lay.loc_json(mv.b)})
        if q >= 0:
            events.append(_capture(lay, q, mv.b))
    elif act == SWAP:
        a = mv.a
        b = mv.b
        if a == b or not st.undercover(a) or not st.undercover(b):
            raise illegal("swap: both pieces must be undercover (on holes), and two different ones")
        la = new.pos[a]
        lb = new.pos[b]
        new.put(a, lay.start_area(0))  # lift one off first so neither overwrites the other
        new.put(b, la)
        new.put(a, lb)
        events.append({"type": "swap", "at": [la, lb]})
    else:
        _split(st, new, cards, e, colour, mv, events, captured, moved)
    undercover_before = []
    for p in moved:
        undercover_before.append(st.undercover(p))
    _flips_and_reveals(new, colour, moved, undercover_before, captured, events)
    _meetings(new, moved, captured, mv.meet, events)
    for q in captured:
        if new.same_team(seat, q // lay.ppc):
            new.out |= 1 << seat
            new.cards[seat] = 0
            events.append({"type": "out", "seat": lay.colours[seat], "reason": "own_capture"})
            break
    if new.cards[seat] > 0:
        new.cards[seat] -= 1
    new.last_card = e
    _finish_turn(new, events)
    return new, events


def _capture(lay, q, at):
    return {"type": "capture", "at": lay.loc_json(at), "colour": lay.colours[q // lay.ppc]}


def _split(st, new, cards, e, colour, mv, events, captured, moved):
    lay = st.lay
    total = cards.steps[e][0]
    sp = movegen.Split(st, colour)
    steps = movegen.split_code_steps(mv.a, total)
    seg_piece = -1
    seg_from = 0
    seg_to = 0
    burned = []
    for (p, o) in steps:
        if p not in sp.movable:
            raise illegal("partner: you may move only your own, your teammate's and undercover "
                          "pieces (all colours once your or your teammate's four are home)")
        d = movegen.split_dest(new, sp, p, o)
        if d < 0:
            raise illegal("partner: %s cannot step on from %s (a piece on its own start space "
                          "or in a home cannot be passed; home only through the own start "
                          "space, not from it)" % (lay.loc_json(new.pos[p]),
                                                   lay.loc_json(new.pos[p])))
        if p != seg_piece:
            if seg_piece >= 0:
                _segment_events(lay, events, seg_from, seg_to, burned)
            seg_piece = p
            seg_from = new.pos[p]
            burned = []
        q = movegen.split_step(new, p, d)
        seg_to = d
        if p not in moved:
            moved.append(p)
        if q >= 0:
            captured.append(q)
            burned.append((q, d))
    _segment_events(lay, events, seg_from, seg_to, burned)


def _segment_events(lay, events, frm, to, burned):
    events.append({"type": "move", "from": lay.loc_json(frm), "to": lay.loc_json(to)})
    for (q, at) in burned:
        events.append(_capture(lay, q, at))


def _flips_and_reveals(new, colour, moved, undercover_before, captured, events):
    lay = new.lay
    for i in range(len(moved)):
        p = moved[i]
        if p in captured:
            continue  # burned later in the same card: it is back in its start area
        loc = new.pos[p]
        if lay.is_home(loc):
            if undercover_before[i]:
                _reveal(new, colour, p, loc, events)
            continue
        now = new.undercover(p)
        if now != undercover_before[i]:
            events.append({"type": "flip", "at": loc, "undercover": now})


def _reveal(new, colour, p, loc, events):
    # seed 004: the colour you play stays; your teammate's goes back to its start area; an
    # opponent's goes to the deepest free home space of its own colour
    lay = new.lay
    c = p // lay.ppc
    if c == colour:
        outcome = "stays"
        to = loc
    elif new.same_team(colour, c):
        outcome = "to_start"
        to = lay.start_area(c)
    else:
        outcome = "to_home"
        to = -1
        for k in range(lay.home_n - 1, -1, -1):
            h = lay.home(c, k)
            if not new.board[h]:
                to = h
                break
    new.put(p, to)
    events.append({"type": "reveal", "at": lay.loc_json(loc), "colour": lay.colours[c],
                   "outcome": outcome, "to": lay.loc_json(to)})


def fired_meetings(st, moved):
    """Meeting points where a moved piece ended its move (by location, ascending)."""
    lay = st.lay
    out = []
    for p in moved:
        loc = st.pos[p]
        if loc < lay.n and lay.meeting[loc] and loc not in out:
            out.append(loc)
    out.sort()
    return out


def _meetings(new, moved, captured, meet, events):
    lay = new.lay
    still = [p for p in moved if p not in captured]
    fired = fired_meetings(new, still)
    if meet is None or len(meet) == 0:
        if len(fired) > 1:
            raise illegal("several meeting points fire (%s): say in 'meet' which comes first"
                          % ", ".join([str(m) for m in fired]))
        order = fired
    else:
        if sorted(meet) != fired:
            raise illegal("'meet' must list the meeting points this move fires: %s"
                          % (fired if fired else "none"))
        order = meet
    for m in order:
        behind = (m - 1) % lay.n
        t = behind
        q = -1
        for _ in range(lay.n - 1):  # the nearest piece behind, however far back
            if new.board[t]:
                q = new.board[t] - 1
                break
            t = t - 1 if t else lay.n - 1
        if q < 0:
            continue  # no other piece on the track: nothing happens
        was_undercover = new.undercover(q)
        new.put(q, behind)
        events.append({"type": "meeting", "point": m, "from": t, "to": behind})
        if not was_undercover:
            events.append({"type": "flip", "at": behind, "undercover": True})


def _pass(st):
    new = st.copy()
    seat = st.to_move
    events = []
    if st.players == 4:
        new.out |= 1 << seat
        new.cards[seat] = 0
        events.append({"type": "out", "seat": st.lay.colours[seat], "reason": "pass"})
    elif new.cards[seat] > 0:
        new.cards[seat] -= 1  # 2-3 players: discard one card, stay in the round
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
        new.cards[c] = 5
    events.append({"type": "round_end", "dealer": lay.colours[d]})


def explain_steps(st, cards, e, colour, p, dest):
    """A reason for a person why piece p may not go to dest with card kind e."""
    lay = st.lay
    name = cards.names[e]
    frm = st.pos[p]
    if frm >= lay.nboard:
        if not cards.enter[e]:
            return "%s cannot bring a piece into play; only 1/11 and 13 can" % name
        if p // lay.ppc != colour:
            return "you can only bring a piece of the colour you play (%s) into play" % (
                lay.colours[colour])
        if dest != lay.start[colour]:
            return "a piece comes into play on its own start space %d" % lay.start[colour]
        return "your own piece on start space %d: you cannot enter another there" % dest
    if frm < lay.n and lay.hole[frm]:
        if not movegen.undercover_allowed(st, colour):
            return ("one of your pieces stands on your start space %d: you cannot move "
                    "undercover pieces now" % lay.start[colour])
    elif p // lay.ppc != colour:
        return "you may move only %s pieces and undercover pieces" % lay.colours[colour]
    if lay.is_home(dest) and lay.home_colour(dest) != colour:
        return "a piece may only go into the home of the colour you play"
    return ("%s moves a piece exactly %s steps forward; %s to %s is not one of them (a piece "
            "on its own start space or in a home cannot be passed or knocked out; home is "
            "entered through the own start space, not from it)"
            % (name, " or ".join([str(n) for n in cards.steps[e]]), lay.loc_json(frm),
               lay.loc_json(dest)))
