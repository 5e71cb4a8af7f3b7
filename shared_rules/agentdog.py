# Agent DOG (Schmidt Spiele): the track game with undercover pieces. What it adds to the shared
# mechanics: pieces on holes are undercover and anyone may move them (not while an own piece
# stands on the own start space); knocking out an own or a teammate's piece puts the mover out
# of the round; after a card's move, pieces flip on and off holes, undercover pieces entering
# home are revealed, and meeting points pull the nearest piece behind. The swap of undercover
# pieces and the Partner 4 are its cards (movegen.py, split.py).
from shared_rules.variant_base import Variant
from shared_rules.errors import BadInput
from shared_rules import split


def illegal(reason):
    return BadInput("illegal", reason)


def undercover_allowed(st, colour):
    # while a piece of the colour you play stands on its own start space, you may not move
    # undercover pieces with an ordinary move (seed 000: WHICH PIECES CAN I MOVE?)
    q = st.board[st.lay.start[colour]]
    return not (q and (q - 1) // st.lay.ppc == colour)


class AgentDog(Variant):
    name = "agent-dog"
    title = "Agent DOG"
    own_capture_out = True
    cards_name = "agent-dog-cards"

    def fill_movable(self, st, colour):
        """Pieces of the colour the mover plays, and undercover pieces (by location, so the
        hidden colours play no part) unless an own piece stands on the own start space."""
        lay = self.lay
        m = self.movable
        uc_ok = undercover_allowed(st, colour)
        for p in range(lay.npieces):
            loc = st.pos[p]
            if loc >= lay.nboard:
                m[p] = 0
            elif loc < lay.n and lay.hole[loc]:
                m[p] = 1 if uc_ok else 0
            else:
                m[p] = 1 if p // lay.ppc == colour else 0
        return m

    def orders(self, st, code, total):
        # several meeting points fired by one Partner 4: the mover chooses the order
        from shared_rules.move import permutations
        fired = split.fired(st, code, total)
        return permutations(fired) if len(fired) > 1 else [None]

    def why_not_movable(self, st, colour, p):
        lay = self.lay
        loc = st.pos[p]
        if loc < lay.n and lay.hole[loc]:
            return ("one of your pieces stands on your start space %d: you cannot move "
                    "undercover pieces now" % lay.start[colour])
        return "you may move only %s pieces and undercover pieces" % lay.colours[colour]

    def after_move(self, old, new, colour, e, mv, moved, captured, events):
        # seed 004: flips, reveals and meetings once the whole card is played
        undercover_before = [old.undercover(p) for p in moved]
        _flips_and_reveals(new, colour, moved, undercover_before, captured, events)
        still = [p for p in moved if p not in captured]
        _meetings(new, split.fired_pieces(new, still), mv.meet, events)


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


def _meetings(new, fired, meet, events):
    lay = new.lay
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
