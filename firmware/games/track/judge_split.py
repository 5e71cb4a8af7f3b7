# The Partner 4's judge (Agent DOG), loaded with the first Partner 4 played (judge.for_card): a
# DOG board never plays one, and on an ESP32 without ROMFS a module's code sits in the heap once
# imported. The Partner 4 is followed step by step, as players move it: each placement is a
# segment of single steps that must be walkable from where the piece stood, pieces it burned
# must come off, and the steps left must still be playable. When all four are used, it is done.
from shared_rules import movegen
from shared_rules.move import Move
from shared_rules.cards import SPLIT
from firmware.games.track import move_lights
from firmware.games.track.judging import WAIT, DONE, ILLEGAL, occ


class SplitMove:
    rank_want = ()  # a Partner 4 is Agent DOG's: no ranks
    def __init__(self, st, k, places):
        self.st = st
        self.k = k
        self.places = places
        self.total = st.game.cards.steps[movegen.effective(st, k)][0]
        self.colour = st.plays(st.to_move)
        # the split's rules, loaded with the first Partner 4 (a DOG board never plays one:
        # on an ESP32 without ROMFS a module's code sits in the heap once imported)
        from shared_rules import split
        self.split = split
        self.sp = split.Split(st, self.colour)
        self.work = st.copy()
        self.code = 0
        self.used = 0
        self.burned = []  # sensors of pieces burned and still to be taken off
        self.move = None
        self.bad = []

    def left(self):
        return self.total - self.used

    def in_transit(self, sensed, moved):
        return False  # each segment is judged where its piece is put down

    def lights(self):
        """What the LEDs show for the next segment, from where the pieces now stand."""
        if self.used == self.total:
            return move_lights.NONE
        return move_lights.SegmentLights(self.places, self.work, self.sp, self.total - self.used)

    def _work_occ(self, i):
        loc = self.places.loc[i]
        return loc != 255 and self.work.board[loc] != 0

    def judge(self, sensed, touched, bands=None):
        """touched: per sensor, changed since the last segment was taken (the referee clears
        it when left() goes down). The Partner 4 is Agent DOG's: no ranks to read."""
        places = self.places
        self.burned = [i for i in self.burned if occ(sensed[i])]
        gone = []     # pieces the work position has that the board does not
        new = []      # occupied squares the work position does not have
        landed = []   # occupied in both, but touched: a piece put down after lifting a victim
        for i in range(places.n):
            if places.spot_colour[i] != 255 or i in self.burned:
                continue
            w = self._work_occ(i)
            s = occ(sensed[i])
            if w and not s:
                gone.append(i)
            elif s and not w:
                new.append(i)
            elif s and touched[i]:
                landed.append(i)
        self.bad = []
        if self.used == self.total:
            if not new and not gone and not self.burned:
                return DONE
            if new:
                self.bad = new
                return ILLEGAL
            return WAIT
        if len(new) > 1:
            self.bad = new
            return ILLEGAL
        targets = new if new else landed
        if not gone or not targets:
            return WAIT
        for to in targets:
            for frm in gone:
                if frm != to and self._segment(frm, to, gone, sensed):
                    if self.used == self.total:
                        self.move = Move(self.k, SPLIT, self.code)
                        return WAIT if self.burned else DONE
                    return WAIT
        if new:
            self.bad = new
            return ILLEGAL
        return WAIT

    def _segment(self, frm, to, gone, sensed):
        """Takes the piece on sensor frm to sensor to in single steps, if that is legal."""
        places = self.places
        work = self.work.copy()
        a = places.loc[frm]
        goal = places.loc[to]
        p = work.at(a)
        if p < 0 or p not in self.sp.movable:
            return False
        split = self.split
        why, code, n, burned_at = split.segment(work, self.sp, p, goal, self.code, self.used,
                                                self.total)
        if why != split.OK:
            return False
        burned = [places.sensor[d] for d in burned_at]
        # every other square that went empty must be a piece this segment burned
        for i in gone:
            if i != frm and i not in burned:
                return False
        if n < self.total and not split.completable(work, self.sp, self.total - n):
            return False
        self.work = work
        self.code = code
        self.used = n
        self.burned.extend([i for i in burned if i != to and occ(sensed[i])])
        return True

    def fired(self):
        return self.split.fired(self.work, self.code, self.total)
