"""The board in a browser: a small HTTP server on 127.0.0.1 (the standard library's, no build
step, nothing fetched at run time) serving the page in static/ and a JSON API over a Twin.

    GET  /api/layout                 the board to draw: track, holes, meeting points, starts,
                                     homes, start areas, seats, and every LED's location
    GET  /api/state?since=N[&referee=1]   LEDs, pieces (undercover ones as "undercover"),
                                     pieces in hand, the four hands, the board's public view and
                                     its events after N; referee=1 adds the hidden colours
    GET  /api/sensors                every sensor's last raw reading and its class
    POST /api/act                    a hand action: lift, place, slide, flip, card, press,
                                     fault, new_game (JSON body)
    POST /api/replay                 an exported game record (JSON body): checked and stored
    GET  /api/replay/K[?referee=1]   the board after turn K of that record"""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

from host_tools.web import replay_view
from host_tools.web.twin import LAY

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
MAX_BODY = 1 << 20


def layout_json(locations):
    return {"track": LAY.n, "colours": list(LAY.colours),
            "start": dict((LAY.colours[c], LAY.start[c]) for c in range(LAY.ncol)),
            "holes": [i for i in range(LAY.n) if LAY.hole[i]],
            "meeting_points": list(LAY.meeting_points), "home_spaces": LAY.home_n,
            "locations": locations}


class Handler(BaseHTTPRequestHandler):
    server_version = "agentboard-twin"

    def log_message(self, fmt, *args):  # quiet: the terminal belongs to the user
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _bad(self, code, reason, kind="bad_request"):
        self._send(code, {"ok": False, "error": kind, "reason": reason})

    def do_GET(self):
        url = urlparse(self.path)
        q = parse_qs(url.query)
        referee = q.get("referee", ["0"])[0] == "1"
        twin = self.server.twin
        if url.path in ("/", "/index.html"):
            return self._static("index.html")
        if url.path.startswith("/static/"):
            return self._static(url.path[len("/static/"):])
        if url.path == "/api/layout":
            return self._send(200, layout_json(twin.locations))
        if url.path == "/api/state":
            try:
                since = int(q.get("since", ["0"])[0])
            except ValueError:
                return self._bad(400, "since must be a whole number")
            return self._send(200, twin.state(referee=referee, since=since))
        if url.path == "/api/sensors":
            return self._send(200, twin.sensors())
        if url.path.startswith("/api/replay/"):
            rec = self.server.record
            if rec is None:
                return self._bad(404, "no record loaded: POST one to /api/replay", "no_record")
            try:
                k = int(url.path.rsplit("/", 1)[1])
            except ValueError:
                return self._bad(400, "the turn is a whole number")
            if not 0 <= k <= len(rec["states"]) - 1:
                return self._bad(404, "the record has turns 0..%d" % (len(rec["states"]) - 1))
            return self._send(200, replay_view.board_at(rec, k, referee))
        return self._bad(404, "no such page: %s" % url.path, "not_found")

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n > MAX_BODY:
            raise ValueError("the request is too large")
        try:
            return json.loads(self.rfile.read(n) or b"null")
        except ValueError:
            raise ValueError("the body is not JSON")

    def do_POST(self):
        url = urlparse(self.path)
        try:
            body = self._body()
        except ValueError as e:
            return self._bad(400, str(e))
        if url.path == "/api/act":
            if type(body) is not dict or type(body.get("op")) is not str:
                return self._bad(400, "an action is a JSON object with an 'op'")
            try:
                ans = self.server.twin.act(body)
            except (KeyError, TypeError, ValueError) as e:
                return self._bad(400, "%s: %s" % (type(e).__name__, e))
            # a malformed action is the page's fault (400); one the world or the board turns
            # down is a conflict with the board as it is (409)
            code = 200 if ans.get("ok") else 400 if ans.get("error") == "bad_request" else 409
            return self._send(code, ans)
        if url.path == "/api/replay":
            try:
                self.server.record = replay_view.load(body)
            except replay_view.RecordError as e:
                return self._bad(400, str(e))
            return self._send(200, {"ok": True, "turns": len(self.server.record["states"]) - 1})
        return self._bad(404, "no such action: %s" % url.path, "not_found")

    def _static(self, name):
        path = os.path.normpath(os.path.join(STATIC, name))
        if not path.startswith(STATIC + os.sep) or not os.path.isfile(path):
            return self._bad(404, "no such file", "not_found")
        with open(path, "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))


def serve(twin, port=0):
    """Starts the page's server on 127.0.0.1 (loopback only) in a thread; returns it."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    httpd.daemon_threads = True
    httpd.twin = twin
    httpd.record = None
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd
