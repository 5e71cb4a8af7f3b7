# The device side of the simulator's control channel (docs/board-protocols.md, section 2). Runs in
# the MicroPython process next to the firmware: board time stands still while it takes requests
# from stdin, and runs only during `wait` (or while the firmware answers a console command).
# Answers go to stdout behind a marker, so stray prints of the firmware cannot be mistaken for
# them; the firmware's console lines are collected for the `console` op.
import sys
import json

from host_tools.sim.world import SimError

MARK = "@sim "
CONSOLE = "@con "
CONSOLE_WAIT_US = 500000  # a console command gets up to half a second of board time


class Control:
    def __init__(self, world):
        self.world = world
        self.inbox = []    # console commands for the firmware
        self.pending = None  # the request whose answer waits for board time to pass
        self.awaiting = None  # console op the firmware must answer before `pending` ends
        self.wait_from = None  # board time (us) a `wait` with `until` began: it ends at a line
        world.hook = self.serve

    # the firmware's console, as the app sees it
    def poll(self):
        return self.inbox.pop(0) if self.inbox else None

    def write(self, line):
        # straight to the host: a device's console is a wire, not a store in its heap
        sys.stdout.write(CONSOLE + line + "\n")
        self._line_out()
        if self.awaiting is not None and '"re"' in line:
            try:
                if json.loads(line).get("re") == self.awaiting:
                    self._answered()
            except ValueError:
                pass

    def write_parts(self, parts):
        sys.stdout.write(CONSOLE)
        first = True
        for p in parts:
            sys.stdout.write(p)
            if first and self.awaiting is not None and p.startswith(
                    '{"re": "%s"' % self.awaiting):
                self.awaiting = "-streamed"
            first = False
        sys.stdout.write("\n")
        self._line_out()
        if self.awaiting == "-streamed":
            self._answered()

    def _line_out(self):
        # a `wait` until the next console line: the board stops here (the firmware runs on to
        # its next board call, which the request after this answer lets through)
        if self.wait_from is not None and self.pending == "wait":
            self.world.wait_until = self.world.clock_us

    def _answered(self):
        self.awaiting = None
        self.world.wait_until = self.world.clock_us  # answered: stop the clock

    def reply(self, obj):
        sys.stdout.write(MARK + json.dumps(obj) + "\n")

    def serve(self):
        """Called by the world when board time reaches wait_until: answer the request that was
        waiting, then take requests until one lets time run again."""
        w = self.world
        if self.pending is not None:
            req = self.pending
            self.pending = None
            if req == "console":
                self.reply(self._console_answer())
            elif self.wait_from is not None:
                self.reply({"ok": True, "ms": (w.clock_us - self.wait_from) // 1000})
                self.wait_from = None
            else:
                self.reply({"ok": True})
        while True:
            line = sys.stdin.readline()
            if not line:
                raise SystemExit(0)  # the host closed the channel: power off
            if self.take(line):
                return  # board time runs now

    def take(self, line):
        """Answers one request line; True when it lets board time run (wait, console)."""
        try:
            req = json.loads(line)
        except ValueError:
            self.reply({"ok": False, "error": "bad_request", "reason": "not a JSON line"})
            return False
        if type(req) is not dict:
            self.reply({"ok": False, "error": "bad_request", "reason": "a JSON object"})
            return False
        try:
            return self.handle(req)
        except SimError as e:
            self.reply({"ok": False, "error": "refused", "reason": str(e)})
        except (KeyError, TypeError, ValueError) as e:
            self.reply({"ok": False, "error": "bad_request", "reason": "%s: %s" % (
                type(e).__name__, e)})
        except Exception as e:  # noqa: BLE001
            # the host checks every request against the board first (requests.py), so this is
            # a fault of the simulator; answered, it cannot unwind through the firmware, whose
            # board call the world was serving, and stop the device as if the firmware had
            self.reply({"ok": False, "error": "refused", "reason": "the simulated board could "
                        "not do it: %s: %s" % (type(e).__name__, e)})
        return False

    def brownout(self, state):
        """The ESP32 browned out (the world's on_brownout, set by device_main): it stops here.
        The host reads this marker as the answer to the request that let time run, cuts the
        power and boots the device again from its flash, as after power_cut and power_on;
        `left_ms` is the board time the request still had to run."""
        w = self.world
        left = w.wait_until - w.clock_us if self.pending == "wait" else 0
        st = {"cause": "brownout"}
        for key in ("esp32_v", "vbus_v", "rail_5v_v", "led_ma", "input_ma"):
            st[key] = round(state[key], 3)
        st["status"] = state["status"]
        self.reply({"_reset": st, "during": self.pending, "left_ms": left // 1000 if left > 0
                    else 0, "lines": []})
        while sys.stdin.readline():
            pass  # nothing more runs: the host cuts the power
        raise SystemExit(0)

    def _console_answer(self):
        return {"ok": True, "lines": []}  # the host adds the lines it has received

    def handle(self, req):
        op = req.get("op")
        if op == "wait":
            return self._wait(req["ms"], req.get("until"))
        if op == "console":
            return self._console(req.get("send"))
        act = _WORLD_OPS.get(op) if type(op) is str else None
        if act is None:
            self.reply({"ok": False, "error": "bad_request", "reason": "unknown op %r" % (op,)})
        else:
            self.reply(act(self.world, req))
        return False

    def _wait(self, ms, until=None):
        # board time runs for ms; with until "console", only until the next console line
        if type(ms) is not int or ms < 0:
            raise ValueError("ms must be a whole number of milliseconds")
        if until not in (None, "console"):
            raise ValueError("until must be console")
        w = self.world
        self.wait_from = None if until is None else w.clock_us
        w.wait_until = w.clock_us + ms * 1000
        self.pending = "wait"
        return True

    def _console(self, send):
        # a console command for the firmware, answered once it had board time to answer it
        if send is None:
            self.reply(self._console_answer())
            return False
        if type(send) is not dict or type(send.get("op")) is not str:
            raise ValueError("send is one console command object with an 'op'")
        self.inbox.append(json.dumps(send))
        self.awaiting = send["op"]
        w = self.world
        w.wait_until = w.clock_us + CONSOLE_WAIT_US
        self.pending = "console"
        return True


# the requests the world answers at once (board time stands still): op -> fn(world, request)
# giving the answer
def _lift(w, req):
    return {"ok": True, "piece": w.lift(req["at"])}


def _place(w, req):
    w.place(req["piece"], req["at"], req.get("upside_down", False))
    return {"ok": True}


def _flip(w, req):
    w.flip(req["at"])
    return {"ok": True}


def _slide(w, req):
    w.slide(req["piece"], req["path"], req.get("upside_down", False))
    return {"ok": True}


def _card(w, req):
    uid = req["uid"] if "uid" in req else w.card_of_kind(req["card"])
    if "reader" in req:
        w.card(uid, req["reader"])  # a board with several readers
    else:
        w.card(uid)
    return {"ok": True}


def _card_away(w, req):
    off = w.card_off if req["op"] == "card_off" else w.discard
    if "reader" in req:
        off(req["reader"])
    else:
        off()
    return {"ok": True}


def _press(w, req):
    w.press(req["button"], req.get("ms", 100))
    return {"ok": True}


def _leds(w, req):
    return {"ok": True, "leds": w.led_colours}


def _buzzer(w, req):
    # the notes the firmware set lately (board time in us, Hz, PWM duty; 0: silent)
    return {"ok": True, "notes": [list(n) for n in w.buzzer]}


def _world(w, req):
    return {"ok": True, "pieces": w.world()}


def _sensors(w, req):
    # what each sensor's last ADC conversion gave (16-bit, as read_u16 returns it)
    return {"ok": True, "locations": w.locs, "raw": w.last_read}


def _fault(w, req):
    if req["kind"] == "clear":
        w.clear_faults(req.get("at"))
    else:
        w.fault(req["kind"], req.get("at"), req.get("ms", 1000))
    return {"ok": True}


def _supply(w, req):
    if "cable" in req:
        w.set_cable(req["cable"])
    ans = w.supply_report()
    ans["ok"] = True
    return ans


def _restore(w, req):
    w.restore(req["snap"])
    return {"ok": True}


_WORLD_OPS = {"lift": _lift, "place": _place, "flip": _flip, "slide": _slide, "card": _card,
              "card_off": _card_away, "discard": _card_away, "press": _press, "leds": _leds,
              "buzzer": _buzzer, "world": _world, "sensors": _sensors, "fault": _fault,
              "supply": _supply, "_restore": _restore}
