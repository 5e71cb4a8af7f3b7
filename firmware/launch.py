# Which application this board runs: the registry of games (shared_rules/games.py) names each
# family's firmware application (a module with a main()); the board runs the one of the family
# played on the layout its variant.json names (deployed beside the maps in config/), the track
# games' for a board that names none. A variant.json may still name an application of its own
# ("app", as boards deployed before the registry do). Only the chosen application is loaded,
# so one board's referee never takes heap on another board, and the registry is dropped once it
# has named it (firmware/ondemand.py): the application loads it again only to set a game up.
import json
import sys

from firmware import ondemand

REGISTRY = "shared_rules.games"


def _variant(config_dir):
    try:
        with open(config_dir + "/variant.json") as f:
            found = json.load(f)
    except (OSError, ValueError):
        return {}
    return found if type(found) is dict else {}


def app_name(config_dir="config"):
    """The dotted name of the application module this board runs."""
    from shared_rules import games
    v = _variant(config_dir)
    return v.get("app") or games.part(games.board_family(v.get("layout")), "firmware")


def app_module(config_dir="config"):
    from shared_rules import games
    return games.importing(app_name(config_dir))


def main(config_dir="config", data_dir=".", **kw):
    loaded = REGISTRY in sys.modules
    app = app_module(config_dir)
    if not loaded:
        ondemand.drop(REGISTRY)
    app.main(config_dir, data_dir, **kw)
