"""The host side of the simulator (docs/board-protocols.md, section 2): runs the simulated device
(the real firmware on the MicroPython unix port, host_tools/sim/device_main.py) as a child
process and passes requests to it. The physical world outlives the device: every answer carries
a snapshot of the pieces and the card on the reader, so `power_cut` can kill the device at once
and `power_on` boots a new one from the same flash into the same world."""
import json
import os
import signal
import subprocess
import tempfile

from host_tools import paths
from host_tools.sim import requests, worlds
from host_tools.sim.world import SimError as WorldError

ROOT = paths.CODE
MARK = "@sim "
CONSOLE = "@con "
# hand actions: the host applies them to its own copy of the physical world too
HANDS = ("lift", "place", "flip", "slide", "card", "card_off")


class SimError(Exception):
    pass


class Sim:
    def __init__(self, seed=1, flash=None, config=None, heap_kw=None, code=None, board=None,
                 game=None):
        """code: a tree of the device's code (host_tools.bench.common.build_device_tree with
        with_sim) to boot from instead of the sources, as a deployed device would. board: a
        board variant (hardware/variants/NAME) instead of the Agent DOG board's maps."""
        self.code = code or ROOT
        self.seed = seed
        self.flash = flash or tempfile.mkdtemp(prefix="agentboard-flash-")
        os.makedirs(self.flash, exist_ok=True)
        self.config = config or (variant_maps(board) if board else paths.HARDWARE)
        self.game = game
        self.heap_kw = heap_kw
        self.proc = None
        self.mirror = worlds.make(self.config, seed)  # the board, which outlives the device
        self.booted = False
        self.stray = []  # device output that was not an answer (prints, tracebacks)
        self.console = []  # console lines of the firmware, until a `console` request
        self.down = "it has not been switched on"  # why the device is not running, or None
        self.power_on()

    # -- the device process ----------------------------------------------------------------
    def _spawn(self):
        try:
            cmd = [paths.tool("micropython")]
        except paths.ToolMissing as e:
            raise SimError(str(e))
        if self.heap_kw:
            cmd += ["-X", "heapsize=%dwK" % self.heap_kw]
        cmd += [os.path.join(self.code, "host_tools", "sim", "device_main.py"), self.code,
                self.config, str(self.seed)]
        self.proc = subprocess.Popen(cmd, cwd=self.flash, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     bufsize=1)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def power_on(self):
        if self.alive():
            return {"ok": False, "error": "refused", "reason": "the device is already on"}
        self._spawn()
        self.down = None
        if self.booted:
            ans = self._ask({"op": "_restore", "snap": self.mirror.snapshot()})
            if not ans.get("ok"):
                return ans
        self.booted = True
        return {"ok": True}

    def power_cut(self):
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        self.down = "its power was cut"
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
                if "lines" in ans:
                    ans["lines"] = self.stray + self.console + ans["lines"]
                    self.stray = []
                    self.console = []
                return ans
            self.stray.append(line.rstrip("\n"))

    def _died(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # it stopped answering on its pipe: it is not coming back
        self.proc = None
        tail = "\n".join(self.stray[-20:])
        self.down = "it stopped: " + (tail or "no output")
        return {"ok": False, "error": "device_died", "reason": "the simulated device stopped "
                "(power_on boots it again from its flash): " + (tail or "no output")}

    def request(self, req):
        """One control request (a dict) -> its answer (a dict). A malformed request is
        answered bad_request before anything happens."""
        try:
            requests.check(req)
        except requests.BadRequest as e:
            return {"ok": False, "error": "bad_request", "reason": str(e)}
        ans = power_and_deck(self, req)
        if ans is not None:
            return ans
        op = req.get("op")
        if not self.alive():
            return offline_request(self.mirror, req, self.down)
        ans = self._ask(req)
        if ans.get("ok") and op in HANDS:
            mirror_hand(self.mirror, req)
        return ans


def variant_maps(board):
    """The folder with a board variant's maps (and its variant.json)."""
    folder = os.path.join(paths.HARDWARE, "variants", board)
    try:
        with open(os.path.join(folder, "variant.json")) as f:
            maps = json.load(f).get("maps", ".")
    except OSError:
        raise SimError("unknown board %r: no hardware/variants/%s/variant.json" % (board, board))
    return os.path.normpath(os.path.join(folder, maps))


def power_and_deck(dev, req):
    """The answer to the requests every simulated device takes the same way (power_cut,
    power_on, deck), or None for the others. dev has power_cut(), power_on() and the host's
    copy of the world as mirror. req has passed requests.check."""
    op = req.get("op")
    if op == "power_cut":
        return dev.power_cut()
    if op == "power_on":
        return dev.power_on()
    if op == "deck":
        return {"ok": True, "cards": [{"uid": u, "card": k} for u, k in dev.mirror.deck]}
    return None


def read_line(inp, limit=requests.MAX_LINE):
    """One line of a binary stream, at most `limit` bytes kept: (bytes, too_long), or
    (None, False) at the end. A longer line is read to its end and dropped, never held."""
    line = inp.readline(limit + 1)
    if not line:
        return None, False
    if len(line) <= limit or line.endswith(b"\n"):
        return line, False
    while True:
        rest = inp.readline(limit)
        if not rest or rest.endswith(b"\n"):
            return b"", True


def parse_line(line, too_long):
    """A request from one input line, or an answer refusing it."""
    if too_long:
        return None, {"ok": False, "error": "bad_request", "reason": "a request line is at "
                      "most %d bytes" % requests.MAX_LINE}
    try:
        return json.loads(line.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, {"ok": False, "error": "bad_request", "reason": "not UTF-8 text"}
    except RecursionError:
        return None, {"ok": False, "error": "bad_request", "reason": "nested too deeply"}
    except ValueError:
        return None, {"ok": False, "error": "bad_request", "reason": "not a JSON line"}


def serve_lines(request, inp, out):
    """Control requests as JSON lines from inp (a binary stream), one answer line each to
    out (a text stream)."""
    while True:
        line, too_long = read_line(inp)
        if line is None:
            return
        if not too_long and not line.strip():
            continue
        req, ans = parse_line(line, too_long)
        if ans is None:
            ans = request(req)
        out.write(json.dumps(ans) + "\n")
        out.flush()


def mirror_hand(m, req):
    """Applies a hand action to the host's copy of the world (slides: where they end)."""
    op = req["op"]
    if op == "lift":
        m.lift(req["at"])
    elif op == "place":
        m.place(req["piece"], req["at"], req.get("upside_down", False))
    elif op == "flip":
        m.flip(req["at"])
    elif op == "slide":
        m.place(req["piece"], req["path"][-1], req.get("upside_down", False))
    elif op == "card":
        uid = req["uid"] if "uid" in req else m.card_of_kind(req["card"])
        if "reader" in req:
            m.card(uid, req["reader"])
        else:
            m.card(uid)
    elif "reader" in req:
        m.card_off(req["reader"])
    else:
        m.card_off()


def offline_request(m, req, why="it is off"):
    """With the device off, hands still work on the board (the host's copy m); the device
    sees nothing, and whatever needs it says so."""
    op = req.get("op")
    if op == "world":
        return {"ok": True, "pieces": m.world()}
    if op == "card":
        return {"ok": False, "error": "device_off", "reason": "the reader is unpowered: the "
                "device is off (%s); power_on boots it again" % why}
    if op in HANDS:
        try:
            piece = m.lift(req["at"]) if op == "lift" else None
            if op != "lift":
                mirror_hand(m, req)
        except (WorldError, KeyError) as e:
            return {"ok": False, "error": "refused", "reason": str(e)}
        return {"ok": True, "piece": piece} if op == "lift" else {"ok": True}
    return {"ok": False, "error": "device_off", "reason": "the device is off (%s); power_on "
            "boots it again from its flash" % why}
