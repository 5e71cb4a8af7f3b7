# Moves and events in words for a person: the demo, the replay tool and the simulated table's
# printout all say them the same way.


def move_text(card, move):
    """A protocol MOVE (JSON form) as played with `card` (None for a pass)."""
    if move.get("pass"):
        return "passes"
    if "swap" in move:
        return "plays %s: %s <-> %s" % (card, move["swap"][0], move["swap"][1])
    text = "plays %s: %s" % (card, ", ".join(["%s -> %s" % (a, b) for (a, b) in move["path"]]))
    if "rank" in move:
        text += " (the %s)" % move["rank"]
    if "jump" in move:
        text += ", jumps on to %s" % move["jump"]
    return text


def _piece(ev):
    return "%s %s" % (ev["colour"], ev["rank"]) if "rank" in ev else ev["colour"]


def event_text(ev):
    """A rules-core EVENT in words, or None for the card's own move (see move_text)."""
    t = ev["type"]
    if t == "capture":
        return "knocks out %s at %s" % (_piece(ev), ev["at"])
    if t == "flip":
        return "the piece on %s %s" % (ev["at"], "goes undercover (upside down)"
                                       if ev["undercover"] else "comes up (upright)")
    if t == "meeting":
        return "meeting at %s: the piece on %s is pulled to %s" % (ev["point"], ev["from"],
                                                                   ev["to"])
    if t == "reveal":
        return "reveals %s on %s: %s %s" % (ev["colour"], ev["at"], ev["outcome"], ev["to"])
    if t == "out":
        return "%s is out of the round (%s)" % (ev["seat"], ev["reason"])
    if t == "draw":
        return "%s draws a card (a special space)" % ev["seat"]
    if t == "jump":
        return "the citizen jumps from %s to %s" % (ev["from"], ev["to"])
    if t == "round_end":
        return "-- round over; %s deals --" % ev["dealer"]
    if t == "win":
        return "== %s win ==" % " and ".join(ev["seats"])
    return None
