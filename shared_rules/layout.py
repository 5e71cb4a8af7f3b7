# A board layout: the track, holes, meeting points, special spaces, start spaces, homes and
# teams, read from a data file. Everything the rules need about the board geometry is a table
# here, so another layout (the DOG boards with 4 and 6 seats) is a data file, not new code.
#
# Location codes (one small int each, so positions fit in a bytearray):
#   0 .. track-1                         track spaces
#   track + colour*home + k              home space h(k+1) of that colour
#   nboard + colour                      that colour's start area (holds any number of pieces)
from shared_rules import _data

EMPTY = 255  # "no colour" in the per-space tables


class Layout:
    def __init__(self, spec):
        self.name = spec["name"]
        self.colours = list(spec["colours"])
        ncol = len(self.colours)
        n = spec["track"]
        hn = spec["home_spaces"]
        self.ncol = ncol
        self.n = n
        self.home_n = hn
        self.ppc = spec["pieces_per_colour"]
        self.npieces = ncol * self.ppc
        self.nboard = n + ncol * hn
        # each piece's colour and slot, looked up (the firmware's loops call no method for it)
        self.piece_colour = bytes([p // self.ppc for p in range(self.npieces)])
        self.piece_slot = bytes([p % self.ppc for p in range(self.npieces)])
        self.cidx = {}
        for i in range(ncol):
            self.cidx[self.colours[i]] = i
        self.start = bytearray(ncol)
        self.start_owner = bytearray(bytes([EMPTY]) * n)
        for c in range(ncol):
            s = spec["start"][self.colours[c]]
            self.start[c] = s
            self.start_owner[s] = c
        # the track's next and previous space, so a walk steps by lookup, not by arithmetic;
        # filled in place: a list of them first would take 8 bytes a space on the 64-bit port
        # while a board loads, when its heap is fullest
        self.ahead = bytearray(n)
        self.behind = bytearray(n)
        for t in range(n):
            self.ahead[t] = (t + 1) % n
            self.behind[t] = (t - 1) % n
        self.hole = bytearray(n)
        for h in spec["holes"]:
            self.hole[h] = 1
        self.special = bytearray(n)  # DOG Royal: ending a move here draws a card
        self.special_spaces = sorted(spec.get("special_spaces", []))
        for s in self.special_spaces:
            self.special[s] = 1
        self.meeting = bytearray(n)
        self.meeting_points = sorted(spec["meeting_points"])
        for m in self.meeting_points:
            behind = (m - 1) % n
            if not self.hole[behind]:
                raise ValueError("layout: the space behind meeting point %d is not a hole" % m)
            self.meeting[m] = 1
        self.team_players = tuple(spec.get("team_players", ()))  # player counts that play as teams
        self.mate = bytearray([EMPTY] * ncol)
        for team in spec["teams"]:
            if len(team) == 2:
                a = self.cidx[team[0]]
                b = self.cidx[team[1]]
                self.mate[a] = b
                self.mate[b] = a
        self.default_seats = {}
        for k in spec["default_seats"]:
            self.default_seats[int(k)] = [self.cidx[c] for c in spec["default_seats"][k]]

    # -- location codes ------------------------------------------------------------------
    def home(self, colour, k):
        return self.n + colour * self.home_n + k

    def start_area(self, colour):
        return self.nboard + colour

    def is_home(self, loc):
        return self.n <= loc < self.nboard

    def home_colour(self, loc):
        return (loc - self.n) // self.home_n

    def home_index(self, loc):
        return (loc - self.n) % self.home_n

    # -- pieces ----------------------------------------------------------------------------
    # Piece p is slot piece_slot[p] of colour piece_colour[p] (tables above), for the whole game
    # (shared_rules/state.py); in DOG Royal the slot is its rank (shared_rules/ranks.py).
    # Occupancy tables hold p + 1.
    def piece(self, colour, slot):
        return colour * self.ppc + slot

    def pieces_of(self, colour):
        return range(colour * self.ppc, (colour + 1) * self.ppc)

    # -- JSON forms ------------------------------------------------------------------------
    def loc_json(self, loc):
        # moves, hints and events: track spaces are numbers, the rest "colour:h2"/"colour:start"
        if loc < self.n:
            return loc
        if loc < self.nboard:
            return "%s:h%d" % (self.colours[self.home_colour(loc)], self.home_index(loc) + 1)
        return self.colours[loc - self.nboard] + ":start"

    def parse_loc(self, value):
        # inverse of loc_json; -1 for anything that is not a location of this layout
        if type(value) is int:
            return value if 0 <= value < self.n else -1
        if type(value) is not str:
            return -1
        cut = value.find(":")
        if cut < 0:
            return -1
        c = self.cidx.get(value[:cut], -1)
        if c < 0:
            return -1
        return self.piece_loc(c, value[cut + 1:])

    def piece_loc(self, colour, value):
        # a position's per-colour form: a track number, "start" or "h1".."hN" of that colour
        if type(value) is int:
            return value if 0 <= value < self.n else -1
        if type(value) is not str:
            return -1
        if value == "start":
            return self.start_area(colour)
        if len(value) >= 2 and value[0] == "h":
            digits = value[1:]
            if digits.isdigit():
                k = int(digits) - 1
                if 0 <= k < self.home_n:
                    return self.home(colour, k)
        return -1

    def piece_json(self, loc):
        if loc < self.n:
            return loc
        if loc < self.nboard:
            return "h%d" % (self.home_index(loc) + 1)
        return "start"


def load(name="agent-dog-4"):
    return _data.cached(Layout, name)
