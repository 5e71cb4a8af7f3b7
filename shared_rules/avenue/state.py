# One Agent Avenue position in compact form: small ints and bytearrays indexed by side (0 green,
# 1 blue), by side * max_seats + seat, or by side * agents + agent. Nothing here knows JSON.
from shared_rules.avenue.tables import NONE

PLAY = 0
RECRUIT = 1
MARKET = 2
PHASES = ("play", "recruit", "market")
SIDES = 2  # a duel: green against blue, one pawn each (a team shares its pawn)


class State:
    def __init__(self, tb):
        self.tb = tb
        self.advanced = False
        self.seats = bytearray(b"\x01" * SIDES)  # players per side
        self.active = 0
        self.phase = PLAY
        self.pawns = bytearray(SIDES)
        self.agents = bytearray(SIDES * tb.nagents)  # agents in play
        self.hands = bytearray(SIDES * tb.max_seats)  # cards in hand per seat
        self.discards = bytearray(SIDES * tb.max_seats)  # discards left per seat
        self.deck = 0
        self.up = NONE  # phase recruit: the cards played and the seat that played face up
        self.down = NONE
        self.up_seat = 0
        self.offer = bytearray([NONE] * tb.offer_size)
        self.market_deck = 0
        self.ongoing = [0, 0]  # per side: bit set of ongoing market cards in front of it
        self.pending = bytearray(SIDES)  # phase market: sides still to take, in order
        self.npending = 0
        # this turn so far: the gap at its start and each pawn's net steps (the end step judges
        # a catch on these, so a pawn that "escapes" forward in the same turn is not caught)
        self.gap0 = 0
        self.moved = [0, 0]
        self.winner = -1

    def copy(self):
        s = State(self.tb)
        s.advanced = self.advanced
        s.seats[:] = self.seats
        s.active = self.active
        s.phase = self.phase
        s.pawns[:] = self.pawns
        s.agents[:] = self.agents
        s.hands[:] = self.hands
        s.discards[:] = self.discards
        s.deck = self.deck
        s.up = self.up
        s.down = self.down
        s.up_seat = self.up_seat
        s.offer[:] = self.offer
        s.market_deck = self.market_deck
        s.ongoing[0] = self.ongoing[0]
        s.ongoing[1] = self.ongoing[1]
        s.pending[:] = self.pending
        s.npending = self.npending
        s.gap0 = self.gap0
        s.moved[0] = self.moved[0]
        s.moved[1] = self.moved[1]
        s.winner = self.winner
        return s

    # -- lookups ---------------------------------------------------------------------------
    def count(self, side, agent):
        return self.agents[side * self.tb.nagents + agent]

    def in_play(self, agent):
        return self.agents[agent] + self.agents[self.tb.nagents + agent]

    def hand(self, side, seat):
        return self.hands[side * self.tb.max_seats + seat]

    def discards_max(self, side):
        tb = self.tb
        return tb.discards_alone if self.seats[side] == 1 else tb.discards_team

    def has(self, side, card):
        return (self.ongoing[side] >> card) & 1

    def gap(self):
        """Steps green's pawn needs forward to reach blue's."""
        return (self.pawns[1] - self.pawns[0]) % self.tb.spaces

    def offer_slot(self, card):
        """Where the card lies in the offer, or -1 (MicroPython has no `in` on bytearrays)."""
        for i in range(len(self.offer)):
            if self.offer[i] == card:
                return i
        return -1

    def in_market_deck(self, card):
        """Whether a black-market card may lie in the market deck: it is neither in the offer
        nor an ongoing card in front of a side. (A position does not keep the instants already
        used, so one of them is not told apart from a card of the deck.)"""
        return self.offer_slot(card) < 0 and not self.has(0, card) and not self.has(1, card)

    def offer_empty(self):
        for c in self.offer:
            if c != NONE:
                return False
        return True

    def who_acts(self):
        """The side that decides now: in the market the first side still to take (the active
        side first, a chain keeps its side first), else the active side."""
        return self.pending[0] if self.phase == MARKET else self.active

    def kinds_in_play(self, side):
        n = 0
        base = side * self.tb.nagents
        for a in range(self.tb.nagents):
            if self.agents[base + a]:
                n += 1
        return n


def new_game(tb, advanced=False, seats=(1, 1), active=0, offer=None, market_deck=0):
    """The opening position: pawns on their homes, a full hand per seat, full discards."""
    st = State(tb)
    st.advanced = advanced
    st.active = active
    dealt = 0
    for side in range(SIDES):
        st.seats[side] = seats[side]
        st.pawns[side] = tb.home[side]
        for seat in range(seats[side]):
            st.hands[side * tb.max_seats + seat] = tb.hand
            st.discards[side * tb.max_seats + seat] = st.discards_max(side)
            dealt += tb.hand
    st.deck = tb.total_agents - dealt
    if advanced:
        for i in range(tb.offer_size):
            st.offer[i] = offer[i]
        st.market_deck = market_deck
    st.gap0 = st.gap()
    return st
