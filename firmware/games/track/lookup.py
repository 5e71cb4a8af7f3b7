# The track games' look-ups by name (shared_rules/variant.py over the registry of games), as the
# board's set-up, its console ops and its resume ask them. Each is a call of its own through
# firmware/ondemand.py, so this module, the variants' look-ups and the registry are dropped
# again before the caller goes on: the set-up builds the board's tables without them in the heap
# (they would raise the power-up's peak), and the game played keeps only its class's code.
import sys

from shared_rules import variant
from firmware import ondemand

DROP_WITH = ("shared_rules.variant", "shared_rules.games")


class BoardGames:
    """What a board of layout `layout` referees: `games` (the registry's order), the new-game
    menu's `choices` ((game, players), each game's most players first: 4, 2, 3), the
    `ranked` games (their menu lights the special spaces too) and the first game, loaded."""

    def __init__(self, layout):
        self.games = [g for g in variant.names() if layout in variant.boards(g).values()]
        self.choices = []
        for g in self.games:
            counts = sorted(n for n, b in variant.boards(g).items() if b == layout)
            for n in counts[-1:] + counts[:-1]:
                self.choices.append((g, n))
        self.first = variant.load(self.games[0], layout)
        # which games rank their pieces is a class's attribute: a class imported only to ask
        # is dropped again, so that the board keeps the code of the game it plays alone (the
        # dog boards load DOG Royal's only when it is played)
        self.ranked = []
        for g in self.games:
            mod = variant.class_module(g)
            held = mod in sys.modules
            if variant.variant_class(g).ranked:
                self.ranked.append(g)
            if not held:
                ondemand.drop(mod)


def load(name=None, layout=None):
    """The variant `name` (the default game when None) on `layout`; raises BadInput as
    variant.load does."""
    return variant.load(variant.DEFAULT if name is None else name, layout)
