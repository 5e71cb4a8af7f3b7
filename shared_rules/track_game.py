# The protocol's ops for the track games (Agent DOG, DOG, DOG Royal): a position and a card in,
# legal moves, the position after a move, or the hints out. The position names its game; an
# answer's position names it again when the request's did.
from shared_rules import position, notation, notation_parse
from shared_rules.apply import apply
from shared_rules.errors import BadInput
from shared_rules.hints import hints
from shared_rules.move import legal_moves


class TrackGame:
    def handle(self, op, req):
        obj = req["position"]
        st = position.parse(obj)
        lay = st.lay
        named = type(obj) is dict and ("game" in obj or "layout" in obj)
        won = st.winners()
        if won:
            raise BadInput("game_over", "the game is over: %s won" % " and ".join(
                [lay.colours[c] for c in won]))
        if op == "apply":
            if "move" not in req:
                raise BadInput("bad_request", "missing field 'move'")
            mv = notation.from_json(st, req["move"])
            new, events = apply(st, mv)
            return {"ok": True, "position": position.dump(new, named), "events": events}
        if "card" not in req:
            raise BadInput("bad_request", "missing field 'card'")
        k = notation_parse.card_index(st.game.cards, req["card"])
        if op == "legal":
            return {"ok": True, "moves": [notation.to_json(st, m) for m in legal_moves(st, k)]}
        movable, targets = hints(st, k)
        out = {}
        for frm in targets:
            out[str(lay.loc_json(frm))] = [lay.loc_json(t) for t in targets[frm]]
        return {"ok": True, "movable": [lay.loc_json(m) for m in movable], "targets": out}


def game(name):
    return TrackGame()
