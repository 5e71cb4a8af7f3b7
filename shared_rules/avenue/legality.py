# Legality in one place: whether a decision is allowed in a position (check raises BadInput
# 'illegal' with the rule it breaks), and the decisions of the phase for `legal`. Hands are the
# players' secret and unknown to the core: it checks what counts can show.
from shared_rules.errors import BadInput
from shared_rules.avenue import move as M
from shared_rules.avenue.state import PLAY, RECRUIT, MARKET, PHASES
from shared_rules.avenue.tables import (NONE, RECRUIT_TOP, RECRUIT_HAND_NAMED, RECRUIT_HAND_NEW,
                                        RECRUIT_HAND_PAIR, TAKE_BACK, STEAL)

PHASE_OF = (PLAY, PLAY, RECRUIT, MARKET)  # by move kind
PAIR = 2  # a forced play of identical cards, or double_trouble's two alike


def illegal(reason):
    return BadInput("illegal", reason)


def may_discard(st, seat):
    side = st.active
    return (st.phase == PLAY and st.deck > 0 and 0 <= seat < st.seats[side]
            and st.discards[side * st.tb.max_seats + seat] > 0 and st.hand(side, seat) > 0)


def pair_allowed(up, down, forced):
    """The two cards of a play bear different names ('Le 2 carte devono avere nome diverso'),
    or the same name when forced: every card in the hand bears it."""
    return up != down or forced


def needed_to_play(st, side):
    """Cards each seat of the side needs to play: both cards alone, one each in a team (the
    same numbers decide "cards out")."""
    tb = st.tb
    return tb.cards_out_alone if st.seats[side] == 1 else tb.cards_out_team


def can_play(st):
    side = st.active
    need = needed_to_play(st, side)
    for seat in range(st.seats[side]):
        if st.hand(side, seat) < need:
            return False
    return True


def check(st, mv):
    want = PHASE_OF[mv.kind]
    if st.phase != want:
        raise illegal("a %s is a decision of phase %s; the position is in phase %s"
                      % (M.KINDS[mv.kind], PHASES[want], PHASES[st.phase]))
    if mv.kind == M.DISCARD:
        _check_discard(st, mv.seat)
    elif mv.kind == M.PLAY:
        _check_play(st, mv)
    elif mv.kind == M.MARKET:
        _check_market(st, mv)


def _check_discard(st, seat):
    side = st.active
    if not 0 <= seat < st.seats[side]:
        raise illegal("discard: the side has no seat %d" % seat)
    if st.deck == 0:
        raise illegal("discard: the agent deck is empty, so no card may be discarded ('Se il "
                      "mazzo Agenti è vuoto, non puoi scartare')")
    if st.discards[side * st.tb.max_seats + seat] == 0:
        raise illegal("discard: seat %d has no discards left (%d in the whole game)"
                      % (seat, st.discards_max(side)))
    if st.hand(side, seat) == 0:
        raise illegal("discard: seat %d holds no card" % seat)


def _copies_left(st, agent, need, what):
    tb = st.tb
    free = tb.copies[agent] - st.in_play(agent)
    if need > free:
        if free == 0:
            raise illegal("%s: all %d copies of %s are in play" % (
                what, tb.copies[agent], tb.agent_names[agent]))
        raise illegal("%s: %d %s cards needed but the game has %d and %d are in play" % (
            what, need, tb.agent_names[agent], tb.copies[agent], st.in_play(agent)))


def _check_play(st, mv):
    side = st.active
    if st.seats[side] == 1:
        if mv.up_seat != 0 or mv.down_seat != 0:
            raise illegal("play: a lone player plays both cards from seat 0")
        if st.hand(side, 0) < needed_to_play(st, side):
            raise illegal("play: two cards are needed and the hand holds %d" % st.hand(side, 0))
    else:
        n = st.seats[side]
        if not (0 <= mv.up_seat < n and 0 <= mv.down_seat < n):
            raise illegal("play: the side's seats are 0 and 1")
        if mv.up_seat == mv.down_seat:
            raise illegal("play: in a team each teammate plays one card (up_seat differs from "
                          "down_seat)")
        for seat in (mv.up_seat, mv.down_seat):
            if st.hand(side, seat) < 1:
                raise illegal("play: seat %d holds no card" % seat)
    same = mv.up == mv.down
    if not pair_allowed(mv.up, mv.down, mv.forced):
        raise illegal("play: the two cards must have different names ('Le 2 carte devono avere "
                      "nome diverso'); identical names only with forced (every card in the hand "
                      "bears that name)")
    if mv.forced and not same:
        raise illegal("play: forced declares that every card in the hand bears the same name, "
                      "but up and down differ")
    if same:
        _copies_left(st, mv.up, PAIR, "play")
    else:
        _copies_left(st, mv.up, 1, "play")
        _copies_left(st, mv.down, 1, "play")


def _check_market(st, mv):
    tb = st.tb
    side = st.who_acts()
    c = mv.card
    if st.offer_slot(c) < 0:
        raise illegal("market: %s is not in the offer" % tb.market_names[c])
    if mv.refill == NONE:
        if st.market_deck:
            raise illegal("market: the market deck holds %d cards; name the one revealed "
                          "to refill the offer" % st.market_deck)
    else:
        if st.market_deck == 0:
            raise illegal("market: the market deck is empty; refill must be null")
        r = mv.refill
        if not st.in_market_deck(r):  # (the card taken lies in the offer: never the refill)
            raise illegal("market: %s cannot be the refill, it is not in the market deck"
                          % tb.market_names[r])
    if not 0 <= mv.seat < st.seats[side]:
        raise illegal("market: the side has no seat %d" % mv.seat)
    if not tb.ongoing[c]:
        _check_ability(st, side, mv)


def _check_ability(st, side, mv):
    tb = st.tb
    c = mv.card
    name = tb.market_names[c]
    t = tb.effect[c]
    a = mv.agent
    other = 1 - side
    hand = st.hand(side, mv.seat)
    if t == RECRUIT_TOP:
        if a == NONE:
            if st.deck:
                raise illegal("%s: the agent deck has cards, so the ability can be resolved: "
                              "name the top card" % name)
            return
        if st.deck == 0:
            raise illegal("%s: the agent deck is empty; top must be null" % name)
        _copies_left(st, a, 1, name)
    elif t in (RECRUIT_HAND_NAMED, RECRUIT_HAND_NEW, RECRUIT_HAND_PAIR):
        if a == NONE:
            return  # the core cannot see hands: the player says it cannot be resolved
        need = PAIR if t == RECRUIT_HAND_PAIR else 1
        if hand < need:
            raise illegal("%s: seat %d holds %d card%s; %d needed" % (
                name, mv.seat, hand, "" if hand == 1 else "s", need))
        if t == RECRUIT_HAND_NAMED and a != tb.effect_agent[c]:
            raise illegal("%s recruits a %s from the hand, not a %s" % (
                name, tb.agent_names[tb.effect_agent[c]], tb.agent_names[a]))
        if t == RECRUIT_HAND_NEW and st.count(side, a):
            raise illegal("%s: the agent must be unlike every agent the side has in play; "
                          "%s is in play" % (name, tb.agent_names[a]))
        _copies_left(st, a, need, name)
    elif t == TAKE_BACK:
        if a == NONE:
            if st.kinds_in_play(side):
                raise illegal("%s: the side has agents in play, so the ability can be "
                              "resolved: name one" % name)
            if mv.again:
                raise illegal("%s: nothing taken back, nothing to recruit again" % name)
            return
        if not st.count(side, a):
            raise illegal("%s: the side has no %s in play" % (name, tb.agent_names[a]))
    elif t == STEAL:
        if a == NONE:
            if st.kinds_in_play(other):
                raise illegal("%s: the other side has agents in play, so the ability can be "
                              "resolved: name one" % name)
            return
        if not st.count(other, a):
            raise illegal("%s: the other side has no %s in play" % (name, tb.agent_names[a]))


def decisions(st):
    """The decisions of the phase in JSON form (`legal` without a card)."""
    tb = st.tb
    if st.phase == RECRUIT:
        return [{"recruit": "up"}, {"recruit": "down"}]
    if st.phase == MARKET:
        out = []
        for c in st.offer:
            if c != NONE:
                out.append({"market": tb.market_names[c],
                            "needs": [] if tb.ongoing[c] else list(tb.needs[c])})
        return out
    out = []
    if can_play(st):
        out.append({"play": "any"})
    for seat in range(st.seats[st.active]):
        if may_discard(st, seat):
            out.append({"discard": {"seat": seat}})
    return out
