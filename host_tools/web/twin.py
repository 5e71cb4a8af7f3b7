"""The digital twin behind the web page, the part every board shares: the real firmware on the
simulated board (host_tools.sim.server.Sim), board time running with the wall clock, the
firmware's console and its events, power cuts and power-on, buttons, pieces lifted, put down
and slid by hands, faults, the sensor panel, and the hand actions every board's page has,
checked whole before anything is done. A family's twin (the registry's "twin" of each family,
shared_rules/data/games.json; host_tools/games/<family>/twin.py) is a Twin for its boards: the
cards beside the board, what its LEDs mean, its actions, what the page may see.

What leaves this module is public unless the referee view is asked for: a piece standing
upside down is "undercover" (its colour stays here), held pieces and cards are known by
handles ("h3", "c17"), never by the simulator's piece names or sticker UIDs; every mapping is
built in the order of locations or seats, never of pieces (the server also writes its keys
sorted), so not even the order of what is sent follows a hidden colour."""
import json
import os
import re
import threading
import time

from host_tools import paths
from host_tools.device import parse_console
from host_tools.sim import requests as control
from shared_rules import games, layout
from shared_rules.describe import view_words, words

TICK_MS = 50
MAX_SPEED = 20  # board time at most this many times the wall clock (a tick stays short)
CARD_ON_MS = 600  # a tap: the card rests on the reader this long
PRESS_MS = 100  # a press of a button when the page gives no length (the control channel's)
EVENTS_KEPT = 200
BLINK_KEPT_MS = 1000  # a blinking LED caught dark still means what it meant this long ago
MAX_HANDLE = 16  # characters of a handle ("h12", "c109")
FAULTS = control.FAULTS + (control.CLEAR,)


def _coloured_boards():
    """The boards whose pieces are named by colour and number (their families' boards have
    a rules-core layout)."""
    return sorted(set(b for g in games.names()
                      if games.family_value(games.family(g), "board_layouts")
                      for b in games.boards(g).values()))


COLOURS = sorted(set(c for b in _coloured_boards() for c in layout.load(b).colours))
PIECE_NAME = re.compile(r"\b(%s)-\d+\b" % "|".join(COLOURS))


class TwinError(Exception):
    pass


class ActionError(Exception):
    """A malformed action: the reason says what is wrong, in one sentence."""


def board_locations(board):
    """Every physical location of a board variant, in the order of its sensor map (the
    variant's folder names the folder of its maps)."""
    folder = os.path.join(paths.HARDWARE, "variants", board)
    with open(os.path.join(folder, "variant.json")) as f:
        maps = json.load(f).get("maps", ".")
    with open(os.path.join(folder, maps, "sensors.json")) as f:
        return [s["loc"] for s in json.load(f)["sensors"]]


def public_answer(ans):
    """A simulator's answer as the page may read it: no piece names (a refusal such as
    "red-2 is already on 12" would name the colour under an undercover piece)."""
    out = {"ok": bool(ans.get("ok"))}
    for k in ("error", "reason"):
        if k in ans:
            out[k] = PIECE_NAME.sub("a piece", str(ans[k]))
    return out


def refuse(reason, kind="refused"):
    return {"ok": False, "error": kind, "reason": reason}


def device_line(device):
    """The line when the twin itself failed or the board stopped (device: {"running",
    "reason", "failure"} or None); None while it runs."""
    if device is not None and device.get("failure"):
        return {"kind": "fault", "text": "The page's twin of the board failed (%s): restart "
                "agentboard sim." % device["failure"]}
    if device is not None and not device.get("running", True):
        return {"kind": "stopped", "text": "The board has stopped (%s). Press \"power on\" "
                "to boot it again from its flash: the game on it resumes."
                % (device.get("reason") or "no reason given")}
    return None



# -- the page's hand actions (POST /api/act) ------------------------------------------------
# Their limits are the control channel's (host_tools/sim/requests.py): the twin passes presses
# and faults on to it, and a request it would refuse must be refused here first, with the
# page's field names. A family's actions (host_tools/games/<family>/actions.py) add their own
# ops and field kinds.

# op -> {field: (kind, required)}: the actions every board's page has
SHAPES = {
    "lift": {"at": ("loc", True)},
    "place": {"id": ("handle", True), "at": ("loc", True), "upside_down": ("bool", False)},
    "slide": {"id": ("handle", True), "path": ("path", True), "upside_down": ("bool", False)},
    "press": {"button": ("button", True), "ms": ("press_ms", False)},
    "fault": {"kind": ("fault", True), "at": ("loc", False), "ms": ("fault_ms", False)},
    "power_on": {},
}


def _whole(v, lo, hi, field):
    if type(v) is not int or not lo <= v <= hi:
        raise ActionError("%s must be a whole number of milliseconds from %d to %d"
                          % (field, lo, hi))


def _loc(field, v, locations):
    if type(v) is not str or v not in locations:
        raise ActionError("%s must be a board location such as \"12\", \"red:h1\" or "
                          "\"red:s1\"" % field)


def _handle(field, v, locations):
    if type(v) is not str or not 1 <= len(v) <= MAX_HANDLE:
        raise ActionError("%s must be the id of a piece in hand or a card (\"h3\", \"c17\")"
                          % field)


def _bool(field, v, locations):
    if type(v) is not bool:
        raise ActionError("%s must be true or false" % field)


def _path(field, v, locations):
    if type(v) is not list or not 1 <= len(v) <= control.MAX_PATH:
        raise ActionError("path must list 1 to %d board locations" % control.MAX_PATH)
    for loc in v:
        _loc("every location of path", loc, locations)


def _button(field, v, locations):
    if v not in control.BUTTONS:
        raise ActionError("button must be one of %s" % ", ".join(control.BUTTONS))


def _fault(field, v, locations):
    if v not in FAULTS:
        raise ActionError("kind must be one of %s" % ", ".join(FAULTS))


# field kind -> check(field, value, locations)
_CHECKS = {
    "loc": _loc, "handle": _handle, "bool": _bool, "path": _path, "button": _button,
    "press_ms": lambda field, v, locations: _whole(v, 1, control.MAX_PRESS_MS, field),
    "fault_ms": lambda field, v, locations: _whole(v, 1, control.MAX_FAULT_MS, field),
    "fault": _fault,
}


def check(req, locations, shapes, kinds=None):
    """The action if it is well formed; raises ActionError saying what is wrong.
    locations: every board location (a set); shapes: the actions of the board's page;
    kinds: {kind: check(field, value)} for the field kinds of its own."""
    if type(req) is not dict:
        raise ActionError("an action is a JSON object with an \"op\"")
    op = req.get("op")
    shape = shapes.get(op) if type(op) is str else None
    if shape is None:
        raise ActionError("unknown action %s; actions are %s" % (
            "%r" % op if type(op) is str and len(op) <= 32 else "(not a short name)",
            ", ".join(sorted(shapes))))
    for field in sorted(req):
        if field != "op" and field not in shape:
            raise ActionError("%s takes %s; not %r" % (
                op, ", ".join(sorted(shape)) if shape else "no fields", str(field)[:32]))
    for field in sorted(shape):
        kind, required = shape[field]
        if field in req:
            if kinds and kind in kinds:
                kinds[kind](field, req[field])
            else:
                _CHECKS[kind](field, req[field], locations)
        elif required:
            raise ActionError("%s needs the field %r" % (op, field))
    if op == "fault" and req["kind"] not in ("nfc_crc", control.CLEAR) and "at" not in req:
        raise ActionError("a %s fault needs the sensor's location \"at\"" % req["kind"])
    return req


class Twin:
    """A board's twin. A family's twin makes its simulator and calls _start(); it overrides
    the hooks marked so below."""
    page = "index.html"  # the page that draws this board (host_tools/web/static/)
    replays = True  # the page can step through an exported record of this board's games

    def _start(self, sim, seed, speed, paused=False):
        """What every board's twin does once its simulator is made: the stickers enrolled,
        the device booted with them, the first look, and board time running."""
        if type(speed) is not int or not 1 <= speed <= MAX_SPEED:
            raise TwinError("speed is a whole number from 1 to %d" % MAX_SPEED)
        self.sim = sim
        self.tick_ms = TICK_MS * speed  # board time per tick of the wall clock
        self.lock = threading.RLock()
        self.running = threading.Event()  # board time runs while set (tests stop it)
        self.running.set()
        deck = [(c["uid"], c["card"]) for c in self.sim.request({"op": "deck"})["cards"]]
        self._cards(deck, seed)
        self._enrol(deck)
        self.sim.request({"op": "power_cut"})
        self.sim.request({"op": "power_on"})
        self._blank()
        self.tick()
        if paused:
            self.running.clear()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _enrol(self, deck):
        """The stickers as the device learns them (console enrolment is tested elsewhere)."""
        with open(os.path.join(self.sim.flash, "cards.json"), "w") as f:
            for uid, kind in deck:
                f.write(json.dumps([uid, kind]) + "\n")

    def _blank(self):
        """Nothing seen yet: no event, no piece in hand, no view, every LED dark."""
        self.locations = board_locations(self.board)
        self.location_set = frozenset(self.locations)
        self.events = []  # (seq, event) of the firmware's console, public by the firmware's rule
        self.seq = 0
        self.held = {}  # handle -> piece name (never sent)
        self.held_public = {}  # handle -> colour, or "undercover" when lifted upside down
        self.on_reader = None  # (card handle, seat, off at board ms)
        self.pressed = {}  # button -> board ms it is released at
        self.view = None
        self.leds = {}
        self.world = {}
        self.blinking = {}  # location -> (meaning, board ms last seen lit)
        self.clock_ms = 0
        self.stopping = False
        self.failure = None  # what went wrong in the twin's own loop, if anything
        self.lifts = 0

    # -- hooks of a family's twin ----------------------------------------------------------
    def _cards(self, deck, seed):
        """The physical cards beside the board, dealt from the deck [(uid, kind)]."""
        raise NotImplementedError

    def _unpowered(self):
        """What hands do while the board is off (a tick without a device)."""

    def _timers(self):
        """What hands do when their time is up (each tick)."""

    def _follow(self, view):
        """What follows the board's public view, read each tick (None: no game)."""

    def _meaning(self, loc, rgb):
        """What the LED at loc, lit rgb, asks for ("fault" blinks)."""
        raise NotImplementedError

    def _took_in(self, ev):
        """What follows one event of the board's console."""

    def _powered(self):
        """The board booted again."""

    def _ranked(self):
        """Whether the game on the board ranks its pieces (their ranks are printed on them)."""
        return False

    def _rank_of(self, piece):
        raise NotImplementedError

    def _check(self, req):
        """The action checked whole (ActionError for a malformed one)."""
        raise NotImplementedError

    def _act(self, op, req, occupied):
        """An action of the family's own (a checked one, under the lock)."""
        raise NotImplementedError

    def _before_act(self):
        """What the twin reads from the board before an action."""

    def _classes(self):
        """loc -> the class the firmware reads at loc, for the sensor panel."""
        raise NotImplementedError

    # -- the simulator ---------------------------------------------------------------------
    def _run(self):
        while not self.stopping:
            t0 = time.time()
            try:
                self.tick()
                self.failure = None
            except Exception as e:  # noqa: BLE001 - said on the page, never a silent dead one
                if self.stopping:
                    return
                self.failure = "%s: %s" % (type(e).__name__, str(e)[:200])
            spent = time.time() - t0
            time.sleep(max(0.0, TICK_MS / 1000.0 - spent))

    def pause(self):
        """Board time stands still (the page still answers): for tests comparing states."""
        self.running.clear()
        with self.lock:
            pass  # a tick under way has finished

    def go(self):
        self.running.set()

    def tick(self):
        """Lets a tick of board time pass and takes in what the firmware said and showed
        (nothing while paused)."""
        with self.lock:
            if self.running.is_set():
                self._tick()

    def step(self, ticks=1):
        """Runs ticks of board time now, paused or not (tests step a paused twin)."""
        with self.lock:
            for _ in range(ticks):
                self._tick()

    def _tick(self):
        if not self.sim.alive():
            self.world = self.sim.request({"op": "world"}).get("pieces", {})
            self.leds = {}  # the strip is unpowered
            self._unpowered()
            return
        self.sim.request({"op": "wait", "ms": self.tick_ms})
        self.clock_ms += self.tick_ms
        self._timers()
        self._console()
        self.leds = self.sim.request({"op": "leds"}).get("leds", {})
        self.world = self.sim.request({"op": "world"}).get("pieces", {})
        self._read_view()
        self._remember_blinks()

    def _console(self):
        _, events = parse_console(self.sim.request({"op": "console"}).get("lines", []))
        for ev in events:
            self._on_event(ev)

    def _send(self, cmd):
        ans = self.sim.request({"op": "console", "send": cmd})
        found, events = parse_console(ans.get("lines", []), cmd["op"])
        for ev in events:
            self._on_event(ev)
        return found

    def _read_view(self):
        ans = self._send({"op": "public"})
        view = ans.get("view") if ans and ans.get("ok") else None
        if ans is None and not self.sim.alive():
            return  # the device stopped: the page says so; the last view stays
        self.view = view
        self._follow(view)

    def _remember_blinks(self):
        for loc in sorted(self.leds):
            m = self._meaning(loc, self.leds[loc])
            if m == "fault":
                self.blinking[loc] = (m, self.clock_ms)
        for loc in sorted(self.blinking):
            if self.clock_ms - self.blinking[loc][1] > BLINK_KEPT_MS:
                del self.blinking[loc]

    def _on_event(self, ev):
        self.seq += 1
        self.events.append((self.seq, ev))
        del self.events[:-EVENTS_KEPT]
        self._took_in(ev)

    # -- records -----------------------------------------------------------------------------
    def export(self):
        """The device's game record (it reveals the undercover history: for replay)."""
        with self.lock:
            ans = self._send({"op": "export"})
        if not ans or not ans.get("ok"):
            raise TwinError("the board has no game to export")
        return ans["record"]

    # -- what the page may see -------------------------------------------------------------
    def _pieces(self):
        """location -> colour, or "undercover", in the order of locations; and in a ranked
        game location -> rank for every piece standing anywhere."""
        at = dict((p["at"], (name, p["upside_down"])) for name, p in self.world.items()
                  if p["at"] is not None)
        public, truth, ranks = {}, {}, {}
        ranked = self._ranked()
        for loc in self.locations:
            if loc in at:
                name, down = at[loc]
                public[loc] = "undercover" if down else name.split("-")[0]
                truth[loc] = name.split("-")[0]
                if ranked:
                    ranks[loc] = self._rank_of(name)
        return public, truth, ranks

    def _held(self):
        """The pieces in hand as the page may see them, by handle."""
        return [{"id": h, "piece": self.held_public[h]}
                for h in sorted(self.held, key=lambda h: int(h[1:]))]

    def _events(self):
        return [e for _, e in self.events]

    def _game(self):
        """The game on the board (the view's), else the page's: the events' words are its."""
        return (self.view or {}).get("game") or self.game

    def _said(self, since):
        """The board's events numbered above since, each with its words (the page shows
        those; the event stays for tools)."""
        game = self._game()
        return [{"seq": s, "event": e, "text": words(e, game)} for s, e in self.events
                if s > since]

    def status(self):
        """The status bar: the game on the board in the players' words (who acts is the
        guidance line's to say)."""
        if self.view is None:
            return {"text": "No game on the board."}
        return {"text": view_words(self.view, actor=False)}

    def device(self):
        out = {"running": True, "reason": None, "failure": self.failure}
        if not self.sim.alive():
            out.update(running=False, reason=getattr(self.sim, "down", None) or "it is off")
        return out

    def sensors(self):
        """The sensor panel: every sensor's raw reading, and its class as the firmware reads
        it."""
        with self.lock:
            raw = self.sim.request({"op": "sensors"})
            classes = self._classes()
        if not raw.get("ok"):
            return public_answer(raw)
        return {"ok": True, "locations": raw.get("locations", []), "raw": raw.get("raw", []),
                "class": [classes(loc) for loc in raw.get("locations", [])]}

    # -- hands -------------------------------------------------------------------------------
    def act(self, req):
        """One action of the page: {"op": ..., ...}. Checked whole before anything is done;
        returns {"ok": ...} with a reason. Raises ActionError for a malformed one."""
        self._check(req)
        op = req["op"]
        with self.lock:
            self._before_act()
            self.world = self.sim.request({"op": "world"}).get("pieces", {})
            occupied = set(p["at"] for p in self.world.values() if p["at"] is not None)
            if op == "lift":
                return self._lift(req["at"], occupied)
            if op in ("place", "slide"):
                return self._put_down(op, req, occupied)
            if op == "press":
                return self._press(req["button"], req.get("ms", PRESS_MS))
            if op == "fault":
                return public_answer(self.sim.request(req))
            if op == "power_on":
                return self._power_on()
            return self._act(op, req, occupied)

    def _power_on(self):
        if self.sim.alive():
            return refuse("the board is already running")
        ans = public_answer(self.sim.request({"op": "power_on"}))
        if ans["ok"]:
            self.pressed = {}
            self._powered()
        return ans

    def _lift(self, at, occupied):
        if at not in occupied:
            return refuse("there is no piece on %s" % at)
        down = next(p["upside_down"] for p in self.world.values() if p["at"] == at)
        ans = self.sim.request({"op": "lift", "at": at})
        if not ans.get("ok"):
            return public_answer(ans)
        self.lifts += 1
        handle = "h%d" % self.lifts
        self.held[handle] = ans["piece"]
        shown = "undercover" if down else ans["piece"].split("-")[0]
        if self._ranked():
            shown += " " + self._rank_of(ans["piece"])
        self.held_public[handle] = shown
        self.world = self.sim.request({"op": "world"}).get("pieces", {})
        return {"ok": True, "id": handle}

    def _put_down(self, op, req, occupied):
        handle = req["id"]
        if handle not in self.held:
            return refuse("no such piece in hand", "bad_request")
        end = req["at"] if op == "place" else req["path"][-1]
        if end in occupied:
            return refuse("there is already a piece on %s" % end)
        call = {"op": op, "piece": self.held[handle],
                "upside_down": bool(req.get("upside_down", False))}
        if op == "place":
            call["at"] = end
        else:
            call["path"] = list(req["path"])
        ans = self._world_act(call)
        if ans["ok"]:
            del self.held[handle]
            del self.held_public[handle]
        return ans

    def _press(self, button, ms):
        # a finger cannot press a button it still holds down: the board would see one press
        held_until = self.pressed.get(button, 0)
        if held_until > self.clock_ms:
            return refuse("%s is still held down (for %d ms more)" % (
                button, held_until - self.clock_ms))
        ans = public_answer(self.sim.request({"op": "press", "button": button, "ms": ms}))
        if ans["ok"]:
            self.pressed[button] = self.clock_ms + ms
        return ans

    def _world_act(self, call):
        ans = public_answer(self.sim.request(call))
        self.world = self.sim.request({"op": "world"}).get("pieces", {})
        return ans

    def close(self):
        self.stopping = True
        self.running.set()
        self.thread.join(timeout=5)
        self.sim.close()
