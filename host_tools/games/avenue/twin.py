"""The digital twin of the Agent Avenue board (hardware/variants/agent-avenue): its firmware
(firmware/games/avenue) on the simulated board, board time running with the wall clock, the cards on
the table beside it (host_tools/games/avenue/cards.py), and every hand action of the page checked
(host_tools/games/avenue/actions.py) and carried out through the simulator's world API: pawns
lifted, put down and slid; cards put on the up and down pads, taken off them, tapped on the tap
pad; buttons pressed. Everything else (the tick, the console, pawns in hand, buttons, faults,
power, the sensor panel) is every board's twin's (host_tools/web/twin.py).

What stays here: the card lying face down on the down pad (the page is told only that a card
lies there, as the pad's LED does), the cards taken off the pads in a recruit until the board
says who recruited which, the hands of the sides that do not act now (their counts only), the
discards, and the order of both decks (their tops are tapped as "deck" and "market", never by
handle). Handles are given in a shuffled order, so a handle does not tell a kind; a hidden card's
handle is never sent. Lists go in table order, keys sorted (the server writes them so), so not
even an order follows a hidden card. The referee view adds the hidden cards when asked for."""
import json
import os

from host_tools import paths
from host_tools.sim.server import Sim
from host_tools.games.avenue import actions as avenue_actions, guidance as avenue_guidance
from host_tools.games.avenue import lights as avenue_lights
from host_tools.games.avenue.actions import LIFTED, TOPS
from host_tools.games.avenue.cards import Cards, SIDES, TB
from host_tools.web.twin import CARD_ON_MS, Twin, TwinError, public_answer, refuse
from shared_rules.describe import words
from shared_rules.describe_avenue import acting

BOARD = "agent-avenue"
GAME = "agent-avenue"
SEATS = {2: (1, 1), 3: (2, 1), 4: (2, 2)}  # the board's own seating (firmware/games/avenue/app.py)
BUZZ_SHOWN_MS = 300  # a note is shown sounding this long after it was heard
NAMES = os.path.join(paths.CODE, "shared_rules", "data", "agent-avenue-names.json")
CARDS = os.path.join(paths.CODE, "shared_rules", "data", "agent-avenue-cards.json")
OUT_OF_REACH = ("not a card within reach: a card of a hand the page shows, of the offer or of "
                "a tableau, or \"deck\" / \"market\" for the top card of a deck")


def acting_side(view):
    """The side whose hands are in play now (the page shows them): the active side when it
    plays, the side taking from the black market; none in a recruit, the setup, at the end."""
    if not view or view.get("phase") in ("setup", "game_over"):
        return None
    if view.get("rules_phase") == "play":
        return view["active"]
    if view.get("rules_phase") == "market":
        return view["pending"][0]
    return None


def _order(kind):
    """A card kind's place in the card table (agents first): lists are sent in this order."""
    if kind in TB.agent_index:
        return TB.agent_index[kind]
    return len(TB.agent_names) + TB.market_index[kind]


class AvenueTwin(Twin):
    page = "avenue.html"
    replays = False  # `agentboard replay FILE` prints an Agent Avenue record

    def __init__(self, seed=1, flash=None, board=BOARD, game=None, speed=1, paused=False):
        if board != BOARD:
            raise TwinError("the Agent Avenue twin draws the %s board, not %r" % (BOARD, board))
        if game not in (None, GAME):
            raise TwinError("%s is not played on %s; it plays %s" % (game, board, GAME))
        self.board = board
        self.game = GAME
        self.games = {GAME: sorted(SEATS)}
        self._start(Sim(seed=seed, flash=flash, board=board), seed, speed, paused)

    def _cards(self, deck, seed):
        self.cards = Cards(deck, seed)
        self.tapping = None  # (handle, board ms it leaves the tap pad)
        self.dealt = False   # the page dealt for the new game it asked for: its event follows
        self.result = None   # the board's `end` event
        self.buzz = (0, None)  # (Hz, board ms) of the last note heard
        self.buzz_seen = (-1, 0)  # the last note taken in: (board us, how many at that us)

    # -- the simulator ---------------------------------------------------------------------
    def _unpowered(self):
        if self.tapping is not None:
            self.sim.request({"op": "card_off", "reader": "tap"})  # picked up meanwhile
            self.tapping = None

    def _timers(self):
        if self.tapping is not None and self.clock_ms >= self.tapping[1]:
            self.sim.request({"op": "card_off", "reader": "tap"})
            self.tapping = None
        self._listen()

    def _listen(self):
        """The buzzer's notes since the last look (the device logs each change of the pin's
        PWM, several in one board microsecond: they are counted, not only timed)."""
        last_t, done = self.buzz_seen
        count = 0  # notes at last_t met so far
        for t_us, hz, duty in self.sim.request({"op": "buzzer"}).get("notes", []):
            if t_us < last_t:
                continue
            if t_us == last_t:
                count += 1
                if count <= done:
                    continue
                done = count
            else:
                last_t, done, count = t_us, 1, 1
            if hz and duty:
                self.buzz = (hz, self.clock_ms)
        self.buzz_seen = (last_t, done)

    def _follow(self, view):
        """The cards follow the board's events (_on_event); a game the board resumed from its
        flash before these cards were dealt is laid out as its public view counts it."""
        if view is not None and not self.cards.hands:
            tags = self.sim.mirror.snapshot()["tags"]
            by_uid = dict((self.cards.uid(h), h) for h in self.cards.handles)
            self.cards.arrange(view, dict((pad, by_uid.get(tags.get(pad, [None])[0]))
                                          for pad in tags if tags[pad]))

    def _meaning(self, loc, rgb):
        return avenue_lights.meaning(loc, rgb, self.view)

    def _took_in(self, ev):
        kind = ev.get("event")
        if kind == "new_game":
            self.result = None
            if self.dealt:
                self.dealt = False
            else:  # begun with the board's own menu: the players collect and deal
                self._collect()
                self.cards.new_game(ev["seats"], ev.get("mode") == "advanced", False)
        elif kind == "end":
            self.result = dict((k, ev[k]) for k in ("winner", "reason", "tie") if k in ev)
            self.result["text"] = words(ev, GAME)
        self.cards.follow(ev, self.view.get("seat", 0) if self.view else 0)

    def _collect(self):
        """Every card off every pad (a new game)."""
        self.sim.request({"op": "card_off"})
        self.tapping = None

    def _powered(self):
        self.tapping = None
        self.buzz_seen = (-1, 0)  # a new device process: its clock starts again

    # -- what the page may see -------------------------------------------------------------
    def layout(self):
        """The board to draw: its spaces, homes and black-market spaces (the rules core's
        board data), pawns and readers (the variant), LEDs, and the cards' names."""
        with open(os.path.join(paths.HARDWARE, "variants", BOARD, "variant.json")) as f:
            info = json.load(f)
        with open(os.path.join(paths.HARDWARE, "variants", BOARD, "leds.json")) as f:
            leds = json.load(f)["leds"]
        with open(NAMES) as f:
            names = json.load(f)
        with open(CARDS) as f:
            values = json.load(f)
        moves = dict((a["name"], a["moves"]) for a in values["agents"])
        kinds = dict((m["name"], m["kind"]) for m in values["market"])
        return {"board": BOARD, "game": GAME, "spaces": TB.spaces, "locations": self.locations,
                "sides": list(SIDES),
                "homes": dict((SIDES[i], TB.home[i]) for i in range(len(SIDES))),
                "market_spaces": [i for i in range(TB.spaces) if TB.is_market[i]],
                "pawns": dict((p, info["pawns"][p]["side"]) for p in sorted(info["pawns"])),
                "readers": [r for r in info["readers"]],
                "seat_leds": [x for x in leds if x.startswith("seat:")],
                "agents": [{"name": a["name"], "en": a["names"]["en"], "it": a["names"]["it"],
                            "moves": moves[a["name"]]} for a in names["agents"]],
                "market": [{"name": m["name"], "en": m["names"]["en"], "kind": kinds[m["name"]],
                            "text": m.get("text")} for m in names["market"]],
                "games": self.games, "modes": list(avenue_actions.MODES),
                "seats": dict((str(n), list(s)) for n, s in sorted(SEATS.items()))}

    def _listed(self, handles):
        """Cards as the page may see them, in table order."""
        return [{"id": h, "card": self.cards.kind(h)} for h in
                sorted(handles, key=lambda h: (_order(self.cards.kind(h)), int(h[1:])))]

    def _shown(self, side):
        """Whether the page shows this side's hands now."""
        return side == acting_side(self.view)

    def state(self, referee=False, since=0):
        with self.lock:
            pieces, _, _ = self._pieces()
            c = self.cards
            view = self.view
            hands = {}
            for side in SIDES:
                seats = view["seats"][side] if view else max(
                    [0] + [k[1] + 1 for k in c.hands if k[0] == side])
                hands[side] = [{"seat": seat, "count": len(c.hands.get((side, seat), [])),
                                "cards": self._listed(c.hands.get((side, seat), []))
                                if self._shown(side) else None} for seat in range(seats)]
            up = c.pads["up"]
            blinking = dict((loc, m) for loc, (m, _) in self.blinking.items())
            lights = avenue_lights.meanings(self.leds, view, blinking)
            events = self._events()
            device = self.device()
            hz, at = self.buzz
            sounding = at is not None and self.clock_ms - at <= BUZZ_SHOWN_MS
            out = {
                "clock_ms": self.clock_ms,
                "device": device,
                "leds": dict((loc, self.leds[loc]) for loc in sorted(self.leds)),
                "lights": lights,
                "pieces": pieces,
                "held": self._held(),
                "hands": hands,
                "pads": {"up": None if up is None else {"id": up, "card": c.kind(up)},
                         "down": c.pads["down"] is not None,
                         "tap": self.tapping is not None},
                "lifted": [{"from": pad} for _, pad in c.lifted],
                "tableaux": dict((s, self._listed(c.tableau[s])) for s in SIDES),
                "offer": [None if h is None else self._listed([h])[0] for h in c.offer],
                "tops": {"deck": len(c.deck) > 0, "market": len(c.market) > 0},
                "buzzer": {"sounding": sounding, "hz": hz if sounding else 0},
                "result": self.result,
                "view": view,
                "guidance": avenue_guidance.line(view, events, pieces, len(self.held), device,
                                                 len(c.lifted), self.result, lights),
                "status": self.status(),
                "acts": acting(view),
                "tap_from": avenue_guidance.tap_from(view),
                "events": self._said(since),
                "referee": bool(referee),
            }
            if referee:
                out["truth"] = {
                    "down": None if c.pads["down"] is None else c.kind(c.pads["down"]),
                    "lifted": [c.kind(h) for h, _ in c.lifted],
                    "hands": dict((s, [[x["card"] for x in self._listed(c.hands.get((s, k),
                                                                                   []))]
                                       for k in range(len(hands[s]))]) for s in SIDES),
                    "deck_top": c.kind(c.deck[-1]) if c.deck else None,
                    "market_top": c.kind(c.market[-1]) if c.market else None,
                    "discards": sorted((c.kind(h) for h in c.discards), key=_order)}
            return out

    def _classes(self):
        """The classes the firmware reads when it shows its sensors (between games: during
        one they would tell the pawns' magnets apart); none while the board is off."""
        fw = self._send({"op": "sensors"}) if self.sim.alive() else None
        classes = {}
        if fw and fw.get("ok"):
            got = fw.get("sensors", {})
            classes = dict(zip(got.get("loc", []), got.get("class", [])))
        return classes.get

    # -- hands -------------------------------------------------------------------------------
    def _check(self, req):
        """The action checked whole (host_tools/games/avenue/actions.py)."""
        avenue_actions.check(req, self.location_set)

    def _before_act(self):
        if self.sim.alive():
            self._console()  # the cards lie where the board's events so far put them

    def _act(self, op, req, occupied):
        if op == "card":
            return self._card(req["id"], req["reader"])
        if op == "card_off":
            return self._card_off(req["reader"])
        return self._new_game(req["players"], req.get("mode", "simple"))  # the last of SHAPES

    def _hand_cards(self):
        side = acting_side(self.view)
        out = []
        for key in sorted(self.cards.hands):
            if key[0] == side:
                out.extend(self.cards.hands[key])
        return out

    def _reachable(self, cid):
        """The card a tap with this id means, or None when it is not within reach."""
        c = self.cards
        if cid == TOPS[0]:
            return c.deck[-1] if c.deck else None
        if cid == TOPS[1]:
            return c.market[-1] if c.market else None
        if cid in self._hand_cards() or cid in c.offer or any(
                cid in c.tableau[s] for s in SIDES):
            return cid
        return None

    def _card(self, cid, reader):
        if not self.sim.alive():
            return refuse("the board has stopped: power it on first", "device_off")
        c = self.cards
        if reader == "tap":
            if self.tapping is not None:
                return refuse("a card is on the tap pad: wait for the board to read it")
            h = self._reachable(cid)
            if h is None:
                return refuse(OUT_OF_REACH, "bad_request")
            ans = public_answer(self.sim.request({"op": "card", "uid": c.uid(h),
                                                  "reader": "tap"}))
            if ans["ok"]:
                if cid == TOPS[1] and self.view and self.view.get("tap") == "offer":
                    c.lay_offer()  # the setup: revealed, tapped, laid in the offer
                c.tapped = h
                self.tapping = (h, self.clock_ms + CARD_ON_MS)
            return ans
        if c.pads[reader] is not None:
            return refuse("a card lies on the %s pad: take it off first" % reader)
        if cid == LIFTED:
            h = c.lifted_from(reader)
            if h is None:
                return refuse("no card taken off the %s pad is in a hand" % reader)
        elif cid in self._hand_cards():
            h = cid
        else:
            return refuse(OUT_OF_REACH, "bad_request")
        ans = public_answer(self.sim.request({"op": "card", "uid": c.uid(h), "reader": reader}))
        if ans["ok"]:
            if cid == LIFTED:
                c.put_back(reader)
            else:
                c.put(h, reader)
        return ans

    def _card_off(self, reader):
        if self.cards.pads[reader] is None:
            return refuse("no card lies on the %s pad" % reader)
        ans = public_answer(self.sim.request({"op": "card_off", "reader": reader}))
        if ans["ok"]:
            self.cards.lift(reader)
        return ans

    def _new_game(self, players, mode):
        if not self.sim.alive():
            return refuse("the board has stopped: power it on first", "device_off")
        seats = dict(zip(SIDES, SEATS[players]))
        # the players collect every card, shuffle and deal, then start the game on the board
        self._collect()
        offer = self.cards.new_game(seats, mode == "advanced")
        cmd = {"op": "new_game", "game": GAME, "mode": mode, "players": players,
               "seats": seats}
        if offer:
            cmd["offer"] = offer
        self.dealt = True
        ans = self._send(cmd)
        if not ans or not ans.get("ok"):
            self.dealt = False
            self.cards.collect()  # collected, not dealt: the table as it now is
            return public_answer(ans or refuse("the board did not answer", "internal"))
        self.view = None
        self._read_view()
        return {"ok": True}
