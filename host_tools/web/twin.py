"""The digital twin behind the web page: the real firmware on the simulated board
(host_tools.sim.server.Sim), board time running with the wall clock, four hands of cards kept
in step with the board (host_tools/games/track/hands.py), and every hand action of the page checked
(host_tools/games/track/actions.py) and then carried out through the simulator's world API.

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

from firmware.hal.scanner import NAMES as CLASS_NAMES
from host_tools import paths
from host_tools.device import parse_console
from host_tools.sim.lap import rank_of_piece
from host_tools.sim.server import Sim
from host_tools.games.track import actions, guidance, lights
from host_tools.games.track.hands import Hands
from shared_rules import layout, variant
from shared_rules.describe import view_words, words

BOARD = "agent-dog-4"  # the board `agentboard sim` draws unless told another
BOARDS = sorted(set(b for g in variant.names() for b in variant.boards(g).values()))
COLOURS = sorted(set(c for b in BOARDS for c in layout.load(b).colours))
TICK_MS = 50
MAX_SPEED = 20  # board time at most this many times the wall clock (a tick stays short)
CARD_ON_MS = 600  # a tap: the card rests on the reader this long
PRESS_MS = 100  # a press of a button when the page gives no length (the control channel's)
EVENTS_KEPT = 200
BLINK_KEPT_MS = 1000  # a blinking LED caught dark still means what it meant this long ago
PIECE_NAME = re.compile(r"\b(%s)-\d+\b" % "|".join(COLOURS))


class TwinError(Exception):
    pass


def board_locations(board=BOARD):
    """Every physical location of a board variant, in the order of its sensor map (the
    variant's folder names the folder of its maps)."""
    folder = os.path.join(paths.HARDWARE, "variants", board)
    with open(os.path.join(folder, "variant.json")) as f:
        maps = json.load(f).get("maps", ".")
    with open(os.path.join(folder, maps, "sensors.json")) as f:
        return [s["loc"] for s in json.load(f)["sensors"]]


def choices(board):
    """{game: [player counts]} the board seats (each game's boards are in the rules core)."""
    out = {}
    for g in variant.names():
        counts = sorted(n for n, b in variant.boards(g).items() if b == board)
        if counts:
            out[g] = counts
    return out


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


class Twin:
    page = "index.html"  # the page that draws this board (host_tools/web/static/)
    replays = True  # the page can step through an exported record of this board's games

    def __init__(self, seed=1, flash=None, board=BOARD, game=None, speed=1, paused=False):
        """board: the board variant simulated (agent-dog-4, dog-4, dog-6); game: the game its
        stickers are for (default: the board's first game); speed: board time runs this many
        times as fast as the wall clock (1: with it; tests run faster); paused: board time
        stands still after the first look until go() (tests step it)."""
        if board not in BOARDS:
            raise TwinError("unknown board %r; boards are %s" % (board, ", ".join(BOARDS)))
        self.board = board
        self.lay = layout.load(board)  # a board's layout carries the board's name
        self.games = choices(board)
        if game is not None and game not in self.games:
            raise TwinError("%s is not played on %s; it plays %s" % (
                game, board, ", ".join(sorted(self.games))))
        # the game the page was started for: the new-game menu's default. Without one, the
        # board's first, as the firmware's new_game and the simulator's deck take it
        self.game = game if game is not None else sorted(self.games)[0]
        kw = {}
        if board != BOARD:
            kw["board"] = board
        if game is not None:
            kw["game"] = game
        self._start(Sim(seed=seed, flash=flash, **kw), seed, speed, paused)

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
        # the stickers as the device learns them (console enrolment is tested elsewhere)
        with open(os.path.join(self.sim.flash, "cards.json"), "w") as f:
            for uid, kind in deck:
                f.write(json.dumps([uid, kind]) + "\n")
        self.sim.request({"op": "power_cut"})
        self.sim.request({"op": "power_on"})
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
        self.tick()
        if paused:
            self.running.clear()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _cards(self, deck, seed):
        """The physical cards beside the board: four hands dealt from the deck."""
        self.hands = Hands(deck, seed)

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

    def _unpowered(self):
        if self.on_reader is not None:
            self.sim.request({"op": "card_off"})  # picked up, not read at power-on
            self.on_reader = None

    def _timers(self):
        """What hands do when their time is up: a tapped card leaves the reader."""
        if self.on_reader is not None and self.clock_ms >= self.on_reader[2]:
            self.sim.request({"op": "card_off"})
            self.on_reader = None

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

    def _follow(self, view):
        """The hands follow the board's counts."""
        if view is not None:
            self.hands.follow(view.get("cards_left", {}))

    def _meaning(self, loc, rgb):
        """What the LED at loc, lit rgb, asks for (host_tools/games/track/lights.py)."""
        return lights.meaning(loc, rgb, self.view.get("phase") if self.view else None)

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
        kind = ev.get("event")
        h = self.hands
        if kind == "card":
            if self.on_reader is not None and self.on_reader[1] == ev.get("seat") and \
                    h.cards[self.on_reader[0]][1] == ev.get("card"):
                h.took(self.on_reader[1], self.on_reader[0])
        elif kind == "move":
            h.moved()
        elif kind == "pass":
            h.passed()
        elif kind in ("turn", "win"):
            h.turn_over()
        elif kind == "undo":
            h.undone()
        elif kind == "new_game":  # begun from the page or the board's menu: a new deal
            h.new_game()
        elif kind == "card_back":  # taken back with a short press of back
            h.card_back()
        elif kind in ("boot", "resumed"):
            h.card_back()

    # -- scripted scenes and records -----------------------------------------------------------
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
            h = self.hands
            hand = h.hands[seat]
            for j, kind in enumerate(kinds):
                pick = next(c for c in h.stock + h.pile if h.cards[c][1] == kind)
                for heap in (h.stock, h.pile):
                    if pick in heap:
                        heap.remove(pick)
                h.stock.append(hand[j])
                hand[j] = pick

    # -- what the page may see -------------------------------------------------------------
    def layout(self):
        """The board to draw, from the rules core's layout and the variant's sensor map, the
        games it seats (with their names for a person) and the one the page was started for."""
        lay = self.lay
        return {"board": self.board, "track": lay.n, "colours": list(lay.colours),
                "start": dict((lay.colours[c], lay.start[c]) for c in range(lay.ncol)),
                "holes": [i for i in range(lay.n) if lay.hole[i]],
                "meeting_points": list(lay.meeting_points), "home_spaces": lay.home_n,
                "special_spaces": list(lay.special_spaces), "locations": self.locations,
                "games": self.games, "game": self.game,
                "titles": dict((g, variant.variant_class(g).title) for g in self.games)}

    def _ranked(self):
        """Whether the game on the board ranks its pieces (their ranks are printed on them)."""
        game = self.view.get("game") if self.view else None
        return game in self.games and variant.load(game, self.board).ranked

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
                    ranks[loc] = rank_of_piece(name)
        return public, truth, ranks

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

    def state(self, referee=False, since=0):
        with self.lock:
            pieces, truth, ranks = self._pieces()
            phase = self.view.get("phase") if self.view else None
            events = self._events()
            refused = guidance.refused_locations(self.view, events, pieces)
            blinking = dict((loc, m) for loc, (m, _) in self.blinking.items())
            meaning = lights.meanings(self.leds, phase, refused, blinking)
            seats = [c for c in self.lay.colours if c in self.hands.hands]
            device = self.device()
            out = {
                "clock_ms": self.clock_ms,
                "device": device,
                "leds": dict((loc, self.leds[loc]) for loc in sorted(self.leds)),
                "lights": meaning,
                "pieces": pieces,
                "ranks": ranks,
                "held": [{"id": h, "piece": self.held_public[h]}
                         for h in sorted(self.held, key=lambda h: int(h[1:]))],
                "hands": self.hands.public(seats),
                "reader": self.hands.cards[self.on_reader[0]][1] if self.on_reader else None,
                "view": self.view,
                "guidance": guidance.line(self.view, events, pieces, meaning, len(self.held),
                                          device),
                "status": self.status(),
                "events": self._said(since),
                "referee": bool(referee),
            }
            if referee:
                out["truth"] = truth
                out["held_truth"] = dict((h, self.held[h].split("-")[0])
                                         for h in sorted(self.held, key=lambda h: int(h[1:])))
            return out

    def sensors(self):
        with self.lock:
            raw = self.sim.request({"op": "sensors"})
            dbg = self._send({"op": "debug"}) or {}
        if not raw.get("ok"):
            return public_answer(raw)
        sensed = dbg.get("sensed", {})
        return {"ok": True, "locations": raw.get("locations", []), "raw": raw.get("raw", []),
                "class": [CLASS_NAMES[sensed.get(loc, 0)] for loc in raw.get("locations", [])]}

    # -- hands -------------------------------------------------------------------------------
    def act(self, req):
        """One action of the page: {"op": ..., ...}. Checked whole before anything is done;
        returns {"ok": ...} with a reason. Raises actions.ActionError for a malformed one."""
        actions.check(req, self.location_set)
        op = req["op"]
        with self.lock:
            self.world = self.sim.request({"op": "world"}).get("pieces", {})
            occupied = set(p["at"] for p in self.world.values() if p["at"] is not None)
            if op == "lift":
                return self._lift(req["at"], occupied)
            if op in ("place", "slide"):
                return self._put_down(op, req, occupied)
            if op == "flip":
                if req["at"] not in occupied:
                    return refuse("there is no piece on %s to turn over" % req["at"])
                return self._world_act({"op": "flip", "at": req["at"]})
            if op == "card":
                return self._card(req["id"])
            if op == "press":
                return self._press(req["button"], req.get("ms", PRESS_MS))
            if op == "fault":
                return public_answer(self.sim.request(req))
            if op == "new_game":
                return self._new_game(req["players"], req.get("game"))
            if op == "power_on":
                return self._power_on()
        raise actions.ActionError("unknown action %r" % (op,))  # SHAPES and this agree

    def _power_on(self):
        if self.sim.alive():
            return refuse("the board is already running")
        ans = public_answer(self.sim.request({"op": "power_on"}))
        if ans["ok"]:
            self.pressed = {}
            self._powered()
        return ans

    def _powered(self):
        """The board booted again: a card on the reader was picked up, the hands' card in
        play is in the hand again."""
        self.on_reader = None
        self.hands.card_back()

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
            shown += " " + rank_of_piece(ans["piece"])
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

    def _card(self, handle):
        if self.hands.seat_of(handle) is None:
            return refuse("no such card in a hand", "bad_request")
        if not self.sim.alive():
            return refuse("the board has stopped: power it on first", "device_off")
        why = self.hands.refusal(handle, self.view)
        if why is not None:
            return refuse(why)
        if self.on_reader is not None:
            h, seat = self.on_reader[0], self.on_reader[1]
            if h in self.hands.hands.get(seat, []) and \
                    self.hands.state_of(seat, h) == "hand":
                return refuse("a card is on the reader: wait for the board to read it")
            # the board has read it: onto the discard pile beside the play pad, out of the
            # reader's field, as the players put a played card (docs/board-protocols.md, discard)
            self.sim.request({"op": "discard"})
            self.on_reader = None
        seat = self.hands.seat_of(handle)
        ans = self.sim.request({"op": "card", "uid": self.hands.cards[handle][0]})
        if ans.get("ok"):
            self.on_reader = (handle, seat, self.clock_ms + CARD_ON_MS)
        return public_answer(ans)

    def _new_game(self, players, game=None):
        if not self.sim.alive():
            return refuse("the board has stopped: power it on first", "device_off")
        if game is None:
            game = self.game  # the page's game, not the firmware's first one
        if players not in self.games.get(game, ()):
            return refuse("the %s board plays %s" % (self.board, "; ".join(
                "%s with %s players" % (g, " or ".join(str(n) for n in counts))
                for g, counts in sorted(self.games.items()))), "bad_request")
        ans = self._send({"op": "new_game", "players": players, "game": game})
        if not ans or not ans.get("ok"):
            return public_answer(ans or refuse("the board did not answer", "internal"))
        self.view = None  # so the view read next is a game begun: new cards, new hands
        self._read_view()
        return {"ok": True}

    def close(self):
        self.stopping = True
        self.running.set()
        self.thread.join(timeout=5)
        self.sim.close()
