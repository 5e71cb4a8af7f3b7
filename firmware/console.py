# The device console (docs/board-protocols.md, section 1): JSON commands in, one answer line each,
# and unprompted event lines, all as JSON objects. It sits beside the REPL: Ctrl-C still
# interrupts the application, so mpremote can always take over.
#
# A dict is written in the order its table holds the keys, and on MicroPython that order
# follows the order they were put in (through the hash table's history): what the console
# shows is built in an order of public facts (by location, by seat), never of hidden ones
# (piece by piece), or the order of the keys would tell which colour hides where.
import json

from firmware.mpconst import const

_MAX_COMMAND = const(2048)  # characters of one command line; commands are small, the heap is too


class Console:
    def __init__(self, inp, write, write_parts=None):
        """inp: poll() -> a line or None; write(text) puts one line on the console;
        write_parts(iterable) puts one line written piece by piece (long answers)."""
        self.inp = inp
        self.write = write
        self.write_parts = write_parts or (lambda parts: write("".join(parts)))

    def emit(self, obj):
        self.write(json.dumps(obj))

    def poll(self, handle):
        # called on every scan: a small frame (a try block's 3 words, or the command's locals,
        # would put it on the heap at every call: docs/measuring.md, "Frames")
        line = self.inp.poll()
        if line is not None:
            self._line(line, handle)

    def _line(self, line, handle):
        if line is TOO_LONG or len(line) > _MAX_COMMAND:
            self.emit({"re": None, "ok": False, "error": "bad_request",
                       "reason": "a command is one line of at most %d characters" % _MAX_COMMAND})
            return
        line = line.strip()
        if not line:
            return
        try:
            cmd = json.loads(line)
        except ValueError:
            self.emit({"re": None, "ok": False, "error": "bad_request", "reason": "not JSON"})
            return
        if type(cmd) is not dict or type(cmd.get("op")) is not str:
            self.emit({"re": None, "ok": False, "error": "bad_request",
                       "reason": "a command is a JSON object with an 'op'"})
            return
        try:
            ans = handle(cmd)
        except Exception as e:  # a bug must not end the application; say what happened
            ans = {"ok": False, "error": "internal", "reason": repr(e)}
        if type(ans) is tuple:
            # (key, parts): a long answer streamed: {"re": op, "ok": true, key: <parts>}
            key, parts = ans
            self.write_parts(_streamed(cmd["op"], key, parts))
            return
        ans["re"] = cmd["op"]
        self.emit(ans)


def deployed_version(data_dir):
    """What `agentboard deploy` put on this device (version.json), or None (run from source)."""
    try:
        with open(data_dir + "/version.json") as f:
            return json.load(f).get("version")
    except (OSError, ValueError, AttributeError):
        return None


def report_boot(console, board, cardmap, data_dir, game=None):
    """The `boot` event (with `game` when the board plays one of its own), then a `fault` for
    a calibration or card map on flash that could not be read."""
    ev = {"event": "boot", "version": deployed_version(data_dir), "calibrated": board.calibrated,
          "cards_enrolled": cardmap.count(), "nfc_version": board.nfc.version()}
    if game is not None:
        ev["game"] = game
    console.emit(ev)
    if board.calib_error:
        console.emit({"event": "fault", "what": "calib.json", "reason": board.calib_error})
    if cardmap.error:
        console.emit({"event": "fault", "what": "cards.json", "reason": cardmap.error})


def _streamed(op, key, parts):
    yield '{"re": %s, "ok": true, %s: ' % (json.dumps(op), json.dumps(key))
    for p in parts:
        yield p
    yield "}"


def stdout_parts(parts):
    import sys
    for p in parts:
        sys.stdout.write(p)
    sys.stdout.write("\n")


TOO_LONG = object()  # StdinLines.poll's answer for a line it did not keep


class StdinLines:
    """Lines typed on the USB console, without blocking the scan loop. A line longer than
    _MAX_COMMAND is not kept: its characters are dropped up to its end, then TOO_LONG."""

    def __init__(self):
        import sys
        import select
        self.stdin = sys.stdin
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.buf = ""
        self.dropping = False

    def _waiting(self):
        # ipoll, not poll: poll makes a list on every call, and this runs on every scan
        for _ in self.poller.ipoll(0):
            return True
        return False

    def poll(self):
        while self._waiting():
            ch = self.stdin.read(1)
            if not ch:
                return None
            if ch == "\n":
                line = self.buf
                self.buf = ""
                if self.dropping:
                    self.dropping = False
                    return TOO_LONG
                return line
            if self.dropping:
                continue
            if len(self.buf) >= _MAX_COMMAND:
                self.buf = ""
                self.dropping = True
                continue
            self.buf += ch
        return None
