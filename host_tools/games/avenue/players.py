"""Simulated players at the simulated Agent Avenue board: they hold the cards (the rules core's
random games choose their decisions, shared_rules/avenue/randgame.py), carry each decision out
with their hands over the control channel (cards on the up, down and tap pads, pawns lifted and
put down, buttons), and keep their own rules game beside the board's. Nothing here reads the
board to decide what to do: where a pawn goes comes from the players' own game. The demo
(host_tools/games/avenue/demo.py) and the board's tests (tests/firmware/test_avenue_board_*.py,
tests/host/games/avenue/test_avenue_board_record.py) use them."""
import json
import os

from host_tools.sim import waiting
from host_tools.sim.server import Sim
from shared_rules.avenue import tables, legality, randgame
from shared_rules.avenue import move as M
from shared_rules.avenue import position
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import PLAY, RECRUIT, MARKET
from shared_rules.avenue.tables import NONE
from shared_rules.rng import Rng

GAME = "agent-avenue"  # the game these players play, as the board's console names it
TB = tables.load()
PAWN = ("green-pawn", "blue-pawn")
# the longest the players wait for the board's answer to a hand (it comes sooner: they go on
# once it is there): a card on a pad is read within two polls of its reader
READ_MS = waiting.CARD_READ_MS
OFF_MS = waiting.CARD_GONE_MS  # a card lifted is noticed after the reader's empty polls
# a pawn put down: the debounce (a still scan after it at the most) before the board decides
MOVE_MS = waiting.SETTLE_MS + waiting.SCAN_MS
PAWN_MS = 3 * MOVE_MS  # at most: noise on a space may restart its debounce
HOLD_MS = 2100      # holding a button
BOOT_MS = 1500      # after power-on: the boot, the resume, the pads read (BOOT_POLLS rounds)
PADS = ("up", "down", "tap")
# the rules core's events that are a decision itself (each decision has one of them)
DECIDED = ("discard", "play", "recruit", "market")
# the board's answers to a card put on a pad, a button, pawns put down
CARD_ANSWERS = ("card", "tap", "reject", "forced", "seat", "taken") + DECIDED
PAWN_ANSWERS = ("turn", "win")  # the pawns seen where the decision put them
WAITS_FOR_PAWNS = ("await_effect", "mismatch")  # the view's phases until then


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
        # console lines (as written) a wait for the board's answer read that no look at the
        # console (console_lines, drain) has given yet
        self.unread = []
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
        self.pads = dict((r, None) for r in PADS)  # the sticker lying on each pad
        self.played = None  # the UIDs played face up and face down (phase recruit)
        # the decision under way: (move, position after it, its events) until it is done
        self.pending = None
        # a hand that first puts a card on a wrong pad and takes it back (tests):
        # fumble(players, mv) -> (uid, pad) or None, before a play's first card
        self.fumble = None
        if not console_start:
            return
        req = {"op": "new_game", "game": GAME, "mode": mode,
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

    def wait_for(self, kinds, ms):
        """Lets the board run until it reports an event of one of those kinds, at most ms: a
        person waits for the board's answer, not a fixed time. True if it came."""
        # what came before (board time stands still since the hand acted) is no answer
        self.unread.extend(self._pull())
        n = len(self.lines)

        def came():
            self.unread.extend(self._pull())
            return any(e.get("event") in kinds for e in self.lines[n:])
        return waiting.run_until(self.ask, ms, came)[0]

    def console(self, cmd):
        """Sends a console command; returns the board's answer to it."""
        ans = None
        for x in self.ask({"op": "console", "send": cmd})["lines"]:
            obj = json.loads(x) if x.startswith("{") else {}
            if obj.get("re") == cmd["op"]:
                ans = obj
                continue
            # the board ran until it answered: what else it wrote meanwhile (an event) waits
            # for the next look at the console, as every line does
            self.unread.append(x)
            if obj:
                self.lines.append(obj)
        return ans

    def drain(self):
        """Console events since the last look."""
        return [json.loads(x) for x in self.console_lines() if x.startswith("{")]

    def console_lines(self):
        """Every console line the board wrote since the last look, as written: those the
        players' waits read meanwhile too (a test that reads the control channel's console
        itself would miss them)."""
        out = self.unread + self._pull()
        self.unread = []
        return out

    def _pull(self):
        """The board's new console lines, as written; their events join self.lines."""
        lines = self.ask({"op": "console"})["lines"]
        self.lines.extend(json.loads(x) for x in lines if x.startswith("{"))
        return lines

    def view(self):
        return self.console({"op": "public"})["view"]

    def uid(self, kind, besides=()):
        for u in self.uids[kind]:
            if u not in besides:
                return u
        raise BoardError("no free card %s" % kind)

    # -- hands ------------------------------------------------------------------------------
    def put(self, uid, reader):
        self.pads[reader] = uid  # known before the board is asked: a power cut may come then
        self.ask({"op": "card", "uid": uid, "reader": reader})
        self.wait_for(CARD_ANSWERS, READ_MS)

    def take(self, reader):
        self.lift_card(reader)
        self.wait(OFF_MS)

    def lift_card(self, reader):
        """The card on that pad taken up (the board may be off: hands still move cards)."""
        self.pads[reader] = None
        self.ask({"op": "card_off", "reader": reader})

    def tap(self, uid):
        self.put(uid, "tap")
        self.take("tap")

    def tap_discard(self, uid):
        """A card discarded: tapped on the tap pad, then put on the discard pile beside it."""
        self.put(uid, "tap")
        self.pads["tap"] = None
        self.ask({"op": "discard", "reader": "tap"})
        self.wait(OFF_MS)

    def press(self, button, ms=100):
        self.ask({"op": "press", "button": button, "ms": ms})
        # held down for ms; the board must see it released before a button is pressed again
        self.wait(ms + waiting.RELEASE_MS)

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
            self.pawns_seen()

    def pawns_seen(self):
        """Lets the board run until it has seen the pawns where they were put: its answer (a
        turn, a win; none in the other phases) or its view no longer waiting for them; at most
        PAWN_MS."""
        if self.wait_for(PAWN_ANSWERS, MOVE_MS):
            return
        left = PAWN_MS - MOVE_MS
        while left > 0 and self.view()["phase"] in WAITS_FOR_PAWNS:
            self.wait(waiting.SCAN_MS)
            left -= waiting.SCAN_MS

    # -- one decision -----------------------------------------------------------------------
    def choose(self):
        return randgame.choose(self.st, self.table, self.rng)

    def light_seat(self, seat):
        """A team's players pass the lit seat until it is the one that acts."""
        side = self.st.who_acts()
        if self.st.seats[side] == 2 and self.lit != seat:
            self.press("confirm")
            self.lit = seat

    def carry_out(self, mv):
        """Does decision mv with hands and buttons, then moves the pawns it moved."""
        st = self.st
        legality.check(st, mv)
        new, events = apply(st, mv)
        self.pending = (mv, new, events)
        if mv.kind == M.DISCARD:
            self.light_seat(mv.seat)
            self.tap_discard(self.uid(TB.agent_names[self.discarded_kind()]))
        elif mv.kind == M.PLAY:
            self.play_cards(mv)
        elif mv.kind == M.RECRUIT:
            self.take(self.recruit_order(mv)[0])
            self.take(self.recruit_order(mv)[1])
        else:
            self.light_seat(mv.seat)
            self.market_taps(mv)
        self.pawns_to(new)
        return self.decided()

    def play_cards(self, mv, lying=None):
        """The lit seat's card face up, then its partner's (or its own) face down; lying: the
        pads whose card the board already counts (its view's `pads`): they stay."""
        lying = lying or {"up": None, "down": None}
        up, down = self.played = self.play_uids(mv)
        if lying["up"] is None:
            self.light_seat(mv.up_seat)
            wrong = self.fumble(self, mv) if self.fumble else None
            if wrong is not None:
                self.put(wrong[0], wrong[1])
                self.take(wrong[1])
            self.put(up, "up")
        if mv.forced:
            self.press("confirm", HOLD_MS)
        if lying["down"] is None:
            self.put(down, "down")

    def play_uids(self, mv):
        """The stickers of the cards the players play face up and face down."""
        up = self.uid(TB.agent_names[mv.up])
        return up, self.uid(TB.agent_names[mv.down], (up,))

    @staticmethod
    def recruit_order(mv):
        """The pads in the order the cards leave them: the other side's card first."""
        return ("up", "down") if mv.take == M.TAKE_UP else ("down", "up")

    def market_steps(self, mv):
        """The taps of a black-market decision, each named as the view's `tap` names what the
        tap pad waits for: (what, action)."""
        steps = [("market", lambda: self.tap(self.uid(TB.market_names[mv.card])))]
        if mv.refill != NONE:
            steps.append(("refill", lambda: self.tap(self.uid(TB.market_names[mv.refill]))))
        needs = TB.needs[mv.card]
        if "top" in needs or "agent" in needs:
            if mv.agent == NONE:
                steps.append(("agent", lambda: self.press("back")))
            else:
                a = self.uid(TB.agent_names[mv.agent])
                steps.append(("agent", lambda: self.tap(a)))
                if "again" in needs:
                    steps.append(("again", lambda: self.tap(a) if mv.again
                                  else self.press("back")))
        return steps

    def market_taps(self, mv, start="market"):
        """The taps from the one the tap pad waits for."""
        steps = self.market_steps(mv)
        names = [what for what, _ in steps]
        if start not in names:
            raise BoardError("the board waits for a %s tap; the players' %s has %s"
                             % (start, M.KINDS[mv.kind], names))
        for _, act in steps[names.index(start):]:
            act()

    def decided(self):
        """The decision under way is done: the players' game moves on with it."""
        mv, new, events = self.pending
        st = self.st
        self.pending = None
        self.table.follow(events)
        self.st = new
        if new.phase == PLAY and mv.kind != M.DISCARD:
            self.lit = 0  # a new turn lights seat 0
        if new.phase == MARKET and new.who_acts() != st.who_acts():
            self.lit = 0
        self.decisions += 1
        return events

    # -- after a power cut --------------------------------------------------------------
    def recover(self, confirm=False):
        """Once the power is back after a cut, the players read the board and do what it asks
        (docs/power-cuts.md), then finish the decision under way, if any: the `resumed` event
        says how many decisions the board kept; a decision it kept is finished (its pawns
        moved where the board shows them), one it lost is done again from what the board
        says it has (the view's `pads`, `put_back`, `tap`, `seat`). A decision the board
        takes at power-up must come from cards lying on their pads (one player a side reads a
        card found there as put there now), never a recruit: BoardError otherwise. confirm:
        in a recruit whose card taken is gone, say so with **confirm** instead of putting it
        back. Returns the events of the decision under way, or None."""
        self.wait(BOOT_MS)
        seen = self.drain()
        resumed = [e for e in seen if e.get("event") == "resumed"]
        if len(resumed) != 1:
            raise BoardError("not one resume after the power cut: %s" % seen)
        kept = resumed[0]["decisions"]
        at_boot = [e for e in seen[seen.index(resumed[0]):] if e.get("event") in DECIDED]
        view = self.view()
        self.lit = view["seat"]
        if self.pending is None:
            if kept != self.decisions or at_boot:
                raise BoardError("the board resumed %d decisions and took %s; the players "
                                 "have %d" % (kept, at_boot, self.decisions))
            self.put_back(view)
            self.pawns_to(self.st)
            return None
        mv = self.pending[0]
        if at_boot:
            self.taken_at_boot(mv, kept, at_boot)
        elif kept == self.decisions:
            self.again(mv, view, confirm)
        elif kept != self.decisions + 1:
            raise BoardError("the board resumed %d decisions; the players have %d and one "
                             "under way" % (kept, self.decisions))
        else:
            self.put_back(view)  # a play kept: its cards lie on their pads for the recruit
        if self.pads["tap"] is not None:
            self.take("tap")  # a card tapped already
        self.pawns_to(self.pending[1])
        return self.decided()

    def put_back(self, view):
        """The played cards the board waits to read again (its view's `put_back`), put back on
        their pads."""
        for r in view["put_back"]:
            self.put(self.played[("up", "down").index(r)], r)

    def taken_at_boot(self, mv, kept, at_boot):
        """The board decided at power-up: only the decision under way, from its cards lying
        on the pads."""
        if kept != self.decisions or len(at_boot) != 1 or at_boot[0]["event"] != M.KINDS[
                mv.kind]:
            raise BoardError("at power-up the board took %s (%d decisions kept); the players "
                             "have %d and %s under way" % (at_boot, kept, self.decisions,
                                                           M.KINDS[mv.kind]))
        lying = (mv.kind == M.PLAY and self.played is not None and
                 (self.pads["up"], self.pads["down"]) == self.played) or \
            (mv.kind in (M.DISCARD, M.MARKET) and self.pads["tap"] is not None)
        if not lying:
            raise BoardError("at power-up the board took a %s from cards not on its pads "
                             "(%s)" % (M.KINDS[mv.kind], self.pads))

    def again(self, mv, view, confirm):
        """The decision under way was lost: done again from what the board has."""
        if view["expected"]:
            # pawns moved while the board was off: back first (the board, which cannot know
            # whether the last decision's pawns had arrived, may call this await_effect)
            self.pawns_to(self.st)
            view = self.view()
        if mv.kind == M.RECRUIT:
            self.recruit_again(mv, view, confirm)
            return
        mine = dict(zip(("up", "down"), self.play_uids(mv))) if mv.kind == M.PLAY else {}
        for r in ("up", "down"):
            if self.pads[r] is not None and (view["pads"][r] is None or
                                             self.pads[r] != mine.get(r)):
                self.take(r)  # refused at power-up (lifted, put down again), or not this play's
        view = self.view()
        if self.pads["tap"] is not None:
            self.take("tap")
        if mv.kind == M.PLAY:
            self.play_cards(mv, view["pads"])
        elif mv.kind == M.DISCARD:
            self.light_seat(mv.seat)
            self.tap_discard(self.uid(TB.agent_names[self.discarded_kind()]))
        else:
            if view["taken"] is None:
                self.light_seat(mv.seat)
            self.market_taps(mv, view["tap"])

    def recruit_again(self, mv, view, confirm):
        """A recruit after power-up: the played cards missing from their pads are put back
        (or, with confirm, the card taken first is said gone); then the cards are taken."""
        first, second = self.recruit_order(mv)
        missing = view["put_back"]
        if confirm and first in missing:
            if second in missing:
                self.put(self.played[("up", "down").index(second)], second)
            self.press("confirm")
            taken = [e for e in self.drain() if e.get("event") == "taken"]
            if taken != [{"event": "taken", "face": first}]:
                raise BoardError("confirm with %s gone: %s" % (first, taken))
        else:
            self.put_back(view)
            if self.view()["put_back"]:
                raise BoardError("both played cards lie on their pads; the board still asks "
                                 "for %s" % self.view()["put_back"])
        for r in (first, second):
            if self.pads[r] is not None:
                self.take(r)

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
