# The two things every recruit does: the agent enters play, and the side's pawn moves by the
# agent's steps for the count now in play; then the getaway car, then the black-market check.
from shared_rules.avenue import ongoing


def recruit(st, side, agent, events):
    """The agent enters the side's play; returns how many of it the side now has."""
    tb = st.tb
    i = side * tb.nagents + agent
    st.agents[i] += 1
    events.append({"type": "recruit", "side": tb.sides[side], "agent": tb.agent_names[agent],
                   "count": st.agents[i]})
    return st.agents[i]


def move_pawn(st, side, steps, events):
    """Moves the side's pawn (negative: back, counter-clockwise). Returns whether it moved: a
    value of 0 moves nothing and so stops nowhere (no market card, no getaway car)."""
    if steps == 0:
        return False
    tb = st.tb
    n = tb.spaces
    frm = st.pawns[side]
    to = (frm + steps) % n
    st.pawns[side] = to
    st.moved[side] += steps
    events.append({"type": "pawn", "side": tb.sides[side], "from": frm, "to": to,
                   "steps": steps})
    # getaway car: every stop exactly on either home space moves the pawn on (its own move,
    # so its own event); the bound only guards against a data file that loops
    boost = ongoing.home_boost(st, side)
    guard = n
    while boost and tb.is_home[st.pawns[side]] and guard:
        frm = st.pawns[side]
        to = (frm + boost) % n
        st.pawns[side] = to
        st.moved[side] += boost
        events.append({"type": "pawn", "side": tb.sides[side], "from": frm, "to": to,
                       "steps": boost})
        guard -= 1
    return True


def recruit_and_move(st, side, agent, events):
    """A recruit by an ability: the agent enters play and the pawn moves at once."""
    count = recruit(st, side, agent, events)
    return move_pawn(st, side, ongoing.recruit_steps(st, side, agent, count), events)


def takes_market(st, side, moved):
    """Whether the side's pawn, having moved, stopped exactly on a black-market space with
    something left in the offer (advanced mode only)."""
    return (moved and st.advanced and st.tb.is_market[st.pawns[side]] == 1
            and not st.offer_empty())


def draw_back(st, side, seat, events):
    """The seat draws back to a full hand while the deck lasts; a hand above it stays."""
    tb = st.tb
    i = side * tb.max_seats + seat
    n = tb.hand - st.hands[i]
    if n > st.deck:
        n = st.deck
    if n > 0:
        st.hands[i] += n
        st.deck -= n
        events.append({"type": "draw", "side": tb.sides[side], "seat": seat, "n": n})
