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
            return json.loads(f.read()).get("layout")  # (files.load_json says why)
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


def world_files():
    """The families' world modules and the package markers above them, as paths from the
    code's root: a simulated device needs them beside host_tools/sim (make() loads them)."""
    out = []
    for fam in games.families():
        parts = games.part(fam, "world").split(".")[:-1]  # the module, without its class
        for k in range(2, len(parts)):
            marker = "/".join(parts[:k]) + "/__init__.py"
            if marker not in out:
                out.append(marker)
        out.append("/".join(parts) + ".py")
    return out


def for_board(board, seed, cards=None):
    """The world of a board variant by name (default the Agent DOG board)."""
    from host_tools.sim.world import ROOT, config_dir
    return make(ROOT + "/" + config_dir(board), seed, cards)
