"""The page's hand actions (POST /api/act): which there are, the fields each takes, and their
limits, checked before the twin does anything, so a refused action changes nothing.

The limits are the control channel's (host_tools/sim/requests.py): the twin passes presses
and faults on to it, and a request it would refuse must be refused here first, with the
page's field names."""
from host_tools.sim import requests as control
from shared_rules import variant

FAULTS = control.FAULTS + (control.CLEAR,)
PLAYERS = (2, 3, 4, 5, 6)  # the most any game seats; the twin checks its board's choices
MAX_HANDLE = 16  # characters of a handle ("h12", "c109")

# op -> {field: (kind, required)}
SHAPES = {
    "lift": {"at": ("loc", True)},
    "place": {"id": ("handle", True), "at": ("loc", True), "upside_down": ("bool", False)},
    "slide": {"id": ("handle", True), "path": ("path", True), "upside_down": ("bool", False)},
    "flip": {"at": ("loc", True)},
    "card": {"id": ("handle", True)},
    "press": {"button": ("button", True), "ms": ("press_ms", False)},
    "fault": {"kind": ("fault", True), "at": ("loc", False), "ms": ("fault_ms", False)},
    "new_game": {"players": ("players", True), "game": ("game", False)},
    "power_on": {},
}


class ActionError(Exception):
    """A malformed action: the reason says what is wrong, in one sentence."""


def _whole(v, lo, hi, field):
    if type(v) is not int or not lo <= v <= hi:
        raise ActionError("%s must be a whole number of milliseconds from %d to %d"
                          % (field, lo, hi))


def _check(kind, field, v, locations):
    if kind == "loc":
        if type(v) is not str or v not in locations:
            raise ActionError("%s must be a board location such as \"12\", \"red:h1\" or "
                              "\"red:s1\"" % field)
    elif kind == "handle":
        if type(v) is not str or not 1 <= len(v) <= MAX_HANDLE:
            raise ActionError("%s must be the id of a piece in hand or a card (\"h3\", \"c17\")"
                              % field)
    elif kind == "bool":
        if type(v) is not bool:
            raise ActionError("%s must be true or false" % field)
    elif kind == "path":
        if type(v) is not list or not 1 <= len(v) <= control.MAX_PATH:
            raise ActionError("path must list 1 to %d board locations" % control.MAX_PATH)
        for loc in v:
            _check("loc", "every location of path", loc, locations)
    elif kind == "button":
        if v not in control.BUTTONS:
            raise ActionError("button must be one of %s" % ", ".join(control.BUTTONS))
    elif kind == "press_ms":
        _whole(v, 1, control.MAX_PRESS_MS, field)
    elif kind == "fault_ms":
        _whole(v, 1, control.MAX_FAULT_MS, field)
    elif kind == "fault":
        if v not in FAULTS:
            raise ActionError("kind must be one of %s" % ", ".join(FAULTS))
    elif kind == "players":
        if type(v) is not int or v not in PLAYERS:
            raise ActionError("players must be a whole number from 2 to 6")
    elif kind == "game":
        if type(v) is not str or v not in variant.names():
            raise ActionError("game must be one of %s" % ", ".join(variant.names()))


def check(req, locations, shapes=SHAPES, kinds=None):
    """The action if it is well formed; raises ActionError saying what is wrong.
    locations: every board location (a set); shapes: the actions of the board's page (these
    by default, the DOG boards'); kinds: {kind: check(field, value)} for field kinds of its
    own."""
    if type(req) is not dict:
        raise ActionError("an action is a JSON object with an \"op\"")
    op = req.get("op")
    shape = shapes.get(op) if type(op) is str else None
    if shape is None:
        raise ActionError("unknown action %s; actions are %s" % (
            "%r" % op if type(op) is str and len(op) <= 32 else "(not a short name)",
            ", ".join(sorted(shapes))))
    for field in sorted(req):
        if field != "op" and field not in shape:
            raise ActionError("%s takes %s; not %r" % (
                op, ", ".join(sorted(shape)) if shape else "no fields", str(field)[:32]))
    for field in sorted(shape):
        kind, required = shape[field]
        if field in req:
            if kinds and kind in kinds:
                kinds[kind](field, req[field])
            else:
                _check(kind, field, req[field], locations)
        elif required:
            raise ActionError("%s needs the field %r" % (op, field))
    if op == "fault" and req["kind"] not in ("nfc_crc", control.CLEAR) and "at" not in req:
        raise ActionError("a %s fault needs the sensor's location \"at\"" % req["kind"])
    return req
