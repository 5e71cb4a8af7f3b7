"""A virtual ESP32 for the laptop tools: the MicroPython unix port on a pseudo-terminal, reached
over a loopback socket, running whatever is deployed to its flash folder on the simulated
board. mpremote, `agentboard deploy` and the console tools talk to it exactly as to a board on
USB: `mpremote connect socket://127.0.0.1:PORT resume ...`.

Like a USB-serial board: one client at a time (a second is refused, as a busy port is); the
connection survives resets; `machine.reset()`, a soft reset or a crash of the process reboots
the device from its flash. The physical world (pieces, the card on the reader) outlives every
reset and power cut: the host keeps a copy and gives it to each boot."""
import fcntl
import json
import os
import pty
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import termios
import threading
import time
import tty

from host_tools import paths
from host_tools.sim import requests
from host_tools.sim.server import HANDS, mirror_hand, offline_request, power_and_deck
from host_tools.sim import worlds

ROOT = paths.CODE
# the simulator's own files; the families' worlds are added from the registry (worlds.py)
SIM_FILES = ("host_tools/__init__.py", "host_tools/sim/__init__.py", "host_tools/sim/world.py",
             "host_tools/sim/worlds.py", "host_tools/sim/nfc_chip.py", "host_tools/sim/control.py",
             "host_tools/sim/supply.py", "host_tools/sim/magnetics.py",
             "host_tools/sim/analog.py", "host_tools/sim/files.py",
             "shared_rules/__init__.py", "shared_rules/rng.py", "shared_rules/games.py",
             "shared_rules/_data.py", "shared_rules/errors.py",
             # a device built with ROMFS (romfs=True): its rom_ioctl over the flash model
             "host_tools/sim/nor_flash.py", "host_tools/virtual/__init__.py",
             "host_tools/virtual/esp32_romfs.py")
SIM_DIRS = ("host_tools/sim/device", "host_tools/sim/data", "hardware", "shared_rules/data")


START_S = 20  # a boot under a loaded machine: the device's first words may take this long
HANDS_S = 1  # a hand action's answer: none this soon means it is not running its application


class VirtualDeviceError(Exception):
    pass


def _sim_tree():
    """The simulator's own files, apart from the repository, so the device can import nothing
    but them and its flash."""
    dst = tempfile.mkdtemp(prefix="agentboard-vsim-")
    for rel in SIM_FILES + tuple(worlds.world_files()):
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, rel), os.path.join(dst, rel))
    for rel in SIM_DIRS:
        shutil.copytree(os.path.join(ROOT, rel), os.path.join(dst, rel))
    shutil.copy(os.path.join(ROOT, "host_tools", "virtual", "boot.py"), dst)
    return dst


def _blank_romfs(flash):
    """The romfs partition `agentboard flash --romfs` adds (hardware/design/flash.json), erased,
    as the flash model's file; one already there is the board's and is kept."""
    from host_tools import partitions
    from host_tools.sim.nor_flash import blank, PARTITION_FILE
    path = os.path.join(flash, PARTITION_FILE % partitions.design()["romfs"]["label"])
    if not os.path.exists(path):
        blank(path, partitions.design()["romfs"]["bytes"])


def _controlling_tty():
    # the pty becomes the child's terminal, so Ctrl-C on the line interrupts it as a UART does
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class VirtualDevice:
    def __init__(self, flash=None, seed=1, port=0, heap_kw=None, board=None, cards=None,
                 romfs=False):
        """board: the board variant simulated (hardware/variants/NAME; default the Agent DOG
        board); cards: the deck's card table (default Agent DOG's). Deploy the same board's
        maps to it (`agentboard deploy --board NAME`); a board with rank magnets starts
        uncalibrated, as a real one does (`agentboard calibrate`). romfs: the device runs a
        MicroPython built with ROMFS (host_tools/virtual/esp32_romfs.py) flashed with
        `agentboard flash --romfs`: its flash gains the erased romfs partition (kept if the
        folder has one); "no-partition": the same build flashed without it."""
        self.own_flash = not flash  # removed with the device: nobody can name it again
        self.flash = flash or tempfile.mkdtemp(prefix="agentboard-vflash-")
        os.makedirs(self.flash, exist_ok=True)
        self.romfs = bool(romfs)
        if romfs is True:
            _blank_romfs(self.flash)
        self.seed = seed
        self.heap_kw = heap_kw
        self.board = board
        self.cards = cards
        self.sim = None
        self.serial = self.hands_listener = None
        try:
            self._open(port)
        except BaseException:  # a port in use, a board it cannot model: nothing it made stays
            self._discard()
            raise
        try:
            self.power_on()
        except BaseException:  # Ctrl-C while it boots too: no device process outlives us
            self._release()
            raise
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()

    def _open(self, port):
        """The device's simulator copy, its world and its two listening sockets (port: the
        serial line's, 0 for any)."""
        self.sim = _sim_tree()
        self.mirror = worlds.for_board(self.board, self.seed, self.cards)
        self.booted = False
        self.lock = threading.RLock()  # power and hands: held while the device starts
        # the serial line alone, held only for a read or write, so the port keeps answering
        # (accepting, refusing a second user) while the device boots
        self.line = threading.Lock()
        self.rebooting = False
        self.fault = None  # why the last reboot failed: the device stays dark until power_on
        self.pump_error = None  # the last thing that went wrong on the serial line
        self.proc = None
        self.master = None
        self.hands = None
        self.off = True
        self.boots = 0
        self.stale = False  # the device missed hand actions (it was not listening)
        self.serial = socket.socket()
        self.serial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.serial.bind(("127.0.0.1", port))
        self.serial.listen(8)
        self.port = self.serial.getsockname()[1]
        self.hands_listener = socket.socket()
        self.hands_listener.bind(("127.0.0.1", 0))
        self.hands_listener.listen(1)
        self.client = None
        self.closing = False

    @property
    def url(self):
        return "socket://127.0.0.1:%d" % self.port

    # -- power -------------------------------------------------------------------------------
    def power_on(self):
        with self.lock:
            if self.proc is not None:
                return {"ok": False, "error": "refused", "reason": "the device is already on"}
            try:
                cmd = [paths.tool("micropython")]
            except paths.ToolMissing as e:
                raise VirtualDeviceError(str(e))
            master, slave = pty.openpty()
            tty.setraw(slave)
            attrs = termios.tcgetattr(slave)
            attrs[3] |= termios.ISIG  # raw, but Ctrl-C interrupts
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            if self.heap_kw:
                cmd += ["-X", "heapsize=%dwK" % self.heap_kw]
            cmd += ["-i", os.path.join(self.sim, "boot.py"), self.sim, str(self.seed),
                    str(self.hands_listener.getsockname()[1]), self.board or "",
                    self.cards or ""] + (["romfs"] if self.romfs else [])
            self.proc = subprocess.Popen(cmd, cwd=self.flash, stdin=slave, stdout=slave,
                                         stderr=slave, preexec_fn=_controlling_tty)
            os.close(slave)
            with self.line:
                self.master = master
            self.hands_listener.settimeout(START_S)
            try:
                conn, _ = self.hands_listener.accept()
                conn.settimeout(START_S)
                self.hands = conn.makefile("rwb", buffering=0)
                snap = self.mirror.snapshot() if self.booted else None
                self.hands.write((json.dumps(snap) + "\n").encode())
                if not self.hands.readline():
                    raise OSError("the device closed its hands socket")
            except OSError as e:  # socket.timeout too
                said = self._drain().decode("utf-8", "replace")[-500:]
                self._kill()
                raise VirtualDeviceError("the virtual device did not start (%s): %s" % (e, said))
            conn.settimeout(HANDS_S)
            self.fault = None
            self.booted = True
            self.off = False
            self.stale = False
            self.boots += 1
            return {"ok": True}

    def _drain(self):
        out = b""
        while self.master is not None and select.select([self.master], [], [], 0.1)[0]:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        return out

    def _kill(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        if self.hands is not None:
            self.hands.close()
            self.hands = None
        with self.line:
            if self.master is not None:
                os.close(self.master)
                self.master = None

    def power_cut(self):
        with self.lock:
            self.off = True
            self._kill()
        return {"ok": True}

    def close(self):
        self._release()
        self.pump.join(timeout=5)

    def _release(self):
        """The device's process killed, its sockets closed, the simulator's copy removed."""
        self.closing = True
        self.power_cut()
        if self.client is not None:
            self.client.close()
        self._discard()

    def _discard(self):
        """Its listening sockets closed, its copy of the simulator and the flash folder it made
        for itself (none named) removed: whatever of them it has made so far."""
        for s in (self.serial, self.hands_listener):
            if s is not None:
                s.close()
        if self.sim is not None:
            shutil.rmtree(self.sim, ignore_errors=True)
        if self.own_flash:
            shutil.rmtree(self.flash, ignore_errors=True)

    # -- the serial port ----------------------------------------------------------------------
    def _pump(self):
        """Forwards bytes between the port's one client and the device's terminal. Never takes
        the power lock and never stops on an error: a port that stops answering would look
        like a board that hangs."""
        while not self.closing:
            try:
                self._pump_once()
            except Exception as e:  # noqa: BLE001 -- kept for the next power_on to report
                self.pump_error = repr(e)
                time.sleep(0.05)

    def _pump_once(self):
        fds = [self.serial]
        if self.client is not None:
            fds.append(self.client)
        master = self.master
        if master is not None:
            fds.append(master)
        try:
            ready = select.select(fds, [], [], 0.05)[0]
        except (OSError, ValueError):
            return  # a descriptor closed under us: look again
        if self.serial in ready:
            self._accept()
        if self.client is not None and self.client in ready:
            self._from_client()
        if master is not None and master in ready:
            self._from_device(master)
        self._reboot_if_exited()

    def _accept(self):
        try:
            conn, _ = self.serial.accept()
        except OSError:
            return
        if self.client is not None:
            conn.close()  # the port is taken, as a serial port opened elsewhere is
            return
        self.client = conn

    def _from_client(self):
        try:
            data = self.client.recv(4096)
        except OSError:
            data = b""
        if not data:
            self.client.close()
            self.client = None
            return
        with self.line:
            if self.master is not None:
                try:
                    os.write(self.master, data)
                except OSError:
                    pass  # the device is resetting: bytes on a dead line are lost

    def _from_device(self, master):
        with self.line:
            if master != self.master:
                return  # the descriptor was closed (and its number maybe reused) meanwhile
            try:
                data = os.read(master, 4096)
            except OSError:
                data = b""
        self._to_client(data)

    def _to_client(self, data):
        if data and self.client is not None:
            try:
                self.client.sendall(data)
            except OSError:
                self.client.close()
                self.client = None

    def _reboot_if_exited(self):
        proc = self.proc
        if self.off or self.rebooting or proc is None or proc.poll() is None:
            return
        with self.line:
            tail = self._drain() if self.master is not None else b""
        self._to_client(tail)  # its last words (a traceback) reach the port
        # reset, soft reset or crash: the board starts again from its flash, on a thread of its
        # own so the port keeps answering while it boots
        self.rebooting = True
        threading.Thread(target=self._reboot, args=(proc,), daemon=True).start()

    def _reboot(self, proc):
        try:
            with self.lock:
                if self.off or self.proc is not proc:
                    return  # cut or started again by the hands meanwhile
                self._kill()
                self.power_on()
        except VirtualDeviceError as e:
            self.fault = str(e)
            self.off = True  # stays dark, as a board that fails to boot; power_on tries again
        finally:
            self.rebooting = False

    # -- hands ---------------------------------------------------------------------------------
    def request(self, req):
        """A hand action or question about the physical board (docs/board-protocols.md,
        section 2: lift, place, flip, slide, card, card_off, press, fault, leds, world), or
        power_cut / power_on / deck. Waiting is the caller's: board time runs with the wall
        clock. A malformed request is answered bad_request, one naming what the board lacks
        refused, before anything happens."""
        try:
            req = requests.check(req, self.mirror)
        except requests.Rejected as e:
            return e.answer()
        try:
            ans = power_and_deck(self, req)
        except VirtualDeviceError as e:
            return {"ok": False, "error": "refused", "reason": str(e)}
        if ans is not None:
            return ans
        op = req.get("op")
        with self.lock:
            if not self.off and self.hands is not None and self.stale:
                ans = self._ask({"op": "_restore", "snap": self.mirror.snapshot()})
                self.stale = ans is None
            if self.off or self.hands is None or self.stale:
                return offline_request(self.mirror, req, ("it failed to boot: " + self.fault
                                                          if self.fault else "its power was cut")
                                       if self.off else
                                       "it is not running its application")
            ans = self._ask(req)
            if ans is None:
                # not running its application (at the REPL, resetting): the hands still move
                # pieces, which the device is told about when it runs again
                self.stale = True
                return offline_request(self.mirror, req, "it is not running its application")
            if ans.get("ok") and op in HANDS:
                mirror_hand(self.mirror, req)
            return ans

    def _ask(self, req):
        conn = self.hands
        while select.select([conn], [], [], 0)[0]:
            if not conn.readline():  # an answer that came after its request gave up
                break
        try:
            conn.write((json.dumps(req) + "\n").encode())
            line = conn.readline()
        except OSError:
            return None
        return json.loads(line) if line else None

    def wait_booted(self, boots, timeout=20):
        """Waits until the device has booted `boots` times in all."""
        end = time.time() + timeout
        while time.time() < end:
            if self.boots >= boots and not self.off:
                return True
            time.sleep(0.05)
        return False
