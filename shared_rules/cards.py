# Card kinds and the deck, read from data. A card kind is an index into NAMES; what it does is
# one of a few actions (shared_rules/actions.py carries each out): move a piece a number of
# steps (forward; the DOG 4 backward too; 1/11 and 13 may also bring a piece into play), swap
# two undercover pieces (Agent DOG), swap an own piece with another colour's (DOG), draw a piece
# up behind the next one (the magnet), copy the last card, or split steps (the Partner 4).
from shared_rules import _data

STEPS = 0
SWAP = 1        # two undercover pieces change places
COPY = 2
SPLIT = 3
MAGNET = 4
SWAP_OWN = 5    # an own piece changes places with a piece of another colour

_ACTIONS = {"steps": STEPS, "swap_undercover": SWAP, "copy": COPY, "split": SPLIT,
            "magnet": MAGNET, "swap": SWAP_OWN}


class Cards:
    def __init__(self, spec):
        self.names = []
        self.index = {}
        self.action = bytearray(len(spec["kinds"]))
        self.steps = []
        self.enter = bytearray(len(spec["kinds"]))
        self.backward = bytearray(len(spec["kinds"]))  # also exactly that many steps backward
        self.green = bytearray(len(spec["kinds"]))     # lifts the rank order (DOG Royal)
        i = 0
        for kind in spec["kinds"]:
            name = kind["card"]
            self.names.append(name)
            self.index[name] = i
            self.action[i] = _ACTIONS[kind.get("action", "steps")]
            st = kind.get("steps", [])
            self.steps.append(tuple(st) if type(st) is list else (st,))
            self.enter[i] = 1 if kind.get("enter") else 0
            self.backward[i] = 1 if kind.get("backward") else 0
            self.green[i] = 1 if kind.get("green") else 0
            i += 1
        # how many cards of each kind the deck holds, by kind (the names are above)
        deck = spec["deck"]
        self.deck = bytes([deck.get(name, 0) for name in self.names])


def load(name="agent-dog-cards"):
    return _data.cached(Cards, name)
