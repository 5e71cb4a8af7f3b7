# One game position in compact form: where every piece is (a bytearray indexed by piece), the
# reverse map of occupied board locations, and the turn bookkeeping. Pieces keep their slot
# for the whole game so a board can carry physical identities through every move.
#
# Piece p has colour p // ppc; in a ranked game (DOG Royal) its rank is p % ppc. A piece is
# undercover exactly when it stands on a hole (Agent DOG); nothing else stores it. A position
# knows its game (shared_rules/variant.py), which knows the board and the cards.


class State:
    def __init__(self, game):
        self.game = game
        lay = game.lay
        self.lay = lay
        self.pos = bytearray(lay.npieces)
        self.board = bytearray(lay.nboard)  # location -> piece + 1, 0 = empty
        self.players = 4
        self.seats = []  # colour indices in clockwise order
        self.to_move = 0
        self.dealer = 0
        self.last_card = -1  # card index, -1 = none this round
        self.cards = bytearray(lay.ncol)  # cards still in hand, per colour
        self.out = 0  # bit c set: colour c's seat is out of this round
        for p in range(lay.npieces):
            self.pos[p] = lay.start_area(p // lay.ppc)

    def copy(self):
        s = State(self.game)
        s.pos[:] = self.pos
        s.board[:] = self.board
        s.players = self.players
        s.seats = self.seats  # never mutated in place
        s.to_move = self.to_move
        s.dealer = self.dealer
        s.last_card = self.last_card
        s.cards[:] = self.cards
        s.out = self.out
        return s

    def put(self, p, loc):
        old = self.pos[p]
        if old < self.lay.nboard and self.board[old] == p + 1:
            self.board[old] = 0
        self.pos[p] = loc
        if loc < self.lay.nboard:
            self.board[loc] = p + 1

    def at(self, loc):
        # the piece on a board location, or -1
        return self.board[loc] - 1 if loc < self.lay.nboard else -1

    def undercover(self, p):
        loc = self.pos[p]
        return loc < self.lay.n and self.lay.hole[loc] == 1

    def all_home(self, colour):
        lay = self.lay
        base = colour * lay.ppc
        for p in range(base, base + lay.ppc):
            if not lay.n <= self.pos[p] < lay.nboard:
                return False
        return True

    def team_game(self):
        return self.players in self.lay.team_players

    def mate(self, colour):
        # teammate's colour in a team game, else -1 (2, 3 and 5 players play alone)
        if self.players not in self.lay.team_players:
            return -1
        m = self.lay.mate[colour]
        return -1 if m == 255 else m

    def plays(self, seat):
        # the colour a seat plays: its own, or its teammate's once its own four are home
        m = self.mate(seat)
        if m >= 0 and self.all_home(seat):
            return m
        return seat

    def same_team(self, seat, colour):
        return colour == seat or colour == self.mate(seat)

    def winners(self):
        # seats that have won (empty list while the game goes on). A reveal can send an
        # opponent's piece home, so one move may complete both teams: the mover's team, looked
        # at first, wins then.
        n = len(self.seats)
        i = self.seats.index(self.to_move)
        order = [self.seats[(i + j) % n] for j in range(n)]
        if self.players in self.lay.team_players:
            for s in order:
                m = self.mate(s)
                if self.all_home(s) and m >= 0 and self.all_home(m):
                    return [c for c in self.seats if c == s or c == m]
            return []
        for s in order:
            if self.all_home(s):
                return [s]
        return []

    def in_round(self, colour):
        return not (self.out >> colour) & 1 and self.cards[colour] > 0


def new_game(game, players, seats=None, dealer=None, first=None):
    """The opening position of `game` (a variant): per seat one piece on its start space, the
    others in the start area, a hand each; the dealer (default: the first seat) deals and
    moves first. first: per seat colour, which of its pieces starts on the start space (in a
    ranked game the player chooses; default the first)."""
    lay = game.lay
    st = State(game)
    st.players = players
    st.seats = sorted(seats) if seats is not None else list(lay.default_seats[players])
    st.dealer = st.seats[0] if dealer is None else dealer
    st.to_move = st.dealer
    for c in st.seats:
        st.cards[c] = game.hand
        k = 0 if first is None else first.get(c, 0)
        st.put(c * lay.ppc + k, lay.start[c])
    return st
