# DOG Royal: DOG with ranked pieces. Each colour's pieces are, in the order a position lists
# them, the king, the knight, the citizen and the jester (the rank is the piece's slot within
# its colour, so it goes with the piece through every move). What the ranks change (the DOG
# Royal rulebook's "Royal" section):
# - passing: a piece may pass only pieces of its own or a lower rank, unless the card is green
#   (the 4, the 10); a piece on its own start space blocks all but the knight, which may pass
#   it (rank order still applies) but not stop on it;
# - taking: a king is taken only by a king; but a piece ending on the mover's own start space
#   takes whatever other colour stands there, a king too;
# - the king moves only with counts of 1 to 7; the jester entering its home may leave up to 2
#   points unused; the citizen, after drawing on a special space, may jump on to the next free
#   special space;
# - special spaces: ending a counted move of the player's card on one draws a card.
from shared_rules.dog import Dog
from shared_rules import movegen
from shared_rules.cards import STEPS
from shared_rules.ranks import RANKS

KING = 0  # indices into RANKS: a piece's slot within its colour
KNIGHT = 1
CITIZEN = 2
JESTER = 3
KING_MAX_STEPS = 7
JESTER_SHORT = 2


class DogRoyal(Dog):
    name = "dog-royal"
    title = "DOG Royal"
    ranked = True
    draws = True

    def __init__(self, lay, cards):
        Dog.__init__(self, lay, cards)
        if lay.ppc != len(RANKS):
            raise ValueError("DOG Royal has %d pieces per colour" % len(RANKS))
        self.limits[KING] = KING_MAX_STEPS
        self.short[JESTER] = JESTER_SHORT
        self.jumps[CITIZEN] = 1
        self.max_hand = sum(cards.deck)  # drawn cards join the hand
        n = lay.n
        # per rank: spaces it may not pass, spaces it may not end on (filled per card)
        self.blocks = [bytearray(n) for _ in RANKS]
        self.lands = [bytearray(n) for _ in RANKS]

    def rank_name(self, p):
        return RANKS[p % self.lay.ppc]

    def tag(self, ev, p):
        ev["rank"] = RANKS[p % self.lay.ppc]
        return ev

    def pass_tables(self, st, colour, green):
        lay = self.lay
        prot = self.fill_protected(st)
        own_start = lay.start[colour]
        for r in range(len(RANKS)):
            blk = self.blocks[r]
            lnd = self.lands[r]
            for t in range(lay.n):
                q = st.board[t]
                if not q:
                    blk[t] = 0
                    lnd[t] = 0
                    continue
                qr = (q - 1) % lay.ppc
                outranks = qr < r and not green  # a higher rank: passed only with green
                blk[t] = 1 if outranks or (prot[t] and r != KNIGHT) else 0
                # a king is taken only by a king, except on the mover's own start space
                lnd[t] = 1 if prot[t] or (qr == KING and r != KING and t != own_start) else 0
        return self.blocks, self.lands

    def jump_on(self, w, p, loc, t):
        """The move of p from loc to the special space t once more, with the jump on to the
        next special space that is free once the move is done."""
        j = next_free_special(w.st, t, loc)
        return j >= 0 and w.visit(p, t + movegen.JUMP * (j + 1))

    def after_move(self, old, new, colour, e, mv, moved, captured, events):
        # a counted move of the card (a count, the 4 backward, the 1-7, the magnet) ending on
        # a special space draws a card; a citizen may then jump on (it draws nothing more)
        if not moved or old.pos[mv.a] >= self.lay.nboard:  # moved: by a count, never a swap
            return
        p = mv.a
        d = movegen.dest_of(mv.b)
        if d >= self.lay.n or not self.lay.special[d]:
            return
        seat = old.to_move
        new.cards[seat] += 1
        events.append({"type": "draw", "seat": self.lay.colours[seat]})
        j = movegen.jump_of(mv.b)
        if j >= 0:
            new.put(p, j)
            events.append(self.tag({"type": "jump", "from": d, "to": j}, p))

    def explain(self, st, e, colour, mv):
        lay = self.lay
        cards = self.cards
        p = mv.a
        r = p % lay.ppc
        if r == KING and cards.action[e] == STEPS and min(cards.steps[e]) > KING_MAX_STEPS:
            return "a king moves only with counts of 1 to 7; %s is not one" % cards.names[e]
        d = movegen.dest_of(mv.b)
        q = st.at(d)
        if q >= 0 and q % lay.ppc == KING and r != KING and d != lay.start[colour]:
            return "a king is taken only by a king (or on your own start space)"
        why = Dog.explain(self, st, e, colour, mv)
        if why is None and not cards.green[e]:
            why = ("%s moves a piece exactly %s steps; a piece passes only pieces of its own or "
                   "a lower rank (king, knight, citizen, jester) unless the card is green (4, "
                   "10)" % (cards.names[e], " or ".join([str(n) for n in cards.steps[e]])))
        return why


def next_free_special(st, t, vacated):
    """The next special space clockwise after t that is free once a piece has left `vacated`
    and stands on t; -1 when none is."""
    specials = st.lay.special_spaces
    m = len(specials)
    i = specials.index(t)
    for j in range(1, m):
        s = specials[(i + j) % m]
        if not st.board[s] or s == vacated:
            return s
    return -1
