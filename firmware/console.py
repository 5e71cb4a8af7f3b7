# The device console (docs/board-protocols.md, section 1): JSON commands in, one answer line each,
# and unprompted event lines, all as JSON objects. It sits beside the REPL: Ctrl-C still
# interrupts the application, so mpremote can always take over.
import json


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
        line = self.inp.poll()
        if line is None:
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


class StdinLines:
    """Lines typed on the USB console, without blocking the scan loop."""

    def __init__(self):
        import sys
        import select
        self.stdin = sys.stdin
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.buf = ""

    def poll(self):
        while self.poller.poll(0):
            ch = self.stdin.read(1)
            if not ch:
                return None
            if ch == "\n":
                line = self.buf
                self.buf = ""
                return line
            self.buf += ch
        return None
