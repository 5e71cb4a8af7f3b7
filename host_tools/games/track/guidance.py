"""The one line that tells the players what to do next ("Red: tap a card", "Move the piece on
38 to 55, upside down", "Refused: ..."), built only from what every player can see: the
board's public view, its events, its LEDs (as meanings, host_tools/games/track/lights.py) and where
pieces stand (a piece upside down is "undercover"). Never from a hidden colour: nothing here
can know one.

line() answers {"text": ..., "kind": ...}; kind is one of
  "stopped"  the simulated device is not running,
  "idle"     no game (or the new-game menu),
  "do"       what to do next,
  "refused"  the board refused a card or a placement, and why,
  "fault"    a part of the board or a file on its flash is faulty,
  "over"     the game is won."""

from host_tools.web.twin import device_line
from shared_rules.describe_base import cap as _cap, fault, listed as _names, reason, where

# what a target light offers, in words (host_tools/games/track/lights.py's meanings)
_TARGETS = {"target": "green", "knock": "knocks a piece out", "home": "home",
            "meet": "meeting point"}
_NAMED_TARGETS = 3  # more targets than this are "a lit target"

# events after which an earlier refusal or fault no longer stands
_MOVES_ON = ("card", "move", "turn", "undo", "resolved", "mismatch", "pass", "round_end", "win",
             "boot", "resumed")


def _since(events, kinds):
    """The events after the last one of these kinds (all of them if there is none), and it."""
    for j in range(len(events) - 1, -1, -1):
        if events[j].get("event") in kinds:
            return events[j + 1:], events[j]
    return list(events), None


def _spot_colour(loc):
    return loc.split(":")[0] if ":s" in loc else None


def _occupied_like_game(loc, view, pieces):
    """Whether loc holds a piece exactly when the game says it should."""
    colour = _spot_colour(loc)
    if colour is not None:
        have = sum(1 for k in pieces if k.startswith(colour + ":s"))
        return have == view.get("start_areas", {}).get(colour, have)
    return (loc in pieces) == (loc in view.get("board", {}))


def refused_locations(view, events, pieces):
    """The locations of the last refused placement while it still stands (the board waits for
    the piece to be put back): [] otherwise."""
    if not view or view.get("phase") != "await_move":
        return []
    after, last = _since(events, _MOVES_ON + ("reject",))
    if last is None or last.get("event") != "reject" or not last.get("locations"):
        return []
    locs = [str(x) for x in last["locations"]]
    if all(_occupied_like_game(loc, view, pieces) for loc in locs):
        return []
    return locs


# -- what to do where --------------------------------------------------------------------
def _piece_words(want):
    if want == "undercover":
        return "an undercover piece (upside down)"
    return "a %s piece" % want


def _orientation(shown, want):
    if want == "undercover" and shown not in (None, "undercover"):
        return ", upside down"
    if want not in (None, "undercover") and shown == "undercover":
        return ", face up"
    return ""


# what each LED meaning asks of a location, in the order the sentences name them; anything
# else is checked
_ASKS = ("take", "put", "turn", "exchange", "fault")


def _by_light(view, lights):
    """The expected locations, by what their LEDs ask: {meaning: [location, ...]}, meanings
    not in _ASKS under "other"."""
    asked = dict((m, []) for m in _ASKS + ("other",))
    for loc in view.get("expected", []):
        loc = str(loc)
        m = lights.get(loc)
        asked[m if m in _ASKS else "other"].append(loc)
    return asked


def put_right(view, pieces, lights, use_board=True):
    """Sentences for the locations the board expects changed (view["expected"]), from what
    their LEDs ask; the game's board names the piece wanted where use_board (outside an
    effect, when the view shows the board the players must make)."""
    board = view.get("board", {}) if use_board else {}
    asked = _by_light(view, lights)
    takes, puts = asked["take"], asked["put"]
    out = []
    track_takes = [t for t in takes if _spot_colour(t) is None]
    track_puts = [p for p in puts if _spot_colour(p) is None]
    if len(track_takes) == 1 and len(track_puts) == 1:
        a, b = track_takes[0], track_puts[0]
        out.append("move the piece on %s to %s%s" % (where(a), where(b),
                                                      _orientation(pieces.get(a), board.get(b))))
        takes.remove(a)
        puts.remove(b)
    for b in [p for p in puts if _spot_colour(p) is None]:
        out.append(_fill(b, board.get(b), takes, pieces))
        puts.remove(b)
    for b in puts:
        out.append("put a piece back in %s" % where(b))
    for a in takes:
        out.append("take the piece off %s" % where(a))
    return out + _the_rest(asked, pieces)


def _fill(b, colour, takes, pieces):
    """The sentence for track location b that wants a piece of `colour` (None: any): a piece
    out of place that shows what belongs here (the same colour, or undercover for undercover:
    what anyone at the table sees, no more), else one from its start area; the take it uses
    leaves `takes`."""
    same = next((t for t in takes if _spot_colour(t) is None and colour is not None and
                 pieces.get(t) == colour), None)
    spot = next((t for t in takes if _spot_colour(t) == colour), None)
    if same is not None:
        takes.remove(same)
        return "move the piece on %s to %s" % (where(same), where(b))
    if spot is not None:
        takes.remove(spot)
        return "move a %s piece from its start area to %s" % (colour, where(b))
    if colour:
        return "put %s on %s" % (_piece_words(colour), where(b))
    return "put a piece on %s" % where(b)


def _the_rest(asked, pieces):
    # the turns, the exchanges, the faults and the rest, after the moves
    out = []
    for a in asked["turn"]:
        out.append("turn the piece on %s %s" % (where(a), "upside down" if pieces.get(a) !=
                                                  "undercover" else "face up"))
    swaps = asked["exchange"]
    if len(swaps) == 2:
        out.append("swap the pieces on %s and %s back" % (where(swaps[0]), where(swaps[1])))
    elif swaps:
        out.append("lift the pieces on %s and put each back where it belongs"
                   % _names([where(s) for s in swaps]))
    for a in asked["fault"]:
        out.append("the sensor under %s reads nonsense: check it" % where(a))
    if asked["other"]:
        out.append("check %s" % _names([where(a) for a in asked["other"]]))
    return out


# -- effects the board announced -------------------------------------------------------------
def _effect_sentence(e, expected):
    kind = e.get("kind")
    exp = set(str(x) for x in expected)
    if kind == "knock_out":
        colour = e.get("colour")
        if any(x.startswith("%s:s" % colour) for x in exp):
            return "take the knocked-out piece from %s to %s" % (where(e.get("at")),
                                                                 where(colour + ":start"))
    elif kind == "meeting":
        frm, to = str(e.get("from")), str(e.get("to"))
        if frm != to and (frm in exp or to in exp):
            return "move the piece on %s to %s, upside down (meeting point %s)" % (
                where(frm), where(to), e.get("point"))
    elif kind == "flip":
        at = str(e.get("at"))
        if at in exp:
            return "turn the piece on %s %s" % (where(at), "upside down" if e.get("undercover")
                                                  else "face up")
    elif kind == "reveal":
        at, to, colour = str(e.get("at")), str(e.get("to")), e.get("colour")
        if at in exp or to in exp or (colour and any(x.startswith(colour + ":s") for x in exp)):
            if e.get("outcome") == "stays":
                return "the piece on %s is %s: turn it face up there" % (where(at), colour)
            return "the piece on %s is %s: move it to %s, face up" % (where(at), colour,
                                                                        where(to))
    elif kind == "meetings":
        return "carry out the meetings at %s in the order you choose (each pulls the nearest " \
            "piece behind it onto the space behind, upside down)" % _names(e.get("points", []))
    return None


def _effects(view, events, pieces, lights):
    after, _ = _since(events, ("move",))
    effects = [e for e in after if e.get("event") == "effect"]
    # a meeting's own flip is in its "upside down" already
    pulled = set(str(e.get("to")) for e in effects if e.get("kind") == "meeting" and
                 str(e.get("from")) != str(e.get("to")))
    todo = []
    for e in effects:
        if e.get("kind") == "flip" and str(e.get("at")) in pulled:
            continue
        s = _effect_sentence(e, view.get("expected", []))
        if s and s not in todo:
            todo.append(s)
    return todo or put_right(view, pieces, lights, use_board=False)


def _join(todo):
    if not todo:
        return ""
    if len(todo) == 1:
        return _cap(todo[0])
    return _cap(todo[0]) + "; then " + "; ".join(todo[1:])


# -- the line -------------------------------------------------------------------------------
def line(view, events, pieces, lights, held=0, device=None):
    """The guidance line. view: the board's public view (None: no game); events: the board's
    recent events, oldest first; pieces: location -> colour or "undercover" where a piece
    stands; lights: location -> LED meaning; held: pieces lifted off the board; device:
    {"running": bool, "reason": str, "failure": str or None}."""
    stopped = device_line(device)
    if stopped:
        return stopped
    after, last = _since(events, _MOVES_ON)
    faults = [e for e in after if e.get("event") == "fault"]
    if faults:
        return {"kind": "fault", "text": fault(faults[-1])}
    if not view:
        return _no_game_line(lights)
    phase = view.get("phase")
    Seat = _cap(str(view.get("to_move")))
    rejects = [e for e in after if e.get("event") == "reject"]
    if phase == "await_move":
        return _move_line(view, events, pieces, lights, held, rejects, Seat)
    if phase in ("await_card", "round_end"):
        head = "Round over, new cards dealt. " if phase == "round_end" else ""
        if rejects:
            return {"kind": "refused", "text": "Refused: %s. %s: tap another card (or hold "
                    "back 2 s to pass)." % (reason(rejects[-1].get("reason")), Seat)}
        return {"kind": "do", "text": "%s%s: tap a card." % (head, Seat)}
    if phase == "await_effect":
        todo = _effects(view, events, pieces, lights) or ["carry out what the lights show"]
        return {"kind": "do", "text": _join(todo) + "."}
    if phase in ("setup", "mismatch"):
        return _put_right_line(view, events, pieces, lights, phase)
    if phase == "game_over":
        wins = [e for e in events if e.get("event") == "win"]
        who = _names(wins[-1].get("seats", [])) if wins else "the winners"
        return {"kind": "over", "text": "Game over: %s won. Press \"new game\" for another "
                "(or hold confirm on the board)." % who}
    return {"kind": "do", "text": "%s: %s." % (Seat, str(phase).replace("_", " "))}


def _no_game_line(lights):
    seats = sorted(loc[5:] for loc, m in lights.items() if m == "seat")
    if seats:
        return {"kind": "idle", "text": "New-game menu: %d players (%s). Press confirm for "
                "another number, hold confirm to start, press back to close." % (
                    len(seats), ", ".join(seats))}
    return {"kind": "idle", "text": "No game: press \"new game\" (or hold confirm on the "
            "board for its menu)."}


def _move_line(view, events, pieces, lights, held, rejects, Seat):
    # await_move: a refused placement, a refused card, a piece in hand, or what to lift
    refused = refused_locations(view, events, pieces)
    if refused:
        return {"kind": "refused", "text": "Refused: %s (blinking red: %s)." % (
            reason(rejects[-1].get("reason")) if rejects else "put the piece back",
            _names([where(x) for x in refused]))}
    card = view.get("card") or "card"
    steps = view.get("steps_left")
    extra = " (%s steps left)" % steps if steps else ""
    card_rejects = [e for e in rejects if not e.get("locations")]
    if card_rejects:
        return {"kind": "refused", "text": "Refused: %s. %s: move a piece with the %s."
                % (reason(card_rejects[-1].get("reason")), Seat, card)}
    if held:
        targets = [loc for loc, m in lights.items() if m in _TARGETS]
        if targets and len(targets) <= _NAMED_TARGETS:
            where_to = "on " + " or ".join("%s (%s)" % (where(t), _TARGETS[lights[t]])
                                             for t in targets)
        else:
            where_to = "on a lit target"
        return {"kind": "do", "text": "%s: put the piece down %s%s, or back where it was."
                % (Seat, where_to, extra)}
    return {"kind": "do", "text": "%s: move a piece with the %s%s: lift one lit cyan (press "
            "back first to take the card back)." % (Seat, card, extra)}


def _put_right_line(view, events, pieces, lights, phase):
    # setup and mismatch: what to put right, and why (setting up, an undo, or a board that
    # differs from the game)
    todo = put_right(view, pieces, lights) or ["wait for the board to settle"]
    if phase == "setup":
        head = "Set up: "
    else:
        _, recent = _since(events, ("undo", "move", "resolved", "turn", "card"))
        undone = recent is not None and recent.get("event") == "undo"
        head = "Undone: put the pieces back: " if undone else \
            "The board differs from the game: "
    return {"kind": "do", "text": head + "; ".join(todo) + "."}
