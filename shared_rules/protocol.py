# The rules-core protocol (docs/rules-protocol.md): one JSON request in, one JSON answer
# out. A bad request is an answer, never an exception that ends the server.
import json

from shared_rules import games, jsonline
from shared_rules.errors import BadInput

OPS = ("legal", "apply", "hints")


def error(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


class Rules:
    """Answers protocol requests for every game (shared_rules/games.py finds the game)."""

    def handle_line(self, line):
        """The answer to one request line (bytes or str); jsonline says which lines are
        refused before they are parsed."""
        req, reason = jsonline.parse(line)
        if reason is not None:
            return error("bad_request", reason)
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
            # only a name is echoed: a list or object would print differently on each
            # interpreter (MicroPython orders an object's keys by its hash table)
            if op is None:
                what = "no 'op' given"
            elif type(op) is str:
                what = "unknown op %r" % (op,)
            else:
                what = "'op' must be a name"
            raise BadInput("bad_request", "%s; ops are %s" % (what, ", ".join(OPS)))
        if "position" not in req:
            raise BadInput("bad_request", "missing field 'position'")
        return games.load(games.name_of(req["position"])).handle(op, req)


def serve(inp, out):
    """Answers each line of the binary stream inp on the text stream out until the input
    ends (True) or out is closed by its reader (False). A line over jsonline.MAX_LINE bytes
    is read in pieces, never held whole, and answered bad_request."""
    rules = Rules()
    while True:
        line, reason = jsonline.read_line(inp)
        if reason is not None:
            ans = error("bad_request", reason)
        elif line is None:
            return True
        else:
            try:
                ans = rules.handle_line(line)
            except MemoryError:
                ans = error("bad_request", jsonline.OUT_OF_MEMORY)
        line = None
        try:
            out.write(json.dumps(ans))
            out.write("\n")
            if hasattr(out, "flush"):
                out.flush()
        except OSError:  # nobody reads the answers any more (a closed pipe)
            return False
