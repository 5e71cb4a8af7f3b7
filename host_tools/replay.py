"""Replaying a game record (agentboard-record/1) through the rules core, turn by turn."""
import json

from shared_rules import notation, variant
from shared_rules.apply import apply
from shared_rules.position import BadInput
from shared_rules.state import new_game


class RecordError(Exception):
    pass


def read(path):
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise RecordError("%s is not JSON (%s)" % (path, e))


def turns(rec, name="the record"):
    """The record's start position, then (number, turn, position after, events) per turn,
    each checked by the rules core. RecordError names what is wrong."""
    if type(rec) is not dict or rec.get("format") != "agentboard-record/1":
        raise RecordError("%s is not an agentboard game record (format agentboard-record/1)"
                          % name)
    game = variant.load(variant.DEFAULT)
    lay = game.lay
    try:
        seats = [lay.cidx[c] for c in rec["seats"]]
        st = new_game(game, rec["players"], seats, lay.cidx[rec["dealer"]])
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError("%s: bad players, seats or dealer (%s)" % (name, e))
    yield st
    if type(rec.get("turns", [])) is not list:
        raise RecordError("%s: turns must be a list" % name)
    for n, turn in enumerate(rec.get("turns", []), 1):
        try:
            mv = notation.from_json(st, turn["move"])
            st, events = apply(st, mv)
        except (KeyError, TypeError) as e:
            raise RecordError("turn %d is malformed (%s)" % (n, e))
        except BadInput as e:
            raise RecordError("turn %d is not legal here: %s" % (n, e.reason))
        yield n, turn, st, events


def replay(path):
    """Yields one readable line per turn and effect; RecordError names what is wrong."""
    rec = read(path)
    steps = turns(rec, path)
    next(steps)
    yield "%d players (%s), %s deals" % (rec["players"], ", ".join(rec["seats"]), rec["dealer"])
    for n, turn, st, events in steps:
        m = turn["move"]
        if m.get("pass"):
            yield "%4d %-6s passes" % (n, turn["seat"])
        elif "swap" in m:
            yield "%4d %-6s swap: %s <-> %s" % (n, turn["seat"], m["swap"][0], m["swap"][1])
        else:
            yield "%4d %-6s %s: %s" % (n, turn["seat"], m["card"], ", ".join(
                "%s -> %s" % (a, b) for a, b in m["path"]))
        for ev in events:
            t = ev["type"]
            if t == "capture":
                yield "            knocks out %s on %s" % (ev["colour"], ev["at"])
            elif t == "meeting":
                yield "            meeting at %s: %s -> %s" % (ev["point"], ev["from"], ev["to"])
            elif t == "reveal":
                yield "            reveal on %s: %s %s" % (ev["at"], ev["colour"], ev["outcome"])
            elif t == "round_end":
                yield "     -- round over; %s deals --" % ev["dealer"]
            elif t == "win":
                yield "     == %s win ==" % " and ".join(ev["seats"])
