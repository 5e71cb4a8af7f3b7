# The ranks of DOG Royal's pieces (001 "Royal": König, Ritter, Bürger, Narr), named as the
# protocols write them: a piece's rank is its slot within its colour (docs/dog-rules.md), the
# index into RANKS (shared_rules/royal.py names the indices it rules on). A leaf of its own, and
# only this name (each more costs the board heap), so the firmware (the referee's view, the
# calibration of a ranked board) and the host tools read the names without loading DOG Royal's
# rules: an Agent DOG board never imports shared_rules/royal.py.
RANKS = ("king", "knight", "citizen", "jester")
