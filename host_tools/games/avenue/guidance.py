"""The one line that tells the players at the Agent Avenue board what to do next ("Green: put one
card face up and one face down", "Move the blue pawn to 9", "Refused (down pad): ..."), built
only from what every player can see: the board's public view (docs/agent-avenue-board.md), its
events, where the pawns stand and how many cards are lifted off the pads in a recruit. The
face-down card is not among them, so no line can name it.

line() answers {"text": ..., "kind": ...} with the kinds of the track games' line
(host_tools/games/track/guidance.py): stopped, idle, do, refused, fault, over."""
from shared_rules.avenue import tables as T
from shared_rules.describe_avenue import other as _other, why_won
from shared_rules.describe_base import cap as _cap, fault, name, reason
from host_tools.web.twin import device_line

TB = T.load()

# events after which an earlier refusal or fault no longer stands
_MOVES_ON = ("card", "card_off", "play", "recruit", "discard", "turn", "tap", "seat", "forced",
             "market", "mismatch", "new_game", "offer", "boot", "resumed", "win")

# what a black-market ability asks to be tapped, by its mechanic (shared_rules/avenue/tables.py)
_ASKS = {T.RECRUIT_TOP: "tap the top card of the agent deck (it is recruited)",
         T.RECRUIT_HAND_NAMED: "tap a %s from the hand (it is recruited)",
         T.RECRUIT_HAND_NEW: "tap an agent from the hand unlike every agent %s has in play",
         T.RECRUIT_HAND_PAIR: "tap one of two alike agents from the hand (one is recruited)",
         T.TAKE_BACK: "tap one of %s's agents in play (it goes back to the hand)",
         T.STEAL: "tap one of %s's agents in play (it goes to the hand)"}


def _since(events):
    for j in range(len(events) - 1, -1, -1):
        if events[j].get("event") in _MOVES_ON:
            return events[j + 1:]
    return list(events)


def _who(view, side):
    """The side, and in a team its lit seat: "Green", "Green (seat 2)"."""
    if view["seats"][side] > 1:
        return "%s (seat %d)" % (_cap(side), view.get("seat", 0) + 1)
    return _cap(side)


def _pawns(view, pieces, held):
    """What the pawns still need: ["move the green pawn to 5", ...]."""
    at = dict((colour, loc) for loc, colour in sorted(pieces.items()))
    out = []
    for side in TB.sides:
        want = str(view["pawns"][side])
        if at.get(side) != want:
            if at.get(side) is None and len(set(view["pawns"].values())) == 1:
                continue  # both on one space: one pawn stays in the hand
            out.append("%s the %s pawn %s %s" % (
                "put" if at.get(side) is None else "move", side,
                "down on" if at.get(side) is None else "to", want))
    return out


# where the card the tap pad asks for lies, by what it asks (and by the ability's mechanic)
_TAP_FROM = {"offer": "market_deck", "refill": "market_deck", "market": "offer",
             "discard": "hand"}
_AGENT_FROM = {T.RECRUIT_TOP: "agent_deck", T.TAKE_BACK: "tableau", T.STEAL: "tableau"}


def tap_from(view):
    """Where the players pick the card the tap pad asks for now: {"place": "offer",
    "market_deck", "agent_deck", "hand" or "tableau", "side": whose tableau or hand}, or None
    when it asks for nothing. The page shows those cards where the choice is made."""
    tap = (view or {}).get("tap")
    if tap is None:
        return None
    side = view["pending"][0] if view.get("rules_phase") == "market" else view.get("active")
    place = _TAP_FROM.get(tap)
    if place is None:  # an ability's agent (again: the same one)
        card = TB.market_index.get(view.get("taken"))
        place = _AGENT_FROM.get(TB.effect[card], "hand") if card is not None else "hand"
        if card is not None and TB.effect[card] == T.STEAL:
            side = _other(side)
    return {"place": place, "side": side}


def _market(view, side):
    taken = view.get("taken")
    who = _who(view, side)
    tap = view.get("tap")
    if tap == "market":
        return "%s: take a card from the offer: tap it on the tap pad." % who
    if tap == "refill":
        return "%s: tap the top card of the market deck: it refills the offer." % who
    card = TB.market_index.get(taken)
    if tap == "agent" and card is not None:
        ask = _ASKS.get(TB.effect[card], "tap the agent the ability names")
        if "%s" in ask:
            named = TB.effect_agent[card]
            ask = ask % (name(TB.agent_names[named]) if TB.effect[card] == T.RECRUIT_HAND_NAMED
                         else _other(side) if TB.effect[card] == T.STEAL else side)
        return "%s (%s): %s, or press back if there is none." % (who, name(taken), ask)
    if tap == "again":
        return "%s: tap the same agent again to recruit it again, or press back to keep it in " \
               "the hand." % who
    return "%s: take a black-market card." % who


def _put_back(pads, other):
    # after a power cut the board decides no recruit from an empty pad (docs/power-cuts.md)
    cards = " and ".join("the %s card on the %s pad" % (
        "face-up" if p == "up" else "face-down", p) for p in pads)
    if len(pads) == 1:
        return ("The board restarted: put %s again, then %s takes one card; or, if %s "
                "already took that card, press confirm." % (cards, other, other))
    return "The board restarted: put %s again, then %s takes one card." % (cards, other)


def line(view, events, pieces, held=0, device=None, lifted=0, result=None, lights=None):
    """The guidance line. view: the board's public view (None: no game); events: its recent
    events, oldest first; pieces: location -> pawn colour; held: pawns in a hand; device:
    {"running", "reason", "failure"}; lifted: cards taken off the pads in this recruit;
    result: the board's `end` event, if the game ended; lights: location -> LED meaning
    (host_tools/games/avenue/lights.py)."""
    stopped = device_line(device)
    if stopped:
        return stopped
    after = _since(events)
    faults = [e for e in after if e.get("event") == "fault"]
    if faults:
        return {"kind": "fault", "text": fault(faults[-1])}
    bad = sorted((loc for loc, m in (lights or {}).items() if m == "fault"), key=int)
    if bad:
        return {"kind": "fault", "text": "The sensor under space %s reads nonsense (blinking "
                "orange): play goes on when it reads again." % " and ".join(bad)}
    if not view:
        return {"kind": "idle", "text": "No game: press \"new game\" (or hold confirm on the "
                "board for its menu)."}
    phase = view.get("phase")
    if phase == "game_over":
        r = result or {"winner": view.get("winner")}
        why = " (%s)" % why_won(r) if r.get("reason") else ""
        return {"kind": "over", "text": "%s wins%s. Press \"new game\" for another." % (
            _cap(str(r.get("winner"))), why)}
    rejects = [e for e in after if e.get("event") == "reject"]
    if rejects:
        r = rejects[-1]
        return {"kind": "refused", "text": "Refused (%s pad): %s." % (r.get("reader"),
                                                                     reason(r.get("reason")))}
    todo = _pawns(view, pieces, held)
    if phase in ("setup", "await_effect", "mismatch"):
        return _pawns_line(view, todo, phase)
    side = view["active"]
    if phase == "play":
        return _play_line(view, side)
    if phase == "recruit":
        return _recruit_line(view, side, lifted)
    if phase == "market":
        return {"kind": "do", "text": _market(view, view["pending"][0])}
    return {"kind": "do", "text": "Follow the lights."}


def _pawns_line(view, todo, phase):
    # setup, an effect and a mismatch: the pawns to move, todo (and at setup the first offer)
    if phase == "setup":
        parts = todo[:]
        if view.get("tap") == "offer":
            parts.append("tap the %d cards of the first offer (the top of the market deck) on "
                         "the tap pad" % TB.offer_size)
        return {"kind": "do", "text": "Set up: %s." % "; ".join(parts or ["wait"])}
    head = "Move the pawns: " if phase == "await_effect" else \
        "A pawn is not where the game puts it: "
    return {"kind": "do", "text": head + "; ".join(todo or [
        "put right the spaces %s" % ", ".join(view.get("expected", []))]) + "."}


def _play_line(view, side):
    # play: the two cards the active side puts on the pads
    pads = view.get("pads", {})
    if pads.get("up") and pads.get("down"):
        return {"kind": "do", "text": "%s: the board reads the two cards." % _cap(side)}
    ask = []
    if not pads.get("up"):
        ask.append("one card face up on the up pad")
    if not pads.get("down"):
        ask.append("one face down on the down pad")
    extra = " (or tap a card on the tap pad to discard it)" if view.get("tap") == \
        "discard" else ""
    team = "; confirm passes the lit seat" if view["seats"][side] > 1 else ""
    return {"kind": "do", "text": "%s: put %s%s%s." % (_who(view, side), " and ".join(ask),
                                                       extra, team)}


def _recruit_line(view, side, lifted):
    # recruit: the other side takes one of the two cards; after a power cut, the cards back
    other = _other(side)
    back = view.get("put_back") or []
    if back:
        return {"kind": "do", "text": _put_back(back, other)}
    if lifted:
        return {"kind": "do", "text": "%s: take the other card off its pad." % _cap(side)}
    return {"kind": "do", "text": "%s: take one of the two cards off its pad (%s recruits "
            "it); then %s takes the other." % (_cap(other), other, side)}
