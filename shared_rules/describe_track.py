# The track games' words (Agent DOG, DOG, DOG Royal): the DOG boards' console events
# (docs/board-protocols.md, section 1), the rules core's events and moves
# (docs/rules-protocol.md), and the public view in a line. Found by shared_rules/describe.py;
# runs on MicroPython too. Every sentence is built from the event alone, and an event names a
# colour only where the rules reveal it (a piece knocked out or revealed).
from shared_rules.describe_base import (boot, cap, fault, listed, mismatch, places, plural,
                                        reason, unknown, where)

# why the rules put a seat out of the round (docs/rules-protocol.md, the `out` event)
_OUT = {"own_capture": "it knocked out a piece of its own team",
        "pass": "it passed"}
# what a public view's phase says the table waits for (the view's `phase`)
_PHASES = {"setup": "setting up", "await_card": "waiting for a card",
           "await_move": "waiting for the move", "await_effect": "carrying out the move's effects",
           "mismatch": "the board differs from the game", "round_end": "a new round dealt",
           "game_over": "game over"}


def title(game):
    """A game's name for a person, as the rules core titles it."""
    try:
        from shared_rules import variant
        return variant.variant_class(game).title
    except (KeyError, ImportError, AttributeError):
        return str(game)


def card_words(card):
    """A card as players say it: "a 5", "an 8", "a 1/11", "a swap card"."""
    c = str(card)
    if c[:1].isdigit():
        return ("an " if c[:1] == "8" else "a ") + c
    return "a %s card" % c


def move_text(card, move):
    """A protocol MOVE (JSON form) played with `card`, after the seat's name: "plays a 5:
    12 -> 17" (None or a pass move: "passes")."""
    if move.get("pass") or card is None:
        return "passes"
    played = "plays " + card_words(card)
    if "swap" in move:
        a, b = move["swap"]
        return "%s: the pieces on %s and %s change places" % (played, where(a), where(b))
    text = "%s: %s" % (played, ", ".join(["%s -> %s" % (where(a), where(b))
                                          for (a, b) in move["path"]]))
    if "rank" in move:
        text += " (the %s)" % move["rank"]
    if "jump" in move:
        text += ", then jumps on to %s" % move["jump"]
    if move.get("meet"):
        text += " (meeting points %s, in this order)" % listed(move["meet"])
    return text


# -- the effects of a move (console `effect` kinds, and the rules core's events of the same) ------
def _piece(ev):
    return "%s's %s" % (cap(ev["colour"]), ev["rank"] if "rank" in ev else "piece")


def _knock_out(ev):
    to = ev.get("to") or ev["colour"] + ":start"
    return "%s on %s is knocked out: put it in %s." % (_piece(ev), where(ev["at"]), where(to))


def _flip(ev):
    if ev.get("undercover"):
        return "The piece on %s goes undercover: turn it upside down." % where(ev["at"])
    return "The piece on %s comes up: turn it face up." % where(ev["at"])


def _meeting(ev):
    if str(ev["from"]) == str(ev["to"]):
        return "Meeting point %s: the piece on %s stays where it is." % (ev["point"],
                                                                        where(ev["to"]))
    return "Meeting point %s: the piece on %s is pulled to %s." % (
        ev["point"], where(ev["from"]), where(ev["to"]))


def _meetings(ev):
    return "Meeting points %s: carry them out in the order you choose." % listed(ev["points"])


def _reveal(ev):
    head = "The undercover piece on %s is %s" % (where(ev["at"]), ev["colour"])
    if ev.get("outcome") == "stays":
        return head + ": it stays there, face up."
    return head + ": it goes to %s, face up." % where(ev["to"])


def _out(ev):
    why = _OUT.get(ev.get("reason"), str(ev.get("reason")).replace("_", " "))
    return "%s is out of the round: %s." % (cap(ev["seat"]), why)


_EFFECTS = {"knock_out": _knock_out, "capture": _knock_out, "flip": _flip,
            "meeting": _meeting, "meetings": _meetings, "reveal": _reveal, "out": _out}


def _effect(ev):
    f = _EFFECTS.get(ev.get("kind"))
    return f(ev) if f else unknown(ev, ev.get("kind"))


# -- the board's console events ------------------------------------------------------------------
def _boot(ev):
    return boot(ev)


def _resumed(ev):
    if not ev.get("turns"):
        return "The board found its game on the flash: no move yet, the setup goes on."
    return "The board found its game on the flash after %s: %s to move." % (
        plural(ev["turns"], "turn"), ev["to_move"])


def _new_game(ev):
    seats = ev.get("seats") or []
    return "New game of %s: %s (%s), %s deals. Set the pieces up." % (
        title(ev.get("game")), plural(ev.get("players") or len(seats), "player"),
        listed(seats), ev.get("dealer"))


def _turn(ev):
    return "%s's turn." % cap(ev["seat"])


def _card(ev):
    return "%s taps %s." % (cap(ev["seat"]), card_words(ev["card"]))


def _card_back(ev):
    return "%s takes the %s back." % (cap(ev["seat"]), ev["card"])


def _move(ev):
    return "%s %s." % (cap(ev["seat"]), move_text(ev.get("card"), ev.get("move") or {}))


def _reject(ev):
    text = "Refused: %s" % reason(ev.get("reason"))
    if ev.get("locations"):
        text += " (at %s)" % places(ev["locations"])
    if ev.get("uid"):
        text += " (sticker %s)" % ev["uid"]
    return text + "."


def _resolved(ev):
    return "The board matches the game again: play goes on."


def _pass(ev):
    return "%s passes: no card to play." % cap(ev["seat"])


def _undo(ev):
    return "The last move is taken back (%s left): put the pieces back." % plural(
        ev.get("turns") or 0, "turn")


def _draw(ev):
    return "%s draws a card: the move ended on a special space." % cap(ev["seat"])


def _jump(ev):
    return "The %s jumps on from %s to %s." % (ev.get("rank", "citizen"), where(ev["from"]),
                                               where(ev["to"]))


def _round_end(ev):
    return "The round is over: %s deals the next." % ev["dealer"]


def _win(ev):
    seats = ev.get("seats") or []
    return "%s %s the win." % (cap(listed(seats)), "takes" if len(seats) == 1 else "take")


_CONSOLE = {"boot": _boot, "resumed": _resumed, "new_game": _new_game, "turn": _turn,
            "card": _card, "card_back": _card_back, "move": _move, "effect": _effect,
            "reject": _reject, "mismatch": mismatch, "resolved": _resolved, "pass": _pass,
            "undo": _undo, "round_end": _round_end, "win": _win, "fault": fault,
            "draw": _draw, "jump": _jump}


def console(ev):
    """A DOG board's console event in words."""
    kind = ev.get("event")
    f = _CONSOLE.get(kind)
    return f(ev) if f else unknown(ev, kind)


def event_text(ev):
    """A rules-core EVENT in words, or None for the card's own move (`move`, `swap`: see
    move_text). The rules core's effects have the console's words."""
    t = ev["type"]
    if t in _EFFECTS:
        return _EFFECTS[t](ev)
    if t in ("draw", "jump", "round_end", "win"):
        return _CONSOLE[t](ev)
    return None


# -- the public view in a line (the page's status bar, `agentboard monitor`) -------------------------
def view(v, actor=True):
    """The game on the board in words: its name, its players, what it waits for (with actor,
    from whom), the card in play, who is out, the cards in the hands."""
    parts = ["%s, %s" % (title(v.get("game")), plural(v.get("players") or 0, "player"))]
    phase = v.get("phase")
    seat = v.get("to_move")
    if actor and phase in ("await_card", "round_end"):
        parts.append("%s to tap a card" % seat)
    elif actor and phase == "await_move":
        parts.append("%s to move with the %s" % (seat, v.get("card")))
    elif phase == "await_move":
        parts.append("the %s in play" % v.get("card"))
    else:
        parts.append(_PHASES.get(phase, str(phase).replace("_", " ")))
    if v.get("steps_left"):
        parts.append("%s left" % plural(v["steps_left"], "step"))
    if v.get("out"):
        parts.append("out of the round: %s" % listed(v["out"]))
    left = v.get("cards_left") or {}
    if left and phase != "game_over":
        # sorted: the same line on both interpreters (MicroPython's dicts keep no order)
        parts.append("cards in hand: %s" % ", ".join(["%s %d" % (c, left[c])
                                                      for c in sorted(left)]))
    return " · ".join(parts)
