# Agent Avenue's words: the Agent Avenue board's console events (docs/agent-avenue-board.md),
# which are the rules core's events (docs/agent-avenue-rules.md, "EVENTS") plus the board's
# own, and the public view in a line. Found by shared_rules/describe.py; runs on MicroPython too.
# Every sentence is built from the event alone: no event names the face-down card before the
# recruit, and a face-down card or a discard is "a card".
from shared_rules.describe_base import (boot, cap, fault, listed, mismatch, name, plural,
                                        reason, unknown)

TITLE = "Agent Avenue"
FACES = {"up": "face-up", "down": "face-down"}
# why a side won (the `end` event's reason: docs/agent-avenue-rules.md, the end step)
_REASONS = {"catch": "its pawn caught the other",
            "codebreakers": "3 codebreakers in play",
            "daredevils": "the daredevils: 3 in play",
            "masterplan": "the Masterplan and 7 different agents in play",
            "security_system": "the Security System, with the other pawn on its own home",
            "cards_out": "the cards ran out and its pawn was closer to a catch"}
# what a card tapped on the tap pad was for (the `tap` event's `what`)
_TAPPED = {"market": "taken from the offer", "refill": "turned up to refill the offer",
           "agent": "named by the ability", "offer": "laid in the first offer"}
# the rules' phases as the table says them (the view's `rules_phase`, and the board's own)
_PHASES = {"setup": "setting up", "play": "a turn of play", "recruit": "the recruit",
           "market": "the black market", "await_effect": "the pawns to move",
           "mismatch": "a pawn out of place", "game_over": "game over"}


def the(card):
    return "the " + name(card)


def _seat(ev):
    return " (seat %d)" % (ev["seat"] + 1) if type(ev.get("seat")) is int else ""


def other(side):
    return "blue" if side == "green" else "green"


def acting(v):
    """The side that acts now, as the page's guidance line and status agree on it: the
    active side in play, the side taking from the black market, the other side in the
    recruit (it takes a card off a pad); None while the pawns move or no game runs."""
    if not v or v.get("phase") in ("setup", "game_over", "await_effect", "mismatch"):
        return None
    rules = v.get("rules_phase", v.get("phase"))
    if rules == "play":
        return v.get("active")
    if rules == "market":
        return (v.get("pending") or [None])[0]
    if rules == "recruit":
        return other(v.get("active"))
    return None


def seating(seats):
    """{"green": 2, "blue": 1} -> "2 green players against 1 blue player"."""
    return " against ".join([plural(seats.get(s, 0), s + " player") for s in ("green", "blue")])


# -- the board's own events -------------------------------------------------------------------
def _boot(ev):
    return boot(ev, TITLE)


def _new_game(ev):
    return "New game of %s, %s mode: %s; %s begins. Put the pawns on their homes." % (
        TITLE, ev.get("mode"), seating(ev.get("seats") or {}), ev.get("active"))


def _offer(ev):
    return "The black market's first offer: %s." % listed([the(c) for c in ev["offer"]])


def _resumed(ev):
    return "The board found its game on the flash after %s: %s goes on." % (
        plural(ev.get("decisions") or 0, "decision"),
        _PHASES.get(ev.get("phase"), str(ev.get("phase"))))


def _turn(ev):
    return "%s's turn." % cap(ev["side"])


def _card(ev):
    if ev.get("face") == "up":
        return "%s puts %s face up%s." % (cap(ev["side"]), the(ev["card"]), _seat(ev))
    return "%s puts a card face down%s." % (cap(ev["side"]), _seat(ev))


def _card_off(ev):
    return "The %s card is taken off its pad." % FACES.get(ev.get("face"), "")


def _seat_passed(ev):
    return "%s's lit seat passes to seat %d." % (cap(ev["side"]), ev["seat"] + 1)


def _forced(ev):
    return "%s declares that every card in the hand bears one name: the two cards played " \
           "may be alike." % cap(ev["side"])


def _taken(ev):
    return "After the restart, the %s card counts as the one taken." % FACES.get(
        ev.get("face"), "")


def _tap(ev):
    if ev.get("what") == "cleared":
        return "The taps are taken back."
    return "Tapped: %s, %s." % (the(ev.get("card")), _TAPPED.get(ev.get("what"),
                                                                str(ev.get("what"))))


def _reject(ev):
    return "Refused (%s pad): %s." % (ev.get("reader"), reason(ev.get("reason")))


def _win(ev):
    return "%s wins the game." % cap(ev["side"])


# -- the rules core's events ------------------------------------------------------------------
def _discard(ev):
    return "%s discards a card%s." % (cap(ev["side"]), _seat(ev))


def _draw(ev):
    return "%s draws %s%s." % (cap(ev["side"]), plural(ev.get("n", 1), "card"), _seat(ev))


def _play(ev):
    if ev.get("up"):
        return "%s plays %s face up and a card face down." % (cap(ev["side"]), the(ev["up"]))
    return "%s plays two cards, one face up, one face down." % cap(ev["side"])


def _recruit(ev):
    return "%s recruits %s (%d in play)." % (cap(ev["side"]), the(ev["agent"]), ev["count"])


def _pawn(ev):
    steps = ev["steps"]
    return "%s's pawn moves %s -> %s (%s%s)." % (
        cap(ev["side"]), ev["from"], ev["to"], plural(abs(steps), "step"),
        " back" if steps < 0 else "")


def _market(ev):
    return "%s takes %s from the black market." % (cap(ev["side"]), the(ev["card"]))


def _refill(ev):
    return "%s refills the offer." % cap(the(ev["card"]))


def _hand(ev):
    return "%s's %s goes to %s's hand." % (cap(ev["side"]), name(ev["agent"]), ev["to"])


def why_won(ev):
    """Why the side won, from the `end` event: "its pawn caught the other; the tie rule
    decided"."""
    why = _REASONS.get(ev.get("reason"), str(ev.get("reason")).replace("_", " "))
    return why + ("; the tie rule decided" if ev.get("tie") else "")


def _end(ev):
    return "%s wins (%s)." % (cap(ev["winner"]), why_won(ev))


_SAY = {"boot": _boot, "new_game": _new_game, "offer": _offer, "resumed": _resumed,
        "turn": _turn, "card": _card, "card_off": _card_off, "seat": _seat_passed,
        "forced": _forced, "taken": _taken, "tap": _tap, "reject": _reject,
        "mismatch": mismatch, "win": _win, "fault": fault, "discard": _discard,
        "draw": _draw, "play": _play, "recruit": _recruit, "pawn": _pawn, "market": _market,
        "refill": _refill, "hand": _hand, "end": _end}


def console(ev):
    """An Agent Avenue board's console event (or a rules-core event: its `type` is the
    console's `event`) in words."""
    kind = ev.get("event", ev.get("type"))
    f = _SAY.get(kind)
    return f(ev) if f else unknown(ev, kind)


# -- a decision as the rules protocol writes it (the game record's, the random games') -----------
def _played(j):
    p = j["play"]
    return "plays %s face up%s and %s face down%s%s" % (
        the(p["up"]), _seat({"seat": p["up_seat"]}), the(p["down"]),
        _seat({"seat": p["down_seat"]}), ", declared alike" if p.get("forced") else "")


def _took(j):
    text = "takes %s from the offer%s" % (the(j["market"]), _seat(j))
    if "top" in j:
        text += ", recruiting the top agent of the deck (%s)" % (
            the(j["top"]) if j["top"] else "none")
    if "agent" in j:
        text += ", naming %s" % (the(j["agent"]) if j["agent"] else "no agent")
    if j.get("again"):
        text += ", recruited again"
    return text


def decision(j):
    """A rules-protocol decision after the side's name: "plays the Enforcer face up (seat 1)
    and the Mole face down (seat 1)". A record's decision names the face-down card: said only
    where the caller may show it (the replay, the rules core's own games)."""
    if "discard" in j:
        return "discards a card%s" % _seat(j["discard"])
    if "play" in j:
        return _played(j)
    if "recruit" in j:
        return "takes the %s card off its pad" % FACES.get(j["recruit"], j["recruit"])
    return _took(j)


# what a decision's line already says: its events of these kinds are not said again
SAID_BY_DECISION = ("discard", "play", "market")


# -- the public view in a line ----------------------------------------------------------------
def view(v, actor=True):
    """The game on the board in words: mode, seating, phase (with actor: who acts), decks. Short:
    the page's status bar holds it on one line at 1280 pixels."""
    seats = v.get("seats") or {}
    parts = ["%s, %s" % (TITLE, v.get("mode")), "%d green against %d blue" % (
        seats.get("green", 0), seats.get("blue", 0))]
    phase = v.get("phase")
    rules = v.get("rules_phase", phase)
    shown = phase if phase in ("setup", "await_effect", "mismatch", "game_over") else rules
    who = acting(v) if actor else None
    parts.append(("%s: %s" % (who, _PHASES.get(shown))) if who else
                 _PHASES.get(shown, str(shown).replace("_", " ")))
    if v.get("winner"):
        parts.append("%s won" % v["winner"])
    # the decks as the page's game table names them
    parts.append("agent deck %d" % (v.get("deck") or 0))
    if v.get("mode") == "advanced":
        parts.append("market deck %d" % (v.get("market_deck") or 0))
    return " · ".join(parts)
