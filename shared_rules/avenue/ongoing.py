# What the ongoing black-market cards in front of a side change: the steps of a recruited agent,
# the getaway car's extra steps, and the end-step conditions. Pure lookups on a State.
from shared_rules.avenue.tables import (RECRUIT_ADD, RECRUIT_SET, RECRUIT_FORWARD,
                                        RECRUIT_TIMES, HOME_STOP_FORWARD, LOSE_BECOMES_WIN,
                                        WIN_DIFFERENT_AGENTS, WIN_OTHER_ON_HOME)


def recruit_steps(st, side, agent, count):
    """Steps the side's pawn moves for recruiting `agent` with `count` of it now in play. The
    side's ongoing cards change it whatever way the agent was recruited (seed: 'Si attiva in
    qualsiasi modo recluti la carta agente')."""
    tb = st.tb
    v = tb.agent_steps(agent, count)
    bits = st.ongoing[side]
    if bits:
        for c in tb.modifiers:
            if (bits >> c) & 1 and tb.effect_agent[c] == agent:
                t = tb.effect[c]
                n = tb.effect_n[c]
                if t == RECRUIT_ADD:
                    v += n
                elif t == RECRUIT_SET:
                    v = n
                elif t == RECRUIT_FORWARD:
                    v = -v if v < 0 else v
                elif t == RECRUIT_TIMES:
                    v *= n
    return v


def _first(st, side, effect):
    """The first ongoing card of the side with that effect, or -1."""
    bits = st.ongoing[side]
    if bits:
        tb = st.tb
        for c in range(tb.nmarket):
            if (bits >> c) & 1 and tb.effect[c] == effect:
                return c
    return -1


def home_boost(st, side):
    """Steps forward after a stop on a home space (getaway car), 0 without the card."""
    c = _first(st, side, HOME_STOP_FORWARD)
    return st.tb.effect_n[c] if c >= 0 else 0


def lose_becomes_win(st, side, agent):
    bits = st.ongoing[side]
    if bits:
        tb = st.tb
        for c in range(tb.nmarket):
            if ((bits >> c) & 1 and tb.effect[c] == LOSE_BECOMES_WIN
                    and tb.effect_agent[c] == agent):
                return True
    return False


def win_bits(st, side):
    """End reasons (bits of tables.reasons) the side's ongoing cards win it now."""
    bits = st.ongoing[side]
    out = 0
    if bits:
        tb = st.tb
        for c in range(tb.nmarket):
            if not (bits >> c) & 1:
                continue
            t = tb.effect[c]
            if t == WIN_DIFFERENT_AGENTS and st.kinds_in_play(side) >= tb.effect_n[c]:
                out |= tb.effect_bit[c]
            elif t == WIN_OTHER_ON_HOME and st.pawns[1 - side] == tb.home[side]:
                out |= tb.effect_bit[c]
    return out
