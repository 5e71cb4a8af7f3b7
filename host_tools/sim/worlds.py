# Which simulated world a board variant is: its config folder's variant.json names its layout,
# and each layout that is not the Agent DOG board has its own world module here. Runs in the
# MicroPython device process and in CPython (the host's mirror of the world).
import json

# layout -> (module, class)
WORLDS = {"agent-avenue": ("host_tools.sim.avenue_world", "AvenueWorld")}
GAME_BOARDS = {"agent-avenue": "agent-avenue"}  # games played on a board of their own


def layout_of(config_dir):
    try:
        with open(config_dir + "/variant.json") as f:
            return json.load(f).get("layout")
    except (OSError, ValueError, AttributeError):
        return None


def make(config_dir, seed, cards=None):
    """The world for the board whose maps are in config_dir (the track games' world, with the
    deck of card table `cards`, unless its variant.json names a layout of its own)."""
    found = WORLDS.get(layout_of(config_dir))
    if found is None:
        from host_tools.sim.world import World
        return World(seed, config=config_dir, cards=cards)
    mod = __import__(found[0])
    for part in found[0].split(".")[1:]:
        mod = getattr(mod, part)
    return getattr(mod, found[1])(seed, config_dir)


def for_board(board, seed, cards=None):
    """The world of a board variant by name (default the Agent DOG board)."""
    from host_tools.sim.world import ROOT, config_dir
    return make(ROOT + "/" + config_dir(board), seed, cards)
