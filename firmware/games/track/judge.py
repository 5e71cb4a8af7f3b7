# Which legal move the players are making, judged from occupancy alone (sensors see no colours).
#
# Ordinary cards and swaps (WholeMove): a legal move is accepted when the board is a complete
# result of exactly one outcome of the card's moves, and no other legal move could still grow
# out of what the board shows (docs/architecture.md: a half-done move can look like a finished
# one). A capture is complete only once its square has been touched (victim lifted, mover
# placed), so a player holding the mover over an untouched square is not done; a swap is two
# touched holes.
#
# The Partner 4 (judge_split.SplitMove, loaded with the first) is followed step by step.
from shared_rules import movegen
from shared_rules.hints import Hints
from shared_rules.apply import changes, CHANGES_BYTES
from shared_rules.move import Move
from shared_rules.cards import SPLIT
from firmware.games.track.places import NO_BAND
from firmware.games.track import move_lights
from firmware.games.track.judging import (
    WAIT, DONE, AMBIGUOUS, ILLEGAL, RESTING, WRONG_RANK, OCCUPIED)
from firmware.mpconst import const


# A WholeMove's outline of one legal move: a run of bytes in a bytearray that holds
# _OUTLINE_CHUNK of them (a swap of a piece among 24 on the 6-seat board has 80 outlines: no
# object per field, nor one per outline, which on an ESP32 costs 32 bytes beside its 20):
_O_A = const(0)        # the moving piece
_O_B = const(1)        # two bytes: its destination (a citizen's jump packed in) or, a swap,
                       # the other
_O_N = const(3)        # how many sensors the move changes (1 to 3)
_O_SENSOR = const(4)   # those sensors (_NONE past _O_N)
_O_AFTER = const(7)    # their occupancy after the move
_O_BAND = const(10)    # the rank band each reads after it (NO_BAND: empty, or an unranked game)
_O_VIA = const(13)     # a citizen's jump: the sensor of the special space it stands on a while
_O_COUNTS = const(14)  # then the pieces in each start area after the move, one byte per colour
_MAX_CHANGED = const(3)
_MAX_COUNT = const(13)  # the furthest a card moves a piece (the 13): a longer way round
                        # is the other way
_NONE = const(255)  # no sensor (boards have fewer than 255)
# the rules core's changes() of the move an outline is made of, written here (one buffer: a
# card's outlines are made one at a time), and where it puts what (shared_rules/apply.py CH_*,
# folded here: an imported name is a look-up in a dict at every use; the judge's tests of
# knock-outs and entries fail where they differ)
_CH = bytearray(CHANGES_BYTES)
_CH_SQUARES = const(0)
_CH_SQUARE = const(1)
_CH_AREAS = const(7)
_CH_AREA = const(8)
_OUTLINE_CHUNK = const(8)  # outlines per bytearray (160 bytes on the 6-seat board): no array of 80
# how an outline stands against the board (WholeMove._against)
_O_NO = const(0)         # the board has left it
_O_GROWING = const(1)    # the board may still grow into it
_O_RANK = const(2)       # every piece where the move puts one, but one of another rank
                         # (a ranked game)
_O_UNTOUCHED = const(3)  # complete but for a capture or swap square nobody touched:
                         # confirm decides
_O_COMPLETE = const(4)
# what _classify found, a slot each in WholeMove.found (an outline as its number g + 1, 0:
# none): no attribute per figure, as a judge's attributes live in a dict that grows, on the
# heap, while a move is judged
_F_COMPLETE = const(0)       # the first outline the board explains completely
_F_COMPLETE_MORE = const(1)  # 1: another complete one with another outcome
_F_UNTOUCHED = const(2)      # the first complete but for a square nobody touched
_F_UNTOUCHED_MORE = const(3)
_F_RANK = const(4)           # the first the board matches but for a rank
_F_GROWING = const(5)        # how many the board may still grow into
_FOUND_N = const(6)


class WholeMove:
    rank_want = ()  # set by _rank_squares (rare): no instance attribute until then

    def __init__(self, st, k, places):
        self.st = st
        self.k = k
        self.places = places
        lay = st.lay
        self.pre = bytearray(places.n)  # occupancy before the move, per sensor
        self.pre_count = bytearray(lay.ncol)  # pieces in each start area before the move
        for p in range(lay.npieces):
            if st.pos[p] < lay.nboard:
                self.pre[places.sensor[st.pos[p]]] = 1
            else:
                self.pre_count[lay.piece_colour[p]] += 1
        # every legal move as the sensors see it (O_* above): the moving piece and its
        # destination, the sensors whose occupancy it changes, their occupancy and ranks after
        # it, and the start-area counts after it; _OUTLINE_CHUNK of them per bytearray, each
        # `size` bytes long: outline g is self.outlines[g // _OUTLINE_CHUNK] from byte
        # (g % _OUTLINE_CHUNK) * size
        self.outlines = []
        self.noutlines = 0
        self.size = _O_COUNTS + lay.ncol
        self.ranked = st.game.ranked
        self.act = st.game.cards.action[movegen.effective(st, k)]
        self.swap = self.act == movegen.SWAP or self.act == movegen.SWAP_OWN
        # an outline before its move is filled in: no sensors, no ranks, the start areas as
        # they are (each outline starts as a copy)
        blank = bytearray(self.size)
        for j in range(_MAX_CHANGED):
            blank[_O_SENSOR + j] = _NONE
            blank[_O_BAND + j] = NO_BAND
        blank[_O_VIA] = _NONE
        blank[_O_COUNTS:] = self.pre_count
        # the same walk collects the card's hints for the LEDs: no second walk of its moves
        self.hints = Hints(st, k)
        w = self._outline_writer(bytes(blank) * _OUTLINE_CHUNK)
        next(w)  # to its first yield: ready for send()
        movegen.moves(st, k, lambda a, b: w.send(a << 16 | b))
        self.move = None
        self.bad = []
        self.found = [0] * _FOUND_N  # small ints: set in place, nothing allocated
        # the board judge() judges, held for its calls per outline (two arguments each, not
        # seven: see _against): [0] the class per sensor, [1] whether each was touched, [2] the
        # rank band each reads, [3] the pieces on each start area's spots. One list, made here:
        # an attribute each would make this object's seventeenth and eighteenth, and its
        # attribute table would be made anew, larger, while a card is played (the heap's fullest
        # moment, where a 6-player DOG Royal game ran out of it)
        # [4] (a ranked game): how many pieces of each colour and rank its start area reads now,
        # at piece p's index (p is slot p % ppc of colour p // ppc, and a ranked game's slot is
        # its rank: shared_rules/layout.py), for _rank_stayed
        self.board = [None, None, None, self.pre_count,
                      bytearray(lay.npieces) if self.ranked else None]

    def left(self):
        return 0  # Partner 4 steps left; an ordinary card has none

    def lights(self):
        """What the LEDs show for this card (worked out once: the board does not change it)."""
        h = self.hints
        return move_lights.CardLights(self.places, self.st, self.k, (h.movable, h.targets))

    def fired(self):
        return []  # one piece moves: at most one meeting point, no order to choose

    # The calls per outline while its move is judged (_covers, _against, _areas and _passes:
    # up to 80 outlines a card) keep their frames within MicroPython's 11 words
    # (docs/measuring.md, "Frames"): a bigger one would be allocated on the heap at every call.
    # Their while loops visit the squares last first: a for loop holds two or four words more,
    # and none of them depends on the order.

    # The outlines are written as the rules core's walk of the card's moves visits them, sent
    # here as a << 16 | b: what move (a, b) changes on the board (the rules core's occupancy
    # view of it, changes()), in sensors: the squares, their occupancy after it and, in a
    # ranked game, the rank each shows; the start areas' counts after it. A generator, so that
    # its frame, holding what every outline needs as locals, is made once a card: an ordinary
    # call with them would put its frame on the heap at every move, and the attribute look-ups
    # instead cost more than the rest of the work.
    def _outline_writer(self, blank):
        # blank: a chunk of blank outlines, each new chunk's first bytes
        a = b = o = j = e = n = 0  # first: one-byte opcodes reach locals 0-15
        r = None
        st = self.st
        act = self.act
        visit = self.hints.visit  # the card's hints: collected on the same walk
        sensor = self.places.sensor
        pos = st.pos
        slot = st.lay.piece_slot
        ranked = self.ranked
        swap = self.swap
        size = self.size
        outlines = self.outlines
        ch = _CH
        while True:
            a = yield
            b = a & 0xFFFF
            a >>= 16
            visit(a, b)
            changes(st, act, a, b, ch)
            o = n % _OUTLINE_CHUNK * size  # where it starts in the last chunk
            if not o:
                r = bytearray(blank)
                outlines.append(r)
            n += 1
            self.noutlines = n
            r[o + _O_A] = a
            r[o + _O_B] = b >> 8
            r[o + _O_B + 1] = b & 0xFF
            if not swap and movegen.jump_of(b) >= 0:
                r[o + _O_VIA] = sensor[movegen.dest_of(b)]
            j = ch[_CH_SQUARES]
            r[o + _O_N] = j
            while j:
                j -= 1
                e = _CH_SQUARE + 2 * j  # (square, occupied after)
                r[o + _O_SENSOR + j] = sensor[ch[e]]
                r[o + _O_AFTER + j] = ch[e + 1]
                if ch[e + 1] and ranked:
                    # the piece it shows: the mover lands; a swap's squares trade their pieces
                    r[o + _O_BAND + j] = slot[b if swap and ch[e] == pos[a] else a]
            j = ch[_CH_AREAS]
            while j:  # pieces into play or knocked out
                j -= 1
                e = o + _O_COUNTS + ch[_CH_AREA + 2 * j]  # (colour, pieces after - before + 1)
                r[e] = r[e] + ch[_CH_AREA + 2 * j + 1] - 1

    def _outline_at(self, g):
        """Outline g: (its bytearray, where it starts there)."""
        return self.outlines[g // _OUTLINE_CHUNK], (g % _OUTLINE_CHUNK) * self.size

    def _key(self, g):
        # what tells outcomes apart: where the mover stands, and where it goes (a swap: where
        # the other piece stands)
        r, o = self._outline_at(g)
        b = r[o + _O_B] << 8 | r[o + _O_B + 1]
        return self.st.pos[r[o + _O_A]] << 16 | (self.st.pos[b] if self.swap else b)

    def _accept(self, g):
        r, o = self._outline_at(g)
        b = r[o + _O_B] << 8 | r[o + _O_B + 1]
        self.move = Move(self.k, self.act, r[o + _O_A], b)

    def judge(self, sensed, touched, bands=None):
        """sensed: class per sensor; touched: per sensor, changed since the card was played;
        bands: the rank band per sensor (a ranked game's moves must show the right ranks)."""
        self.board[0] = sensed
        self.board[1] = touched
        self.board[2] = bands
        moved, same = self._changes(sensed, touched)
        self.board[3] = self._start_counts(sensed, bands)
        self._classify(moved)
        res = self._verdict(moved, same)
        if res == DONE and (self.in_transit(sensed, moved) or self._rank_stayed()):
            return RESTING
        return res

    def _rank_stayed(self):
        """Whether the move taken brings a piece into play whose rank its start area still
        reads (a ranked game): a hand holding a king still a few mm over the start space reads
        as a smaller rank there (hal/scanner.py), but the king has left the area and the
        smaller piece has not. Such a move rests a while, as a piece on a space its move
        passes does: the king is put down, or the players see the move taken later."""
        a = self.move.a
        return self.ranked and self.st.pos[a] >= self.st.lay.nboard and self.board[4][a]

    def _changes(self, sensed, touched):
        """(sensors whose occupancy differs from before the move, touched sensors whose
        occupancy is as before it), start spots aside. A touched square as it was is either
        a piece lifted and put back or a capture's or swap's square: only a complete move that
        involves it makes it count (_verdict)."""
        moved = []
        same = []
        pre = self.pre
        for i in self.places.track:
            if OCCUPIED[sensed[i]] != pre[i]:
                moved.append(i)
            elif touched[i]:
                same.append(i)
        return moved, same

    def _start_counts(self, sensed, bands):
        """Pieces on each start area's spots now (other colours' pieces may rest anywhere off
        the board: only the seats' areas are counted); in a ranked game board[4] too, the
        pieces of each colour and rank read there."""
        places = self.places
        now_count = bytearray(self.pre_count)
        ranks = self.board[4]
        ppc = self.st.lay.ppc
        for k in range(len(ranks) if ranks else 0):
            ranks[k] = 0
        for c in self.st.seats:
            now_count[c] = 0
            for i in places.spots[c]:
                now_count[c] += OCCUPIED[sensed[i]]
                if ranks and OCCUPIED[sensed[i]] and bands[i] < ppc:
                    ranks[c * ppc + bands[i]] += 1
        return now_count

    def _classify(self, moved):
        """Sorts the outlines against the board: the first that explains it completely and
        whether another outcome does too; the same for a
        move complete but for a square nobody touched (confirm may accept it); and how many
        the board may still grow into (a count, no list: this runs on every settled board of a
        move, over up to 80 outlines); in self.found (F_*)."""
        f = self.found
        for k in range(_FOUND_N):
            f[k] = 0
        size = self.size
        touched = self.board[1]
        g = -1
        for r in self.outlines:
            for o in range(0, min(self.noutlines - g - 1, _OUTLINE_CHUNK) * size, size):
                g += 1
                if moved:
                    if not _covers(r, o, moved):
                        continue  # most outlines: a small call, no frame on the heap
                elif f[_F_UNTOUCHED_MORE] and f[_F_GROWING] and not _touches(r, o, touched):
                    # nothing moved (a piece put back) and no square of it touched: it can
                    # only be growing or complete but for untouched squares, and what those
                    # decide is known already (a swap's put back: 60 of its 80 outlines)
                    continue
                state = self._against(r, o)
                if state == _O_COMPLETE:
                    self._note(_F_COMPLETE, g)
                elif state == _O_RANK:
                    if not f[_F_RANK]:
                        f[_F_RANK] = g + 1
                elif state != _O_NO:
                    f[_F_GROWING] += 1
                    if state == _O_UNTOUCHED:
                        self._note(_F_UNTOUCHED, g)

    def _note(self, at, g):
        # the first outline of a kind, and whether another of another outcome follows
        f = self.found
        if not f[at]:
            f[at] = g + 1
        elif self._key(g) != self._key(f[at] - 1):
            f[at + 1] = 1

    def _against(self, r, o):
        """How the outline at r[o:], which changes (or passes) every square that moved, stands
        against the board judge() holds: _O_NO (the board has left it), _O_GROWING (not complete
        yet), _O_RANK (every piece where the move puts one, but of another rank), _O_UNTOUCHED
        (complete but for a capture or swap square nobody touched) or _O_COMPLETE. (The board
        is read from self: seven arguments would leave no room for this frame's locals.)"""
        state = self._areas(r, o)  # the start areas first: _O_NO, _O_GROWING or _O_COMPLETE
        if state == _O_NO:
            return _O_NO
        j = r[o + _O_N]
        while j:  # lowering state as the board falls short of the move
            j -= 1
            i = r[o + _O_SENSOR + j]
            now = OCCUPIED[self.board[0][i]]
            if i == r[o + _O_VIA] and now:
                state = _O_GROWING  # the citizen stands on its special space: the jump goes on
            elif now != r[o + _O_AFTER + j]:
                state = _O_GROWING
                # a sensor already changed must have changed the move's way; a square whose
                # occupant changes (capture, swap) may stand empty meanwhile
                if now != self.pre[i] and not (self.pre[i] and r[o + _O_AFTER + j]):
                    return _O_NO
            elif self.pre[i] and r[o + _O_AFTER + j] and not self.board[1][i]:
                state = min(state, _O_UNTOUCHED)  # a capture or swap square nobody touched
            elif self.ranked and now and r[o + _O_BAND + j] != self.board[2][i]:
                state = min(state, _O_RANK)  # not the rank this move puts there (not yet?)
        return state

    def _areas(self, r, o):
        """The outline at r[o:] against the start areas: _O_NO where an area changed otherwise
        than the move changes it (a piece left for the start space, a knocked-out piece put
        back or still in a hand), _O_GROWING while a piece that enters has not left its area
        yet, else _O_COMPLETE."""
        pre = self.pre_count
        now = self.board[3]
        state = _O_COMPLETE
        c = len(now)
        while c:
            c -= 1
            after = r[o + _O_COUNTS + c]
            if not (pre[c] <= now[c] <= after or after <= now[c] <= pre[c]):
                return _O_NO
            if after < pre[c] and now[c] != after:
                state = _O_GROWING
        return state

    def _involves(self, g, squares):
        """Whether outline g changes (or passes) every sensor in squares."""
        r, o = self._outline_at(g)
        return _covers(r, o, squares)

    def in_transit(self, sensed, moved):
        """Whether the board is a legal move under way with its piece standing on a space
        that move passes (a hand carrying it space by space, resting on each): every changed
        square but that one is the move's, and that one lies on the way (along the track and
        into the home) between where the piece stood and where the move takes it. The referee
        waits before it refuses such a board, or takes the shorter move that ends there: a
        placement stays, a hand moves on."""
        pre = self.pre
        landed = -1
        for i in moved:
            if OCCUPIED[sensed[i]] and not pre[i]:
                if landed >= 0:
                    return False  # two pieces where none stood: not one piece under way
                landed = i
        at = self.places.loc[landed] if landed >= 0 else _NONE
        if self.swap or at == _NONE or (at >= self.st.lay.n and not self.st.lay.is_home(at)):
            return False  # (a start-area spot lies on no move's way)
        others = [i for i in moved if i != landed]
        if not others:
            return False  # nothing lifted: no piece is under way (a spare, a start area's)
        size = self.size
        g = -1
        for r in self.outlines:  # by chunk, as _classify: this runs on every move accepted
            for o in range(0, min(self.noutlines - g - 1, _OUTLINE_CHUNK) * size, size):
                g += 1
                if _covers(r, o, others) and self._passes(r, o, at):
                    return True
        return False

    def _passes(self, r, o, at):
        """Whether the outline at r[o:]'s piece passes space `at` on its way (its
        destination and the spaces before it, from where it stands, forward or back, and
        into its home)."""
        frm = self.st.pos[r[o + _O_A]]
        to = r[o + _O_B] << 8 | r[o + _O_B + 1]
        to = movegen.dest_of(to)  # (apart: within the call, the frame would go to the heap)
        if at >= self.st.lay.n:
            return self._passes_home(frm, to, at)
        if frm >= self.st.lay.n:
            return False  # entering, or in its home: never on the track
        return self._between(frm, to, at)

    def _passes_home(self, frm, to, at):
        """Whether home space `at` lies on the way of a piece from frm to to: a piece going
        home passes its home's spaces before the one it goes to (a colour's home spaces are
        numbered on from the track's, in order: shared_rules/layout.py)."""
        lay = self.st.lay
        if not lay.is_home(to) or lay.home_colour(to) != lay.home_colour(at) or at >= to:
            return False
        return frm < lay.n or frm < at  # from the track, or from a space further out

    def _between(self, frm, to, at):
        """Whether track space `at` lies on the way of a piece from frm to to, forward or back
        (a way longer than _MAX_COUNT is not taken)."""
        lay = self.st.lay
        n = lay.n
        if lay.is_home(to):
            to = lay.start[lay.home_colour(to)]  # along the track to its start space, then in
            ahead = (to - frm) % n + 1
        else:
            ahead = (to - frm) % n
        if ahead <= _MAX_COUNT:
            return 0 < (at - frm) % n < ahead
        return (frm - to) % n <= _MAX_COUNT and 0 < (frm - at) % n < (frm - to) % n

    def _verdict(self, moved, same):
        self.bad = []
        f = self.found
        complete = f[_F_COMPLETE] - 1
        if complete >= 0 and not f[_F_COMPLETE_MORE]:
            self._accept(complete)
            # another move could still grow out of this board only if it explains what the
            # complete one does: its squares that changed (every growing outline has those)
            # and the touched squares as they were that it involves (a capture's square); a
            # square put right that no complete move involves counts for none
            r, o = self._outline_at(complete)
            need = [i for i in same if _covers(r, o, (i,))]
            if not f[_F_GROWING]:
                return DONE
            if not need or self._grows_with(need, moved):
                return AMBIGUOUS
            return DONE
        if complete < 0 and f[_F_UNTOUCHED] and not f[_F_UNTOUCHED_MORE]:
            self._accept(f[_F_UNTOUCHED] - 1)
            return AMBIGUOUS
        if complete >= 0:
            return WAIT  # several outcomes look alike so far: more must change first
        if not moved or f[_F_GROWING]:
            return WAIT
        if f[_F_RANK]:
            self.bad = self._rank_squares(f[_F_RANK] - 1, self.board[2])
            return WRONG_RANK
        self.bad = moved
        return ILLEGAL

    def _grows_with(self, need, moved):
        """Whether an outline the board may still grow into changes every sensor in need (a
        second walk, only where a touched square as it was matters: rare)."""
        size = self.size
        g = -1
        for r in self.outlines:
            for o in range(0, min(self.noutlines - g - 1, _OUTLINE_CHUNK) * size, size):
                g += 1
                if _covers(r, o, need) and _covers(r, o, moved) and self._against(
                        r, o) in (_O_GROWING, _O_UNTOUCHED):
                    return True
        return False

    def _rank_squares(self, g, bands):
        """The sensors where outline g puts a piece of a rank other than the one they read;
        self.rank_want: the rank it puts on each."""
        r, o = self._outline_at(g)
        out = []
        self.rank_want = []
        for j in range(r[o + _O_N]):
            i = r[o + _O_SENSOR + j]
            if r[o + _O_AFTER + j] and bands[i] != r[o + _O_BAND + j]:
                out.append(i)
                self.rank_want.append(r[o + _O_BAND + j])
        return out

def _touches(r, o, touched):
    """Whether the outline at r[o:] changes a touched sensor."""
    k = r[o + _O_N]
    while k:
        k -= 1
        if touched[r[o + _O_SENSOR + k]]:
            return True
    return False


def _covers(r, o, squares):
    """Whether the outline at r[o:] changes (or passes) every sensor in squares. (Called for
    every outline: a while loop, the last square first, keeps its frame off the heap.)"""
    s0 = r[o + _O_SENSOR]
    s1 = r[o + _O_SENSOR + 1]
    s2 = r[o + _O_SENSOR + 2]
    k = len(squares)
    while k:
        k -= 1
        i = squares[k]
        if i != s0 and i != s1 and i != s2:
            return False
    return True


def for_card(st, k, places):
    e = movegen.effective(st, k)
    if e >= 0 and st.game.cards.action[e] == SPLIT:
        # loaded with the first Partner 4 (a DOG board never plays one: on an ESP32 without
        # ROMFS a module's code sits in the heap once imported)
        from firmware.games.track.judge_split import SplitMove
        return SplitMove(st, k, places)
    return WholeMove(st, k, places)
