# The ranks of DOG Royal's pieces (001 "Royal": König, Ritter, Bürger, Narr), named as the
# protocols write them: a piece's rank is its slot within its colour (docs/dog-rules.md), the
# index into RANKS. A leaf of its own so the firmware (the referee's view, calibration of a
# ranked board) and the host tools read the names without loading DOG Royal's rules: an Agent
# DOG board never imports shared_rules/royal.py (heap).
KING = 0
KNIGHT = 1
CITIZEN = 2
JESTER = 3
RANKS = ("king", "knight", "citizen", "jester")
