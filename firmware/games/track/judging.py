# What the track games' judges answer (judge.WholeMove, judge_split.SplitMove), and what a
# sensor's class means to them: a piece there or not. Apart from both, so that the Partner 4's
# judge, loaded with the first Partner 4, shares them without importing the other.
from firmware.hal.scanner import UP, DOWN, NAMES
from firmware.mpconst import const

WAIT = const(0)       # nothing decided yet (a move may be under way)
DONE = const(1)       # one move explains the board: self.move
AMBIGUOUS = const(2)  # complete, but another legal move could still grow out of it:
                      # confirm decides
ILLEGAL = const(3)    # no legal move explains the board: self.bad lists the sensors to put right
RESTING = const(4)    # one move explains the board (self.move), but its piece stands on a space a
                      # longer move of it passes: a hand carrying it on, or a placement if it stays
                      # (or it enters as a rank its start area still reads: _rank_stayed)
WRONG_RANK = const(5)  # pieces stand where one move puts them, but one reads as another rank
                       # than the move puts there (self.bad: where): a piece being changed, or
                       # the wrong one


def occ(cls):
    return cls == UP or cls == DOWN


OCCUPIED = bytes(occ(c) for c in range(len(NAMES)))  # occ() by class, for the loops over sensors
