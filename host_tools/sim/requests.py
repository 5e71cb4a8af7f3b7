# The control channel's requests (docs/board-protocols.md, section 2): which ops there are, what
# fields each takes, and the limits, checked before anything is done, so that a refused request
# changes nothing. The simulated devices (host_tools/sim/server.py, host_tools/virtual/) check
# every request here before it reaches the board or the device.

FAULTS = ("noise", "dead_sensor", "stuck_sensor", "nfc_crc", "weak_magnet")
CLEAR = "clear"  # fault kind that ends every fault (or the faults of one sensor) at once
BUTTONS = ("confirm", "back")
MAX_LINE = 65536        # bytes of one request line
MAX_WAIT_MS = 60000     # board time one `wait` may ask for: send several for longer
MAX_PRESS_MS = 60000
MAX_FAULT_MS = 3600000
MAX_PATH = 256          # locations in one slide
UID_HEX = 14            # an NTAG213 sticker: 7-byte UID

# op -> {field: (kind, required)}; kinds are checked by _check below
SHAPES = {
    "lift": {"at": ("loc", True)},
    "place": {"piece": ("name", True), "at": ("loc", True), "upside_down": ("bool", False)},
    "flip": {"at": ("loc", True)},
    "slide": {"piece": ("name", True), "path": ("path", True), "upside_down": ("bool", False)},
    "card": {"card": ("name", False), "uid": ("uid", False), "reader": ("name", False)},
    "card_off": {"reader": ("name", False)},
    "press": {"button": ("button", True), "ms": ("press_ms", False)},
    "wait": {"ms": ("wait_ms", True)},
    "leds": {},
    "buzzer": {},
    "console": {"send": ("command", False)},
    "world": {},
    "deck": {},
    "sensors": {},
    "fault": {"kind": ("fault", True), "at": ("loc", False), "ms": ("fault_ms", False)},
    "power_cut": {},
    "power_on": {},
}


class BadRequest(Exception):
    pass


def _whole(v, lo, hi, what):
    if type(v) is not int or not lo <= v <= hi:
        raise BadRequest("%s must be a whole number of milliseconds from %d to %d" % (what, lo, hi))


def _check(kind, field, v):
    if kind in ("loc", "name"):
        if type(v) is not str or not v or len(v) > 64:
            raise BadRequest("%s must be a name such as %s" % (
                field, '"12" or "red:h1"' if kind == "loc" else '"red-1"'))
    elif kind == "bool":
        if type(v) is not bool:
            raise BadRequest("%s must be true or false" % field)
    elif kind == "path":
        if type(v) is not list or not v or len(v) > MAX_PATH:
            raise BadRequest("path must list 1 to %d locations" % MAX_PATH)
        for a in v:
            _check("loc", "each location of path", a)
    elif kind == "uid":
        if type(v) is not str or len(v) != UID_HEX or any(c not in "0123456789abcdefABCDEF"
                                                         for c in v):
            raise BadRequest("uid must be %d hex digits (a 7-byte sticker UID)" % UID_HEX)
    elif kind == "button":
        if v not in BUTTONS:
            raise BadRequest("button must be one of %s" % ", ".join(BUTTONS))
    elif kind == "press_ms":
        _whole(v, 1, MAX_PRESS_MS, "ms")
    elif kind == "wait_ms":
        _whole(v, 0, MAX_WAIT_MS, "ms")
    elif kind == "fault_ms":
        _whole(v, 1, MAX_FAULT_MS, "ms")
    elif kind == "fault":
        if v not in FAULTS and v != CLEAR:
            raise BadRequest("kind must be one of %s, or %s" % (", ".join(FAULTS), CLEAR))
    elif kind == "command":
        if type(v) is not dict or type(v.get("op")) is not str:
            raise BadRequest("send is one console command: an object with an 'op'")


def check(req):
    """The request if it is well formed; raises BadRequest saying what is wrong."""
    if type(req) is not dict:
        raise BadRequest("a request is a JSON object with an 'op'")
    op = req.get("op")
    shape = SHAPES.get(op) if type(op) is str else None
    if shape is None:
        raise BadRequest("unknown op %r; ops are %s" % (op, ", ".join(sorted(SHAPES))))
    for field in req:
        if field != "op" and field not in shape:
            raise BadRequest("%s takes %s; not %r" % (
                op, ", ".join(sorted(shape)) if shape else "no fields", field))
    for field in shape:
        kind, required = shape[field]
        if field in req:
            _check(kind, field, req[field])
        elif required:
            raise BadRequest("%s needs the field %r" % (op, field))
    if op == "card" and ("card" in req) == ("uid" in req):
        raise BadRequest("card takes either a card kind ('card') or a sticker ('uid')")
    if op == "fault" and req["kind"] in ("noise", "dead_sensor", "stuck_sensor") and "at" not in req:
        raise BadRequest("a %s fault needs the sensor's location 'at'" % req["kind"])
    if op == "fault" and req["kind"] == "weak_magnet" and "at" not in req:
        raise BadRequest("a weak_magnet fault needs 'at': the location of the piece whose "
                         "magnet weakens")
    return req
