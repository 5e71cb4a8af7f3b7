"""The simulator's control channel (docs/board-protocols.md, section 2) on a virtual device, so the
players of host_tools/games/track/players.py can play at it: hands through the device's socket, time
by the wall clock (a virtual device runs in real time), the console over its serial port."""
import json
import time

from host_tools.device import DeviceError, SerialConsole
from host_tools.sim import requests

BOOT_S = 30  # how long a switched-on device may take to answer (a loaded machine boots slowly)
SLACK = 1.5  # board time may lag the wall clock a little: wait a bit longer than asked


class VirtualLink:
    def __init__(self, dev, timeout=5.0):
        self.dev = dev
        self.flash = dev.flash
        self.timeout = timeout
        self.con = SerialConsole(dev.url, timeout=timeout)

    def detach(self):
        """Lets go of the serial port (for another tool); hands and time still work, the
        console hears nothing until attach()."""
        self.con.close()
        self.con = None

    def attach(self):
        self.con = SerialConsole(self.dev.url, timeout=self.timeout)

    def _lines(self, answer=None):
        lines = [json.dumps(e) for e in self.con.events]
        self.con.events = []
        if answer is not None:
            lines.append(json.dumps(answer))
        return lines

    def request(self, req):
        # checked here too: wait and console are the link's own and never reach the device
        try:
            req = requests.check(req, self.dev.mirror)
        except requests.Rejected as e:
            return e.answer()
        op = req.get("op")
        if op == "wait":
            time.sleep(req["ms"] / 1000.0 * SLACK)
            return {"ok": True}
        if op == "console":
            if self.con is None:
                if "send" in req:
                    return {"ok": False, "error": "detached", "reason": "the serial port is "
                            "lent to another tool"}
                return {"ok": True, "lines": []}
            if "send" in req:
                return {"ok": True, "lines": self._lines(self.con.send(req["send"]))}
            events = self.con.poll_events(0.05)  # takes self.con.events with it
            return {"ok": True, "lines": [json.dumps(e) for e in events]}
        ans = self.dev.request(req)
        if op == "power_on" and ans.get("ok") and self.con is not None:
            self._until_console_answers()
        return ans

    def _until_console_answers(self):
        """A board that was just switched on answers once its firmware has booted; a person
        waits for that before playing, and so does the link (events that come meanwhile are
        kept for the next console request)."""
        end = time.time() + BOOT_S
        while True:
            try:
                self.con.send({"op": "status"})
                return
            except DeviceError:
                if time.time() > end:
                    raise

    def close(self):
        if self.con is not None:
            self.con.close()
            self.con = None
