"""Talking to the firmware's console (firmware/README.md): JSON commands out, one answer each,
events in between. Over a serial port (a real board) or through the simulator."""
import json
import time


class DeviceError(Exception):
    """A failure explained in one sentence."""


def parse_console(lines, op=None):
    """(the answer to command `op`, or None; the events) from lines the firmware's console
    wrote. Lines that are not JSON (a stray print, a traceback) are neither."""
    answer = None
    events = []
    for line in lines:
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if type(obj) is not dict:
            continue
        if op is not None and obj.get("re") == op:
            answer = obj
        elif "event" in obj:
            events.append(obj)
    return answer, events


class SerialConsole:
    def __init__(self, port, timeout=3.0):
        import serial
        from host_tools import ports
        reason = ports.problem(port)
        if reason:
            raise DeviceError(reason)
        try:
            # a URL too: socket://127.0.0.1:PORT is a virtual device (host_tools.virtual)
            self.ser = serial.serial_for_url(port, 115200, timeout=0.2, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as e:
            raise DeviceError(ports.explain(port, e))
        self.port = port
        self.timeout = timeout
        self.events = []
        self.buf = b""

    def _readline(self):
        """The next whole line, or "" when none came within the read timeout (a part of a
        line is kept for the next call, never dropped)."""
        import serial
        try:
            while b"\n" not in self.buf:
                chunk = self.ser.read(max(1, self.ser.in_waiting))
                if not chunk:
                    return ""
                self.buf += chunk
        except serial.SerialException:
            raise DeviceError("the connection to %s closed (is another program using the "
                              "board?)" % self.port)
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace").strip()

    def send(self, cmd):
        self.ser.write((json.dumps(cmd) + "\n").encode())
        end = time.time() + self.timeout
        while time.time() < end:
            line = self._readline()
            if not line.startswith("{"):
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if obj.get("re") == cmd["op"]:
                return obj
            if "event" in obj:
                self.events.append(obj)
        raise DeviceError("the board on %s does not answer (is the agentboard firmware running? "
                          "`agentboard deploy` installs it)" % self.port)

    def poll_events(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            line = self._readline()
            if line.startswith("{"):
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if "event" in obj:
                    self.events.append(obj)
        out, self.events = self.events, []
        return out

    def close(self):
        self.ser.close()


class SimConsole:
    """The console of a simulated device (host_tools.sim), same interface."""

    def __init__(self, flash, seed=1):
        from host_tools.sim.server import FlashHeld, Sim, SimError
        try:
            self.sim = Sim(seed=seed, flash=flash)
        except FlashHeld as e:
            raise DeviceError(str(e))  # another simulator runs this board: not ours to start
        except (SimError, OSError) as e:
            raise DeviceError("cannot start the simulated board in %s: %s" % (
                flash, e.strerror if isinstance(e, OSError) and e.strerror else e))
        self.events = []
        ans = self.sim.request({"op": "wait", "ms": 300})
        if not ans.get("ok"):
            self.sim.close()
            raise DeviceError("the simulated board in %s did not start: %s" % (
                flash, ans.get("reason")))

    def send(self, cmd):
        ans = self.sim.request({"op": "console", "send": cmd})
        if not ans.get("ok"):
            raise DeviceError("the simulated device: %s" % ans.get("reason"))
        found, events = parse_console(ans["lines"], cmd["op"])
        self.events.extend(events)
        if found is None:
            raise DeviceError("the simulated device did not answer %s" % cmd["op"])
        return found

    def poll_events(self, seconds):
        self.sim.request({"op": "wait", "ms": int(seconds * 1000)})
        self.send({"op": "status"})
        out, self.events = self.events, []
        return out

    def close(self):
        self.sim.close()
