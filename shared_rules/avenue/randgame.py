# Whole Agent Avenue games with random legal play, seeded with shared_rules.rng.Rng so CPython
# and MicroPython play the same games. The Table holds what the core never sees (the agent
# deck's order, every hand, the market deck); the players choose from it, the rules core checks
# and carries out every decision, and after each one the table must agree with the position's
# counts.
from shared_rules.rng import Rng
from shared_rules.avenue import tables, legality
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import new_game, PLAY, RECRUIT, SIDES
from shared_rules.avenue.tables import (NONE, RECRUIT_TOP, RECRUIT_HAND_NAMED, RECRUIT_HAND_NEW,
                                        RECRUIT_HAND_PAIR, TAKE_BACK, STEAL)

DISCARD_CHANCE = 6  # a seat that may discard does so one time in this many


class Table:
    """The cards: agent deck (top = last), hands per seat, market deck (top = last)."""

    def __init__(self, tb, rng, advanced, seats):
        self.tb = tb
        self.rng = rng
        self.deck = []
        for a in range(tb.nagents):
            self.deck.extend([a] * tb.copies[a])
        rng.shuffle(self.deck)
        self.hands = [[] for _ in range(SIDES * tb.max_seats)]
        for side in range(SIDES):
            for seat in range(seats[side]):
                for _ in range(tb.hand):
                    self.hands[side * tb.max_seats + seat].append(self.deck.pop())
        self.market = []
        self.offer = []
        if advanced:
            self.market = list(range(tb.nmarket))
            rng.shuffle(self.market)
            for _ in range(tb.offer_size):
                self.offer.append(self.market.pop())
        self.discarded = []

    def hand(self, side, seat):
        return self.hands[side * self.tb.max_seats + seat]

    def take(self, hand, agent):
        hand.remove(agent)

    def follow(self, events):
        """Draws named by the core's events come off the top of the deck."""
        tb = self.tb
        for ev in events:
            if ev["type"] == "draw":
                h = self.hand(tb.side_index[ev["side"]], ev["seat"])
                for _ in range(ev["n"]):
                    h.append(self.deck.pop())

    def agrees(self, st):
        tb = self.tb
        if len(self.deck) != st.deck:
            return "deck: table %d, position %d" % (len(self.deck), st.deck)
        for side in range(SIDES):
            for seat in range(st.seats[side]):
                if len(self.hand(side, seat)) != st.hand(side, seat):
                    return "hand %s[%d]: table %d, position %d" % (
                        tb.sides[side], seat, len(self.hand(side, seat)), st.hand(side, seat))
        if st.advanced and len(self.market) != st.market_deck:
            return "market deck: table %d, position %d" % (len(self.market), st.market_deck)
        total = len(self.deck) + len(self.discarded)
        for h in self.hands:
            total += len(h)
        for a in range(tb.nagents):
            total += st.in_play(a)
        if st.up != NONE:
            total += 2
        if total != tb.total_agents:
            return "%d agent cards on the table; the game has %d" % (total, tb.total_agents)
        return None


def _pick(rng, items):
    return items[rng.below(len(items))]


def choose(st, table, rng):
    """A random legal decision; the table's hidden cards follow it (cards leave hands, the
    revealed market card leaves the market deck)."""
    if st.phase == RECRUIT:
        return M.recruit(rng.below(2))
    if st.phase == PLAY:
        return _choose_play(st, table, rng)
    return _choose_market(st, table, rng)


def _choose_play(st, table, rng):
    side = st.active
    for seat in range(st.seats[side]):
        if legality.may_discard(st, seat) and rng.below(DISCARD_CHANCE) == 0:
            h = table.hand(side, seat)
            table.discarded.append(h.pop(rng.below(len(h))))
            return M.discard(seat)
    if st.seats[side] == 1:
        up_seat = down_seat = 0
    else:
        up_seat = rng.below(2)
        down_seat = 1 - up_seat
    h_up = table.hand(side, up_seat)
    up = h_up.pop(rng.below(len(h_up)))
    h_down = table.hand(side, down_seat)
    others = [a for a in h_down if a != up]
    forced = not others  # every card left bears the same name as the face-up one
    down = up if forced else _pick(rng, others)
    h_down.remove(down)
    return M.play(up, down, up_seat, down_seat, forced)


def _choose_market(st, table, rng):
    tb = st.tb
    side = st.who_acts()
    card = _pick(rng, [c for c in st.offer if c != NONE])
    refill = table.market.pop() if table.market else NONE
    seat = rng.below(st.seats[side])
    mv = M.market(card, refill, seat)
    if tb.ongoing[card]:
        return mv
    t = tb.effect[card]
    hand = table.hand(side, seat)
    if t == RECRUIT_TOP:
        if table.deck:
            mv.agent = table.deck.pop()
    elif t in (RECRUIT_HAND_NAMED, RECRUIT_HAND_NEW, RECRUIT_HAND_PAIR):
        if t == RECRUIT_HAND_NAMED:
            fits = [a for a in hand if a == tb.effect_agent[card]]
        elif t == RECRUIT_HAND_NEW:
            fits = [a for a in hand if not st.count(side, a)]
        else:
            fits = [a for a in hand if hand.count(a) >= 2]
        if fits:
            mv.agent = _pick(rng, fits)
            hand.remove(mv.agent)
    elif t in (TAKE_BACK, STEAL):
        owner = side if t == TAKE_BACK else 1 - side
        there = [a for a in range(tb.nagents) if st.count(owner, a)]
        if there:
            mv.agent = _pick(rng, there)
            mv.again = t == TAKE_BACK and rng.below(2) == 1
            if not mv.again:
                hand.append(mv.agent)
    return mv


def start(tb, seed, advanced, seats):
    rng = Rng(seed)
    table = Table(tb, rng, advanced, seats)
    st = new_game(tb, advanced, seats, active=rng.below(2), offer=table.offer,
                  market_deck=len(table.market))
    return rng, table, st


def play(seed, advanced=False, seats=(1, 1), report=None, max_decisions=5000):
    """Plays one game; report(before, move, events) after every decision. Returns (final
    State, decisions played)."""
    tb = tables.load()
    rng, table, st = start(tb, seed, advanced, seats)
    n = 0
    while st.winner < 0:
        if n >= max_decisions:
            raise AssertionError("no end after %d decisions" % n)
        if st.phase == PLAY and not legality.can_play(st):
            raise AssertionError("%s cannot play: cards out should have ended the game"
                                 % tb.sides[st.active])
        mv = choose(st, table, rng)
        legality.check(st, mv)
        new, events = apply(st, mv)
        table.follow(events)
        wrong = table.agrees(new)
        if wrong:
            raise AssertionError("after %s: %s" % (M.KINDS[mv.kind], wrong))
        if report:
            report(st, mv, events)
        st = new
        n += 1
    return st, n


MODES = ("simple", "advanced")


def describe(tb, st, mv, events):
    """One decision and its events as text lines (the demo's and the parity test's record), in
    the words of shared_rules/describe.py."""
    from shared_rules import describe_avenue as words
    from shared_rules.describe import printed
    side = tb.sides[st.who_acts()]
    lines = ["%-5s %s" % (side, words.decision(M.to_json(tb, st, mv)))]
    for ev in events:
        if ev["type"] not in words.SAID_BY_DECISION:
            lines.append(printed(ev["type"], words.console(ev), "      "))
    return lines


def demo(seed, mode, seats, out):
    tb = tables.load()

    def report(before, mv, events):
        for line in describe(tb, before, mv, events):
            out.write(line + "\n")

    out.write("Agent Avenue, %s mode, seats green %d / blue %d, seed %d: a random game refereed "
              "by the rules core\n" % (mode, seats[0], seats[1], seed))
    st, n = play(seed, mode == "advanced", seats, report=report)
    out.write("%d decisions; pawns green %d blue %d; deck %d\n"
              % (n, st.pawns[0], st.pawns[1], st.deck))
