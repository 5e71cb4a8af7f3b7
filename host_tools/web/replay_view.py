"""Replay mode of the page: an exported game record checked by the rules core, and the board
after any turn of it, drawn as the board itself would be (undercover pieces as "undercover"
unless the referee view is asked for; ranks, printed on the pieces, as they are)."""
from host_tools.replay import RecordError
from shared_rules import games
from shared_rules.describe import event_text, move_text
from shared_rules.describe_base import cap

__all__ = ["RecordError", "load", "board_at"]
SAID_KEPT = 60  # the replayed turns' lines the page lists (as many as it lists live)


def said(turn, events):
    """A turn of the record in words: the move, then what it caused (shared_rules/describe)."""
    out = ["%s %s." % (cap(turn.get("seat")), move_text(turn.get("card"), turn.get("move")))]
    for ev in events:
        text = event_text(ev)
        if text is not None:
            out.append(text)
    return out


def load(rec, board):
    """The record's positions after every turn, checked whole by the replay of the board's
    family (host_tools/games/<family>/replay.py turns(): header, every turn against the rules
    core) before anything is kept. board: the board the page draws; a record of a game on
    another board is refused with what to start instead."""
    steps = games.importing(games.part(games.board_family(board), "replay")).turns(rec)
    start = next(steps)
    lay = start.lay
    if lay.name != board:
        raise RecordError("this record is a game on the %s board and the page draws %s: "
                          "replay it with `agentboard sim --board %s`" % (lay.name, board,
                                                                          lay.name))
    states = [start]
    played = [None]
    lines = [[]]
    for n, turn, st, events in steps:
        states.append(st)
        lines.append(said(turn, events))
        played.append({"seat": turn.get("seat"), "card": turn.get("card"),
                       "move": turn.get("move"),
                       "effects": [e["type"] for e in events
                                   if e["type"] in ("capture", "flip", "meeting", "reveal",
                                                    "round_end", "win", "out", "draw",
                                                    "jump")]})
    return {"states": states, "played": played, "players": rec["players"],
            "seats": rec["seats"], "said": lines, "title": start.game.title}


def board_at(rec, k, referee=False):
    """The board after turn k, built location by location (never piece by piece: the order
    would follow the hidden colours)."""
    st = rec["states"][k]
    lay = st.lay
    ranked = st.game.ranked
    pieces = {}
    truth = {}
    ranks = {}
    for loc in range(lay.nboard):
        q = st.board[loc]
        if q:
            at = str(lay.loc_json(loc))
            colour = lay.colours[lay.piece_colour[q - 1]]
            pieces[at] = "undercover" if st.undercover(q - 1) else colour
            if referee:
                truth[at] = colour
            if ranked:
                ranks[at] = st.game.rank_name(q - 1)
    for c, colour in enumerate(lay.colours):
        waiting = [p for p in lay.pieces_of(c) if st.pos[p] >= lay.nboard]
        for spot, p in enumerate(waiting, 1):
            at = "%s:s%d" % (colour, spot)
            pieces[at] = colour
            if ranked:
                ranks[at] = st.game.rank_name(p)
    out = {"turn": k, "turns": len(rec["states"]) - 1, "played": rec["played"][k],
           "to_move": lay.colours[st.to_move], "pieces": pieces, "ranks": ranks,
           "referee": bool(referee), "title": rec["title"], "players": rec["players"],
           "said": _said_up_to(rec, k), "winners": [lay.colours[c] for c in st.winners()]}
    if referee:
        out["truth"] = truth
    return out


def _said_up_to(rec, k):
    """The words of the turns up to k, the last SAID_KEPT lines: [{"turn": n, "text": ...}]."""
    out = []
    for n in range(k, 0, -1):
        for text in reversed(rec["said"][n]):
            out.append({"turn": n, "text": text})
            if len(out) == SAID_KEPT:
                return out[::-1]
    return out[::-1]
