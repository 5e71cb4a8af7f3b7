# The protocol's ops for the track games (Agent DOG): a position and a card in, legal moves,
# the position after a move, or the hints out.
from shared_rules import layout, cards as _cards, position, notation
from shared_rules.apply import apply
from shared_rules.errors import BadInput
from shared_rules.hints import hints
from shared_rules.move import legal_moves


class TrackGame:
    def __init__(self, layout_name="agent-dog-4", cards_name="agent-dog-cards"):
        self.lay = layout.load(layout_name)
        self.cards = _cards.load(cards_name)

    def handle(self, op, req):
        cards = self.cards
        st = position.parse(self.lay, cards, req["position"])
        won = st.winners()
        if won:
            raise BadInput("game_over", "the game is over: %s won" % " and ".join(
                [self.lay.colours[c] for c in won]))
        if op == "apply":
            if "move" not in req:
                raise BadInput("bad_request", "missing field 'move'")
            mv = notation.from_json(st, cards, req["move"])
            new, events = apply(st, cards, mv)
            return {"ok": True, "position": position.dump(new, cards), "events": events}
        if "card" not in req:
            raise BadInput("bad_request", "missing field 'card'")
        k = notation.card_index(cards, req["card"])
        if op == "legal":
            return {"ok": True,
                    "moves": [notation.to_json(st, cards, m) for m in legal_moves(st, cards, k)]}
        movable, targets = hints(st, cards, k)
        lay = self.lay
        out = {}
        for frm in targets:
            out[str(lay.loc_json(frm))] = [lay.loc_json(t) for t in targets[frm]]
        return {"ok": True, "movable": [lay.loc_json(m) for m in movable], "targets": out}


def game(name):
    return TrackGame()
