"""The cards on an Agent Avenue table, beside the simulated board: which physical card (each a
sticker the board has enrolled) lies where, as players holding real cards would keep them.

Places: the agent deck (face down, top last), a hand per seat, the up and down pads, the cards
lifted off them in a recruit (until the board says who recruited which), each side's tableau,
the discards (face down), the black-market deck (face down, top last), the offer (3 places),
each side's ongoing cards and the instants spent.

Hands put cards on the pads and take them off (host_tools/games/avenue/twin.py); the board's
events say where every other card goes: a `draw` deals from the deck, a `discard` lays the
tapped card aside, `recruit` puts an agent in a tableau, `hand` takes one back into a hand,
`market` and `refill` change the offer. A card that is tapped stays where it lies until an
event says where it goes (it is the first candidate of the event that names its kind).

The board is the authority: disagrees() says where these cards and its public view differ
(never expected to, and tested)."""
from shared_rules.avenue import tables
from shared_rules.rng import Rng

TB = tables.load()
SIDES = tuple(TB.sides)
PADS = ("up", "down")


class Cards:
    def __init__(self, deck, seed):
        """deck: [(uid, kind), ...], the 53 physical cards. Handles ("c17") are given in a
        shuffled order, so a handle does not tell a card's kind."""
        self.rng = Rng(seed)
        order = list(range(len(deck)))
        self.rng.shuffle(order)
        self.cards = {}  # handle -> (uid, kind)
        for j in range(len(order)):
            self.cards["c%d" % (j + 1)] = deck[order[j]]
        self.handles = sorted(self.cards, key=lambda h: int(h[1:]))
        self.collect()

    def kind(self, h):
        return self.cards[h][1]

    def uid(self, h):
        return self.cards[h][0]

    def is_agent(self, h):
        return self.kind(h) in TB.agent_index

    # -- a new game ----------------------------------------------------------------------------
    def collect(self):
        """Every card back in its box: the agents in one deck, the black-market cards in
        another; nothing dealt."""
        self.deck = [h for h in self.handles if self.is_agent(h)]
        self.market = [h for h in self.handles if not self.is_agent(h)]
        self.hands = {}       # (side, seat) -> [handles], in the order drawn
        self.pads = {"up": None, "down": None}
        self.origin = {}      # pad -> (side, seat): the hand its card came from
        self.lifted = []      # [(handle, pad)]: taken off the pads in a recruit, in order
        self.played = False   # the pads' cards are a play: taking them off recruits
        self.tableau = dict((s, []) for s in SIDES)
        self.discards = []
        self.offer = [None] * TB.offer_size
        self.gap = None       # the offer place a card was taken from, for its refill
        self.ongoing = dict((s, []) for s in SIDES)
        self.spent = []
        self.tapped = None    # the card tapped last

    def new_game(self, seats, advanced, lay_offer=True):
        """Collects every card, shuffles, deals a hand to each seat (seats: {side: players}).
        Advanced with lay_offer: the first offer is laid from the market deck; returns its
        names (None otherwise: the players lay and tap it)."""
        self.collect()
        self.rng.shuffle(self.deck)
        self.rng.shuffle(self.market)
        for side in SIDES:
            for seat in range(seats[side]):
                self.hands[(side, seat)] = [self.deck.pop() for _ in range(TB.hand)]
        if not (advanced and lay_offer):
            return None
        for j in range(TB.offer_size):
            self.offer[j] = self.market.pop()
        return [self.kind(h) for h in self.offer]

    def arrange(self, view, on_pads):
        """Lays the cards out as the board's public view counts them, for a game the board
        resumed from its flash that these cards never saw dealt: the named cards (tableaux,
        offer, ongoing, the face-up card) where the view puts them, the cards lying on the
        pads (on_pads: {pad: handle}) there, hands and decks dealt from the rest, shuffled."""
        self.collect()
        self.rng.shuffle(self.deck)
        self.rng.shuffle(self.market)
        for pad in PADS:
            h = on_pads.get(pad)
            if h is not None:
                self._take(h)
                self.pads[pad] = h
        self.played = view.get("rules_phase") == "recruit"
        for side in SIDES:
            for name in sorted(view["agents"][side]):
                for _ in range(view["agents"][side][name]):
                    self.tableau[side].append(self._pick(name, [self.deck]))
                    self._take(self.tableau[side][-1])
            for name in view.get("ongoing", {}).get(side, []):
                h = self._pick(name, [self.market])
                self._take(h)
                self.ongoing[side].append(h)
        for j, name in enumerate(view.get("offer") or []):
            if name is not None:
                h = self._pick(name, [self.market])
                self._take(h)
                self.offer[j] = h
        for side in SIDES:
            for seat in range(len(view["hands"][side])):
                self.hands[(side, seat)] = [self.deck.pop() for _ in
                                            range(min(view["hands"][side][seat], len(self.deck)))]
        while len(self.deck) > view["deck"]:
            self.discards.append(self.deck.pop())  # laid aside face down before the cut
        while len(self.market) > view.get("market_deck", len(self.market)):
            self.spent.append(self.market.pop())

    def save(self):
        """Everything needed to undo a step that the board then refused."""
        return (list(self.deck), list(self.market), dict((k, list(v)) for k, v in
                                                         self.hands.items()),
                dict(self.pads), dict(self.origin), list(self.lifted), self.played,
                dict((k, list(v)) for k, v in self.tableau.items()), list(self.discards),
                list(self.offer), self.gap, dict((k, list(v)) for k, v in self.ongoing.items()),
                list(self.spent), self.tapped)

    def restore(self, saved):
        (self.deck, self.market, self.hands, self.pads, self.origin, self.lifted, self.played,
         self.tableau, self.discards, self.offer, self.gap, self.ongoing, self.spent,
         self.tapped) = saved

    # -- where a card is -----------------------------------------------------------------------
    def hand_of(self, h):
        for key in sorted(self.hands):
            if h in self.hands[key]:
                return key
        return None

    def _take(self, h):
        """Takes card h from wherever it lies (it is then in no place)."""
        for place in [self.deck, self.market, self.discards, self.spent] + \
                [self.hands[k] for k in sorted(self.hands)] + \
                [self.tableau[s] for s in SIDES] + [self.ongoing[s] for s in SIDES]:
            if h in place:
                place.remove(h)
                return
        for pad in PADS:
            if self.pads[pad] == h:
                self.pads[pad] = None
        self.lifted = [(x, p) for x, p in self.lifted if x != h]
        for j in range(len(self.offer)):
            if self.offer[j] == h:
                self.offer[j] = None

    def _pick(self, kind, places):
        """The card of this kind the board means: the one tapped last if it is in one of
        these places, else the first found in them (places in order, each from its end)."""
        t = self.tapped
        if t is not None and self.kind(t) == kind and any(t in p for p in places):
            return t
        for place in places:
            for h in reversed(place):
                if self.kind(h) == kind:
                    return h
        return None

    # -- hands on the pads ---------------------------------------------------------------------
    def put(self, h, pad):
        """A card from a hand onto the up or down pad."""
        self.origin[pad] = self.hand_of(h)
        self._take(h)
        self.pads[pad] = h

    def lift(self, pad):
        """The card on a pad taken off: in a recruit it is held until the board says who
        recruits it; before the play it goes back to its hand."""
        h = self.pads[pad]
        self.pads[pad] = None
        if self.played:
            self.lifted.append((h, pad))
        else:
            self.hands.setdefault(self.origin.get(pad) or (SIDES[0], 0), []).append(h)

    def lifted_from(self, pad):
        for h, p in self.lifted:
            if p == pad:
                return h
        return None

    def put_back(self, pad):
        """A card lifted in a recruit put back on its pad: the choice is undone."""
        h = self.lifted_from(pad)
        self.lifted.remove((h, pad))
        self.pads[pad] = h

    def lay_offer(self):
        """The top of the market deck laid face up in the offer (setup, taps): its handle."""
        h = self.market.pop()
        self.offer[self.offer.index(None)] = h
        return h

    # -- the board's events --------------------------------------------------------------------
    def follow(self, ev, lit_seat=0):
        """Moves the cards an event of the board's console says moved. lit_seat: the seat
        the board has lit (a black-market ability uses its hand)."""
        kind = ev.get("event")
        if kind == "new_game":
            self.played = False
        elif kind == "draw":
            hand = self.hands.setdefault((ev["side"], ev["seat"]), [])
            for _ in range(ev["n"]):
                if self.deck:
                    hand.append(self.deck.pop())
        elif kind == "discard":
            t = self.tapped
            hand = self.hands.get((ev["side"], ev["seat"]), [])
            h = t if t is not None and self.is_agent(t) else (hand[-1] if hand else None)
            if h is not None:
                self._take(h)
                self.discards.append(h)
        elif kind == "play":
            self.played = True
        elif kind == "recruit":
            self._recruit(ev["side"], ev["agent"])
        elif kind == "hand":
            h = self._pick(ev["agent"], [self.tableau[ev["side"]]])
            if h is not None:
                self._take(h)
                self.hands.setdefault((ev["to"], lit_seat), []).append(h)
        elif kind == "market":
            h = self._pick(ev["card"], [self.offer, self.market])
            if h is not None:
                self.gap = self.offer.index(h) if h in self.offer else None
                self._take(h)
                ongoing = TB.ongoing[TB.market_index[ev["card"]]]
                (self.ongoing[ev["side"]] if ongoing else self.spent).append(h)
        elif kind == "refill":
            h = self._pick(ev["card"], [self.market])
            if h is not None:
                self._take(h)
                j = self.gap if self.gap is not None and self.offer[self.gap] is None else \
                    self.offer.index(None)
                self.offer[j] = h
                self.gap = None
        elif kind == "offer":
            for name in ev["offer"]:
                if not any(h is not None and self.kind(h) == name for h in self.offer):
                    h = self._pick(name, [self.market])
                    self._take(h)
                    self.offer[self.offer.index(None)] = h

    def _recruit(self, side, agent):
        if self.lifted:
            # the play's two cards, lifted: the first lifted is the other side's
            h = next((x for x, _ in self.lifted if self.kind(x) == agent), None)
        else:
            hands = [self.hands[k] for k in sorted(self.hands) if k[0] == side]
            h = self._pick(agent, hands + [self.deck, self.tableau[side]])
        if h is None:
            return
        self._take(h)
        self.tableau[side].append(h)
        if not self.lifted and not any(self.pads[p] is not None for p in PADS):
            self.played = False

    # -- against the board -----------------------------------------------------------------------
    def disagrees(self, view):
        """Where these cards differ from the board's public view (a sentence), or None."""
        if len(self.deck) != view["deck"]:
            return "deck: %d cards here, the board counts %d" % (len(self.deck), view["deck"])
        for side in SIDES:
            counts = view["hands"][side]
            for seat in range(len(counts)):
                got = len(self.hands.get((side, seat), []))
                if got != counts[seat]:
                    return "%s seat %d holds %d cards, the board counts %d" % (
                        side, seat, got, counts[seat])
            kinds = {}
            for h in self.tableau[side]:
                kinds[self.kind(h)] = kinds.get(self.kind(h), 0) + 1
            if kinds != view["agents"][side]:
                return "%s's tableau is %s, the board has %s" % (side, kinds,
                                                                  view["agents"][side])
        if view["mode"] == "advanced":
            offer = [None if h is None else self.kind(h) for h in self.offer]
            if offer != view["offer"]:
                return "the offer is %s, the board has %s" % (offer, view["offer"])
            if len(self.market) != view["market_deck"]:
                return "market deck: %d cards here, the board counts %d" % (
                    len(self.market), view["market_deck"])
            for side in SIDES:
                mine = sorted(self.kind(h) for h in self.ongoing[side])
                if mine != sorted(view["ongoing"][side]):
                    return "%s's ongoing cards are %s, the board has %s" % (
                        side, mine, view["ongoing"][side])
        return None
