# Which simulated world a board variant is: its config folder's variant.json names its layout,
# and the registry of games (shared_rules/games.py) names the world of the family played on
# that layout (the track games' world for a folder that names none: the Agent DOG board's).
# Runs in the MicroPython device process and in CPython (the host's mirror of the world).
import json

from shared_rules import games

# {game: board}: the games played on a board of their own (the registry's own_board)
GAME_BOARDS = games.own_boards()


def layout_of(config_dir):
    try:
        with open(config_dir + "/variant.json") as f:
            return json.load(f).get("layout")
    except (OSError, ValueError, AttributeError):
        return None


def make(config_dir, seed, cards=None):
    """The world for the board whose maps are in config_dir: its family's world, which for
    the track games deals the deck of card table `cards` (a family whose world enrols its own
    deck takes none)."""
    fam = games.board_family(layout_of(config_dir))
    cls = games.attribute(games.part(fam, "world"))
    if games.family_value(fam, "world_deck"):
        return cls(seed, config=config_dir, cards=cards)
    return cls(seed, config_dir)


def for_board(board, seed, cards=None):
    """The world of a board variant by name (default the Agent DOG board)."""
    from host_tools.sim.world import ROOT, config_dir
    return make(ROOT + "/" + config_dir(board), seed, cards)
