# Legal moves: the only place that decides what a card may do.
#
# Generators call visit(a, b) once per legal move, without building lists, so the device can
# light hints or match a board against the moves without holding them all in its heap; a visit
# that returns True stops the walk (the position is left as it was):
#   STEPS, MAGNET: visit(piece, destination)   (entering a piece: from its start area); a
#                  citizen's jump after it is packed into the destination (see jump_of)
#   SWAP, SWAP_OWN: visit(piece_a, piece_b)
#   SPLIT:         visit(code, 0); code packs the single steps (shared_rules/split.py)
# The walks every track game shares are here; a game's own cards and moves (Agent DOG's Partner
# 4 in split.py; DOG's 4 backward, magnet and swap in dog.py; DOG Royal's jumps in royal.py)
# are walked by its module, so a device running one game loads none of the others' code.
# Pieces are visited in order of where they stand, never by colour, so positions that differ
# only in which colour hides under which undercover piece produce the same moves in the same
# order (hidden information must not leak through legality).
#
# What differs between the games comes from the position's variant (shared_rules/variant.py),
# asked once per card: which pieces the seat may move, and per piece rank a table of the spaces
# it may not pass and one of the spaces it may not end on.
from shared_rules.cards import STEPS, SWAP, COPY, SPLIT, MAGNET, SWAP_OWN  # noqa: F401

JUMP = 256  # a destination with a jump: dest + JUMP * (jump target + 1)


def dest_of(b):
    return b & 0xFF


def jump_of(b):
    """The space a citizen jumps on to after its move, or -1."""
    return (b >> 8) - 1


def effective(st, k):
    """The card kind whose rules apply: a copy plays the last card of this round (-1: none)."""
    if st.game.cards.action[k] == COPY:
        return st.last_card
    return k


def any_move(st, k):
    """Whether card kind k can be played at all (stops at the first legal move)."""
    found = []

    def visit(a, b):
        found.append(1)
        return True

    moves(st, k, visit)
    return bool(found)


def moves(st, k, visit):
    """Visits every legal move of card kind k for the seat to move. Returns the action."""
    e = effective(st, k)
    if e < 0:
        return COPY  # a copy with nothing to copy: no moves
    cards = st.game.cards
    act = cards.action[e]
    colour = st.plays(st.to_move)
    if act == STEPS:
        step_moves(st, colour, e, visit)
    elif act == SWAP:
        swap_undercover_moves(st, visit)
    elif act == SPLIT:
        # the split card's code is loaded when a split is first played: DOG and DOG Royal
        # have none, so their boards never hold it
        from shared_rules import split
        split.moves(st, colour, cards.steps[e][0], visit)
    else:  # the cards of one game alone (DOG's magnet and swap): its variant walks them
        st.game.card_moves(st, act, colour, visit)
    return act


# -- cards that move one piece a number of steps ---------------------------------------------

class Walk:
    """One counted card's walk: the position, the visit, and the tables of the variant for the
    mover's colour and the card, looked up once, so the step functions take few arguments and
    keep few locals (MicroPython puts a frame of more than 11 words on the heap). Each variant
    keeps one and fills it per card (begin), so a card allocates none; walks do not nest."""

    def __init__(self, game):
        lay = game.lay
        self.game = game
        self.limits = game.limits
        self.short = game.short
        self.jumps = game.jumps
        self.ppc = lay.ppc
        self.ntrack = lay.n
        self.ahead = lay.ahead
        self.behind = lay.behind
        self.special = lay.special
        self.begin(None, 0, 0, None)

    def begin(self, st, colour, green, visit):
        self.st = st
        self.visit = visit
        self.colour = colour
        if st is None:
            self.blocks = self.lands = None
            self.start = 0
            return self
        self.blocks, self.lands = st.game.pass_tables(st, colour, green)
        self.start = st.lay.start[colour]  # the mover's start space: home lies past it
        return self


def step_moves(st, colour, e, visit):
    game = st.game
    cards = game.cards
    lay = st.lay
    board = st.board
    n_track = lay.n
    steps = cards.steps[e]
    back = cards.backward[e]
    w = game.walk.begin(st, colour, cards.green[e], visit)
    movable = game.fill_movable(st, colour)
    for loc in range(lay.nboard):
        q = board[loc]
        if not q or not movable[q - 1]:
            continue
        p = q - 1
        limit = w.limits[p % w.ppc]
        for n in steps:
            if n > limit:
                continue
            if loc < n_track:
                if track_dests(w, p, loc, n) or (back and game.back_dest(w, p, loc, n)):
                    return True
            else:
                d = home_dest(st, loc, n)
                if d >= 0 and visit(p, d):
                    return True
    if cards.enter[e]:
        return enter_moves(st, colour, visit)
    return False


def track_dests(w, p, loc, n):
    """Piece p on track space loc, exactly n steps forward: along the track, and into the home
    of the colour the mover plays when the walk passes that colour's start space."""
    blocks = w.blocks[p % w.ppc]
    ahead = w.ahead
    t = loc
    i = 0
    while i < n:  # i: the steps walked up to the first piece that cannot be passed
        t = ahead[t]
        i += 1
        if blocks[t]:
            break
    if i == n and not w.lands[p % w.ppc][t] and (w.visit(p, t) or (
            w.special[t] and w.jumps[p % w.ppc] and w.game.jump_on(w, p, loc, t))):
        return True
    if loc != w.start:  # a piece cannot go into home straight from its start space
        k0 = (w.start - loc) % w.ntrack
        if k0 < n and i > k0:
            return home_ends(w, p, n - k0)
    return False


def home_ends(w, p, r):
    """Piece p passing the mover's start space with r steps left: into that home, r spaces
    deep (or fewer where the game lets the piece leave points unused)."""
    st = w.st
    lay = st.lay
    base = lay.home(w.colour, 0)
    lo = r - w.short[p % w.ppc]
    j = 0
    while j < r and j < lay.home_n:
        if st.board[base + j]:
            return False  # home pieces can be neither passed nor knocked out
        j += 1
        if j >= lo and w.visit(p, base + j - 1):
            return True
    return False


def home_dest(st, loc, n):
    lay = st.lay
    k = lay.home_index(loc)
    if k + n >= lay.home_n:
        return -1
    for j in range(1, n + 1):
        if st.board[loc + j]:
            return -1
    return loc + n


def enter_moves(st, colour, visit):
    """A piece from the colour's start area onto its start space; a piece of another colour
    there is knocked out, an own one makes it impossible. The pieces waiting are alike, so one
    move stands for all, unless the game ranks them (one move per rank waiting)."""
    lay = st.lay
    s = lay.start[colour]
    q = st.board[s]
    if q and (q - 1) // lay.ppc == colour:
        return False
    area = lay.start_area(colour)
    base = colour * lay.ppc
    each = st.game.ranked
    for p in range(base, base + lay.ppc):
        if st.pos[p] == area:
            if visit(p, s):
                return True
            if not each:
                return False
    return False


# -- swaps -------------------------------------------------------------------------------------

def undercover_pieces(st):
    lay = st.lay
    out = []
    for loc in range(lay.n):
        if lay.hole[loc] and st.board[loc]:
            out.append(st.board[loc] - 1)
    return out


def swap_undercover_moves(st, visit):
    """Agent DOG's swap: two undercover pieces change places (every pair once)."""
    uc = undercover_pieces(st)
    for i in range(len(uc)):
        for j in range(i + 1, len(uc)):
            if visit(uc[i], uc[j]):
                return True
    return False
