# The protocol's Agent Avenue POSITION (a JSON value) to and from a State, with every check that
# makes a position one that can exist. A missing field is bad_request; a value that cannot be
# (a space off the board, more copies of a card than the game has, a card twice) bad_position.
# Fields that do not belong to the position's mode or phase are ignored and not written back.
# Objects are walked in sorted key order and quoted values go through errors.shown: MicroPython
# walks a dict in hash order, CPython in written order, and a reason naming the first bad entry
# (or printing a JSON object) must read the same on both interpreters.
from shared_rules.errors import BadInput, shown
from shared_rules.avenue.state import State, RECRUIT, MARKET, PHASES, SIDES
from shared_rules.avenue.tables import NONE

MODES = ("simple", "advanced")
MAX_MOVED = 999  # a turn's net steps; far beyond any real turn, it only bounds the input


def bad(reason):
    return BadInput("bad_position", reason)


def _need(obj, field):
    if field not in obj:
        raise BadInput("bad_request", "position is missing the field '%s'" % field)
    return obj[field]


def _label(what, key, index):
    # field names for error reasons are built only when there is an error to report
    if key is not None:
        what = "%s.%s" % (what, key)
    if index >= 0:
        what = "%s[%d]" % (what, index)
    return what


def _int(v, lo, hi, what, key=None, index=-1):
    if type(v) is not int or not lo <= v <= hi:
        raise bad("%s must be a whole number from %d to %d" % (_label(what, key, index), lo, hi))
    return v


def _side(tb, name, what):
    i = tb.side_index.get(name, -1) if type(name) is str else -1
    if i < 0:
        raise bad("%s: %s is not a side (%s)" % (what, shown(name), " or ".join(tb.sides)))
    return i


def _per_side(tb, obj, what):
    """A {side: value} object naming exactly the two sides."""
    if type(obj) is not dict:
        raise bad("%s must be an object {%s}" % (what, ", ".join(tb.sides)))
    for k in sorted(obj):
        _side(tb, k, what)
    for s in tb.sides:
        if s not in obj:
            raise bad("%s: side %s is missing" % (what, s))
    return obj


def _agent(tb, name, what, key=None):
    i = tb.agent_index.get(name, -1) if type(name) is str else -1
    if i < 0:
        raise bad("%s: %s is not an agent card" % (_label(what, key, -1), shown(name)))
    return i


def _market(tb, name, what, key=None):
    i = tb.market_index.get(name, -1) if type(name) is str else -1
    if i < 0:
        raise bad("%s: %s is not a black-market card" % (_label(what, key, -1), shown(name)))
    return i


def parse(tb, obj):
    if type(obj) is not dict:
        raise BadInput("bad_request", "position must be a JSON object")
    for field in ("mode", "active", "phase", "pawns", "hands", "deck", "discards_left"):
        _need(obj, field)
    st = State(tb)
    mode = obj["mode"]
    if mode not in MODES:
        raise bad("mode must be simple or advanced, not %s" % shown(mode))
    st.advanced = mode == "advanced"
    if "seats" in obj:  # optional, but when given it is the whole {green, blue} object
        _parse_seats(tb, st, obj["seats"])
    st.active = _side(tb, obj["active"], "active")
    phase = obj["phase"]
    if phase not in PHASES:
        raise bad("phase must be play, recruit or market, not %s" % shown(phase))
    st.phase = PHASES.index(phase)
    winner = obj.get("winner")
    if winner is not None:
        st.winner = _side(tb, winner, "winner")
    if st.phase == MARKET and not st.advanced:
        raise bad("phase market exists only in the advanced mode")
    pawns = _per_side(tb, obj["pawns"], "pawns")
    for i in range(SIDES):
        st.pawns[i] = _int(pawns[tb.sides[i]], 0, tb.spaces - 1, "pawns", tb.sides[i])
    _parse_agents(tb, st, obj.get("agents"))
    _parse_seat_lists(tb, st, obj["hands"], "hands", st.hands, tb.total_agents)
    _parse_seat_lists(tb, st, obj["discards_left"], "discards_left", st.discards, 0)
    st.deck = _int(obj["deck"], 0, tb.total_agents, "deck")
    if st.phase == RECRUIT and st.winner < 0:
        _parse_played(tb, st, _need(obj, "played"))
    if st.advanced:
        _parse_market(tb, st, obj)
    st.gap0 = st.gap()
    if st.phase == MARKET and st.winner < 0:
        _parse_market_phase(tb, st, _need(obj, "pending"), _need(obj, "moved"))
    elif st.gap0 == 0 and st.winner < 0:
        raise bad("both pawns on space %d: they share a space only in phase market or at the end"
                  % st.pawns[0])
    _check_counts(tb, st)
    return st


def _parse_seats(tb, st, seats):
    for name in sorted(_per_side(tb, seats, "seats")):  # exactly the two sides
        st.seats[tb.side_index[name]] = _int(seats[name], 1, tb.max_seats, "seats", name)


def _parse_agents(tb, st, agents):
    if agents is None:
        return
    if type(agents) is not dict:
        raise bad("agents must be an object {side: {agent: count}}")
    for k in sorted(agents):
        side = _side(tb, k, "agents")
        row = agents[k]
        if type(row) is not dict:
            raise bad("agents.%s must be an object {agent: count}" % k)
        what = "agents." + k
        for name in sorted(row):
            a = _agent(tb, name, what)
            st.agents[side * tb.nagents + a] = _int(row[name], 0, tb.copies[a], what, name)


def _parse_seat_lists(tb, st, obj, what, into, most):
    _per_side(tb, obj, what)
    for side in range(SIDES):
        name = tb.sides[side]
        row = obj[name]
        n = st.seats[side]
        if type(row) is not list or len(row) != n:
            raise bad("%s.%s must list %d number%s, one per player of that side"
                      % (what, name, n, "" if n == 1 else "s"))
        hi = most if most else st.discards_max(side)
        for seat in range(n):
            into[side * tb.max_seats + seat] = _int(row[seat], 0, hi, what, name, seat)


def _parse_played(tb, st, played):
    if type(played) is not dict:
        raise bad("played must be an object {up, down, up_seat}")
    for field in ("up", "down"):
        if field not in played:
            raise BadInput("bad_request", "played is missing the field '%s'" % field)
    st.up = _agent(tb, played["up"], "played.up")
    st.down = _agent(tb, played["down"], "played.down")
    st.up_seat = _int(played.get("up_seat", 0), 0, st.seats[st.active] - 1, "played.up_seat")


def _parse_market(tb, st, obj):
    offer = _need(obj, "offer")
    st.market_deck = _int(_need(obj, "market_deck"), 0, tb.nmarket, "market_deck")
    if type(offer) is not list or len(offer) != tb.offer_size:
        raise bad("offer must list %d cards (null for a gap)" % tb.offer_size)
    seen = 0
    total = st.market_deck
    for i in range(tb.offer_size):
        if offer[i] is None:
            if st.market_deck:
                raise bad("offer: a gap while the market deck still has cards to refill it")
            continue
        c = _market(tb, offer[i], "offer")
        if (seen >> c) & 1:
            raise bad("%s is in the offer twice" % offer[i])
        seen |= 1 << c
        st.offer[i] = c
        total += 1
    ongoing = obj.get("ongoing")
    if ongoing is not None:
        if type(ongoing) is not dict:
            raise bad("ongoing must be an object {side: [card, ...]}")
        for k in sorted(ongoing):
            side = _side(tb, k, "ongoing")
            row = ongoing[k]
            if type(row) is not list:
                raise bad("ongoing.%s must be a list of cards" % k)
            for name in row:
                c = _market(tb, name, "ongoing", k)
                if not tb.ongoing[c]:
                    raise bad("ongoing.%s: %s is an instant card; it never stays in play"
                              % (k, name))
                if (seen >> c) & 1:
                    raise bad("%s is in play twice (offer and ongoing hold one copy)" % name)
                seen |= 1 << c
                st.ongoing[side] |= 1 << c
                total += 1
    if total > tb.nmarket:
        raise bad("offer, market deck and ongoing cards make %d black-market cards; there are %d"
                  % (total, tb.nmarket))


def _parse_market_phase(tb, st, pending, moved):
    if type(pending) is not list or not 1 <= len(pending) <= SIDES:
        raise bad("pending must list the one or two sides still to take a card")
    for i in range(len(pending)):
        side = _side(tb, pending[i], "pending")
        if i and side == st.pending[0]:
            raise bad("pending names %s twice" % pending[i])
        if not tb.is_market[st.pawns[side]]:
            raise bad("pending: %s's pawn is not on a black-market space" % pending[i])
        st.pending[i] = side
    st.npending = len(pending)
    if st.npending == SIDES and st.pending[0] != st.active:
        raise bad("pending: the active side takes first when both pawns stopped on the market")
    if st.offer_empty():
        raise bad("pending: the offer is empty, so nobody can take a card")
    _per_side(tb, moved, "moved")
    for side in range(SIDES):
        st.moved[side] = _int(moved[tb.sides[side]], -MAX_MOVED, MAX_MOVED, "moved",
                              tb.sides[side])
    n = tb.spaces
    start_green = (st.pawns[0] - st.moved[0]) % n
    start_blue = (st.pawns[1] - st.moved[1]) % n
    st.gap0 = (start_blue - start_green) % n
    if st.gap0 == 0:
        raise bad("moved: both pawns would have started this turn on space %d" % start_green)


def _check_counts(tb, st):
    total = st.deck
    for i in range(len(st.hands)):
        total += st.hands[i]
    for a in range(tb.nagents):
        n = st.in_play(a)
        if st.phase == RECRUIT and st.winner < 0:
            n += (st.up == a) + (st.down == a)
        if n > tb.copies[a]:
            raise bad("%d %s cards in play and played; the game has %d"
                      % (n, tb.agent_names[a], tb.copies[a]))
        total += n
    if total > tb.total_agents:
        raise bad("agents in play, played, in hands and in the deck make %d cards; there are %d"
                  % (total, tb.total_agents))


# -- back to JSON ----------------------------------------------------------------------------
def dump(st):
    tb = st.tb
    sides = tb.sides
    ms = tb.max_seats
    out = {
        "game": "agent-avenue",
        "mode": MODES[1 if st.advanced else 0],
        "seats": {sides[0]: st.seats[0], sides[1]: st.seats[1]},
        "active": sides[st.active],
        "phase": PHASES[st.phase],
        "pawns": {sides[0]: st.pawns[0], sides[1]: st.pawns[1]},
    }
    agents = {}
    hands = {}
    discards = {}
    for side in range(SIDES):
        row = {}
        base = side * tb.nagents
        for a in range(tb.nagents):
            if st.agents[base + a]:
                row[tb.agent_names[a]] = st.agents[base + a]
        agents[sides[side]] = row
        n = st.seats[side]
        hands[sides[side]] = [st.hands[side * ms + i] for i in range(n)]
        discards[sides[side]] = [st.discards[side * ms + i] for i in range(n)]
    out["agents"] = agents
    out["hands"] = hands
    out["deck"] = st.deck
    out["discards_left"] = discards
    if st.winner >= 0:
        out["winner"] = sides[st.winner]
    elif st.phase == RECRUIT:
        out["played"] = {"up": tb.agent_names[st.up], "down": tb.agent_names[st.down],
                         "up_seat": st.up_seat}
    if st.advanced:
        out["offer"] = [None if c == NONE else tb.market_names[c] for c in st.offer]
        out["market_deck"] = st.market_deck
        out["ongoing"] = {sides[0]: _ongoing_names(tb, st.ongoing[0]),
                          sides[1]: _ongoing_names(tb, st.ongoing[1])}
        if st.phase == MARKET and st.winner < 0:
            out["pending"] = [sides[st.pending[i]] for i in range(st.npending)]
            out["moved"] = {sides[0]: st.moved[0], sides[1]: st.moved[1]}
    return out


def _ongoing_names(tb, bits):
    return [tb.market_names[c] for c in range(tb.nmarket) if (bits >> c) & 1]
