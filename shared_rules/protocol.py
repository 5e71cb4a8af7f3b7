# The rules-core protocol (contracts/rules-protocol.md): one JSON request in, one JSON answer
# out. A bad request is an answer, never an exception that ends the server.
import json

from shared_rules import layout, cards as _cards, position, notation
from shared_rules.apply import apply
from shared_rules.hints import hints
from shared_rules.move import legal_moves
from shared_rules.position import BadInput

OPS = ("legal", "apply", "hints")


def error(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


class Rules:
    def __init__(self, layout_name="agent-dog-4", cards_name="agent-dog-cards"):
        self.lay = layout.load(layout_name)
        self.cards = _cards.load(cards_name)

    def handle_line(self, line):
        try:
            req = json.loads(line)
        except ValueError:
            return error("bad_request", "not a JSON line")
        return self.handle(req)

    def handle(self, req):
        try:
            return self._handle(req)
        except BadInput as e:
            return error(e.kind, e.reason)
        except MemoryError:
            return error("bad_request", "out of memory answering this request")
        except Exception as e:  # a bug must not end the server; tests look for this text
            return error("bad_request", "internal error: %r" % (e,))

    def _handle(self, req):
        if type(req) is not dict:
            raise BadInput("bad_request", "a request is a JSON object with an 'op'")
        op = req.get("op")
        if op not in OPS:
            raise BadInput("bad_request", "unknown op %r; ops are %s" % (op, ", ".join(OPS)))
        if "position" not in req:
            raise BadInput("bad_request", "missing field 'position'")
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


def serve(inp, out):
    rules = Rules()
    while True:
        line = inp.readline()
        if not line:
            return
        ans = rules.handle_line(line)
        out.write(json.dumps(ans))
        out.write("\n")
        if hasattr(out, "flush"):
            out.flush()
