"""An ESP32 waiting for esptool behind a loopback port: the chip of host_tools/virtual/
esp32_chip.py (its ROM loader, esptool's flasher stub, a 4 MB flash kept in a file) reached the
way esptool reaches a board on USB.

Two transports, as esptool knows them:
- `socket://127.0.0.1:PORT`: raw bytes, no modem lines. esptool cannot reset the chip through
  it (it says so, and neither enters the loader nor resets after flashing): the chip powers up
  in its ROM loader, as a board plugged in with BOOT held.
- `rfc2217://127.0.0.1:PORT`: the board's port served as esptool's own RFC 2217 server
  (esp_rfc2217_server) serves it: DTR and RTS reach the board's auto-reset circuit and the baud
  rate is the line's, so esptool's reset into the loader, its baud change and its hard reset
  afterwards happen as on a board on USB. The chip powers up booting its flash (BOOT not held).

One client at a time (a second is refused, as a busy port is). `cut_after=N` pulls the cable
after the Nth flash data block: the connection drops before that block is answered and the
port goes away (`unplug=True`, the board loses power: nothing answers until a new server is
started on the same flash file), or only the connection drops and the chip keeps running
(`unplug=False`, a USB bridge that reset).

Standalone: `python -m host_tools.virtual.rom_loader --flash FLASH.bin [--rfc2217]` prints the
URL to give `agentboard flash --port`, then what the chip does, until Ctrl-C.
"""
import argparse
import select
import socket
import sys
import threading

from esp_rfc2217_server.esp_port_manager import EspPortManager
from esptool.reset import DEFAULT_RESET_DELAY, ClassicReset

from host_tools.virtual.esp32_chip import Esp32

IDLE_S = 0.05  # how long the server sleeps when nothing happens
RECV_BYTES = 65536


class _Lines:
    """The server's end of the serial port as RFC 2217's port manager drives it: the settings
    the host sets, applied to the chip in order with the data around them (and under the
    server's lock: esptool's port manager resets the chip from threads of its own)."""
    bytesize, parity, stopbits = 8, "N", 1
    xonxoff = rtscts = break_condition = False
    cts = dsr = ri = cd = False

    def __init__(self, link):
        self.link = link
        self._baud = link.chip.identity["rom"]["baud"]
        self._dtr = self._rts = True  # as pyserial opens a port: both asserted, no reset

    @property
    def baudrate(self):
        return self._baud

    @baudrate.setter
    def baudrate(self, value):
        with self.link.lock:
            self.link.deliver()
            self._baud = value

    @property
    def dtr(self):
        return self._dtr

    @dtr.setter
    def dtr(self, value):
        self._set(bool(value), self._rts)

    @property
    def rts(self):
        return self._rts

    @rts.setter
    def rts(self, value):
        self._set(self._dtr, bool(value))

    def _set(self, dtr, rts):
        with self.link.lock:
            self.link.deliver()
            self._dtr, self._rts = dtr, rts
            self.link.chip.set_lines(dtr, rts)

    # pyserial's older names, as esptool's reset sequences call them
    def setDTR(self, value):
        self.dtr = value

    def setRTS(self, value):
        self.rts = value

    def isOpen(self):
        return True

    def reset_input_buffer(self):
        pass

    def reset_output_buffer(self):
        pass


class _BoardPortManager(EspPortManager):
    """esptool's RFC 2217 server (esp_rfc2217_server) on the board's port: it sees the start of
    esptool's reset sequence and replays the whole sequence itself with the right timing,
    which DTR/RTS changes acknowledged one by one over the network cannot keep. It replays the
    sequential (classic) one: the tight one sets both lines at once through a file
    descriptor, which the model's port has not (esp_rfc2217_server does the same on Windows)."""

    def _reset_thread(self):
        ClassicReset(self.serial, DEFAULT_RESET_DELAY)()


class RomLoaderServer:
    def __init__(self, flash_path, port=0, rfc2217=False, download=None, cut_after=None,
                 unplug=True, **chip):
        """download: the chip powers up in its ROM loader (default: on a raw socket, where
        nothing else can put it there); chip: Esp32's own arguments (chip, stuck)."""
        self.rfc2217 = rfc2217
        self.chip = Esp32(flash_path, download=(not rfc2217) if download is None else download,
                          **chip)
        self.cut_after = cut_after
        self.unplug = unplug
        self.cut = False
        self.lock = threading.RLock()  # held while the chip works: tests look between steps
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.client = None
        self.manager = None
        self.lines = _Lines(self) if rfc2217 else None
        self.pending = bytearray()  # data from the host not yet given to the chip
        self.closing = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self):
        if self.rfc2217:  # esptool's server does not acknowledge DTR/RTS (esptool docs, RFC 2217)
            return "rfc2217://127.0.0.1:%d?ign_set_control" % self.port
        return "socket://127.0.0.1:%d" % self.port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.closing = True
        self.thread.join(timeout=5)
        self._drop_client()
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    # -- the loop ----------------------------------------------------------------------------
    def _serve(self):
        while not self.closing and self.listener is not None:
            socks = [self.listener] + ([self.client] if self.client is not None else [])
            with self.lock:
                wait = self.chip.next_boot_in()
            try:
                ready = select.select(socks, [], [], IDLE_S if wait is None else
                                      min(wait, IDLE_S))[0]
            except (OSError, ValueError):
                continue
            with self.lock:
                if self.listener in ready:
                    self._accept()
                if self.client is not None and self.client in ready:
                    self._from_host()
                self._to_host()

    def _accept(self):
        conn, _ = self.listener.accept()
        if self.client is not None:
            conn.close()  # the port is taken
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.client = conn
        if self.rfc2217:
            self.manager = _BoardPortManager(self.lines, self, esp32r0_delay=False)

    def write(self, data):
        """The port manager's way back to the host (telnet answers)."""
        with self.lock:
            if self.client is not None:
                try:
                    self.client.sendall(data)
                except OSError:
                    self._drop_client()

    def _from_host(self):
        try:
            data = self.client.recv(RECV_BYTES)
        except OSError:
            data = b""
        if not data:
            self._drop_client()
            return
        if self.manager is None:
            self.pending += data
        else:
            for byte in self.manager.filter(data):  # telnet commands act as they come
                self.pending += byte
        self.deliver()

    def deliver(self):
        """The host's data so far to the chip (before a line or rate change takes effect)."""
        data, self.pending = bytes(self.pending), bytearray()
        if data:
            self.chip.receive(data, self.lines.baudrate if self.manager else None)
        if self.cut_after is not None and self.chip.flash_blocks >= self.cut_after:
            self._cut()

    def _to_host(self):
        out = self.chip.take_output(self.lines.baudrate if self.manager else None)
        if out and self.client is not None:
            if self.manager is not None:
                out = b"".join(self.manager.escape(out))
            try:
                self.client.sendall(out)
            except OSError:
                self._drop_client()

    def _cut(self):
        """The cable pulled: the connection drops with the last block unanswered."""
        self.cut_after = None
        self.cut = True
        self.chip.take_output()
        self.chip.event("cable pulled")
        self._drop_client()
        if self.unplug:
            self.chip.power_off()
            self.listener.close()
            self.listener = None

    def _drop_client(self):
        """The host gone. The lines stay as they are: the RFC 2217 server keeps the board's
        port open (and may still be resetting the chip)."""
        if self.client is not None:
            self.client.close()
            self.client = None
        self.manager = None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.virtual.rom_loader",
                                 description="An ESP32 in its ROM loader on a loopback port, "
                                 "for `agentboard flash --port URL` (host_tools/README.md).")
    ap.add_argument("--flash", required=True, help="file holding the chip's 4 MB flash "
                    "(made erased if missing; host_tools/sim/nor_flash.py's format)")
    ap.add_argument("--port", type=int, default=0, help="TCP port (default: any free one)")
    ap.add_argument("--rfc2217", action="store_true", help="serve RFC 2217 (DTR/RTS reset "
                    "and baud rate) instead of a raw socket")
    ap.add_argument("--cut-after", type=int, metavar="N", help="pull the cable after the Nth "
                    "flash data block: the board is gone until the server is started again")
    ap.add_argument("--keep-power", action="store_true", help="with --cut-after: only the "
                    "connection drops, the chip keeps running and the port answers again")
    args = ap.parse_args(argv)
    try:
        server = RomLoaderServer(args.flash, port=args.port, rfc2217=args.rfc2217,
                                 cut_after=args.cut_after, unplug=not args.keep_power)
    except (OSError, ValueError) as e:
        print("rom_loader: %s" % e, file=sys.stderr)
        return 1
    print("rom_loader: an ESP32 on %s (flash: %s)" % (server.url, args.flash), flush=True)
    with server.lock:
        for text in server.chip.events:  # its power-up, before anyone listened
            print("chip: " + text, flush=True)
        server.chip.on_event = lambda text: print("chip: " + text, flush=True)
    try:
        server.thread.join()  # until Ctrl-C, or the cable is pulled (--cut-after)
    except KeyboardInterrupt:
        pass
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
