# The registry of games and boards (data/games.json, docs/architecture.md "The registry of
# games"), and the games the rules core serves, found by the name a position carries in its
# "game" field (rules-protocol: a position without one is the registry's default game).
#
# The registry is the one list of games: each game's family, title, boards by player count and
# data files, and per family the module every layer loads by name (rules core, firmware app,
# twin, world, players, demo, replay, words). Everything else asks here, so adding a game is a
# registry entry, never an edit of the layers. It is read on first use, not on import: this
# runs on MicroPython (plain json through _data, no os.path).
#
# A family's rules module has a `game(name)` factory returning an object that answers
# `handle(op, req)` with the protocol's answer dict, raising BadInput for bad input. Modules
# are imported only when a game is first asked for, so a device running one game never loads
# the others' code.
from shared_rules import _data
from shared_rules.errors import BadInput, shown

REGISTRY = "games.json"
_registry = []  # the parsed registry, once read
_loaded = {}
# what positions ask for on every request, built once so that a request allocates nothing for
# it: {game: {players: board}}, {family: [games]}; callers must not change them
_boards = {}
_members = {}


def registry():
    """The parsed registry (read once, on first use)."""
    if not _registry:
        _registry.append(_data.load(REGISTRY))
    return _registry[0]


def default():
    """The game a position or a board that names none plays."""
    return registry()["default"]


def names():
    return sorted(registry()["games"])


def info(name):
    """A game's entry (KeyError for a name that is no game)."""
    return registry()["games"][name]


def family(name):
    return info(name)["family"]


def family_info(fam):
    return registry()["families"][fam]


def families():
    return sorted(registry()["families"])


def of_family(fam):
    """The games of a family, sorted (one list, built once)."""
    found = _members.get(fam)
    if found is None:
        found = _members[fam] = [g for g in names() if family(g) == fam]
    return found


def title(name):
    return info(name)["title"]


def boards(name):
    """{players: board}: the boards a game is played on, by the number of players (one dict,
    built once)."""
    found = _boards.get(name)
    if found is None:
        found = _boards[name] = dict((int(n), b) for n, b in info(name)["boards"].items())
    return found


def games_on(board):
    """The games played on a board, sorted."""
    return [g for g in names() if board in info(g)["boards"].values()]


def board_family(board):
    """The family of the games played on a board (the default game's for a board that names
    no layout or one no game is played on)."""
    found = games_on(board) if board else []
    return family(found[0] if found else default())


def part(fam, layer):
    """The dotted name of the module (or module.Class) a family has in a layer: "rules",
    "firmware", "twin", "world", "players", "demo", "replay", "words"; None if it has none."""
    return family_info(fam).get(layer)


def own_boards():
    """{game: board}: the games played on a board of their own (a family marked own_board:
    one board, drawn by its family's twin and world; the track machinery does not serve it)."""
    return dict((g, min(info(g)["boards"].values())) for g in names()
                if family_info(family(g)).get("own_board"))


def importing(dotted):
    """The module named `dotted`, imported on first use."""
    mod = __import__(dotted)
    for step in dotted.split(".")[1:]:
        mod = getattr(mod, step)
    return mod


def attribute(dotted):
    """The class (or function) `module.Name` names."""
    cut = dotted.rfind(".")
    return getattr(importing(dotted[:cut]), dotted[cut + 1:])


def name_of(position):
    """The game a request's position names (the default game when it names none)."""
    if type(position) is not dict:
        return default()
    name = position.get("game", default())
    if type(name) is not str or name not in registry()["games"]:
        raise BadInput("bad_request", "unknown game %s; games are %s" % (shown(name), ", ".join(
            names())))
    return name


def load(name):
    """The rules core's game object for a game (its family's rules module)."""
    g = _loaded.get(name)
    if g is None:
        g = importing(part(family(name), "rules")).game(name)
        _loaded[name] = g
    return g
