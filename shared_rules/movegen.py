# Legal moves: the only place that decides what a card may do.
#
# Generators call visit(a, b) once per legal move, without building lists, so the device can
# light hints or match a board against the moves without holding them all in its heap; a visit
# that returns True stops the walk (the position is left as it was):
#   STEPS cards: visit(piece, destination)         (entering a piece: from its start area)
#   SWAP:        visit(piece_a, piece_b)
#   SPLIT:       visit(code, 0); code packs the single steps (see split_code)
# Pieces are visited in order of where they stand, never by colour, so positions that differ
# only in which colour hides under which undercover piece produce the same moves in the same
# order (hidden information must not leak through legality).
from shared_rules.cards import STEPS, SWAP, COPY, SPLIT

SPLIT_BITS = 6  # bits per single step in a split code: piece << 1 | into-home option


def effective(st, cards, k):
    # the card kind whose rules apply: a copy plays the last card of this round (-1: none)
    if cards.action[k] == COPY:
        return st.last_card
    return k


def undercover_allowed(st, colour):
    # while a piece of the colour you play stands on its own start space, you may not move
    # undercover pieces with an ordinary move (seed 000: WHICH PIECES CAN I MOVE?)
    q = st.board[st.lay.start[colour]]
    return not (q and (q - 1) // st.lay.ppc == colour)


def any_move(st, cards, k):
    """Whether card kind k can be played at all (stops at the first legal move)."""
    found = []

    def visit(a, b):
        found.append(1)
        return True

    moves(st, cards, k, visit)
    return bool(found)


def moves(st, cards, k, visit):
    """Visit every legal move of card kind k for the seat to move. Returns the action."""
    e = effective(st, cards, k)
    if e < 0:
        return COPY  # a copy with nothing to copy: no moves
    act = cards.action[e]
    colour = st.plays(st.to_move)
    if act == STEPS:
        step_moves(st, colour, cards.steps[e], cards.enter[e], visit)
    elif act == SWAP:
        swap_moves(st, visit)
    elif act == SPLIT:
        split_moves(st, colour, cards.steps[e][0], visit)
    return act


# -- cards that move one piece a number of steps ---------------------------------------------

def step_moves(st, colour, steps, enter, visit):
    lay = st.lay
    board = st.board
    n_track = lay.n
    ppc = lay.ppc
    uc_ok = undercover_allowed(st, colour)
    for loc in range(lay.nboard):
        q = board[loc]
        if not q:
            continue
        p = q - 1
        if loc < n_track:
            if lay.hole[loc]:
                if not uc_ok:
                    continue
            elif p // ppc != colour:
                continue
            # an undercover piece may only go into the home of the colour the mover plays
            for n in steps:
                if track_dests(st, p, loc, colour, n, visit):
                    return True
        elif lay.home_colour(loc) == colour:
            for n in steps:
                d = home_dest(st, loc, n)
                if d >= 0 and visit(p, d):
                    return True
    if enter:
        return enter_move(st, colour, visit)
    return False


def blocked(st, t):
    # a piece on its own-coloured start space can be neither passed nor knocked out
    q = st.board[t]
    return q and st.lay.start_owner[t] == (q - 1) // st.lay.ppc


def track_dests(st, p, loc, home_colour, n, visit):
    lay = st.lay
    n_track = lay.n
    first_block = n + 1
    t = loc
    for i in range(1, n + 1):
        t += 1
        if t == n_track:
            t = 0
        if blocked(st, t):
            first_block = i
            break
    if first_block > n and visit(p, t):
        return True
    s = lay.start[home_colour]
    if loc != s:  # a piece cannot go into home straight from its start space
        k0 = (s - loc) % n_track
        r = n - k0
        if k0 >= 1 and 1 <= r <= lay.home_n and first_block > k0:
            base = lay.home(home_colour, 0)
            for j in range(r):
                if st.board[base + j]:
                    return False  # home pieces can be neither passed nor knocked out
            return visit(p, base + r - 1)
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


def enter_move(st, colour, visit):
    lay = st.lay
    s = lay.start[colour]
    q = st.board[s]
    if q and (q - 1) // lay.ppc == colour:
        return False
    area = lay.start_area(colour)
    base = colour * lay.ppc
    for p in range(base, base + lay.ppc):
        if st.pos[p] == area:
            # the pieces in a start area are alike: one move stands for all
            return visit(p, s)
    return False


# -- swap ------------------------------------------------------------------------------------

def undercover_pieces(st):
    lay = st.lay
    out = []
    for loc in range(lay.n):
        if lay.hole[loc] and st.board[loc]:
            out.append(st.board[loc] - 1)
    return out


def swap_moves(st, visit):
    uc = undercover_pieces(st)
    for i in range(len(uc)):
        for j in range(i + 1, len(uc)):
            if visit(uc[i], uc[j]):
                return True
    return False


# -- the Partner 4: steps split over several pieces, each step taken singly -----------------

class Split:
    """What stays fixed while one split card is played, as lookup tables, so the step
    function stays small: MicroPython puts a frame of more than 11 words on the heap."""

    def __init__(self, st, colour):
        lay = st.lay
        n = lay.n
        npieces = lay.npieces
        self.n = n
        self.nb = lay.nboard
        self.colour = colour
        self.origin = bytearray(st.pos)
        # next location of a single step: the track wraps; home spaces lead deeper; 255: none
        nxt = bytearray(lay.nboard)
        for t in range(lay.nboard):
            if t < n:
                nxt[t] = t + 1 if t + 1 < n else 0
            else:
                nxt[t] = t + 1 if lay.home_index(t) + 1 < lay.home_n else 255
        self.nxt = nxt
        # prot[p]: the space where piece p cannot be passed (its own start space), 255: none.
        # Pieces undercover when the card was played never block: their colour is unknown
        # until the card ends, and flips wait for the last step.
        self.prot = bytearray([255] * npieces)
        # hstart[p]: the start space from which piece p may turn into home (255: it may not,
        # because it began the card there); hentry[p]: that home's first space. A visible
        # piece goes home to its own colour, an undercover one to the colour the mover plays.
        self.hstart = bytearray([255] * npieces)
        self.hentry = bytearray(npieces)
        uc = 0
        for p in range(npieces):
            loc = st.pos[p]
            if loc >= lay.nboard:
                continue
            h = p // lay.ppc
            if st.undercover(p):
                uc |= 1 << p
                h = colour
            else:
                self.prot[p] = lay.start[h]
            if loc != lay.start[h]:
                self.hstart[p] = lay.start[h]
            self.hentry[p] = lay.home(h, 0)
        self.ucmask = uc
        self.area = bytearray(npieces)  # where each piece goes when it is burned
        for p in range(npieces):
            self.area[p] = lay.start_area(p // lay.ppc)
        seat = st.to_move
        if st.players != 4:
            allowed = (1 << lay.ncol) - 1  # 2-3 players: every colour
        else:
            m = st.mate(seat)
            allowed = (1 << seat) | (1 << m)
            if st.all_home(seat) or st.all_home(m):
                allowed = (1 << lay.ncol) - 1
        movable = []
        for loc in range(lay.nboard):
            q = st.board[loc]
            if q and (uc >> (q - 1) & 1 or allowed >> ((q - 1) // lay.ppc) & 1):
                movable.append(q - 1)
        self.movable = movable  # ordered by location: colour-blind for undercover pieces


def split_dest(st, sp, p, o):
    """Where one single step of piece p goes (o=1: from its start space into home), or -1.
    Steps onto any piece burn it, except a piece on its own start space or in a home."""
    cur = st.pos[p]
    if o:
        if cur != sp.hstart[p]:
            return -1
        d = sp.hentry[p]
        return -1 if st.board[d] else d
    if cur >= sp.nb:
        return -1  # knocked out earlier in this card
    d = sp.nxt[cur]
    if d == 255:
        return -1
    q = st.board[d]
    if q and (d >= sp.n or sp.prot[q - 1] == d):
        return -1
    return d


def split_step(st, p, d):
    """Take one step; a piece stepped onto is burned (knocked out). Returns it, or -1."""
    q = st.board[d] - 1
    if q >= 0:
        st.put(q, st.lay.start_area(q // st.lay.ppc))
    st.put(p, d)
    return q


def split_unstep(st, p, frm, d, q):
    """Takes back split_step(st, p, d) of piece p from frm that burned q (-1: none)."""
    st.put(p, frm)
    if q >= 0:
        st.put(q, d)


def split_moves(st, colour, total, visit):
    return split_walk(st, Split(st, colour), total, visit)


def split_walk(st, sp, total, visit):
    """The split moves of `total` steps from st, for a card whose fixed facts are sp (st may
    already stand some steps into that card: a referee following the players step by step)."""
    movable = sp.movable
    m = len(movable)
    if not m:
        return False
    origin = sp.origin
    hstart = sp.hstart
    hentry = sp.hentry
    nxt = sp.nxt
    nb = sp.nb
    area = sp.area
    pos = st.pos
    board = st.board
    sp_piece = bytearray(total)
    sp_from = bytearray(total)
    sp_to = bytearray(total)
    sp_burn = bytearray(total)  # burned piece + 1
    choice = bytearray(total + 1)
    limit = 2 * m
    depth = 0
    while True:
        if depth == total:
            code = 0
            i = total - 1
            while i >= 0:
                code = code << SPLIT_BITS | sp_piece[i] << 1 | (choice[i] & 1)
                i -= 1
            if visit(code, 0):
                limit = 0  # stop: every level now counts as exhausted and unwinds its step
            c = limit  # leaf: go back up
        else:
            c = choice[depth]
        if c >= limit:
            if depth == 0:
                return limit == 0
            depth -= 1
            p = sp_piece[depth]
            board[sp_to[depth]] = sp_burn[depth]
            if sp_burn[depth]:
                pos[sp_burn[depth] - 1] = sp_to[depth]
            pos[p] = sp_from[depth]
            board[sp_from[depth]] = p + 1
            choice[depth] += 1
            continue
        p = movable[c >> 1]
        cur = pos[p]
        # where this step would land, from the tables (validity is split_dest's to decide)
        if c & 1:
            if cur != hstart[p]:
                choice[depth] = c + 1
                continue
            d = hentry[p]
        else:
            if cur >= nb:
                choice[depth] = c + 1  # burned earlier in this card
                continue
            d = nxt[cur]
        # Partial-order reduction: steps of different pieces that touch disjoint locations
        # commute, so of all orders of such steps only the one that lists the piece standing
        # further back first is walked (lexicographic normal form of the step sequence).
        key = origin[p]
        i = depth - 1
        canonical = True
        while i >= 0:
            q = sp_piece[i]
            if q == p:
                break
            f = sp_from[i]
            t = sp_to[i]
            if f == cur or f == d or t == cur or t == d:
                break
            if key < origin[q]:
                canonical = False
                break
            i -= 1
        if not canonical or split_dest(st, sp, p, c & 1) < 0:
            choice[depth] = c + 1
            continue
        # take the step in place (undone above when the walk comes back)
        q = board[d]
        if q:
            pos[q - 1] = area[q - 1]  # burned: back to its start area
        board[cur] = 0
        board[d] = p + 1
        pos[p] = d
        sp_piece[depth] = p
        sp_from[depth] = cur
        sp_to[depth] = d
        sp_burn[depth] = q
        depth += 1
        choice[depth] = 0


def split_completable(st, sp, steps):
    """Whether `steps` more single steps of the split card sp can still be played from st
    (stops at the first way found; st is left as it was)."""
    found = []

    def visit(a, b):
        found.append(1)
        return True

    split_walk(st, sp, steps, visit)
    return bool(found)


def split_code_steps(code, total):
    """[(piece, o), ...] from a split code."""
    out = []
    mask = (1 << SPLIT_BITS) - 1
    for i in range(total):
        v = (code >> (SPLIT_BITS * i)) & mask
        out.append((v >> 1, v & 1))
    return out
