"""The digital twin behind the web page: the real firmware on the simulated board
(host_tools.sim.server.Sim), board time running with the wall clock, four hands of cards dealt
from the deck, and every hand action of the page carried out through the simulator's world API.

What leaves this module is public unless the referee view is asked for: a piece standing
upside down is "undercover" (its colour stays here), held pieces and cards are known by
handles ("h3", "c17"), never by the simulator's piece names or sticker UIDs."""
import json
import os
import threading
import time

from firmware.hal.scanner import NAMES as CLASS_NAMES
from host_tools import paths
from host_tools.device import parse_console
from host_tools.sim.server import Sim
from shared_rules import layout, cards as cards_mod
from shared_rules.rng import Rng

LAY = layout.load()
CARDS = cards_mod.load()
TICK_MS = 50
CARD_ON_MS = 600  # a tap: the card rests on the reader this long
EVENTS_KEPT = 200
# the board's view changes with an event, or (effects carried out step by step, which announce
# nothing until the last) within its debounce and judging time after a hand on the board
VIEW_AFTER_HANDS_MS = 600


class TwinError(Exception):
    pass


def board_locations():
    """Every physical location, in the order of hardware/sensors.json."""
    with open(os.path.join(paths.HARDWARE, "sensors.json")) as f:
        return [s["loc"] for s in json.load(f)["sensors"]]


class Twin:
    def __init__(self, seed=1, flash=None):
        self.sim = Sim(seed=seed, flash=flash)
        self.lock = threading.RLock()
        self.rng = Rng(seed)
        self.deck = [(c["uid"], c["card"]) for c in self.ask({"op": "deck"})["cards"]]
        # the stickers as the device learns them (console enrolment is tested elsewhere)
        with open(os.path.join(self.sim.flash, "cards.json"), "w") as f:
            for uid, kind in self.deck:
                f.write(json.dumps([uid, kind]) + "\n")
        self.ask({"op": "power_cut"})
        self.ask({"op": "power_on"})
        self.locations = board_locations()
        self.events = []  # (seq, event) of the firmware's console, public by the firmware's rule
        self.seq = 0
        self.held = {}  # handle -> piece name (never sent)
        self.held_public = {}  # handle -> colour, or "undercover" when lifted upside down
        self.cards = {}  # handle -> (uid, kind)
        self.hands = {}  # colour -> [card handles]
        self.pile = []
        self.on_reader = None  # (handle, seat colour, off at board ms)
        self.view = None
        self.leds = {}
        self.world = {}
        self.clock_ms = 0
        self.stopping = False
        self.deal_due = False  # a round ended: deal when the board next shows the hands
        self.lifts = 0
        self.hands_until = 0  # board ms until which the view is read after every tick
        self._shuffle()
        self.tick()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    # -- the simulator ---------------------------------------------------------------------
    def ask(self, req):
        with self.lock:
            ans = self.sim.request(req)
        return ans

    def _run(self):
        while not self.stopping:
            t0 = time.time()
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - a dead device shows as such on the page
                if self.stopping:
                    return
            spent = time.time() - t0
            time.sleep(max(0.0, TICK_MS / 1000.0 - spent))

    def tick(self):
        """Lets TICK_MS of board time pass and takes in what the firmware said and showed."""
        with self.lock:
            self.sim.request({"op": "wait", "ms": TICK_MS})
            self.clock_ms += TICK_MS
            if self.on_reader is not None and self.clock_ms >= self.on_reader[2]:
                self.sim.request({"op": "card_off"})
                self.on_reader = None
            fresh = self._console()
            self.leds = self.sim.request({"op": "leds"}).get("leds", {})
            self.world = self.sim.request({"op": "world"}).get("pieces", {})
            if fresh or self.view is None or self.clock_ms <= self.hands_until:
                ans = self._send({"op": "public"})
                self.view = ans.get("view") if ans and ans.get("ok") else None
                self._trim_hands()

    def _console(self):
        _, events = parse_console(self.sim.request({"op": "console"}).get("lines", []))
        for ev in events:
            self._on_event(ev)
        return bool(events)

    def _send(self, cmd):
        ans = self.sim.request({"op": "console", "send": cmd})
        found, events = parse_console(ans.get("lines", []), cmd["op"])
        for ev in events:
            self._on_event(ev)
        return found

    def _on_event(self, ev):
        self.seq += 1
        self.events.append((self.seq, ev))
        del self.events[:-EVENTS_KEPT]
        kind = ev.get("event")
        if kind == "card" and self.on_reader is not None:
            handle, seat = self.on_reader[0], self.on_reader[1]
            if handle in self.hands.get(seat, []):
                self.hands[seat].remove(handle)
                self.pile.append(handle)
        elif kind == "round_end":
            self.deal_due = True

    def _trim_hands(self):
        """A seat that passed or went out holds no more cards than the board says."""
        if not self.view:
            return
        for seat, n in self.view["cards_left"].items():
            hand = self.hands.get(seat, [])
            while len(hand) > n:
                self.pile.append(hand.pop())

    # -- cards -------------------------------------------------------------------------------
    def _shuffle(self):
        handles = ["c%d" % j for j in range(len(self.deck))]
        for j, h in enumerate(handles):
            self.cards[h] = self.deck[j]
        for j in range(len(handles) - 1, 0, -1):
            k = self.rng.below(j + 1)
            handles[j], handles[k] = handles[k], handles[j]
        self.stock = handles

    def _draw(self):
        if not self.stock:
            self.stock = self.pile
            self.pile = []
        return self.stock.pop()

    def deal(self):
        """Fills each seat's hand to what the board says it holds (a new game or round)."""
        with self.lock:
            view = self._send({"op": "public"})
            if not view or not view.get("ok"):
                raise TwinError("no game to deal for")
            self.view = view["view"]
            for seat, n in self.view["cards_left"].items():
                hand = self.hands.setdefault(seat, [])
                while len(hand) > n:
                    self.pile.append(hand.pop())
                while len(hand) < n:
                    hand.append(self._draw())

    def export(self):
        """The device's game record (it reveals the undercover history: for replay)."""
        with self.lock:
            ans = self._send({"op": "export"})
        if not ans or not ans.get("ok"):
            raise TwinError("the board has no game to export")
        return ans["record"]

    def stack(self, seat, kinds):
        """Stacks the deck for a scripted scene: the seat's hand gets these card kinds (from
        the stock), keeping its size."""
        with self.lock:
            hand = self.hands[seat]
            for j, kind in enumerate(kinds):
                pick = next(h for h in self.stock + self.pile if self.cards[h][1] == kind)
                for heap in (self.stock, self.pile):
                    if pick in heap:
                        heap.remove(pick)
                self.stock.append(hand[j])
                hand[j] = pick

    # -- what the page may see -------------------------------------------------------------
    def state(self, referee=False, since=0):
        with self.lock:
            if self.deal_due:
                self.deal_due = False
                self.deal()
            pieces = {}
            truth = {}
            for name, p in self.world.items():
                if p["at"] is None:
                    continue
                colour = name.split("-")[0]
                pieces[p["at"]] = "undercover" if p["upside_down"] else colour
                if referee:
                    truth[p["at"]] = colour
            out = {
                "clock_ms": self.clock_ms,
                "leds": self.leds,
                "pieces": pieces,
                "held": [{"id": h, "piece": self.held_public[h]}
                         for h in sorted(self.held, key=lambda h: int(h[1:]))],
                "hands": dict((seat, [{"id": h, "card": self.cards[h][1]} for h in hand])
                              for seat, hand in self.hands.items()),
                "reader": self.cards[self.on_reader[0]][1] if self.on_reader else None,
                "view": self.view,
                "events": [{"seq": s, "event": e} for s, e in self.events if s > since],
                "referee": bool(referee),
            }
            if referee:
                out["truth"] = truth
                out["held_truth"] = dict((h, n.split("-")[0]) for h, n in self.held.items())
            return out

    def sensors(self):
        with self.lock:
            raw = self.sim.request({"op": "sensors"})
            dbg = self._send({"op": "debug"}) or {}
        sensed = dbg.get("sensed", {})
        return {"locations": raw.get("locations", []), "raw": raw.get("raw", []),
                "class": [CLASS_NAMES[sensed.get(loc, 0)] for loc in raw.get("locations", [])]}

    # -- hands -------------------------------------------------------------------------------
    def act(self, req):
        """One action of the page: {"op": ..., ...}. Returns {"ok": ...} with a reason."""
        op = req.get("op")
        with self.lock:
            self.hands_until = self.clock_ms + VIEW_AFTER_HANDS_MS
            if op == "lift":
                at = str(req["at"])
                p = self.world.get(self._at(at) or "", {})
                ans = self.sim.request({"op": "lift", "at": at})
                if not ans.get("ok"):
                    return ans
                self.lifts += 1
                handle = "h%d" % self.lifts
                self.held[handle] = ans["piece"]
                self.held_public[handle] = "undercover" if p.get("upside_down") else \
                    ans["piece"].split("-")[0]
                self.world = self.sim.request({"op": "world"}).get("pieces", {})
                return {"ok": True, "id": handle}
            if op in ("place", "slide"):
                handle = req.get("id")
                if handle not in self.held:
                    return {"ok": False, "error": "bad_request", "reason": "no such piece in hand"}
                call = {"op": op, "piece": self.held[handle],
                        "upside_down": bool(req.get("upside_down"))}
                if op == "place":
                    call["at"] = str(req["at"])
                else:
                    call["path"] = [str(x) for x in req["path"]]
                ans = self.sim.request(call)
                if ans.get("ok"):
                    del self.held[handle]
                    del self.held_public[handle]
                    self.world = self.sim.request({"op": "world"}).get("pieces", {})
                return ans
            if op == "flip":
                ans = self.sim.request({"op": "flip", "at": str(req["at"])})
                self.world = self.sim.request({"op": "world"}).get("pieces", {})
                return ans
            if op == "card":
                handle = req.get("id")
                seat = next((s for s, hand in self.hands.items() if handle in hand), None)
                if seat is None:
                    return {"ok": False, "error": "bad_request", "reason": "no such card in a hand"}
                if self.on_reader is not None:
                    return {"ok": False, "error": "refused", "reason": "a card is on the reader"}
                ans = self.sim.request({"op": "card", "uid": self.cards[handle][0]})
                if ans.get("ok"):
                    self.on_reader = (handle, seat, self.clock_ms + CARD_ON_MS)
                return ans
            if op in ("press", "fault"):
                call = dict((k, v) for k, v in req.items() if k in (
                    "op", "button", "ms", "kind", "at"))
                return self.sim.request(call)
            if op == "new_game":
                ans = self._send({"op": "new_game", "players": req.get("players")})
                if not ans or not ans.get("ok"):
                    return ans or {"ok": False, "error": "internal", "reason": "no answer"}
                self.hands = {}
                self._shuffle()
                self.pile = []
                self.deal()
                return {"ok": True}
        return {"ok": False, "error": "bad_request", "reason": "unknown action %r" % (op,)}

    def _at(self, at):
        for name, p in self.world.items():
            if p["at"] == at:
                return name
        return None

    def close(self):
        self.stopping = True
        self.thread.join(timeout=5)
        self.sim.close()
