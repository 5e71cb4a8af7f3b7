"""The hand actions of the Agent Avenue board's page (POST /api/act), checked whole before the
twin does anything (host_tools/web/twin.py checks the fields every board's page shares).

    lift {at}, place {id, at}, slide {id, path}   a pawn (pawns are never turned over)
    card {id, reader}     a card onto a pad: "up" or "down" from a hand the page shows; "tap"
                          for a moment from a hand, the offer or a tableau, or "deck" / "market"
                          for the top card of a deck; id "lifted" puts back the card taken off
                          that pad in a recruit
    card_off {reader}     a card taken off the up or down pad
    press, fault, power_on                        as on the DOG boards
    new_game {players, mode}                      2, 3 or 4 players; simple or advanced"""
from host_tools.web import twin as base
from host_tools.web.twin import ActionError

READERS = ("up", "down", "tap")
MODES = ("simple", "advanced")
PLAYERS = (2, 3, 4)
TOPS = ("deck", "market")  # the top card of the agent deck, of the black-market deck
LIFTED = "lifted"

SHAPES = {
    "lift": {"at": ("loc", True)},
    "place": {"id": ("handle", True), "at": ("loc", True)},
    "slide": {"id": ("handle", True), "path": ("path", True)},
    "card": {"id": ("handle", True), "reader": ("reader", True)},
    "card_off": {"reader": ("pad", True)},
    "press": base.SHAPES["press"],
    "fault": base.SHAPES["fault"],
    "new_game": {"players": ("avenue_players", True), "mode": ("mode", False)},
    "power_on": {},
}


def _reader(field, v):
    if v not in READERS:
        raise ActionError("%s must be one of %s" % (field, ", ".join(READERS)))


def _pad(field, v):
    if v not in READERS[:2]:
        raise ActionError("%s must be up or down (a tap lifts itself)" % field)


def _mode(field, v):
    if v not in MODES:
        raise ActionError("%s must be simple or advanced" % field)


def _players(field, v):
    if type(v) is not int or v not in PLAYERS:
        raise ActionError("players must be 2, 3 or 4 (Agent Avenue: one or two a side)")


KINDS = {"reader": _reader, "pad": _pad, "mode": _mode, "avenue_players": _players}


def check(req, locations):
    """The action if it is well formed; raises ActionError saying what is wrong."""
    return base.check(req, locations, SHAPES, KINDS)
