"""Simulated players at the simulated Agent Avenue board: they hold the cards (the rules core's
random games choose their decisions, shared_rules/avenue/randgame.py), carry each decision out
with their hands over the control channel (cards on the up, down and tap pads, pawns lifted and
put down, buttons), and keep their own rules game beside the board's. Nothing here reads the
board to decide what to do: where a pawn goes comes from the players' own game. The demo
(host_tools/sim/avenue_demo.py) and the board's tests (tests/test_avenue_board_*.py) use them."""
import json
import os

from host_tools.sim.server import Sim
from shared_rules.avenue import tables, legality, randgame
from shared_rules.avenue import move as M
from shared_rules.avenue import position
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import PLAY, RECRUIT, MARKET
from shared_rules.avenue.tables import NONE
from shared_rules.rng import Rng

TB = tables.load()
PAWN = ("green-pawn", "blue-pawn")
READ_MS = 400       # a card on a pad is read within two polls of the three readers
OFF_MS = 900        # a card lifted is noticed after three empty polls
MOVE_MS = 400       # a pawn put down: four stable scans, then a still one
HOLD_MS = 2100      # holding a button


class BoardError(AssertionError):
    pass


def public_of(st):
    """What the board's public view must say of the players' own game: the rules position with
    the face-down card hidden."""
    out = position.dump(st)
    if "played" in out:
        out["played"]["down"] = "hidden"
    return out


class Players:
    def __init__(self, seed, mode="simple", seats=(1, 1), sim=None, flash=None, enrol=False,
                 offer_by_tap=False, board_seed=1, console_start=True):
        """console_start False: the players start the game on the board itself (its menu);
        new_game is not sent."""
        self.sim = sim or Sim(seed=board_seed, flash=flash, board="agent-avenue")
        self.lines = []
        self.deck = [(c["uid"], c["card"]) for c in self.ask({"op": "deck"})["cards"]]
        if enrol:
            for uid, kind in self.deck:
                self.console({"op": "enrol", "uid": uid, "card": kind})
        else:
            with open(os.path.join(self.sim.flash, "cards.json"), "w") as f:
                for uid, kind in self.deck:
                    f.write(json.dumps([uid, kind]) + "\n")
            self.ask({"op": "power_cut"})
            self.ask({"op": "power_on"})
            self.wait(300)
        self.uids = {}
        for uid, kind in self.deck:
            self.uids.setdefault(kind, []).append(uid)
        self.rng, self.table, self.st = randgame.start(TB, seed, mode == "advanced", seats)
        self.lit = 0  # the team seat the board has lit
        self.held = [False, False]
        self.decisions = 0
        if not console_start:
            return
        req = {"op": "new_game", "game": "agent-avenue", "mode": mode,
               "players": seats[0] + seats[1],
               "seats": {"green": seats[0], "blue": seats[1]},
               "active": TB.sides[self.st.active]}
        if mode == "advanced" and not offer_by_tap:
            req["offer"] = [TB.market_names[c] for c in self.table.offer]
        ans = self.console(req)
        if not ans.get("ok"):
            raise BoardError("new_game refused: %s" % ans)
        if mode == "advanced" and offer_by_tap:
            for c in self.table.offer:
                self.tap(self.uid(TB.market_names[c]))
        self.wait(200)

    # -- the control channel -----------------------------------------------------------------
    def ask(self, req):
        ans = self.sim.request(req)
        if not ans.get("ok"):
            raise BoardError("%s refused: %s" % (req, ans))
        return ans

    def wait(self, ms):
        self.ask({"op": "wait", "ms": ms})

    def console(self, cmd):
        lines = [json.loads(x) for x in self.ask({"op": "console", "send": cmd})["lines"]
                 if x.startswith("{")]
        ans = None
        for obj in lines:
            if obj.get("re") == cmd["op"]:
                ans = obj
            else:
                self.lines.append(obj)
        return ans

    def drain(self):
        """Console events since the last look."""
        out = [json.loads(x) for x in self.ask({"op": "console"})["lines"] if x.startswith("{")]
        self.lines.extend(out)
        return out

    def view(self):
        return self.console({"op": "public"})["view"]

    def uid(self, kind, besides=()):
        for u in self.uids[kind]:
            if u not in besides:
                return u
        raise BoardError("no free card %s" % kind)

    # -- hands ------------------------------------------------------------------------------
    def put(self, uid, reader):
        self.ask({"op": "card", "uid": uid, "reader": reader})
        self.wait(READ_MS)

    def take(self, reader):
        self.ask({"op": "card_off", "reader": reader})
        self.wait(OFF_MS)

    def tap(self, uid):
        self.put(uid, "tap")
        self.take("tap")

    def press(self, button, ms=100):
        self.ask({"op": "press", "button": button, "ms": ms})
        self.wait(ms + 200)

    def pawns_to(self, st):
        """Moves the pawns to where the players' game has them (a pawn whose space the other
        pawn holds stays in the hand: the two never stand on one sensor)."""
        where = self.ask({"op": "world"})["pieces"]
        moving = [s for s in (0, 1) if where[PAWN[s]]["at"] != str(st.pawns[s])]
        occupied = {}
        for s in (0, 1):
            if s not in moving and where[PAWN[s]]["at"] is not None:
                occupied[where[PAWN[s]]["at"]] = s
        for s in moving:
            if where[PAWN[s]]["at"] is not None:
                self.ask({"op": "lift", "at": where[PAWN[s]]["at"]})
        for s in moving:
            t = str(st.pawns[s])
            if t in occupied:
                continue  # the other pawn stands there: this one stays in the hand
            self.ask({"op": "place", "piece": PAWN[s], "at": t})
            occupied[t] = s
        if moving:
            self.wait(MOVE_MS)

    # -- one decision -----------------------------------------------------------------------
    def side_acting(self, st):
        return st.pending[0] if st.phase == MARKET else st.active

    def choose(self):
        return randgame.choose(self.st, self.table, self.rng)

    def light_seat(self, seat):
        """A team's players pass the lit seat until it is the one that acts."""
        side = self.side_acting(self.st)
        if self.st.seats[side] == 2 and self.lit != seat:
            self.press("confirm")
            self.lit = seat

    def carry_out(self, mv):
        """Does decision mv with hands and buttons, then moves the pawns it moved."""
        st = self.st
        legality.check(st, mv)
        new, events = apply(st, mv)
        self.table.follow(events)
        if mv.kind == M.DISCARD:
            self.light_seat(mv.seat)
            self.tap(self.uid(TB.agent_names[self.discarded_kind()]))
        elif mv.kind == M.PLAY:
            self.light_seat(mv.up_seat)
            up = self.uid(TB.agent_names[mv.up])
            self.put(up, "up")
            if mv.forced:
                self.press("confirm", HOLD_MS)
            self.put(self.uid(TB.agent_names[mv.down], (up,)), "down")
        elif mv.kind == M.RECRUIT:
            first, second = ("up", "down") if mv.take == M.TAKE_UP else ("down", "up")
            self.take(first)
            self.take(second)
        else:
            self.light_seat(mv.seat)
            self.tap(self.uid(TB.market_names[mv.card]))
            if mv.refill != NONE:
                self.tap(self.uid(TB.market_names[mv.refill]))
            needs = TB.needs[mv.card]
            if "top" in needs or "agent" in needs:
                if mv.agent == NONE:
                    self.press("back")
                else:
                    a = self.uid(TB.agent_names[mv.agent])
                    self.tap(a)
                    if "again" in needs:
                        if mv.again:
                            self.tap(a)
                        else:
                            self.press("back")
        self.st = new
        self.pawns_to(new)
        if new.phase == PLAY and mv.kind != M.DISCARD:
            self.lit = 0  # a new turn lights seat 0
        if new.phase == MARKET and self.side_acting(new) != self.side_acting(st):
            self.lit = 0
        self.decisions += 1
        return events

    def discarded_kind(self):
        return self.table.discarded[-1]

    def play_to_end(self, check=None, max_decisions=400):
        """Plays the players' game to its end on the board; check(players) after each
        decision."""
        while self.st.winner < 0:
            if self.decisions >= max_decisions:
                raise BoardError("no end after %d decisions" % self.decisions)
            mv = self.choose()
            self.carry_out(mv)
            if check:
                check(self)
        return self.st

    def close(self):
        self.sim.close()


def same_game(players, view):
    """The parts of the board's public view that are the rules position agree with the
    players' own game; returns what differs."""
    want = public_of(players.st)
    diff = []
    for k in want:
        got = view.get("rules_phase") if k == "phase" else view.get(k)
        if got != want[k]:
            diff.append("%s: board %r, players %r" % (k, got, want[k]))
    board_phase = "game_over" if players.st.winner >= 0 else want["phase"]
    if view.get("phase") != board_phase:
        diff.append("board phase %r, expected %r (expected locations %r)"
                    % (view.get("phase"), board_phase, view.get("expected")))
    return diff
