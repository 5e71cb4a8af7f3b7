# The games the rules core serves, found by the name a position carries in its "game" field
# (rules-protocol: a position without one is Agent DOG). Each game is a module with a
# `game(name)` factory returning an object that answers `handle(op, req)` with the protocol's
# answer dict, raising BadInput for bad input. Modules are imported only when a game is first
# asked for, so a device running one game never loads the others' code.
from shared_rules.errors import BadInput, shown

DEFAULT = "agent-dog"
_MODULES = {
    "agent-dog": "shared_rules.track_game",
    "dog": "shared_rules.track_game",
    "dog-royal": "shared_rules.track_game",
    "agent-avenue": "shared_rules.avenue.game",
}
_loaded = {}


def names():
    return sorted(_MODULES)


def name_of(position):
    """The game a request's position names (DEFAULT when it names none)."""
    if type(position) is not dict:
        return DEFAULT
    name = position.get("game", DEFAULT)
    if type(name) is not str or name not in _MODULES:
        raise BadInput("bad_request", "unknown game %s; games are %s" % (shown(name), ", ".join(
            names())))
    return name


def load(name):
    g = _loaded.get(name)
    if g is None:
        path = _MODULES[name]
        mod = __import__(path)
        for part in path.split(".")[1:]:
            mod = getattr(mod, part)
        g = mod.game(name)
        _loaded[name] = g
    return g
