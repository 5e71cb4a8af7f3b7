"""The host side of the simulator (board-protocols.md, section 2): runs the simulated device
(the real firmware on the MicroPython unix port, host_tools/sim/device_main.py) as a child
process and passes requests to it. The physical world outlives the device: every answer carries
a snapshot of the pieces and the card on the reader, so `power_cut` can kill the device at once
and `power_on` boots a new one from the same flash into the same world."""
import json
import os
import signal
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
MARK = "@sim "
CONSOLE = "@con "
# what hands can do while the device is off: these ops change only the snapshot
OFFLINE_OPS = ("lift", "place", "flip", "card", "card_off", "world", "wait", "console")


class SimError(Exception):
    pass


class Sim:
    def __init__(self, seed=1, flash=None, config=None, heap_kw=None):
        self.seed = seed
        self.flash = flash or tempfile.mkdtemp(prefix="agentboard-flash-")
        os.makedirs(self.flash, exist_ok=True)
        self.config = config or os.path.join(ROOT, "hardware")
        self.heap_kw = heap_kw
        self.proc = None
        self.snap = None
        self.stray = []  # device output that was not an answer (prints, tracebacks)
        self.console = []  # console lines of the firmware, until a `console` request
        self.power_on()

    # -- the device process ----------------------------------------------------------------
    def _spawn(self):
        cmd = [MICROPYTHON]
        if self.heap_kw:
            cmd += ["-X", "heapsize=%dwK" % self.heap_kw]
        cmd += [os.path.join(ROOT, "host_tools", "sim", "device_main.py"), ROOT, self.config,
                str(self.seed)]
        self.proc = subprocess.Popen(cmd, cwd=self.flash, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     bufsize=1)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def power_on(self):
        if self.alive():
            return {"ok": False, "error": "refused", "reason": "the device is already on"}
        self._spawn()
        if self.snap is not None:
            ans = self._ask({"op": "_restore", "snap": self.snap})
            if not ans.get("ok"):
                return ans
        return {"ok": True}

    def power_cut(self):
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        return {"ok": True}

    def close(self):
        if self.alive():
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None

    # -- requests ------------------------------------------------------------------------
    def _ask(self, req):
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._died()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return self._died()
            if line.startswith(CONSOLE):
                self.console.append(line[len(CONSOLE):].rstrip("\n"))
                continue
            if line.startswith(MARK):
                ans = json.loads(line[len(MARK):])
                snap = ans.pop("_snap", None)
                if snap is not None:
                    self.snap = snap
                if "lines" in ans:
                    ans["lines"] = self.stray + self.console + ans["lines"]
                    self.stray = []
                    self.console = []
                return ans
            self.stray.append(line.rstrip("\n"))

    def _died(self):
        self.proc = None
        tail = "\n".join(self.stray[-20:])
        return {"ok": False, "error": "device_died", "reason": "the simulated device stopped: "
                + (tail or "no output")}

    def request(self, req):
        """One control request (a dict) -> its answer (a dict)."""
        if type(req) is not dict:
            return {"ok": False, "error": "bad_request", "reason": "a request is a JSON object"}
        op = req.get("op")
        if op == "power_cut":
            return self.power_cut()
        if op == "power_on":
            return self.power_on()
        if not self.alive():
            return self._offline(req)
        return self._ask(req)

    def _offline(self, req):
        op = req.get("op")
        if op not in OFFLINE_OPS or self.snap is None:
            return {"ok": False, "error": "device_off",
                    "reason": "the device is off (power_on first)"}
        pieces = self.snap["pieces"]
        if op == "world":
            return {"ok": True, "pieces": pieces}
        if op in ("wait", "console"):
            return {"ok": True} if op == "wait" else {"ok": True, "lines": []}
        if op == "card":
            return {"ok": False, "error": "device_off", "reason": "the reader is unpowered"}
        if op == "card_off":
            self.snap["tags"] = []
            return {"ok": True}
        at = str(req.get("at"))
        here = [n for n in pieces if pieces[n]["at"] == at]
        if op == "lift":
            if not here:
                return {"ok": False, "error": "refused", "reason": "there is no piece on %s" % at}
            pieces[here[0]]["at"] = None
            return {"ok": True, "piece": here[0]}
        if op == "flip":
            if not here:
                return {"ok": False, "error": "refused", "reason": "no piece on %s" % at}
            pieces[here[0]]["upside_down"] = not pieces[here[0]]["upside_down"]
            return {"ok": True}
        name = req.get("piece")
        if name not in pieces or pieces[name]["at"] is not None or here:
            return {"ok": False, "error": "refused", "reason": "cannot place %s on %s" % (name, at)}
        pieces[name] = {"at": at, "upside_down": bool(req.get("upside_down", False))}
        return {"ok": True}
