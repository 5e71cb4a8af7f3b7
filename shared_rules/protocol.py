# The rules-core protocol (docs/rules-protocol.md): one JSON request in, one JSON answer
# out. A bad request is an answer, never an exception that ends the server.
import json

from shared_rules import games
from shared_rules.errors import BadInput

OPS = ("legal", "apply", "hints")


def error(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


class Rules:
    """Answers protocol requests for every game (shared_rules/games.py finds the game)."""

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
        return games.load(games.name_of(req["position"])).handle(op, req)


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
