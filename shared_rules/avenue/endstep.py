# The end step (seed "FASE FINALE"), run by the apply that finishes a turn: a catch judged on the
# whole turn's net steps, the win and lose conditions of agents and ongoing cards, the tie rule
# (the active side wins), then "cards out". Otherwise the other side's turn begins.
from shared_rules.avenue import ongoing, legality
from shared_rules.avenue.state import PLAY, SIDES


def win_reasons(st):
    """Per side, the end reasons (bits in the order of tables.reasons) that make it win now."""
    tb = st.tb
    n = tb.spaces
    win = [0, 0]
    # g: the turn's gap without wrapping. Green reached or passed blue when it falls to 0,
    # blue reached or passed green when it rises to a full lap; either pawn's move counts
    # (a pawn stepping back onto or behind the other is caught), and a pawn caught and then
    # escaping forward in the same turn is not.
    g = st.gap0 - st.moved[0] + st.moved[1]
    catch = tb.reason_bit("catch")
    if g <= 0:
        win[0] |= catch
    elif g >= n:
        win[1] |= catch
    for side in range(SIDES):
        base = side * tb.nagents
        for a in range(tb.nagents):
            at = tb.end_at[a]
            if at and st.agents[base + a] >= at:
                if tb.end_wins[a] or ongoing.lose_becomes_win(st, side, a):
                    win[side] |= tb.end_bit[a]
                else:
                    win[1 - side] |= tb.end_bit[a]
        win[side] |= ongoing.win_bits(st, side)
    return win


def cards_out(st):
    """The deck is empty and the next side cannot play: alone with fewer than 2 cards, or a
    teammate with none."""
    if st.deck:
        return False
    nxt = 1 - st.active
    need = legality.needed_to_play(st, nxt)
    for seat in range(st.seats[nxt]):
        if st.hand(nxt, seat) < need:
            return True
    return False


def _lowest(bits):
    i = 0
    while not (bits >> i) & 1:
        i += 1
    return i


def run(st, events):
    """Ends the turn on st (changed in place): a winner, or the other side's play phase."""
    tb = st.tb
    win = win_reasons(st)
    winner = -1
    tie = False
    if win[0] and win[1]:
        winner = st.active
        tie = True
    elif win[0] or win[1]:
        winner = 0 if win[0] else 1
    if winner >= 0:
        reason = tb.reasons[_lowest(win[winner])]
    elif cards_out(st):
        reason = "cards_out"
        g = st.gap()  # no catch, so the pawns stand 1..13 apart
        green_needs = g
        blue_needs = tb.spaces - g
        if green_needs == blue_needs:
            winner = st.active
            tie = True
        else:
            winner = 0 if green_needs < blue_needs else 1
    if winner >= 0:
        st.winner = winner
        st.npending = 0
        ev = {"type": "end", "winner": tb.sides[winner], "reason": reason}
        if tie:
            ev["tie"] = True
        events.append(ev)
        return
    st.active = 1 - st.active
    st.phase = PLAY
    st.npending = 0
    st.gap0 = st.gap()
    st.moved[0] = 0
    st.moved[1] = 0
