# DOG (Schmidt Spiele's new base game, from the DOG Royal box): the track game with the 4 that
# also goes backward, the 1-7, the magnet and the swap of an own piece with another colour's.
# What it adds to the shared mechanics is nothing but its cards and boards: a seat moves only
# its own pieces (a finished player the teammate's), and knocking out an own or a teammate's
# piece costs nothing. 2 to 4 players play on the 4-seat board, 5 and 6 on the 6-seat one;
# with 4 and 6 players the seats facing each other play together.
from shared_rules.variant_base import Variant
from shared_rules.cards import MAGNET, SWAP_OWN


class Dog(Variant):
    name = "dog"
    title = "DOG"
    cards_name = "dog-cards"

    def card_moves(self, st, act, colour, visit):
        if act == MAGNET:
            return magnet_moves(st, colour, visit)
        if act == SWAP_OWN:
            return swap_own_moves(st, colour, visit)
        return False

    def back_dest(self, w, p, loc, n):
        """Piece p on track space loc, exactly n steps backward (the 4): it hops like a
        forward move and never leaves or enters a home."""
        blocks = w.blocks[p % w.ppc]
        behind = w.behind
        t = loc
        for i in range(n):
            t = behind[t]
            if i < n - 1 and blocks[t]:
                return False
        if w.lands[p % w.ppc][t]:
            return False
        return w.visit(p, t) or (w.special[t] and w.jumps[p % w.ppc] and
                                 self.jump_on(w, p, loc, t))

    def explain(self, st, e, colour, mv):
        lay = self.lay
        if self.cards.action[e] == MAGNET:
            return ("the magnet moves a piece on the track to the space directly behind the "
                    "next piece ahead of it; %s is not that" % lay.loc_json(mv.b & 0xFF))
        if self.cards.backward[e]:
            return ("%s moves a piece exactly %d steps forward or backward (a piece on its own "
                    "start space or in a home cannot be passed or taken; never into or out "
                    "of a home backward)" % (self.cards.names[e], self.cards.steps[e][0]))
        return None


def magnet_moves(st, colour, visit):
    """A piece on the track moves up to the space directly behind the next piece ahead of it
    on the track (any colour); it cannot stop earlier, enter a home nor move in one."""
    game = st.game
    lay = st.lay
    n_track = lay.n
    w = game.walk.begin(st, colour, 0, visit)
    movable = game.fill_movable(st, colour)
    for loc in range(n_track):
        q = st.board[loc]
        if not q or not movable[q - 1]:
            continue
        t = loc
        for _ in range(n_track - 1):
            t = lay.ahead[t]
            if st.board[t]:
                break
        if t == loc or not st.board[t]:
            continue  # no other piece on the track
        d = lay.behind[t]
        if d != loc and (w.visit(q - 1, d) or (w.special[d] and w.jumps[(q - 1) % w.ppc]
                                               and game.jump_on(w, q - 1, loc, d))):
            return True
    return False


def swap_own_moves(st, colour, visit):
    """The swap: a piece of the colour the mover plays, on the track, changes places with a
    piece of another colour on the track; pieces on their own start space cannot be
    swapped."""
    lay = st.lay
    prot = st.game.fill_protected(st)
    for a in range(lay.n):
        qa = st.board[a]
        if not qa or prot[a] or (qa - 1) // lay.ppc != colour:
            continue
        for b in range(lay.n):
            qb = st.board[b]
            if qb and not prot[b] and (qb - 1) // lay.ppc != colour and visit(qa - 1, qb - 1):
                return True
    return False
