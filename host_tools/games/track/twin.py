"""The digital twin of the track games' boards (Agent DOG, DOG 4- and 6-seat): four hands of
cards kept in step with the board (host_tools/games/track/hands.py), one card reader under the
play pad, pieces that may be turned over, and the page's actions
(host_tools/games/track/actions.py). Everything else (the tick, the console, pieces in hand,
buttons, faults, power, the sensor panel) is every board's twin's (host_tools/web/twin.py)."""
from firmware.hal.scanner import NAMES as CLASS_NAMES
from host_tools.sim.lap import rank_of_piece
from host_tools.sim.server import Sim
from host_tools.games.track import actions, guidance, lights
from host_tools.games.track.hands import Hands
from host_tools.web.twin import CARD_ON_MS, Twin, TwinError, public_answer, refuse
from shared_rules import layout, variant

BOARD = "agent-dog-4"  # the board `agentboard sim` draws unless told another
BOARDS = sorted(set(b for g in variant.names() for b in variant.boards(g).values()))


def choices(board):
    """{game: [player counts]} the board seats (each game's boards are in the rules core)."""
    out = {}
    for g in variant.names():
        counts = sorted(n for n, b in variant.boards(g).items() if b == board)
        if counts:
            out[g] = counts
    return out


class TrackTwin(Twin):
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

    def _cards(self, deck, seed):
        """The physical cards beside the board: four hands dealt from the deck."""
        self.hands = Hands(deck, seed)

    # -- the simulator ---------------------------------------------------------------------
    def _unpowered(self):
        if self.on_reader is not None:
            self.sim.request({"op": "card_off"})  # picked up, not read at power-on
            self.on_reader = None

    def _timers(self):
        """What hands do when their time is up: a tapped card leaves the reader."""
        if self.on_reader is not None and self.clock_ms >= self.on_reader[2]:
            self.sim.request({"op": "card_off"})
            self.on_reader = None

    def _follow(self, view):
        """The hands follow the board's counts."""
        if view is not None:
            self.hands.follow(view.get("cards_left", {}))

    def _meaning(self, loc, rgb):
        """What the LED at loc, lit rgb, asks for (host_tools/games/track/lights.py)."""
        return lights.meaning(loc, rgb, self.view.get("phase") if self.view else None)

    def _took_in(self, ev):
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

    # -- scripted scenes -----------------------------------------------------------------------
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
        game = self.view.get("game") if self.view else None
        return game in self.games and variant.load(game, self.board).ranked

    def _rank_of(self, piece):
        return rank_of_piece(piece)

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
                "held": self._held(),
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

    def _classes(self):
        """The classes the firmware's last scan gave (its debug answer)."""
        sensed = (self._send({"op": "debug"}) or {}).get("sensed", {})
        return lambda loc: CLASS_NAMES[sensed.get(loc, 0)]

    # -- hands -------------------------------------------------------------------------------
    def _check(self, req):
        actions.check(req, self.location_set)

    def _act(self, op, req, occupied):
        if op == "flip":
            if req["at"] not in occupied:
                return refuse("there is no piece on %s to turn over" % req["at"])
            return self._world_act({"op": "flip", "at": req["at"]})
        if op == "card":
            return self._card(req["id"])
        if op == "new_game":
            return self._new_game(req["players"], req.get("game"))
        raise actions.ActionError("unknown action %r" % (op,))  # SHAPES and this agree

    def _powered(self):
        """The board booted again: a card on the reader was picked up, the hands' card in
        play is in the hand again."""
        self.on_reader = None
        self.hands.card_back()

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
