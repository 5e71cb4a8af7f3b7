# Carrying out one decision: discard, play, recruit (both pawns move, then the black market or
# the end step), or a black-market card (refill, then its ability; chains; then the other side
# or the end step). The move must have passed legality.check.
from shared_rules.avenue import moving, instants, endstep, ongoing
from shared_rules.avenue import move as M
from shared_rules.avenue.state import RECRUIT, MARKET
from shared_rules.avenue.tables import NONE


def apply(st, mv):
    """Returns (new State, events); st is left untouched."""
    new = st.copy()
    events = []
    if mv.kind == M.DISCARD:
        _discard(new, mv.seat, events)
    elif mv.kind == M.PLAY:
        _play(new, mv, events)
    elif mv.kind == M.RECRUIT:
        _recruit(new, mv.take, events)
    else:
        _market(new, mv, events)
    return new, events


def _discard(st, seat, events):
    # one card laid aside face down, one drawn: the hand keeps its size
    tb = st.tb
    side = st.active
    st.discards[side * tb.max_seats + seat] -= 1
    st.deck -= 1
    events.append({"type": "discard", "side": tb.sides[side], "seat": seat})
    events.append({"type": "draw", "side": tb.sides[side], "seat": seat, "n": 1})


def _play(st, mv, events):
    tb = st.tb
    side = st.active
    base = side * tb.max_seats
    st.hands[base + mv.up_seat] -= 1
    st.hands[base + mv.down_seat] -= 1
    st.up = mv.up
    st.down = mv.down
    st.up_seat = mv.up_seat
    st.phase = RECRUIT
    events.append({"type": "play", "side": tb.sides[side]})
    # draws only after both cards are played, the face-up seat first (so in a team it takes
    # the deck's last card)
    moving.draw_back(st, side, mv.up_seat, events)
    if mv.down_seat != mv.up_seat:
        moving.draw_back(st, side, mv.down_seat, events)


def _recruit(st, take, events):
    active = st.active
    other = 1 - active
    taken = st.up if take == M.TAKE_UP else st.down
    kept = st.down if take == M.TAKE_UP else st.up
    st.up = NONE
    st.down = NONE
    n_other = moving.recruit(st, other, taken, events)
    n_active = moving.recruit(st, active, kept, events)
    moved_other = moving.move_pawn(st, other, ongoing.recruit_steps(st, other, taken, n_other),
                                   events)
    moved_active = moving.move_pawn(st, active,
                                    ongoing.recruit_steps(st, active, kept, n_active), events)
    st.npending = 0
    if moving.takes_market(st, active, moved_active):
        _push_back(st, active)
    if moving.takes_market(st, other, moved_other):
        _push_back(st, other)
    if st.npending:
        st.phase = MARKET
    else:
        endstep.run(st, events)


def _push_back(st, side):
    st.pending[st.npending] = side
    st.npending += 1


def _market(st, mv, events):
    tb = st.tb
    side = st.pending[0]
    st.pending[0] = st.pending[1]
    st.npending -= 1
    i = st.offer_slot(mv.card)
    # the gap is refilled at once, before the ability resolves
    st.offer[i] = mv.refill
    events.append({"type": "market", "side": tb.sides[side], "card": tb.market_names[mv.card]})
    if mv.refill != NONE:
        st.market_deck -= 1
        events.append({"type": "refill", "card": tb.market_names[mv.refill]})
    if tb.ongoing[mv.card]:
        st.ongoing[side] |= 1 << mv.card
    else:
        moved = instants.resolve(st, side, mv, events)
        moving.draw_back(st, side, mv.seat, events)
        if moving.takes_market(st, side, moved):
            # the side finishes its chain before the other side takes
            st.pending[1] = st.pending[0]
            st.pending[0] = side
            st.npending += 1
    if st.offer_empty():
        st.npending = 0  # a side pending when the offer is empty takes nothing
    if st.npending == 0:
        endstep.run(st, events)
