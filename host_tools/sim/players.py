# Players at a simulated table (for tests and the demo): they tap cards on the reader, lift and place pieces through the
# simulator's control channel, and carry out the effects the board announces. They keep their
# own copy of the game with the rules core (what a careful human scorekeeper would know), which
# the tests compare with what the board says.
import json
import os

from host_tools.sim.server import Sim
from shared_rules import movegen, split, variant
from shared_rules.apply import apply as rules_apply
from shared_rules.move import Move
from shared_rules.state import new_game

GAME = variant.load(variant.DEFAULT)
LAY = GAME.lay
CARDS = GAME.cards
HOLES = {4, 7, 12, 20, 23, 28, 36, 39, 44, 52, 55, 60}
SETTLE_MS = 160  # more than the scanner's four-scan debounce (80 ms) plus a scan
PASS_MS = 2000  # the pass gesture: hold back for 2 s (docs/board-protocols.md, section 2)


class TableError(AssertionError):
    pass


def wloc(loc):
    """A rules board location as a board location name."""
    return str(LAY.loc_json(loc))


class Table:
    def __init__(self, seed=1, flash=None, enrol=True, heap_kw=None, code=None, link=None):
        """link: another control channel with the Sim's request() and flash (a virtual
        device's, host_tools.virtual.link)."""
        self.sim = link or Sim(seed=seed, flash=flash, heap_kw=heap_kw, code=code)
        self.events = []
        self.answers = []
        deck = self.ask({"op": "deck"})["cards"]
        self.deck = deck
        if enrol:
            # the enrolment file as the device writes it; console enrolment is tested apart
            with open(os.path.join(self.sim.flash, "cards.json"), "w") as f:
                for c in deck:
                    f.write(json.dumps([c["uid"], c["card"]]) + "\n")
            self.power_cycle()
        self.st = None

    def close(self):
        self.sim.close()

    def ask(self, req, ok=True):
        ans = self.sim.request(req)
        if ok and not ans.get("ok"):
            raise TableError("%s -> %s" % (req, ans))
        return ans

    def power_cycle(self):
        self.ask({"op": "power_cut"})
        self.ask({"op": "power_on"})
        self.wait(100)

    # -- time and the console --------------------------------------------------------------
    def wait(self, ms=SETTLE_MS):
        self.ask({"op": "wait", "ms": ms})
        return self.pull()

    def pull(self):
        new = []
        for line in self.ask({"op": "console"})["lines"]:
            if line.startswith("{"):
                obj = json.loads(line)
                if "re" in obj:
                    self.answers.append(obj)
                else:
                    new.append(obj)
        self.events.extend(new)
        return new

    def send(self, cmd):
        lines = self.ask({"op": "console", "send": cmd})["lines"]
        ans = None
        for line in lines:
            obj = json.loads(line)
            if obj.get("re") == cmd["op"]:
                ans = obj
            elif "re" not in obj:
                self.events.append(obj)
        if ans is None:
            raise TableError("no answer to %s" % cmd)
        return ans

    def public(self):
        ans = self.send({"op": "public"})
        if not ans["ok"]:
            raise TableError(ans)
        return ans["view"]

    def phase(self):
        return self.public()["phase"]

    def since(self, n):
        return self.events[n:]

    # -- hands ----------------------------------------------------------------------------
    def world(self):
        return self.ask({"op": "world"})["pieces"]

    def at(self, where):
        for name, p in self.world().items():
            if p["at"] == where:
                return name
        return None

    def lift(self, where):
        return self.ask({"op": "lift", "at": where})["piece"]

    def place(self, piece, where, upside_down=None):
        if upside_down is None:
            upside_down = where.isdigit() and int(where) in HOLES
        self.ask({"op": "place", "piece": piece, "at": where, "upside_down": upside_down})

    def free_spot(self, colour):
        taken = [p["at"] for p in self.world().values()]
        for k in range(1, 5):
            s = "%s:s%d" % (colour, k)
            if s not in taken:
                return s
        raise TableError("no free spot in %s's start area" % colour)

    def taken_spot(self, colour):
        w = self.world()
        for k in range(1, 5):
            s = "%s:s%d" % (colour, k)
            if any(p["at"] == s for p in w.values()):
                return s
        raise TableError("%s's start area is empty" % colour)

    def card(self, kind):
        n = len(self.events)
        self.ask({"op": "card", "card": kind})
        self.wait(150)
        self.ask({"op": "card_off"})
        self.wait(350)  # the reader calls a card gone after three empty polls (300 ms)
        return self.since(n)

    # -- a game -----------------------------------------------------------------------------
    def new_game(self, players=4, seats=None, dealer=None):
        cmd = {"op": "new_game", "players": players}
        if seats:
            cmd["seats"] = seats
        if dealer:
            cmd["dealer"] = dealer
        ans = self.send(cmd)
        if not ans["ok"]:
            raise TableError(ans)
        view = self.public()
        for colour in view["cards_left"]:
            piece = self.lift(self.taken_spot(colour))
            self.place(piece, str(LAY.start[LAY.cidx[colour]]))
        self.wait()
        self.st = new_game(GAME, players, None if seats is None else [LAY.cidx[c] for c in seats],
                           None if dealer is None else LAY.cidx[dealer])
        if self.phase() != "await_card":
            raise TableError("setup not accepted: %s" % self.public())

    def play(self, card, mv, meet_first=True):
        """Plays card kind `card` with the rules Move mv the way players do it; returns the
        events from the card to the next turn."""
        n = len(self.events)
        evs = self.card(card)
        if not any(e.get("event") == "card" for e in evs):
            raise TableError("card %s not taken: %s" % (card, evs))
        held = self.do_move(mv)
        self.wait()
        if not any(e.get("event") == "move" for e in self.since(n)):
            raise TableError("move not accepted: %s\n%s" % (self.since(n), self.public()))
        self.do_effects(self.since(n), held, mv)
        self.wait()
        new, _ = rules_apply(self.st, mv)
        self.st = new
        self.check()
        return self.since(n)

    def record(self):
        return self.send({"op": "export"})["record"]

    def adopt_device_game(self):
        """After a power cut: take the device's saved game as the truth, and put the pieces
        where it says (the colour under each piece matters, so the right pieces move)."""
        from shared_rules import notation
        rec = self.record()
        st = new_game(GAME, rec["players"], [LAY.cidx[c] for c in rec["seats"]],
                      LAY.cidx[rec["dealer"]])
        for turn in rec["turns"]:
            st, _ = rules_apply(st, notation.from_json(st, turn["move"]))
        self.st = st
        want = {}  # location name -> (colour, upside down)
        for p in range(LAY.npieces):
            if st.pos[p] < LAY.nboard and p // LAY.ppc in st.seats:
                want[wloc(st.pos[p])] = (LAY.colours[p // LAY.ppc], st.undercover(p))
        world = self.world()
        hand = []
        for name, p in world.items():
            at = p["at"]
            colour = name.split("-")[0]
            if at is None:
                hand.append(name)
            elif ":s" not in at and (at not in want or want[at][0] != colour):
                self.lift(at)
                hand.append(name)
            elif ":s" not in at and want[at][1] != p["upside_down"]:
                self.ask({"op": "flip", "at": at})
        world = self.world()
        for at, (colour, down) in sorted(want.items()):
            if world.get(self.at(at) or "", {}).get("at") == at:
                continue
            mine = [n for n in hand if n.startswith(colour + "-")]
            if not mine:
                spot = self.taken_spot(colour)
                mine = [self.lift(spot)]
                hand.extend(mine)
            hand.remove(mine[0])
            self.place(mine[0], at, down)
        for name in hand:
            self.place(name, self.free_spot(name.split("-")[0]), False)
        self.wait(300)
        self.check()
        return rec

    def check(self):
        """The board's public view must be the players' own game."""
        view = self.public()
        mine = public_board(self.st)
        if view["board"] != mine or view["to_move"] != LAY.colours[self.st.to_move] or \
                view["cards_left"] != dict((LAY.colours[c], self.st.cards[c])
                                           for c in self.st.seats):
            raise TableError("the board and the players disagree:\nboard   %s\nplayers %s\n%s"
                             % (view["board"], mine, self.events[-12:]))

    def do_move(self, mv):
        """Moves pieces for mv; returns knocked-out pieces still in hand."""
        st = self.st
        held = []
        if mv.act == movegen.SWAP:
            a = wloc(st.pos[mv.a])
            b = wloc(st.pos[mv.b])
            pa = self.lift(a)
            pb = self.lift(b)
            self.wait()  # both holes empty for a moment, as hands do it
            self.place(pa, b, True)
            self.place(pb, a, True)
            return held
        if mv.act == movegen.STEPS:
            frm = st.pos[mv.a]
            to = wloc(mv.b)
            if st.at(mv.b) >= 0:
                held.append(self.lift(to))  # the victim first, at a human pace
                self.wait()
            src = self.taken_spot(LAY.colours[frm - LAY.nboard]) if frm >= LAY.nboard \
                else wloc(frm)
            piece = self.lift(src)
            self.place(piece, to)
            return held
        # the Partner 4: segment by segment, burned pieces taken off as the piece passes
        work = st.copy()
        sp = split.Split(st, st.plays(st.to_move))
        total = CARDS.steps[movegen.effective(st, mv.card)][0]
        steps = split.unpack(mv.a, total)
        i = 0
        while i < len(steps):
            p = steps[i][0]
            start = work.pos[p]
            burned = []
            while i < len(steps) and steps[i][0] == p:
                d = split.dest(work, sp, p, steps[i][1])
                q = split.step(work, p, d)
                if q >= 0:
                    burned.append(wloc(d))
                i += 1
            for b in burned:
                held.append(self.lift(b))
            if burned:
                self.wait()
            piece = self.lift(wloc(start))
            self.place(piece, wloc(work.pos[p]))
            self.wait()
        return held

    def do_effects(self, events, held, mv=None):
        """Carries out the effects the board announced, in order."""
        for e in events:
            if e.get("event") != "effect":
                continue
            kind = e["kind"]
            if kind == "meetings":
                # several meetings: the mover's order, one pull at a time
                _, evs = rules_apply(self.st, mv)
                for ev in evs[len([x for x in evs if x["type"] != "meeting" and
                                   evs.index(x) < _first_meeting(evs)]):]:
                    if ev["type"] == "meeting" and ev["from"] != ev["to"]:
                        self.place(self.lift(str(ev["from"])), str(ev["to"]), True)
                        self.wait()
                continue
            if kind == "knock_out":
                piece = held.pop(0) if held else self.lift(str(e["at"]))
                self.place(piece, self.free_spot(e["colour"]), False)
            elif kind == "flip":
                w = self.world()
                name = self.at(str(e["at"]))
                if name and w[name]["upside_down"] != e["undercover"]:
                    self.ask({"op": "flip", "at": str(e["at"])})
            elif kind == "meeting":
                if e["from"] != e["to"]:
                    piece = self.lift(str(e["from"]))
                    self.place(piece, str(e["to"]), True)
            elif kind == "reveal":
                if e["outcome"] == "to_start":
                    piece = self.lift(e["at"])
                    self.place(piece, self.free_spot(e["colour"]), False)
                elif e["outcome"] == "to_home":
                    piece = self.lift(e["at"])
                    self.place(piece, e["to"], False)
        self.wait(60)


def public_board(st):
    out = {}
    for p in range(LAY.npieces):
        loc = st.pos[p]
        if loc < LAY.nboard:
            out[wloc(loc)] = "undercover" if st.undercover(p) else LAY.colours[p // LAY.ppc]
    return out


def _first_meeting(evs):
    for j in range(len(evs)):
        if evs[j]["type"] == "meeting":
            return j
    return len(evs)


def legal(st, card):
    from shared_rules.move import legal_moves
    return legal_moves(st, CARDS.index[card])


def find(st, card, frm=None, to=None, path=None):
    """The legal Move of card from -> to (rules locations or names), or with that JSON path."""
    from shared_rules import notation
    for m in legal(st, card):
        j = notation.to_json(st, m)
        if path is not None and j.get("path") == path:
            return m
        if "path" in j and len(j["path"]) == 1 and j["path"][0] == [frm, to]:
            return m
        if frm is not None and "swap" in j and sorted(j["swap"]) == sorted([frm, to]):
            return m
    raise TableError("no legal %s move %s -> %s %s" % (card, frm, to, path or ""))


def score(st, mv):
    """How much a sensible player likes a move: home first, then new pieces, knocking out
    opponents, distance; never their own team's pieces."""
    from shared_rules.apply import apply as _apply
    new, events = _apply(st, mv)
    seat = st.to_move
    s = 0
    for ev in events:
        t = ev["type"]
        if t == "capture":
            s += -500 if st.same_team(seat, LAY.cidx[ev["colour"]]) else 40
        elif t == "win":
            s += 10000
        elif t == "reveal":
            s += 30 if ev["outcome"] == "stays" else -10
    mine = [c for c in range(LAY.ncol) if st.same_team(seat, c)]
    for c in mine:
        for p in range(c * LAY.ppc, (c + 1) * LAY.ppc):
            for pos, sign in ((new.pos[p], 1), (st.pos[p], -1)):
                if LAY.is_home(pos):
                    s += sign * (200 + 10 * LAY.home_index(pos))
                elif pos < LAY.n:
                    s += sign * (30 + (pos - LAY.start[c]) % LAY.n)
    return s


class Players:
    """Hands for the seats: dealt from the players' own shuffled deck, swapped, played."""

    def __init__(self, table, seed):
        from shared_rules.rng import Rng
        from shared_rules.randgame import Table as Cards
        self.table = table
        self.rng = Rng(seed)
        self.cards = Cards(CARDS, self.rng)

    def deal(self):
        self.cards.deal(self.table.st)

    def turn(self):
        """One turn of the seat to move: the best playable card and move, or a pass."""
        from shared_rules.move import legal_moves
        t = self.table
        st = t.st
        hand = self.cards.hands.setdefault(st.to_move, [])
        while len(hand) < st.cards[st.to_move]:  # after a lost move: hold what the game says
            hand.append(self.cards.draw())
        while len(hand) > st.cards[st.to_move]:
            self.cards.discard.append(hand.pop())
        best = None
        for k in sorted(set(hand)):
            for mv in legal_moves(st, k):
                s = score(st, mv) + self.rng.below(15)
                if best is None or s > best[0]:
                    best = (s, k, mv)
        if not st.team_game() and best is None and hand:
            self.cards.discard.append(hand.pop(self.rng.below(len(hand))))
            hand.append(self.cards.draw())
            return self.turn()
        if best is None:
            n = len(t.events)
            t.ask({"op": "press", "button": "back", "ms": PASS_MS})
            t.wait(2300)
            if not any(e.get("event") == "pass" for e in t.since(n)):
                raise TableError("pass not taken: %s" % t.since(n))
            new, _ = rules_apply(st, Move(-1, -1))
            t.st = new
            t.check()
            if st.team_game():
                self.cards.discard.extend(hand)
                del hand[:]
            elif hand:
                self.cards.discard.append(hand.pop(self.rng.below(len(hand))))
            return t.since(n)
        _, k, mv = best
        hand.remove(k)
        self.cards.discard.append(k)
        evs = t.play(CARDS.names[k], mv)
        if (t.st.out >> st.to_move) & 1 and hand:
            self.cards.discard.extend(hand)
            del hand[:]
        return evs

    def game(self, max_turns=3000):
        t = self.table
        self.deal()
        turns = 0
        while turns < max_turns:
            evs = self.turn()
            turns += 1
            kinds = [e.get("event") for e in evs]
            if "win" in kinds:
                return turns, evs
            if "round_end" in kinds:
                self.deal()
        raise TableError("no winner after %d turns" % max_turns)
