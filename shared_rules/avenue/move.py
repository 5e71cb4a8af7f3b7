# One decision of Agent Avenue in compact form, and its JSON form. Reading a move checks its
# shape (bad_request: a missing field, an unknown card name, a wrong type) and that it names
# only the fields its decision has (illegal: a field the decision cannot carry, as `seat` on a
# recruit or `agent` on a card without an ability, is not a decision of this game, and is
# refused rather than ignored); whether the rules allow it is legality.py's job.
from shared_rules.errors import BadInput, shown, stray_key
from shared_rules.avenue.tables import NONE

DISCARD = 0
PLAY = 1
RECRUIT = 2
MARKET = 3
KINDS = ("discard", "play", "recruit", "market")
TAKE_UP = 0
TAKE_DOWN = 1
TAKES = ("up", "down")


class Move:
    def __init__(self, kind):
        self.kind = kind
        self.seat = 0  # discard: the seat; market: the teammate whose hand an ability uses
        self.up = NONE  # play: the face-up and face-down agents and their seats
        self.down = NONE
        self.up_seat = 0
        self.down_seat = 0
        self.forced = False  # play: identical names declared (every card in hand alike)
        self.take = TAKE_UP  # recruit: the card the other side takes
        self.card = NONE  # market: the card taken from the offer
        self.refill = NONE  # market: the card revealed from the market deck
        self.agent = NONE  # market: the agent an ability names ("top" or "agent")
        self.again = False  # market (take_back): recruit the agent again at once


def discard(seat):
    mv = Move(DISCARD)
    mv.seat = seat
    return mv


def play(up, down, up_seat=0, down_seat=0, forced=False):
    mv = Move(PLAY)
    mv.up = up
    mv.down = down
    mv.up_seat = up_seat
    mv.down_seat = down_seat
    mv.forced = forced
    return mv


def recruit(take):
    mv = Move(RECRUIT)
    mv.take = take
    return mv


def market(card, refill, seat=0, agent=NONE, again=False):
    mv = Move(MARKET)
    mv.card = card
    mv.refill = refill
    mv.seat = seat
    mv.agent = agent
    mv.again = again
    return mv


# the fields of each decision as to_json writes them (forced, seats, refill and again may be
# left out where the protocol says so)
DISCARD_FIELDS = ("seat",)
PLAY_FIELDS = ("up", "down", "up_seat", "down_seat", "forced")
MARKET_FIELDS = ("market", "refill", "seat")


def bad_request(reason):
    return BadInput("bad_request", reason)


def _only(obj, fields, extra, what):
    """Refuses (illegal) an object naming a field that is neither in fields nor in extra: the
    decision cannot have it."""
    key = stray_key(obj, fields, extra)
    if key is not None:
        raise BadInput("illegal", "%s has no field %s (its fields: %s)" % (
            what, shown(key), ", ".join(fields + extra)))


def _seat(obj, field, alone, what):
    """A seat number; it may be left out when the side has one player (seat 0)."""
    if field not in obj:
        if alone:
            return 0
        raise bad_request("%s is missing the field '%s' (the side plays as a team)" % (what, field))
    v = obj[field]
    if type(v) is not int:
        raise bad_request("%s.%s must be a seat number" % (what, field))
    return v


def _agent(tb, name, what):
    i = tb.agent_index.get(name, -1) if type(name) is str else -1
    if i < 0:
        raise bad_request("%s: unknown agent card %s; agents are %s"
                          % (what, shown(name), ", ".join(tb.agent_names)))
    return i


def _agent_or_null(tb, name, what):
    return NONE if name is None else _agent(tb, name, what)


def _market_card(tb, name, what):
    i = tb.market_index.get(name, -1) if type(name) is str else -1
    if i < 0:
        raise bad_request("%s: unknown black-market card %s" % (what, shown(name)))
    return i


def from_json(tb, st, obj):
    if type(obj) is not dict:
        raise bad_request("a move is an object with one of %s" % ", ".join(KINDS))
    kind = -1
    for k in range(len(KINDS)):
        if KINDS[k] in obj:
            if kind >= 0:
                raise bad_request("a move is one decision: both %s and %s given"
                                  % (KINDS[kind], KINDS[k]))
            kind = k
    if kind < 0:
        raise bad_request("a move needs one of %s" % ", ".join(KINDS))
    alone = st.seats[st.active] == 1
    body = obj[KINDS[kind]]
    if kind == MARKET:
        return _market_from_json(tb, st, obj)
    if kind == DISCARD:
        if type(body) is not dict:
            raise bad_request("discard must be an object {seat: N}")
        mv = discard(_seat(body, "seat", alone, "discard"))
        _only(body, DISCARD_FIELDS, (), "discard")
    elif kind == PLAY:
        mv = _play_from_json(tb, body, alone)
    else:
        if body not in TAKES:
            raise bad_request("recruit must be \"up\" or \"down\"")
        mv = recruit(TAKES.index(body))
    if len(obj) != 1:  # its own key is there, so any other is one it cannot have
        _only(obj, (KINDS[kind],), (), "a %s decision" % KINDS[kind])
    return mv


def _play_from_json(tb, body, alone):
    if type(body) is not dict:
        raise bad_request("play must be an object {up, down, up_seat, down_seat}")
    for field in ("up", "down"):
        if field not in body:
            raise bad_request("play is missing the field '%s'" % field)
    forced = body.get("forced", False)
    if type(forced) is not bool:
        raise bad_request("play.forced must be true or false")
    mv = play(_agent(tb, body["up"], "play.up"), _agent(tb, body["down"], "play.down"),
              _seat(body, "up_seat", alone, "play"), _seat(body, "down_seat", alone, "play"),
              forced)
    _only(body, PLAY_FIELDS, (), "play")
    return mv


def _market_from_json(tb, st, obj):
    c = _market_card(tb, obj["market"], "market")
    if "refill" in obj:
        refill = obj["refill"]
        refill = NONE if refill is None else _market_card(tb, refill, "refill")
    elif st.market_deck:
        raise bad_request("market is missing the field 'refill' (the card revealed from the "
                          "market deck)")
    else:
        refill = NONE
    seat = obj.get("seat", 0)
    if type(seat) is not int:
        raise bad_request("market.seat must be a seat number")
    mv = market(c, refill, seat)
    for field in tb.needs[c]:
        if field == "again":
            continue
        if field not in obj:
            raise bad_request("%s needs the field '%s'" % (tb.market_names[c], field))
        mv.agent = _agent_or_null(tb, obj[field], field)
    if "again" in tb.needs[c]:
        if "again" not in obj and mv.agent != NONE:
            raise bad_request("%s needs the field 'again' (true or false)" % tb.market_names[c])
        if "again" in obj and type(obj["again"]) is not bool:
            raise bad_request("again must be true or false")
        mv.again = obj.get("again") is True
    _only(obj, MARKET_FIELDS, tb.needs[c], tb.market_names[c])
    return mv


def to_json(tb, st, mv):
    """The JSON form of a move (for tools and the random games' records)."""
    if mv.kind == DISCARD:
        return {"discard": {"seat": mv.seat}}
    if mv.kind == PLAY:
        out = {"up": tb.agent_names[mv.up], "down": tb.agent_names[mv.down],
               "up_seat": mv.up_seat, "down_seat": mv.down_seat}
        if mv.forced:
            out["forced"] = True
        return {"play": out}
    if mv.kind == RECRUIT:
        return {"recruit": TAKES[mv.take]}
    out = {"market": tb.market_names[mv.card],
           "refill": None if mv.refill == NONE else tb.market_names[mv.refill],
           "seat": mv.seat}
    for field in tb.needs[mv.card]:
        if field == "again":
            out[field] = mv.again
        else:
            out[field] = None if mv.agent == NONE else tb.agent_names[mv.agent]
    return out
