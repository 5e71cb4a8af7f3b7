"""The cards of the twin: the physical deck, the four hands, the stock and the discard pile,
kept in step with the board.

The board (its public view) is the authority on how many cards each seat holds; this module
decides WHICH cards those are, as players holding real cards would:

- a card tapped on the reader stays in its seat's hand, marked "in play", until the board
  accepts a move with it ("played"), and leaves the hand when the board counts it gone (the
  turn is over); a card taken back (short press of back) is simply no longer in play;
- every completed turn (a move or a pass) keeps a copy of the cards as they were before it,
  so an undo gives back exactly the cards that turn took (including a deal it caused);
- whenever the board's count and a hand differ, the hand follows the board: cards the board
  no longer counts go to the pile (played ones first), missing ones are drawn from the stock
  (the pile, shuffled, when the stock runs out).

Hands are not secret (hot-seat play on one screen); the order of the cards in a hand is the
order they were drawn in."""
from shared_rules.rng import Rng

IN_HAND, IN_PLAY, PLAYED = "hand", "in_play", "played"


class Hands:
    def __init__(self, deck, seed):
        """deck: [(uid, kind), ...], the physical cards."""
        self.rng = Rng(seed)
        self.handles = ["c%d" % j for j in range(len(deck))]
        self.cards = dict(zip(self.handles, deck))  # handle -> (uid, kind)
        self.new_game()

    # -- a new game ------------------------------------------------------------------------
    def new_game(self):
        """Every card back in the stock, shuffled; no hands until the board says how many."""
        self.stock = list(self.handles)
        self.rng.shuffle(self.stock)
        self.pile = []
        self.hands = {}     # seat -> [handles], in the order drawn
        self.in_play = None  # (seat, handle): taken by the board, no move accepted yet
        self.played = {}    # seat -> handle: its move accepted, the board still counts it
        self.history = []   # the cards before each completed turn, for undo

    # -- what the page may do ----------------------------------------------------------------
    def seat_of(self, handle):
        for seat, hand in self.hands.items():
            if handle in hand:
                return seat
        return None

    def state_of(self, seat, handle):
        if self.in_play == (seat, handle):
            return IN_PLAY
        if self.played.get(seat) == handle:
            return PLAYED
        return IN_HAND

    def refusal(self, handle, view):
        """Why this card cannot be tapped now (a sentence), or None. Only the seat to move
        plays, one card at a time, in the phases the board takes a card in."""
        seat = self.seat_of(handle)
        if seat is None:
            return "no such card in a hand"
        kind = self.cards[handle][1]
        if view is None:
            return "no game is running: start one first"
        if self.in_play is not None:
            return "the %s is in play: press back to take it back before playing another " \
                "card" % self.cards[self.in_play[1]][1]
        if self.state_of(seat, handle) != IN_HAND:
            return "the %s has been played" % kind
        if view.get("phase") not in ("await_card", "round_end"):
            return "no card can be played now (%s)" % str(view.get("phase")).replace("_", " ")
        if seat != view.get("to_move"):
            return "it is %s's turn: only %s plays a card now" % (view.get("to_move"),
                                                                  view.get("to_move"))
        return None

    # -- what the board said -----------------------------------------------------------------
    def took(self, seat, handle):
        """The board took this card (its `card` event) for the seat."""
        self.in_play = (seat, handle)

    def card_back(self):
        """The card in play went back to the hand (taken back, or the device restarted)."""
        self.in_play = None

    def moved(self):
        """The board accepted a move (`move` event): the card in play is spent."""
        self.history.append(self._copy())
        if self.in_play is not None:
            seat, handle = self.in_play
            self.played[seat] = handle
            self.in_play = None

    def passed(self):
        """A seat passed (`pass` event): its cards go when the board stops counting them."""
        self.history.append(self._copy())

    def turn_over(self):
        """The turn is finished (`turn` or `win` event): played cards leave the hands."""
        for seat, handle in sorted(self.played.items()):
            hand = self.hands.get(seat, [])
            if handle in hand:
                hand.remove(handle)
                self.pile.append(handle)
        self.played = {}

    def undone(self):
        """An undo (`undo` event): the cards as they were before the last completed turn."""
        if self.history:
            self.hands, self.stock, self.pile = self.history.pop()
        self.in_play = None
        self.played = {}

    def follow(self, cards_left):
        """Makes every hand hold what the board counts (seat -> cards): too many, the played
        card goes first, then the last drawn; too few, draw."""
        for seat in [s for s in self.hands if s not in cards_left]:
            self.pile.extend(self.hands.pop(seat))
        for seat, n in sorted(cards_left.items()):
            hand = self.hands.setdefault(seat, [])
            if len(hand) > n and self.played.get(seat) in hand:
                handle = self.played.pop(seat)
                hand.remove(handle)
                self.pile.append(handle)
            while len(hand) > n:
                handle = hand.pop()
                if self.in_play == (seat, handle):
                    self.in_play = None
                self.pile.append(handle)
            while len(hand) < n:
                drawn = self._draw()
                if drawn is None:
                    break
                hand.append(drawn)

    def _draw(self):
        if not self.stock:
            self.stock, self.pile = self.pile, []
            self.rng.shuffle(self.stock)
        return self.stock.pop() if self.stock else None

    def _copy(self):
        return (dict((s, list(h)) for s, h in self.hands.items()), list(self.stock),
                list(self.pile))

    # -- what the page sees ----------------------------------------------------------------
    def public(self, seats):
        """seat -> [{"id", "card", "state"}], seats in the given order."""
        return dict((seat, [{"id": h, "card": self.cards[h][1], "state": self.state_of(seat, h)}
                            for h in self.hands[seat]]) for seat in seats if seat in self.hands)
