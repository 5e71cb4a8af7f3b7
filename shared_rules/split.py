# The Partner 4 (Agent DOG's red 4): 4 steps split over several pieces, each step taken singly,
# every piece stepped onto burned. Everything about it is here: the tables that stay fixed while
# the card is played, a single step and its undoing, the walk over every way to play it (with
# partial-order reduction), the packing of a move's single steps into one small int, and the
# walk of one segment (a piece put down after some steps) that the protocol's paths and the
# referee's placements both use.

BITS = 6  # bits per single step in a packed move: piece << 1 | into-home option
MASK = (1 << BITS) - 1
NO_STEP = 255  # in the step tables: no such location (a byte's largest value)


def pack(code, n, p, o):
    """code with single step number n (0-based) set to piece p (o=1: into home)."""
    return code | (p << 1 | o) << (BITS * n)


def unpack(code, total):
    """[(piece, o), ...]: the single steps of a packed move."""
    out = []
    for i in range(total):
        v = (code >> (BITS * i)) & MASK
        out.append((v >> 1, v & 1))
    return out


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
        # next location of a single step: the track wraps; home spaces lead deeper; NO_STEP:
        # none
        nxt = bytearray(lay.nboard)
        for t in range(lay.nboard):
            if t < n:
                nxt[t] = t + 1 if t + 1 < n else 0
            else:
                nxt[t] = t + 1 if lay.home_index(t) + 1 < lay.home_n else NO_STEP
        self.nxt = nxt
        # prot[p]: the space where piece p cannot be passed (its own start space), NO_STEP:
        # none. Pieces undercover when the card was played never block: their colour is
        # unknown until the card ends, and flips wait for the last step.
        self.prot = bytearray([NO_STEP] * npieces)
        # hstart[p]: the start space from which piece p may turn into home (NO_STEP: it may
        # not, because it began the card there); hentry[p]: that home's first space. A visible
        # piece goes home to its own colour, an undercover one to the colour the mover plays.
        self.hstart = bytearray([NO_STEP] * npieces)
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
        if st.mate(seat) < 0:
            allowed = (1 << lay.ncol) - 1  # without teams: every colour
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


def dest(st, sp, p, o):
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
    if d == NO_STEP:
        return -1
    q = st.board[d]
    if q and (d >= sp.n or sp.prot[q - 1] == d):
        return -1
    return d


def step(st, p, d):
    """Take one step; a piece stepped onto is burned (knocked out). Returns it, or -1."""
    q = st.board[d] - 1
    if q >= 0:
        st.put(q, st.lay.start_area(q // st.lay.ppc))
    st.put(p, d)
    return q


def unstep(st, p, frm, d, q):
    """Takes back step(st, p, d) of piece p from frm that burned q (-1: none)."""
    st.put(p, frm)
    if q >= 0:
        st.put(q, d)


def moves(st, colour, total, visit):
    return walk(st, Split(st, colour), total, visit)


def walk(st, sp, total, visit):
    """Visits the split moves of `total` steps from st, for a card whose fixed facts are sp
    (st may already stand some steps into that card: a referee following the players step by
    step): visit(code, 0) with the steps packed by pack(). A visit that returns True stops the
    walk, and walk returns True; st is left as it was."""
    movable = sp.movable
    if not movable:
        return False
    hstart, hentry, nxt = sp.hstart, sp.hentry, sp.nxt
    nb, area, origin = sp.nb, sp.area, sp.origin
    pos, board, no_step = st.pos, st.board, NO_STEP  # a local: no global lookup per step
    # the steps taken, one entry per depth: piece, from, to, burned piece + 1
    sp_piece, sp_from = bytearray(total), bytearray(total)
    sp_to, sp_burn = bytearray(total), bytearray(total)
    choice = bytearray(total + 1)
    limit, depth = 2 * len(movable), 0
    while True:
        if depth == total:
            if visit(_packed(sp_piece, choice, total), 0):
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
        # where this step would land, from the tables (NO_STEP: nowhere, e.g. the piece was
        # burned earlier in this card; validity is dest()'s to decide)
        if c & 1:
            d = hentry[p] if cur == hstart[p] else no_step
        else:
            d = nxt[cur] if cur < nb else no_step
        if d == no_step or depth and not _canonical(sp_piece, sp_from, sp_to, origin, depth, p,
                                                    cur, d) or dest(st, sp, p, c & 1) < 0:
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


def _packed(sp_piece, choice, total):
    # the walk's steps as one code (see pack())
    code = 0
    i = total - 1
    while i >= 0:
        code = code << BITS | sp_piece[i] << 1 | (choice[i] & 1)
        i -= 1
    return code


def _canonical(sp_piece, sp_from, sp_to, origin, depth, p, cur, d):
    # Partial-order reduction: steps of different pieces that touch disjoint locations
    # commute, so of all orders of such steps only the one that lists the piece standing
    # further back first is walked (lexicographic normal form of the step sequence).
    key = origin[p]
    i = depth - 1
    while i >= 0:
        q = sp_piece[i]
        if q == p:
            return True
        f = sp_from[i]
        t = sp_to[i]
        if f == cur or f == d or t == cur or t == d:
            return True
        if key < origin[q]:
            return False
        i -= 1
    return True


def completable(st, sp, steps):
    """Whether `steps` more single steps of the split card sp can still be played from st
    (stops at the first way found; st is left as it was)."""
    return walk(st, sp, steps, _stop)


def _stop(a, b):
    return True


OK = 0
TOO_MANY = 1   # the card has no steps left for the rest of the segment
BLOCKED = 2    # the piece cannot step on (a blocker, a home, or home entered from its start)


def segment(work, sp, p, goal, code, n, total):
    """Walks piece p in work (a position n steps into the card, whose steps so far are packed
    in code) single step by single step to the location goal, as players do when they put a
    piece down: at its start space it turns into home when goal is in home. Returns (why,
    code, n, burned): why is OK, TOO_MANY or BLOCKED; work then stands where the walk got to,
    burned lists the locations where it burned a piece."""
    lay = work.lay
    burned = []
    while work.pos[p] != goal:
        if n == total:
            return TOO_MANY, code, n, burned
        o = 1 if lay.is_home(goal) and dest(work, sp, p, 1) >= 0 else 0
        d = dest(work, sp, p, o)
        if d < 0:
            return BLOCKED, code, n, burned
        code = pack(code, n, p, o)
        n += 1
        if step(work, p, d) >= 0:
            burned.append(d)
    return OK, code, n, burned


def fired(st, code, total):
    """Meeting points where a piece the split move `code` moved ended it (ascending); st must
    stand after its steps."""
    return fired_pieces(st, [p for (p, _) in unpack(code, total)])


def fired_pieces(st, pieces):
    """Meeting points where these pieces stand (ascending, each once)."""
    lay = st.lay
    out = []
    for p in pieces:
        loc = st.pos[p]
        if loc < lay.n and lay.meeting[loc] and loc not in out:
            out.append(loc)
    out.sort()
    return out
