"""Replay mode of the page: an exported game record checked by the rules core, and the board
after any turn of it, drawn as the board itself would be (undercover pieces as "undercover"
unless the referee view is asked for)."""
from host_tools.replay import RecordError, turns
from shared_rules import layout

LAY = layout.load()

__all__ = ["RecordError", "load", "board_at"]


def check_header(rec):
    """The record's players, seats, dealer and turns are of the right kinds (the rules core
    checks each turn's move); RecordError says what is wrong."""
    if type(rec) is not dict or rec.get("format") != "agentboard-record/1":
        raise RecordError("not an agentboard game record (format agentboard-record/1)")
    players, seats = rec.get("players"), rec.get("seats")
    if type(players) is not int or players not in (2, 3, 4):
        raise RecordError("players must be 2, 3 or 4")
    if type(seats) is not list or len(seats) != players or len(set(map(str, seats))) != \
            players or any(s not in LAY.colours for s in seats):
        raise RecordError("seats must name %d different colours of %s" % (
            players, ", ".join(LAY.colours)))
    if rec.get("dealer") not in seats:
        raise RecordError("the dealer must be one of the seats")
    if type(rec.get("turns", [])) is not list:
        raise RecordError("turns must be a list")
    for n, turn in enumerate(rec.get("turns", []), 1):
        if type(turn) is not dict or turn.get("seat") not in seats or \
                type(turn.get("move")) is not dict:
            raise RecordError("turn %d must be an object with a seat of the game and a move"
                              % n)


def load(rec):
    check_header(rec)
    steps = turns(rec)
    states = [next(steps)]
    played = [None]
    for n, turn, st, events in steps:
        states.append(st)
        played.append({"seat": turn.get("seat"), "card": turn.get("card"),
                       "move": turn.get("move"),
                       "effects": [e["type"] for e in events
                                   if e["type"] in ("capture", "flip", "meeting", "reveal",
                                                    "round_end", "win", "out")]})
    return {"states": states, "played": played, "players": rec["players"],
            "seats": rec["seats"]}


def board_at(rec, k, referee=False):
    """The board after turn k, built location by location (never piece by piece: the order
    would follow the hidden colours)."""
    st = rec["states"][k]
    pieces = {}
    truth = {}
    for loc in range(LAY.nboard):
        q = st.board[loc]
        if q:
            at = str(LAY.loc_json(loc))
            colour = LAY.colours[(q - 1) // LAY.ppc]
            pieces[at] = "undercover" if st.undercover(q - 1) else colour
            if referee:
                truth[at] = colour
    for c, colour in enumerate(LAY.colours):
        waiting = sum(1 for p in range(c * LAY.ppc, (c + 1) * LAY.ppc)
                      if st.pos[p] >= LAY.nboard)
        for spot in range(1, waiting + 1):
            pieces["%s:s%d" % (colour, spot)] = colour
    out = {"turn": k, "turns": len(rec["states"]) - 1, "played": rec["played"][k],
           "to_move": LAY.colours[st.to_move], "pieces": pieces, "referee": bool(referee)}
    if referee:
        out["truth"] = truth
    return out
