# The protocol's ops for La Via delle Spie / Agent Avenue (game "agent-avenue"): `legal` lists
# the decisions of the phase, `apply` carries one out. `hints` belongs to the track games.
from shared_rules.errors import BadInput
from shared_rules.avenue import tables, position, legality
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply


class AvenueGame:
    def __init__(self):
        self.tb = tables.load()

    def handle(self, op, req):
        if op == "hints":
            raise BadInput("bad_request", "hints is not an op of agent-avenue: ask legal for the "
                                          "decisions of the phase")
        tb = self.tb
        st = position.parse(tb, req["position"])
        if st.winner >= 0:
            raise BadInput("game_over", "the game is over: %s won" % tb.sides[st.winner])
        if op == "legal":
            return {"ok": True, "moves": legality.decisions(st)}
        if "move" not in req:
            raise BadInput("bad_request", "missing field 'move'")
        mv = M.from_json(tb, st, req["move"])
        legality.check(st, mv)
        new, events = apply(st, mv)
        return {"ok": True, "position": position.dump(new), "events": events}


def game(name):
    return AvenueGame()
