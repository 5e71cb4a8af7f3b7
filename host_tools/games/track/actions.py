"""The hand actions of the track games' boards' page (POST /api/act): those every board's page
has (host_tools/web/twin.py checks their fields) and the DOG boards' own, checked before the
twin does anything, so a refused action changes nothing.

    flip {at}                      turns the piece standing there over
    card {id}                      a card of a hand tapped on the reader
    new_game {players, game}       2 to 6 players; one of the board's games"""
from host_tools.web import twin as base
from host_tools.web.twin import ActionError
from shared_rules import variant

PLAYERS = (2, 3, 4, 5, 6)  # the most any game seats; the twin checks its board's choices

# op -> {field: (kind, required)}
SHAPES = dict(base.SHAPES)
SHAPES.update({
    "flip": {"at": ("loc", True)},
    "card": {"id": ("handle", True)},
    "new_game": {"players": ("players", True), "game": ("game", False)},
})


def _players(field, v):
    if type(v) is not int or v not in PLAYERS:
        raise ActionError("players must be a whole number from 2 to 6")


def _game(field, v):
    if type(v) is not str or v not in variant.names():
        raise ActionError("game must be one of %s" % ", ".join(variant.names()))


KINDS = {"players": _players, "game": _game}


def check(req, locations):
    """The action if it is well formed; raises ActionError saying what is wrong.
    locations: every board location (a set)."""
    return base.check(req, locations, SHAPES, KINDS)
