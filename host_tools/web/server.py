"""The board in a browser: a small HTTP server on 127.0.0.1 (the standard library's, no build
step, nothing fetched at run time) serving the page in static/ and a JSON API over a Twin.

    GET  /                           the board's page (the DOG boards' or the Agent Avenue
                                     board's: the twin names it)
    GET  /api/layout                 the board to draw: track, holes, meeting points, starts,
                                     homes, start areas, seats, and every LED's location (the
                                     Agent Avenue board: spaces, homes, black-market spaces,
                                     pads, seat LEDs, the cards' names); the games the board
                                     plays (games; the DOG boards' with titles, their names for
                                     a person) and the one the page was started for (game)
    GET  /api/state?since=N[&referee=1]   the device (running or stopped, and why), LEDs and
                                     what each lit one asks (lights), pieces (undercover ones
                                     as "undercover"), pieces in hand, the hands of cards, the
                                     board's public view, the guidance line, and the board's
                                     events numbered above N ({seq, event}: numbered from 1 as
                                     they come, the last 200 kept); referee=1 adds the hidden
                                     colours
    GET  /api/sensors                every sensor's last raw reading and its class
    POST /api/act                    a hand action (JSON body): lift, place, slide, flip, card,
                                     press, fault, new_game, power_on
                                     (host_tools/web/twin.py, the family's actions.py)
    POST /api/replay                 an exported game record (JSON body): checked and stored
    GET  /api/replay/K[?referee=1]   the board after turn K of that record (DOG boards)

Every answer is JSON, keys sorted: an order never follows a hidden colour. A request the
server cannot take gets a 4xx answer {"ok": false, "error": KIND, "reason": SENTENCE} and
changes nothing: bodies are bounded in size, nesting and time, read whole and checked before
anything is done."""
import json
import os
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qsl

from host_tools.web import replay_view
from host_tools.web.twin import ActionError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
STATIC_FILES = frozenset(n for n in os.listdir(STATIC) if os.path.splitext(n)[1] in TYPES)
MAX_BODY = 1 << 20        # bytes of a request body (a long game record is ~100 KB)
MAX_DRAIN = 4 << 20       # bytes of a too-large body read and dropped, so the answer arrives
MAX_DEPTH = 32            # nesting of a JSON body (a game record needs 5)
REQUEST_SECONDS = 5.0     # for a request line, its headers, or a whole body to arrive
MAX_SINCE = 10 ** 12
ERROR_KINDS = {400: "bad_request", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 408: "timeout", 409: "refused", 411: "length_required",
               413: "too_large", 414: "too_large", 415: "unsupported_media_type",
               431: "too_large", 500: "internal"}
JSON_TYPE = "application/json"


class BadRequest(Exception):
    def __init__(self, code, reason):
        Exception.__init__(self, reason)
        self.code = code
        self.reason = reason


def canonical(obj):
    """The bytes of a JSON answer: keys sorted, so that no order follows a hidden one."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def layout_json(twin):
    """The board the page draws and the games it seats (each twin says it from its data)."""
    return twin.layout()


def _depth(obj):
    """How deeply a parsed JSON value nests (without recursion)."""
    deepest = 0
    stack = [(obj, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def parse_body(data):
    """A request body (bytes) -> its JSON value; raises BadRequest saying what is wrong."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(400, "the body is not UTF-8 text")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest(400, "the JSON is nested too deeply (at most %d levels)" % MAX_DEPTH)
    except ValueError as e:
        if str(e).endswith("is not JSON") and str(e).split()[0] in ("NaN", "Infinity",
                                                                  "-Infinity"):
            raise BadRequest(400, "NaN and Infinity are not JSON numbers")
        raise BadRequest(400, "the body is not JSON")
    if _depth(value) > MAX_DEPTH:
        raise BadRequest(400, "the JSON is nested too deeply (at most %d levels)" % MAX_DEPTH)
    return value


class Handler(BaseHTTPRequestHandler):
    server_version = "agentboard-twin"
    timeout = REQUEST_SECONDS  # no handler waits longer for bytes that never come

    def setup(self):
        self.timeout = self.server.request_seconds
        BaseHTTPRequestHandler.setup(self)

    def log_message(self, fmt, *args):  # quiet: the terminal belongs to the user
        pass

    # -- answers --------------------------------------------------------------------------------
    def _send(self, code, body, ctype=JSON_TYPE + "; charset=utf-8", headers=()):
        data = body if isinstance(body, bytes) else canonical(body)
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # every answer has a status line and headers
        try:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            for k, v in headers:
                self.send_header(k, v)
            if code >= 400:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True  # the client left: nothing to tell it

    def _bad(self, code, reason, kind=None, headers=()):
        self._send(code, {"ok": False, "error": kind or ERROR_KINDS.get(code, "bad_request"),
                          "reason": reason}, headers=headers)

    def send_error(self, code, message=None, explain=None):
        """The standard library's errors (a bad request line, too many headers, an unknown
        method), as JSON like every other answer."""
        code = int(code)
        if code == 501:  # a method nobody here takes
            return self._bad(405, "method %s is not taken here: GET or POST" % (
                str(self.command)[:16]), headers=(("Allow", "GET, POST"),))
        if code >= 500:
            code = 400
        self._bad(code, message or HTTPStatus(code).phrase)

    # -- the request --------------------------------------------------------------------------
    def _guard(self):
        """Answers only requests addressed to this server by name (a page of another site
        reaching 127.0.0.1 through DNS rebinding sends another Host)."""
        port = self.server.server_address[1]
        host = self.headers.get("Host")
        if host is not None and host not in ("127.0.0.1:%d" % port, "localhost:%d" % port):
            raise BadRequest(403, "this server answers only at http://127.0.0.1:%d/" % port)
        origin = self.headers.get("Origin")
        if origin is not None and origin not in ("http://127.0.0.1:%d" % port,
                                                 "http://localhost:%d" % port):
            raise BadRequest(403, "requests from other sites are not taken")

    def _query(self, query, allowed):
        q = {}
        for k, v in parse_qsl(query, keep_blank_values=True):
            if k not in allowed:
                raise BadRequest(400, "unknown parameter %r: this path takes %s" % (
                    k[:32], ", ".join(allowed) if allowed else "none"))
            if k in q:
                raise BadRequest(400, "parameter %r given twice" % k[:32])
            q[k] = v
        if q.get("referee", "0") not in ("0", "1"):
            raise BadRequest(400, "referee is 0 or 1")
        return q

    def _handle(self, method):
        try:
            self._guard()
            url = urlsplit(self.path)
            route = self._routes(method, url.path)
            if route is None:
                raise BadRequest(404, "no such page: %s" % url.path[:200])
            wanted, fn = route
            if method != wanted:
                raise BadRequest(405, "use %s for %s" % (wanted, url.path[:200]))
            fn(url)
        except BadRequest as e:
            allow = (("Allow", self._routes("GET", urlsplit(self.path).path)[0]),) \
                if e.code == 405 else ()
            self._bad(e.code, e.reason, headers=allow)
        except Exception as e:  # noqa: BLE001 - one line to the page, no traceback anywhere
            self._bad(500, "internal error: %s: %s" % (type(e).__name__, str(e)[:200]))

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_HEAD(self):
        self._handle("HEAD")

    def do_PUT(self):
        self._handle("PUT")

    def do_DELETE(self):
        self._handle("DELETE")

    def do_PATCH(self):
        self._handle("PATCH")

    def do_OPTIONS(self):
        self._handle("OPTIONS")

    def _routes(self, method, path):
        """(the method the path takes, its handler), or None for an unknown path."""
        if path in ("/", "/index.html"):
            return "GET", lambda url: self._static(self.server.twin.page)
        if path.startswith("/static/"):
            return "GET", lambda url: self._static(path[len("/static/"):])
        table = {"/api/layout": ("GET", self._layout), "/api/state": ("GET", self._state),
                 "/api/sensors": ("GET", self._sensors), "/api/act": ("POST", self._act),
                 "/api/replay": ("POST", self._replay_load)}
        if path in table:
            return table[path]
        if path.startswith("/api/replay/"):
            return "GET", self._replay_turn
        return None

    # -- GET --------------------------------------------------------------------------------
    def _layout(self, url):
        self._query(url.query, ())
        self._send(200, layout_json(self.server.twin))

    def _state(self, url):
        q = self._query(url.query, ("since", "referee"))
        since = q.get("since", "0")
        if not since.isdigit() or not since.isascii() or int(since) > MAX_SINCE:
            raise BadRequest(400, "since must be a whole number from 0 to %d" % MAX_SINCE)
        self._send(200, self.server.twin.state(referee=q.get("referee") == "1",
                                               since=int(since)))

    def _sensors(self, url):
        self._query(url.query, ())
        ans = self.server.twin.sensors()
        self._send(200 if ans.get("ok") else 409, ans)

    def _replay_turn(self, url):
        q = self._query(url.query, ("referee",))
        rec = self.server.record
        if not self.server.twin.replays:
            raise BadRequest(404, "this board's page has no replay: `agentboard replay FILE` "
                             "prints a recorded game")
        if rec is None:
            raise BadRequest(404, "no record loaded: POST one to /api/replay")
        k = url.path.rsplit("/", 1)[1]
        if not k.isdigit() or not k.isascii() or len(k) > 9:
            raise BadRequest(400, "the turn is a whole number")
        last = len(rec["states"]) - 1
        if int(k) > last:
            raise BadRequest(404, "the record has turns 0..%d" % last)
        self._send(200, replay_view.board_at(rec, int(k), q.get("referee") == "1"))

    def _static(self, name):
        if name not in STATIC_FILES:
            raise BadRequest(404, "no such file")
        with open(os.path.join(STATIC, name), "rb") as f:
            data = f.read()
        self._send(200, data, TYPES[os.path.splitext(name)[1]])

    # -- POST -------------------------------------------------------------------------------
    def _body(self):
        """The request's JSON body, read whole within request_seconds and checked."""
        ctype = self.headers.get("Content-Type", "")
        if ctype.split(";")[0].strip().lower() != JSON_TYPE:
            raise BadRequest(415, "send the body as JSON (Content-Type: %s)" % JSON_TYPE)
        length = self.headers.get("Content-Length")
        if length is None:
            raise BadRequest(411, "a POST needs a Content-Length header and a JSON body")
        length = length.strip()
        if not length.isdigit() or not length.isascii():
            raise BadRequest(400, "Content-Length must be a whole number of bytes")
        n = int(length)
        if n == 0:
            raise BadRequest(400, "the body is empty: send a JSON object")
        if n > MAX_BODY:
            self._drain(n)
            raise BadRequest(413, "the body is larger than %d bytes: nothing was done"
                             % MAX_BODY)
        return parse_body(self._read(n))

    def _read(self, n):
        deadline = time.monotonic() + self.timeout
        parts = []
        got = 0
        try:
            while got < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.connection.settimeout(left)
                chunk = self.rfile.read1(min(n - got, 65536))
                if not chunk:
                    raise BadRequest(400, "the body ended after %d of the %d bytes its "
                                     "Content-Length promised" % (got, n))
                parts.append(chunk)
                got += len(chunk)
        except TimeoutError:
            raise BadRequest(408, "the body did not arrive within %g s (%d of %d bytes)"
                             % (self.timeout, got, n))
        finally:
            self.connection.settimeout(self.timeout)
        return b"".join(parts)

    def _drain(self, n):
        """Reads (and drops) a too-large body up to MAX_DRAIN, so the client, still sending,
        reads the answer rather than a reset connection."""
        try:
            self._read(min(n, MAX_DRAIN))
        except BadRequest:
            pass

    def _act(self, url):
        self._query(url.query, ())
        body = self._body()
        try:
            ans = self.server.twin.act(body)
        except ActionError as e:
            raise BadRequest(400, str(e))
        # a malformed action is the page's fault (400); one the world or the board turns
        # down is a conflict with the board as it is (409)
        code = 200 if ans.get("ok") else 400 if ans.get("error") == "bad_request" else 409
        self._send(code, ans)

    def _replay_load(self, url):
        self._query(url.query, ())
        body = self._body()
        if not self.server.twin.replays:
            raise BadRequest(400, "this board's page has no replay: `agentboard replay FILE` "
                             "prints a recorded game")
        try:
            record = replay_view.load(body, self.server.twin.board)
        except replay_view.RecordError as e:
            raise BadRequest(400, str(e))
        except Exception as e:  # noqa: BLE001 - a record the checks above let through
            raise BadRequest(400, "not a game record this board can replay (%s: %s)"
                             % (type(e).__name__, str(e)[:200]))
        self.server.record = record
        self._send(200, {"ok": True, "turns": len(record["states"]) - 1})


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that vanished mid-answer: nothing to tell the user's terminal


def serve(twin, port=0, request_seconds=REQUEST_SECONDS):
    """Starts the page's server on 127.0.0.1 (loopback only) in a thread; returns it.
    request_seconds: how long a request line, its headers or its body may take to arrive."""
    httpd = Server(("127.0.0.1", port), Handler)
    httpd.request_seconds = request_seconds
    httpd.twin = twin
    httpd.record = None
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd
