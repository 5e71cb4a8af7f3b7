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
# What has been asked of the registry, kept answer by answer: a board keeps the few values it
# uses (a few hundred bytes), never the whole parsed file (10 KB on the 64-bit port). A value
# not yet kept parses the file again, which happens a few times at boot and never per request.
# The lists and dicts kept are shared: callers must not change them.
_kept = {}
_loaded = {}


def registry():
    """The whole registry, parsed afresh (tools and tests; a board asks for values)."""
    return _data.load(REGISTRY)


def _keep(key, pick):
    if key not in _kept:
        _kept[key] = pick(registry())
    return _kept[key]


def default():
    """The game a position or a board that names none plays."""
    return _keep("default", lambda r: r["default"])


def names():
    return _keep("names", lambda r: sorted(r["games"]))


def families():
    return _keep("families", lambda r: sorted(r["families"]))


def game_value(name, key, absent=None):
    """One field of a game's entry (KeyError for a name that is no game)."""
    return _keep((name, key), lambda r: r["games"][name].get(key, absent))


def family_value(fam, key, absent=None):
    """One field of a family's entry (KeyError for a name that is no family)."""
    return _keep(("family", fam, key), lambda r: r["families"][fam].get(key, absent))


def info(name):
    """A game's whole entry (KeyError for a name that is no game)."""
    return _keep(("game", name), lambda r: r["games"][name])


def family_info(fam):
    """A family's whole entry."""
    return _keep(("family", fam), lambda r: r["families"][fam])


def family(name):
    return game_value(name, "family")


def title(name):
    return game_value(name, "title")


def of_family(fam):
    """The games of a family, sorted."""
    return _keep(("members", fam), lambda r: sorted(
        g for g in r["games"] if r["games"][g]["family"] == fam))


def boards(name):
    """{players: board}: the boards a game is played on, by the number of players."""
    return _keep(("boards", name), lambda r: dict(
        (int(n), b) for n, b in r["games"][name]["boards"].items()))


def games_on(board):
    """The games played on a board, sorted."""
    return [g for g in names() if board in boards(g).values()]


def board_family(board):
    """The family of the games played on a board (the default game's for a board that names
    no layout or one no game is played on)."""
    found = games_on(board) if board else []
    return family(found[0] if found else default())


def part(fam, layer):
    """The dotted name of the module (or module.Class) a family has in a layer: "rules",
    "firmware", "twin", "world", "players", "demo", "replay", "words"; None if it has none."""
    return family_value(fam, layer)


def own_boards():
    """{game: board}: the games played on a board of their own (a family marked own_board:
    one board, drawn by its family's twin and world; the track machinery does not serve it)."""
    return dict((g, min(boards(g).values())) for g in names()
                if family_value(family(g), "own_board"))


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
