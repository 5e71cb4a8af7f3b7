# The virtual device's power-on, in the MicroPython process (not on the device's flash):
# `micropython -i boot.py SIM SEED HANDS_PORT [BOARD [CARDS [romfs]]]`, started in the folder that is
# the device's flash, on a pseudo-terminal that is its serial port. Puts the simulated hardware in front of
# whatever is deployed there, then boots as an ESP32 does: main.py if there is one, else the
# REPL (-i). Ctrl-C on the serial port interrupts main.py into the REPL, so mpremote works as
# it does on a real board.
#
# Hands (lift, place, card, ...) arrive on a loopback socket of their own. Board time follows
# the wall clock here, as on a real board: the hands are served whenever the board has run
# ahead, which is also how the process waits.
import sys
import json
import select
import socket
import utime  # the wall clock; `time` becomes the board clock below

SIM = sys.argv[1]
SEED = int(sys.argv[2])
HANDS_PORT = int(sys.argv[3])
BOARD = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None  # default: Agent DOG's
CARDS = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
# "romfs": a MicroPython built with ROMFS (host_tools/virtual/esp32_romfs.py), not the stock one
ROMFS = len(sys.argv) > 6 and sys.argv[6] == "romfs"

# the simulator's modules from SIM alone, so nothing of the deployed code is imported twice
_path = sys.path[:]
sys.path.clear()
sys.path.append(SIM)
from host_tools.sim import worlds  # noqa: E402
from host_tools.sim.control import Control  # noqa: E402
if ROMFS:
    from host_tools.virtual import esp32_romfs  # noqa: E402
# the board's world, built while only the simulator's modules can be imported
world = worlds.for_board(BOARD, SEED, CARDS)
for _name in list(sys.modules):
    if _name == "shared_rules" or _name.startswith("shared_rules."):
        del sys.modules[_name]
sys.path.clear()
sys.path.append(SIM + "/host_tools/sim/device")  # machine, neopixel, time
sys.path.append("")  # the flash (the current folder), as on the board
for _p in _path:
    if _p not in ("", SIM):  # the script's own folder: the simulator, already imported
        sys.path.append(_p)
if ROMFS:
    esp32_romfs.install()  # as MicroPython's start: the image at /rom before main.py runs


class Hands(Control):
    """The world API on a socket, served while the board clock runs."""

    def __init__(self, world, sock):
        super().__init__(world)
        world.hook = self.tick
        self.sock = sock
        self.poller = select.poll()
        self.poller.register(sock, select.POLLIN)
        self.wall0 = utime.ticks_ms()
        self.board0 = world.clock_us

    def reply(self, obj):
        self.sock.write((json.dumps(obj) + "\n").encode())

    def handle(self, req):
        if req.get("op") in ("wait", "console"):
            self.reply({"ok": False, "error": "refused", "reason": "a virtual device runs in "
                        "real time: wait on the host; its console is the serial port"})
            return False
        return super().handle(req)

    def take_waiting(self, ms):
        while self.poller.poll(ms):
            line = self.sock.readline()
            if not line:
                raise SystemExit(0)  # the host went away: power off
            self.take(line.decode())
            ms = 0

    def tick(self):
        w = self.world
        ahead = (w.clock_us - self.board0) // 1000 - utime.ticks_diff(utime.ticks_ms(),
                                                                      self.wall0)
        self.take_waiting(ahead if ahead > 0 else 0)
        w.wait_until = w.clock_us + 10000


_sock = socket.socket()
_sock.connect(socket.getaddrinfo("127.0.0.1", HANDS_PORT)[0][-1])
hands = Hands(world, _sock)
# the first line is the world as the board left it (a snapshot) or null at first power-on
_first = json.loads(_sock.readline())
if _first is not None:
    world.restore(_first)
_sock.write(b'{"ok": true}\n')

try:
    _main = open("main.py").read()
except OSError:
    _main = None
if _main is not None:
    try:
        exec(_main, {"__name__": "__main__"})
    except SystemExit:
        # machine.reset() (or sys.exit()) in main.py: the ESP32 port starts again from its
        # flash, where `-i` would keep this process at its REPL. The process ends, as at the
        # REPL, and the host starts the device again (device.py); the unix port's os has no
        # _exit, its shell's parent is this process
        import os
        os.system("kill -KILL $PPID")
