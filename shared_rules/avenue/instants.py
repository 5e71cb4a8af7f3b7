# Instant black-market abilities, resolved right after the card is taken and the offer refilled
# (legality.py has already checked the move's fields). Returns whether the side's pawn moved,
# for the next black-market check. A null agent is an ability that cannot be resolved: ignored.
from shared_rules.avenue import moving
from shared_rules.avenue.tables import (NONE, STEP, RECRUIT_TOP, RECRUIT_HAND_NAMED,
                                        RECRUIT_HAND_NEW, RECRUIT_HAND_PAIR, TAKE_BACK, STEAL)


def resolve(st, side, mv, events):
    tb = st.tb
    c = mv.card
    t = tb.effect[c]
    a = mv.agent
    if t == STEP:
        return moving.move_pawn(st, side, tb.effect_n[c], events)
    if a == NONE:
        return False
    hand = side * tb.max_seats + mv.seat
    if t == RECRUIT_TOP:
        st.deck -= 1
        return moving.recruit_and_move(st, side, a, events)
    if t in (RECRUIT_HAND_NAMED, RECRUIT_HAND_NEW, RECRUIT_HAND_PAIR):
        # a pair is shown, one recruited and one kept: the hand loses one card either way
        st.hands[hand] -= 1
        return moving.recruit_and_move(st, side, a, events)
    if t == TAKE_BACK:
        # taking an agent back does not move the pawn; recruiting it again does
        st.agents[side * tb.nagents + a] -= 1
        st.hands[hand] += 1
        events.append({"type": "hand", "side": tb.sides[side], "agent": tb.agent_names[a],
                       "to": tb.sides[side]})
        if not mv.again:
            return False
        st.hands[hand] -= 1
        return moving.recruit_and_move(st, side, a, events)
    if t == STEAL:
        other = 1 - side
        st.agents[other * tb.nagents + a] -= 1
        st.hands[hand] += 1
        events.append({"type": "hand", "side": tb.sides[other], "agent": tb.agent_names[a],
                       "to": tb.sides[side]})
        return False
    return False
