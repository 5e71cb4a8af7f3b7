# The control channel's requests (docs/board-protocols.md, section 2): which ops there are, what
# fields each takes, and the limits, checked before anything is done, so that a refused request
# changes nothing. The simulated devices (host_tools/sim/server.py, host_tools/virtual/) check
# every request here before it reaches the board or the device, against the board they
# simulate, and pass on the request as check returns it: every location in its string form.

FAULTS = ("noise", "dead_sensor", "stuck_sensor", "nfc_crc", "weak_magnet")
CLEAR = "clear"  # fault kind that ends every fault (or the faults of one sensor) at once
BUTTONS = ("confirm", "back")
UNTILS = ("console",)  # what may end a `wait` early: the firmware's next console line
MAX_LINE = 65536        # bytes of one request line
MAX_WAIT_MS = 60000     # board time one `wait` may ask for: send several for longer
MAX_PRESS_MS = 60000
MAX_FAULT_MS = 3600000
MAX_PATH = 256          # locations in one slide
UID_HEX = 14            # an NTAG213 sticker: 7-byte UID
MAX_NAME = 64           # characters of a name (a piece, location, reader or card kind)
MIN_AWG = 10            # a custom cable's conductors: 10 (thick) to 40 (a hair) AWG
MAX_AWG = 40
MAX_CABLE_M = 10
# faults that may name a reader in 'at' (on a board with several, that one alone)
READER_FAULTS = ("nfc_crc", CLEAR)

# op -> {field: (kind, required)}; kinds are checked by _check below
SHAPES = {
    "lift": {"at": ("loc", True)},
    "place": {"piece": ("name", True), "at": ("loc", True), "upside_down": ("bool", False)},
    "flip": {"at": ("loc", True)},
    "slide": {"piece": ("name", True), "path": ("path", True), "upside_down": ("bool", False)},
    "card": {"card": ("name", False), "uid": ("uid", False), "reader": ("name", False)},
    "card_off": {"reader": ("name", False)},
    "discard": {"reader": ("name", False)},
    "press": {"button": ("button", True), "ms": ("press_ms", False)},
    "wait": {"ms": ("wait_ms", True), "until": ("until", False)},
    "leds": {},
    "buzzer": {},
    "console": {"send": ("command", False)},
    "world": {},
    "deck": {},
    "sensors": {},
    "fault": {"kind": ("fault", True), "at": ("loc", False), "ms": ("fault_ms", False)},
    "power_cut": {},
    "power_on": {},
    "supply": {"cable": ("cable", False)},
}


class Rejected(Exception):
    """A request answered before anything is done; `error` is the answer's kind."""
    error = "bad_request"

    def answer(self):
        return {"ok": False, "error": self.error, "reason": str(self)}


class BadRequest(Rejected):
    """Malformed: an unknown op or field, a value of the wrong type or out of range."""


class Refused(Rejected):
    """Well formed, but naming a piece, location, reader or card kind the board does not have,
    or a fault it cannot have."""
    error = "refused"


def location(field, v):
    """The string form of a location field: a name ("12", "red:h1") as it is; a whole number,
    as the protocol has always written track spaces (0..63), as its decimal name."""
    if type(v) is int and 0 <= v < 10 ** MAX_NAME:  # a bool is no int here: type, not isinstance
        return str(v)
    if type(v) is str and 0 < len(v) <= MAX_NAME:
        return v
    raise BadRequest('%s must be a location: a name such as "12" or "red:h1", or a track '
                     "space's number such as 12" % field)


def _whole(v, lo, hi, what):
    if type(v) is not int or not lo <= v <= hi:
        raise BadRequest("%s must be a whole number of milliseconds from %d to %d" % (what, lo, hi))


def _check(kind, field, v):
    """v if it is a value of that kind (a location in its string form); else BadRequest."""
    if kind == "loc":
        return location(field, v)
    if kind == "path":
        if type(v) is not list or not v or len(v) > MAX_PATH:
            raise BadRequest("path must list 1 to %d locations" % MAX_PATH)
        return [location("each location of path", a) for a in v]
    if kind == "name":
        if type(v) is not str or not v or len(v) > MAX_NAME:
            raise BadRequest('%s must be a name such as "red-1"' % field)
    elif kind == "bool":
        if type(v) is not bool:
            raise BadRequest("%s must be true or false" % field)
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
    elif kind == "until":
        if v not in UNTILS:
            raise BadRequest("until must be one of %s" % ", ".join(UNTILS))
    elif kind == "fault_ms":
        _whole(v, 1, MAX_FAULT_MS, "ms")
    elif kind == "fault":
        if v not in FAULTS and v != CLEAR:
            raise BadRequest("kind must be one of %s, or %s" % (", ".join(FAULTS), CLEAR))
    elif kind == "cable":
        _cable(v)
    elif kind == "command":
        if type(v) is not dict or type(v.get("op")) is not str:
            raise BadRequest("send is one console command: an object with an 'op'")
    return v


def _cable(v):
    """A cable: a name, or {"awg": gauge, "m": length} of its two power conductors."""
    if type(v) is str:
        if not v or len(v) > MAX_NAME:
            raise BadRequest("cable must be a name such as \"kit\", or {\"awg\": n, \"m\": x}")
        return
    if type(v) is not dict or sorted(v) != ["awg", "m"]:
        raise BadRequest("cable must be a name, or an object with exactly awg and m")
    if type(v["awg"]) is not int or not MIN_AWG <= v["awg"] <= MAX_AWG:
        raise BadRequest("awg must be a whole gauge from %d to %d" % (MIN_AWG, MAX_AWG))
    if type(v["m"]) not in (int, float) or not 0 < v["m"] <= MAX_CABLE_M:
        raise BadRequest("m must be a length in metres above 0 and at most %d" % MAX_CABLE_M)


def _shape(req):
    """The request's fields checked against its op's shape: a new request, locations as
    strings."""
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
    out = {"op": op}
    for field in shape:
        kind, required = shape[field]
        if field in req:
            out[field] = _check(kind, field, req[field])
        elif required:
            raise BadRequest("%s needs the field %r" % (op, field))
    if op == "card" and ("card" in req) == ("uid" in req):
        raise BadRequest("card takes either a card kind ('card') or a sticker ('uid')")
    if op == "fault" and req["kind"] in ("noise", "dead_sensor", "stuck_sensor") and "at" not in req:
        raise BadRequest("a %s fault needs the sensor's location 'at'" % req["kind"])
    if op == "fault" and req["kind"] == "weak_magnet" and "at" not in req:
        raise BadRequest("a weak_magnet fault needs 'at': the location of the piece whose "
                         "magnet weakens")
    return out


def _location_of(world, field, at):
    if at not in world.index:
        raise Refused("%s: %s is not a location of this board (the sensors op lists them)"
                      % (field, at))


def _piece_of(world, piece):
    if piece not in world.pieces:
        raise Refused("%s is not a piece of this board; its pieces are %s" % (
            piece, ", ".join(sorted(world.pieces))))


def _reader_of(world, op, reader):
    if not world.reader_names:
        raise Refused("this board has one card reader: %s takes no reader" % op)
    if reader not in world.reader_names:
        raise Refused("%s is not a reader of this board; its readers are %s" % (
            reader, ", ".join(world.reader_names)))


def _fault_fits(world, req):
    kind = req["kind"]
    if kind == "weak_magnet" and not world.ranked:
        raise Refused("weak_magnet: this board's pieces carry no rank magnets")
    at = req.get("at")
    if at is None:
        return
    if kind in READER_FAULTS and at in world.reader_names:
        return
    if at not in world.index:
        raise Refused("fault: %s is neither a location nor a reader of this board" % at
                      if kind in READER_FAULTS else
                      "fault: %s is not a location of this board (the sensors op lists them)"
                      % at)


def _fits(req, world):
    """Refused unless the board has every piece, location, reader and card kind the request
    names: the simulated board would otherwise have to make sense of a name it lacks."""
    op = req["op"]
    if "piece" in req:
        _piece_of(world, req["piece"])
    if op == "fault":
        _fault_fits(world, req)
    elif "at" in req:
        _location_of(world, "at", req["at"])
    for at in req.get("path", ()):
        _location_of(world, "path", at)
    if "reader" in req:
        _reader_of(world, op, req["reader"])
    cable = req.get("cable")
    if type(cable) is str and cable != "kit" and cable not in world.supply_data["cables"]:
        raise Refused("%s is not a cable of the simulator; cables are kit, %s, or {\"awg\": n, "
                      "\"m\": x}" % (cable, ", ".join(sorted(world.supply_data["cables"]))))
    if "card" in req and not any(kind == req["card"] for _, kind in world.deck):
        raise Refused("%s is not a card kind of this board's deck (the deck op lists them)"
                      % req["card"])


def check(req, world=None):
    """The request if it is well formed, as a new request whose locations are all strings;
    raises BadRequest saying what is wrong. world: the board simulated (its pieces, locations,
    readers, deck, rank magnets): a request naming what it lacks raises Refused."""
    out = _shape(req)
    if world is not None:
        _fits(out, world)
    return out
