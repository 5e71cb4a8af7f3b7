# A whole game with random (legal) play: deck, deals, the card swap, Zugzwang and passing,
# round ends and the win. The rules core decides everything; this only plays the hands.
from shared_rules import movegen, variant
from shared_rules.apply import apply
from shared_rules.move import Move, count_moves, nth_move
from shared_rules.rng import Rng
from shared_rules.state import new_game


class Table:
    """The cards side of a game: deck, discard pile and hands. The deck and the pile are
    bytearrays (a card is its kind, below 256): as lists of ints they need 8 bytes a card on the
    64-bit port and a block in one piece that grows with the pile, which a fragmented heap
    cannot always give. The deck's top is its last card still left (self.left of them)."""

    def __init__(self, cards, rng):
        self.rng = rng
        self.deck = bytearray()
        for i in range(len(cards.names)):
            self.deck.extend(bytes([i]) * cards.deck[i])
        rng.shuffle(self.deck)
        self.left = len(self.deck)
        self.discard = bytearray()
        self.hands = {}

    def draw(self):
        if not self.left:
            self.deck = self.discard
            self.discard = bytearray()
            self.left = len(self.deck)
            self.rng.shuffle(self.deck)
        self.left -= 1
        return self.deck[self.left]

    def deal(self, st):
        for c in st.seats:
            self.hands[c] = [self.draw() for _ in range(st.game.hand)]
        # the card swap: with teammates in a team game, else to the player on the left
        gifts = {}
        for c in st.seats:
            h = self.hands[c]
            gifts[c] = h.pop(self.rng.below(len(h)))
        n = len(st.seats)
        for i in range(n):
            c = st.seats[i]
            to = st.mate(c) if st.team_game() else st.seats[(i + 1) % n]
            self.hands[to].append(gifts[c])


def playable(st, hand):
    return [k for k in hand if movegen.any_move(st, k)]


def play(seed, players=4, max_turns=20000, report=None, game=None):
    """Plays one game of `game` (default: the registry's default game); report(st, seat, card,
    move, events) is called after every turn. Returns (final state, turns played)."""
    game = game or variant.DEFAULT
    g = variant.load(game, variant.board_for(game, players))
    lay = g.lay
    cards = g.cards
    rng = Rng(seed)
    table = Table(cards, rng)
    dealer = lay.default_seats[players][rng.below(players)]
    first = None
    if g.ranked:  # each player chooses which piece starts on the start space
        first = dict((c, rng.below(lay.ppc)) for c in lay.default_seats[players])
    st = new_game(g, players, dealer=dealer, first=first)
    table.deal(st)
    turns = 0
    while turns < max_turns:
        seat = st.to_move
        hand = table.hands[seat]
        if len(hand) != st.cards[seat]:
            raise AssertionError("hand of %d cards but cards_left %d" % (len(hand), st.cards[seat]))
        options = playable(st, hand)
        if not options and not st.team_game():
            # without teams: discard one card and draw one; if still nothing fits, discard one
            table.discard.append(hand.pop(rng.below(len(hand))))
            hand.append(table.draw())
            options = playable(st, hand)
        if options:
            k = options[rng.below(len(options))]
            mv = nth_move(st, k, rng.below(count_moves(st, k)))
            hand.remove(k)
            table.discard.append(k)
        else:
            k = -1
            mv = Move(-1, -1)
            if st.team_game():
                table.discard.extend(hand)  # out of the round: the hand goes under the pile
                del hand[:]
            else:
                table.discard.append(hand.pop(rng.below(len(hand))))
        before = st
        st, events = apply(st, mv)
        turns += 1
        if report:
            report(before, seat, k, mv, events)
        if (st.out >> seat) & 1 and hand:
            table.discard.extend(hand)
            del hand[:]
        for ev in events:
            if ev["type"] == "draw":  # a special space: the mover draws a card at once
                table.hands[seat].append(table.draw())
            if ev["type"] == "win":
                return st, turns
            if ev["type"] == "round_end":
                table.deal(st)
    return st, turns
