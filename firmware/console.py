# The device console (board-protocols.md, section 1): JSON commands in, one answer line each,
# and unprompted event lines, all as JSON objects. It sits beside the REPL: Ctrl-C still
# interrupts the application, so mpremote can always take over.
import json


class Console:
    def __init__(self, inp, write):
        """inp: poll() -> a line or None; write(text) puts one line on the console."""
        self.inp = inp
        self.write = write

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
        ans["re"] = cmd["op"]
        self.emit(ans)


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
