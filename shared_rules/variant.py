# The track games' variants found by name: each game of the registry's track family
# (shared_rules/games.py) names its Variant class (variant_base.py), its boards by player count
# and its card table. A board needs these look-ups only to set a game up, so its firmware drops
# this module (and the registry) after the set-up (firmware/ondemand.py): the game it plays
# keeps only its class's code.
from shared_rules import layout as layout_mod, cards as cards_mod, games
from shared_rules.errors import BadInput, shown
from shared_rules.variant_base import Variant  # noqa: F401 - the rules core's name for it


def bad(reason):
    return BadInput("bad_position", reason)


# The track games are the registry's games of this family (shared_rules/games.py): each names
# its Variant class, its boards by player count and its card table. A class is imported when
# its game is first asked for, so a device running one game never loads the others' code.
FAMILY = "track"
DEFAULT = games.default()


def names():
    return games.of_family(FAMILY)


def boards(name):
    """{players: layout}: the boards game `name` is played on."""
    return games.boards(name)


def variant_class(name):
    return games.attribute(games.game_value(name, "variant"))


def class_module(name):
    """The module that holds game `name`'s Variant class."""
    dotted = games.game_value(name, "variant")
    return dotted[:dotted.rfind(".")]


def cards_name(name):
    """The card table game `name` is played with."""
    return games.game_value(name, "cards")[0]


def board_for(name, players):
    """The board the game `name` is played on by that many players, or None."""
    return boards(name).get(players)


def load(name=DEFAULT, layout_name=None):
    """The variant `name` on the layout `layout_name` (default: its board for the most
    players). Raises BadInput for an unknown game or a board it is not played on."""
    if name not in names():
        raise BadInput("bad_request", "unknown game %s; games are %s" % (
            shown(name), ", ".join(names())))
    played_on = boards(name)
    names_ = sorted(set(played_on.values()))
    if layout_name is None:
        layout_name = played_on[max(played_on)]
    elif layout_name not in names_:
        raise bad("%s is played on %s, not on %s" % (name, " or ".join(names_),
                                                     shown(layout_name)))
    cls = variant_class(name)
    key = name + "@" + layout_name
    v = _loaded.get(key)
    if v is None:
        v = cls(layout_mod.load(layout_name), cards_mod.load(cards_name(name)))
        _loaded[key] = v
    return v


_loaded = {}
