"""The host side of the simulator (docs/board-protocols.md, section 2): runs the simulated device
(the real firmware on the MicroPython unix port, host_tools/sim/device_main.py) as a child
process and passes requests to it. The physical world outlives the device: the host keeps its
own copy of it (the pieces, the cards on the pads and the discard pile), so `power_cut` can kill
the device at once and `power_on` boots a new one from the same flash into the same world."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from host_tools import paths
from host_tools.sim import requests, worlds
from host_tools.sim.lap import gains_rounds, rank_of_piece
from host_tools.sim.world import SimError as WorldError

ROOT = paths.CODE
MARK = "@sim "
CONSOLE = "@con "
# hand actions: the host applies them to its own copy of the physical world too
HANDS = ("lift", "place", "flip", "slide", "card", "card_off", "discard", "supply")
# brown-out resets in one request after which the device is left off: the supply cannot hold
# the ESP32 up (a cable too thin for the board), and booting it again only browns it out again
MAX_RESETS = 3
CALIB_FILE = "calib.json"
# which board a simulated flash belongs to: a real device's flash holds its board's maps, so a
# tool given only the flash (`agentboard calibrate --sim-flash DIR`) must find the same board
BOARD_FILE = ".sim-board"
CALIBRATE_SETTLE_MS = 300  # more than the scanner's debounce: the board is still when measured
# the running simulator that holds a flash folder: its pid and command line. Two devices on one
# flash would each boot their own world from it and overwrite each other's files; the lock
# file is flock'ed while held, so the kernel frees the lock of a process that died
LOCK_FILE = ".sim-lock"
# a tree of the device's code (host_tools.bench.common.build_device_tree, with the simulator)
# that every simulated device boots from when no code is given: the test suite compiles one
# per run, so that its hundreds of boots import .mpy files as a deployed board does instead of
# compiling the sources at each import (tests/conftest.py)
DEVICE_CODE_ENV = "AGENTBOARD_DEVICE_CODE"


class SimError(Exception):
    pass


class FlashHeld(SimError):
    """The flash folder is held by another running simulator (said in one sentence)."""


def _command_line():
    argv = list(getattr(sys, "orig_argv", None) or sys.argv)
    return " ".join([os.path.basename(argv[0])] + argv[1:]) if argv else "?"


def _flock():
    try:
        import fcntl
    except ImportError:  # no flock (Windows): the unix-port simulator does not run there
        return None
    return fcntl


def _lock(f, flash):
    """Locks the open lock file f for this process: None, or the sentence naming the running
    process that holds it (f is left open either way)."""
    fcntl = _flock()
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        return _held_by(flash, f.read())
    return None


def _same_file(f, path):
    try:
        return os.path.samestat(os.fstat(f.fileno()), os.stat(path))
    except OSError:
        return False


def hold_flash(flash):
    """The open lock file that marks `flash` as this process's (keep it open while the
    device runs; release_flash ends it), or None where there are no file locks. FlashHeld
    names the running process that holds it; the lock of a process that died is taken over."""
    if _flock() is None:
        return None
    path = os.path.abspath(os.path.join(flash, LOCK_FILE))  # removed by this name at the end
    while True:
        f = open(path, "a+")
        held = _lock(f, flash)
        if held:
            f.close()
            raise FlashHeld(held)
        if _same_file(f, path):
            break
        f.close()  # locked a file its holder removed as it stopped: lock the one there now
    f.seek(0)
    f.truncate()
    f.write(json.dumps({"pid": os.getpid(), "command": _command_line()}) + "\n")
    f.flush()
    return f


def flash_holder(flash):
    """The sentence naming the running simulator that holds `flash`, or None (nothing is
    made or changed: a command asks before it starts anything)."""
    if _flock() is None:
        return None
    try:
        f = open(os.path.join(flash, LOCK_FILE))
    except OSError:
        return None  # no folder, or no simulator ever ran on it
    with f:
        return _lock(f, flash)  # a lock got here is let go as f closes


def _held_by(flash, said):
    try:
        who = json.loads(said)
        pid, command = int(who["pid"]), str(who["command"])
    except (ValueError, KeyError, TypeError):
        pid, command = None, "?"  # written this instant: its holder is still starting
    return ("%s is the flash of a simulated board that %s runs (%s): stop it (Ctrl-C where it "
            "runs%s), or use that board through what it offers (the page of `agentboard sim`, "
            "the control channel of `sim --headless`)" % (
                flash, "process %d" % pid if pid else "another process", command,
                ", or kill %d" % pid if pid else ""))


def release_flash(lock):
    """Ends the hold of hold_flash: the lock file removed, then unlocked."""
    if lock is None or lock.closed:
        return
    try:
        os.remove(lock.name)
    except OSError:
        pass
    lock.close()


def blank_partitions(flash):
    """The partitions `agentboard flash` adds beside the file system, erased, as files of the
    simulated flash (host_tools/sim/device/esp32.py): the game's journal."""
    from host_tools.sim.nor_flash import blank, PARTITION_FILE
    with open(os.path.join(paths.HARDWARE, "design", "flash.json")) as f:
        parts = json.load(f)["partitions"]
    for p in parts:
        if p["label"] != "vfs":
            blank(os.path.join(flash, PARTITION_FILE % p["label"]), p["bytes"])


def _boards():
    from shared_rules import variant
    return sorted(set(b for g in variant.names() for b in variant.boards(g).values()))


BOARDS = _boards()  # every board a game is played on (each has hardware/variants/NAME)


def board_and_cards(board=None, game=None, players=None):
    """(board variant, the deck's card table) for a simulator: the board named, else the one
    `game` is played on by `players` (default: its smallest board); the deck of `game`, else
    of the first game the board plays. SimError for a game or board that does not fit."""
    from shared_rules import variant
    if game is not None and game not in variant.names():
        raise SimError("unknown game %r; games are %s" % (game, ", ".join(variant.names())))
    if board is None:
        if game is None:
            return None, None
        played_on = variant.boards(game)
        board = played_on.get(players) if players else played_on[min(played_on)]
        if board is None:
            raise SimError("%s is played by %s players, not %s" % (
                game, ", ".join(str(n) for n in sorted(played_on)), players))
    games = [g for g in variant.names() if board in variant.boards(g).values()]
    if not games:
        raise SimError("%r is not a board any game is played on" % (board,))
    if game is not None and game not in games:
        raise SimError("%s is not played on %s" % (game, board))
    if players is not None and variant.board_for(game or games[0], players) != board:
        raise SimError("%s players do not play %s on %s" % (players, game or games[0], board))
    return board, variant.variant_class(game or games[0]).cards_name


def demo_game(game, board):
    """The game a demo plays: the one named, else the first played on the board named, else
    the rules core's default game."""
    from shared_rules import games, variant
    return game or (games.games_on(board)[0] if board else variant.DEFAULT)


def flash_board(flash):
    """The board a simulated flash was last used with, or None for a new flash."""
    try:
        with open(os.path.join(flash, BOARD_FILE)) as f:
            board = f.read().strip()
    except OSError:
        return None
    if board not in BOARDS and board not in worlds.GAME_BOARDS.values():
        raise SimError("%s names an unknown board %r" % (os.path.join(flash, BOARD_FILE), board))
    return board


def board_config(board):
    """The folder of a board variant's maps (the firmware's config/ on a real device)."""
    from host_tools.sim.world import config_dir
    try:
        rel = config_dir(board)
    except WorldError as e:
        raise SimError(str(e))
    return os.path.join(ROOT, rel)


class Sim:
    def __init__(self, seed=1, flash=None, config=None, heap_kw=None, code=None, board=None,
                 game=None, players=None, calibrate=True):
        """code: a tree of the device's code (host_tools.bench.common.build_device_tree with
        with_sim) to boot from instead of the sources, as a deployed device would (default:
        the tree $AGENTBOARD_DEVICE_CODE names, else the sources). board: the
        board variant (agent-dog-4 default, dog-4, dog-6), or the one `game` (agent-dog, dog,
        dog-royal) is played on by `players`. A board whose pieces carry ranks is calibrated
        through its console at its first power-on (a flash with no calib.json), as a maker
        does at bring-up: the ranks are read from the calibrated bands (calibrate=False leaves
        it uncalibrated, for tests of the calibration itself)."""
        self.code = code or os.environ.get(DEVICE_CODE_ENV) or ROOT
        self.seed = seed
        # a flash of its own unless one is named: nobody can name it again, so it goes with
        # the simulator
        self.own_flash = not flash
        self.flash = flash or tempfile.mkdtemp(prefix="agentboard-flash-")
        os.makedirs(self.flash, exist_ok=True)
        self.lock = hold_flash(self.flash)  # before anything on the flash is read or written
        self.proc = None
        try:
            self._setup(config, board, game, players, heap_kw, calibrate)
        except BaseException:
            self.close()
            raise

    def _setup(self, config, board, game, players, heap_kw, calibrate):
        if board is None and game is None and config is None:
            board = flash_board(self.flash)
        if board is None and game in worlds.GAME_BOARDS:
            board = worlds.GAME_BOARDS[game]  # a game played on a board of its own
        if board in worlds.GAME_BOARDS.values():
            self.cards = None
            self.config = config or variant_maps(board)
        else:
            board, self.cards = board_and_cards(board, game, players)
            self.config = config or (board_config(board) if board else paths.HARDWARE)
        self.board = board or "agent-dog-4"
        if not [n for n in os.listdir(self.flash) if n != LOCK_FILE]:
            blank_partitions(self.flash)  # a new flash: as `agentboard flash` leaves a device
        if config is None:
            with open(os.path.join(self.flash, BOARD_FILE), "w") as f:
                f.write(self.board + "\n")
        self.game = game
        self.heap_kw = heap_kw
        # the physical board, which outlives the device
        self.mirror = worlds.make(self.config, self.seed, self.cards)
        self.booted = False
        self.brownouts = 0  # the ESP32's brown-out resets so far (each booted it again)
        self.stray = []  # device output that was not an answer (prints, tracebacks)
        self.console = []  # console lines of the firmware, until a `console` request
        self.down = "it has not been switched on"  # why the device is not running, or None
        self.power_on()
        if calibrate and self.mirror.ranked and not os.path.exists(
                os.path.join(self.flash, CALIB_FILE)):
            self.calibrate()

    def calibrate(self):
        """The bring-up calibration of a board with ranked pieces, by hand and console
        (hardware/README.md, Calibrating a ranked board): the empty board; every piece on its
        start-area spot in rank order (king on s1 ... jester on s4) for the ranks step; the
        gains lap (gains_rounds: every other sensor measured by a piece whose rank the step is
        told, each king on its colour's other spots); the ranks step again, now over each
        spot's own king reading; the pieces left on their spots, where a fresh board has them.
        Returns the last ranks step's answer; SimError if a step fails."""
        names = sorted(self.mirror.world())
        self._lift_all()
        self._step("empty")
        self._to_spots(names)
        self._step("ranks")
        for plan in gains_rounds(self.mirror.locs, names):
            self._lift_all()
            for at in sorted(plan):
                self._hand({"op": "place", "piece": plan[at], "at": at})
            self._hand({"op": "wait", "ms": CALIBRATE_SETTLE_MS})
            self._step("pieces", {"ranks": dict((at, rank_of_piece(plan[at]))
                                                for at in plan)})
        self._lift_all()
        self._to_spots(names)
        ans = self._step("ranks")
        self._hand({"op": "wait", "ms": CALIBRATE_SETTLE_MS})  # the ranks read again
        return ans

    def _lift_all(self):
        for name, p in sorted(self.mirror.world().items()):
            if p["at"] is not None:
                self._hand({"op": "lift", "at": p["at"]})
        self._hand({"op": "wait", "ms": CALIBRATE_SETTLE_MS})

    def _to_spots(self, names):
        for name in names:
            colour, k = name.rsplit("-", 1)
            self._hand({"op": "place", "piece": name, "at": "%s:s%s" % (colour, k)})
        self._hand({"op": "wait", "ms": CALIBRATE_SETTLE_MS})

    def _hand(self, req):
        ans = self.request(req)
        if not ans.get("ok"):
            raise SimError("calibration: %s -> %s" % (req, ans))

    def _step(self, step, more=None):
        cmd = {"op": "calibrate", "step": step}
        cmd.update(more or {})
        ans = self.request({"op": "console", "send": cmd})
        for line in ans.get("lines", []):
            if line.startswith("{") and '"re": "calibrate"' in line:
                got = json.loads(line)
                if not got.get("ok"):
                    raise SimError("calibration step %s refused: %s" % (step, got))
                return got
        raise SimError("calibration step %s: no answer (%s)" % (step, ans))

    # -- the device process ----------------------------------------------------------------
    def _spawn(self):
        try:
            cmd = [paths.tool("micropython")]
        except paths.ToolMissing as e:
            raise SimError(str(e))
        if self.heap_kw:
            cmd += ["-X", "heapsize=%dwK" % self.heap_kw]
        cmd += [os.path.join(self.code, "host_tools", "sim", "device_main.py"), self.code,
                self.config, str(self.seed)] + ([self.cards] if self.cards else [])
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
        if self.mirror.cable != "kit":
            ans = self._ask({"op": "supply", "cable": self.mirror.cable})  # the same cable
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
        """Switches the device off for good: the flash is free for another simulator."""
        if self.alive():
            try:
                self.proc.stdin.close()
            except OSError:  # it ended as its input closed
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                # gone before its flash is: a device still running writes its files there
                self.proc.wait()
        self.proc = None
        release_flash(self.lock)
        if self.own_flash:
            shutil.rmtree(self.flash, ignore_errors=True)

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
        answered bad_request, one naming what the board lacks refused, before anything
        happens."""
        try:
            req = requests.check(req, self.mirror)
        except requests.Rejected as e:
            return e.answer()
        ans = power_and_deck(self, req)
        if ans is not None:
            return ans
        op = req.get("op")
        if not self.alive():
            ans = offline_request(self.mirror, req, self.down)
            if op == "supply":
                ans["brownouts"] = self.brownouts
            return ans
        ans = self._ask(req)
        if "_reset" in ans:
            ans = self._rebooted(ans)
        if ans.get("ok") and op in HANDS:
            mirror_hand(self.mirror, req)
        if op == "supply":
            ans["brownouts"] = self.brownouts
        return ans

    def _rebooted(self, ans):
        """The device browned out while board time ran (ans: its marker): as after a power cut
        and power_on it boots again from its flash into the same world, and the wait goes on
        for the board time it had left. The answer lists the resets; after MAX_RESETS in one
        request the device is left off."""
        resets = []
        while "_reset" in ans:
            resets.append(ans["_reset"])
            self.brownouts += 1
            lines = ans.get("lines", [])
            self.power_cut()
            if len(resets) > MAX_RESETS:
                self.down = ("it browned out %d times in a row: its supply cannot hold the "
                             "ESP32 up (%s)" % (len(resets), resets[-1]["status"]))
                return {"ok": False, "error": "device_off", "reason": "the device is off (%s); "
                        "power_on boots it again" % self.down, "resets": resets, "lines": lines}
            up = self.power_on()
            if not up.get("ok"):
                up["resets"] = resets
                return up
            if ans.get("during") == "wait" and ans.get("left_ms"):
                ans = self._ask({"op": "wait", "ms": ans["left_ms"]})
            else:
                ans = {"ok": True, "lines": lines}
        ans["resets"] = resets
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
    copy of the world as mirror. req is as requests.check returned it."""
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
    elif op == "supply":
        if "cable" in req:
            m.set_cable(req["cable"])
    elif op == "card":
        uid = req["uid"] if "uid" in req else m.card_of_kind(req["card"])
        if "reader" in req:
            m.card(uid, req["reader"])
        else:
            m.card(uid)
    else:
        off = m.card_off if op == "card_off" else m.discard
        if "reader" in req:
            off(req["reader"])
        else:
            off()


def offline_request(m, req, why="it is off"):
    """With the device off, hands still work on the board (the host's copy m); the device
    sees nothing, and whatever needs it says so."""
    op = req.get("op")
    if op == "world":
        return {"ok": True, "pieces": m.world()}
    if op == "supply":
        # the hands change the cable with the board off; the figures are the board's when on
        try:
            mirror_hand(m, req)
        except WorldError as e:
            return {"ok": False, "error": "refused", "reason": str(e)}
        ans = m.supply_report()
        ans["ok"] = True
        ans["device"] = "off"
        return ans
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
