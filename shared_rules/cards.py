# Card kinds and the deck, read from data. A card kind is an index into NAMES; what it does is
# one of four actions: move a piece a number of steps (blue cards, 1/11, 13; those two may also
# enter a piece), swap two undercover pieces, copy the last card, or split steps (Partner 4).
from shared_rules import _data

STEPS = 0
SWAP = 1
COPY = 2
SPLIT = 3

_ACTIONS = {"swap": SWAP, "copy": COPY, "split": SPLIT}


class Cards:
    def __init__(self, spec):
        self.names = []
        self.index = {}
        self.action = bytearray(len(spec["kinds"]))
        self.steps = []
        self.enter = bytearray(len(spec["kinds"]))
        i = 0
        for kind in spec["kinds"]:
            name = kind["card"]
            self.names.append(name)
            self.index[name] = i
            self.action[i] = _ACTIONS.get(kind.get("action", ""), STEPS)
            st = kind.get("steps", [])
            self.steps.append(tuple(st) if type(st) is list else (st,))
            self.enter[i] = 1 if kind.get("enter") else 0
            i += 1
        self.deck = []
        deck = spec["deck"]
        for name in self.names:  # deck order follows the kinds list, not dict order
            self.deck.append((name, deck.get(name, 0)))


def load(name="agent-dog-cards"):
    return _data.cached(Cards, name)
