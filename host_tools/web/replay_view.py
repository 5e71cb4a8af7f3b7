"""Replay mode of the page: an exported game record checked by the rules core, and the board
after any turn of it, drawn as the board itself would be (undercover pieces as "undercover"
unless the referee view is asked for)."""
from host_tools.replay import RecordError, turns
from shared_rules import layout

LAY = layout.load()

__all__ = ["RecordError", "load", "board_at"]


def load(rec):
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
    st = rec["states"][k]
    pieces = {}
    truth = {}
    spots = {}
    for p in range(LAY.npieces):
        colour = LAY.colours[p // LAY.ppc]
        loc = st.pos[p]
        if loc < LAY.nboard:
            at = str(LAY.loc_json(loc))
            pieces[at] = "undercover" if st.undercover(p) else colour
            if referee:
                truth[at] = colour
        else:
            spots[colour] = spots.get(colour, 0) + 1
            pieces["%s:s%d" % (colour, spots[colour])] = colour
    out = {"turn": k, "turns": len(rec["states"]) - 1, "played": rec["played"][k],
           "to_move": LAY.colours[st.to_move], "pieces": pieces, "referee": bool(referee)}
    if referee:
        out["truth"] = truth
    return out
