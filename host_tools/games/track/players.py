# Players at a simulated table (for tests and the demo): they tap cards on the reader, lift and place pieces through the
# simulator's control channel, and carry out the effects the board announces. They keep their
# own copy of the game with the rules core (what a careful human scorekeeper would know), which
# the tests compare with what the board says.
import json
import os

from host_tools.sim import waiting
from host_tools.sim.server import Sim
from shared_rules import movegen, split, variant
from shared_rules.apply import apply as rules_apply
from shared_rules.move import Move
from shared_rules.ranks import RANKS
from shared_rules.state import new_game

# the Agent DOG game the tests of the referee play most (a table plays whatever it starts)
GAME = variant.load(variant.DEFAULT)
LAY = GAME.lay
CARDS = GAME.cards
SETTLE_MS = waiting.SETTLE_MS  # a piece put down or lifted is seen by then
PASS_MS = 2000  # the pass gesture: hold back for 2 s (docs/board-protocols.md, section 2)
PASS_SETTLE_MS = 300  # after the gesture: the release and a few scans
PRESS_MS = 100  # a short press of a button
RANK_READ_MS = 400  # a rank read counts after eight scans: a piece put down is judged by then
BOOT_MS = 300  # after power-on: the boot, the resume and a few scans
CARD_GONE_MS = waiting.CARD_GONE_MS  # the reader calls a card gone after its empty polls
CARD_READ_MS = waiting.CARD_READ_MS  # at most, for a card put on the reader to be judged
# what the board says once it has judged a card, a move, the end of a turn
CARD_JUDGED = ("card", "reject")
TURN_DONE = ("turn", "round_end", "win")
# at most, for the board to judge a move (it answers as soon as it has): in a ranked game the
# rank of a piece put down is read first
MOVE_SEEN_MS = RANK_READ_MS
EFFECTS_MS = 2 * SETTLE_MS  # at most, for the board to see the effects done
PUT_RIGHT_ROUNDS = 6  # a board asking still after this many rounds of putting right is wrong
BOARD = "agent-dog-4"


class TableError(AssertionError):
    pass


def wloc(loc, lay=LAY):
    """A rules board location as a board location name."""
    return str(lay.loc_json(loc))


def piece_name(lay, p):
    """The physical piece of rules piece p in a ranked game: red-1 is red's king, ..."""
    return "%s-%d" % (lay.colours[lay.piece_colour[p]], lay.piece_slot[p] + 1)


class Table:
    def __init__(self, seed=1, flash=None, enrol=True, heap_kw=None, code=None, link=None,
                 board=BOARD):
        """link: another control channel with the Sim's request() and flash (a virtual
        device's, host_tools.virtual.link); board: the board variant (agent-dog-4, dog-4,
        dog-6)."""
        kw = {} if board == BOARD else {"board": board}
        self.sim = link or Sim(seed=seed, flash=flash, heap_kw=heap_kw, code=code, **kw)
        self.board = board
        self.game = GAME
        self.rng_first = seed
        self.events = []
        self.answers = []
        # a hand that puts the moving piece on a wrong square first and puts it right (tests
        # of wrong placements): fumble(table, src, to) -> a WLOC to put it on first, or None;
        # bump(table, src, to) -> a WLOC whose piece the hand lifts and puts back before it
        # takes the moving piece, or None; fumbled lists (src, wrong or bumped, to) of each
        self.fumble = None
        self.bump = None
        self.fumbled = []
        self.playing = None  # the rules move being played (play())
        # board ms the players have let run (at least: console answers take some more), and
        # when they last laid a card on the pile: the reader must see it gone before the next
        self.clock_ms = 0
        self.discarded_at = None
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
        self.clock_ms += ms
        return self.pull()

    def wait_for(self, kinds, ms, n=None):
        """Lets the board run until it reports an event of one of those kinds since event n
        (default: from now), at most ms: a person waits for the board's answer, not a fixed
        time. True if it came."""
        if n is None:
            # what came before (board time stands still since the hand acted) is no answer
            self.pull()
            n = len(self.events)

        def came():
            self.pull()
            return any(e.get("event") in kinds for e in self.events[n:])
        came, ran = waiting.run_until(self.ask, ms, came)
        self.clock_ms += ran
        return came

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
        if upside_down is None:  # on a hole a piece goes undercover
            lay = self.game.lay
            upside_down = where.isdigit() and int(where) < lay.n and lay.hole[int(where)] == 1
        self.ask({"op": "place", "piece": piece, "at": where, "upside_down": upside_down})

    def free_spot(self, colour):
        taken = [p["at"] for p in self.world().values()]
        for k in range(1, 5):
            s = "%s:s%d" % (colour, k)
            if s not in taken:
                return s
        raise TableError("no free spot in %s's start area" % colour)

    def taken_spot(self, colour, piece=None):
        """A start-area spot of colour with a piece on it (that piece, when named)."""
        w = self.world()
        if piece is not None:
            at = w[piece]["at"]
            if at is None or not at.startswith(colour + ":s"):
                raise TableError("%s is not in %s's start area" % (piece, colour))
            return at
        for k in range(1, 5):
            s = "%s:s%d" % (colour, k)
            if any(p["at"] == s for p in w.values()):
                return s
        raise TableError("%s's start area is empty" % colour)

    def card(self, kind):
        """Plays a card of that kind as players do: on the play pad, read there, then on the
        discard pile beside it (out of the reader's field: every card played stays there)."""
        n = len(self.events)
        if self.discarded_at is not None:
            # the last card laid on the pile is gone for the reader by now: a card put there
            # meanwhile (the same sticker too) is read as a new one
            left = self.discarded_at + CARD_GONE_MS - self.clock_ms
            if left > 0:
                self.wait(left)
        self.ask({"op": "card", "card": kind})
        self.wait_for(CARD_JUDGED, CARD_READ_MS)
        self.ask({"op": "discard"})
        # the players move on at once (the reader notices the card gone meanwhile)
        self.discarded_at = self.clock_ms
        return self.since(n)

    # -- a game -----------------------------------------------------------------------------
    def new_game(self, players=4, seats=None, dealer=None, game=None, first=None):
        """Starts a game through the console and sets the board up. game: the rules variant
        (default Agent DOG); first: in a ranked game, per colour the rank index of the piece
        the player puts on the start space (default: one by the table's seed)."""
        name = game or variant.DEFAULT
        cmd = {"op": "new_game", "players": players}
        if game:
            cmd["game"] = game
        if seats:
            cmd["seats"] = seats
        if dealer:
            cmd["dealer"] = dealer
        ans = self.send(cmd)
        if not ans["ok"]:
            raise TableError(ans)
        g = variant.load(name, variant.board_for(name, players))
        self.game = g
        lay = g.lay
        view = self.public()
        colours = list(view["cards_left"])
        if g.ranked and first is None:
            first = dict((lay.cidx[c], (self.rng_first + j) % lay.ppc)
                         for j, c in enumerate(colours))
        for colour in colours:
            c = lay.cidx[colour]
            named = piece_name(lay, lay.piece(c, first[c])) if g.ranked else None
            piece = self.lift(self.taken_spot(colour, named))
            self.place(piece, str(lay.start[c]))
        self.wait()
        self.st = new_game(g, players, None if seats is None else [lay.cidx[c] for c in seats],
                           None if dealer is None else lay.cidx[dealer], first)
        if self.phase() != "await_card":
            raise TableError("setup not accepted: %s" % self.public())

    def play(self, card, mv, meet_first=True):
        """Plays card kind `card` with the rules Move mv the way players do it; returns the
        events from the card to the next turn."""
        n = len(self.events)
        self.playing = mv
        evs = self.card(card)
        if not any(e.get("event") == "card" for e in evs):
            raise TableError("card %s not taken: %s" % (card, evs))
        return self.finish_play(mv, n)

    def finish_play(self, mv, n=None):
        """The rest of a turn whose card the board has taken (play(), or a card read again at
        power-up): the move, its effects, the players' game moved on and checked; returns the
        events from event n (default: from now)."""
        if n is None:
            n = len(self.events)
        self.playing = mv
        held = self.do_move(mv)
        self.wait_for(("move",), MOVE_SEEN_MS)
        if not any(e.get("event") == "move" for e in self.since(n)):
            # a move the sensors cannot tell from a half-done longer one (a citizen that stops
            # where it could jump on): the player settles it with confirm
            self.ask({"op": "press", "button": "confirm", "ms": PRESS_MS})
            self.wait(PRESS_MS + waiting.RELEASE_MS)  # pressed and let go, as a person does
            self.wait_for(("move",), MOVE_SEEN_MS, n)
        if not any(e.get("event") == "move" for e in self.since(n)):
            raise TableError("move not accepted: %s\n%s" % (self.since(n), self.public()))
        self.do_effects(self.since(n), held, mv)
        new, _ = rules_apply(self.st, mv)
        self.st = new
        self.check()
        return self.since(n)

    def pass_turn(self):
        """The seat to move passes with the pass gesture; returns the events from it on."""
        n = len(self.events)
        self.ask({"op": "press", "button": "back", "ms": PASS_MS})
        if self.wait_for(("pass",), PASS_MS + PASS_SETTLE_MS, n):
            self.wait(waiting.RELEASE_MS)  # the pass comes with the hold: the release after
        if not any(e.get("event") == "pass" for e in self.since(n)):
            raise TableError("pass not taken: %s" % self.since(n))
        self.st, _ = rules_apply(self.st, Move(-1, -1))
        self.check()
        return self.since(n)

    def record(self):
        return self.send({"op": "export"})["record"]

    def adopt_device_game(self):
        """After a power cut: take the device's saved game as the truth, and put the pieces
        where it says (the colour under each piece matters, so the right pieces move)."""
        from shared_rules import notation
        rec = self.record()
        g = variant.load(rec.get("game", variant.DEFAULT), rec.get("layout"))
        lay = g.lay
        first = None
        if "first" in rec:
            first = dict((lay.cidx[c], RANKS.index(r))
                         for c, r in rec["first"].items())
        st = new_game(g, rec["players"], [lay.cidx[c] for c in rec["seats"]],
                      lay.cidx[rec["dealer"]], first)
        for turn in rec["turns"]:
            st, _ = rules_apply(st, notation.from_json(st, turn["move"]))
        self.game = g
        self.st = st
        want = wanted_board(st)
        world = self.world()
        hand = []
        for name, p in world.items():
            at = p["at"]
            colour = name.split("-")[0]
            if at is None:
                hand.append(name)
            elif ":s" not in at and (at not in want or want[at][0] != colour or
                                     want[at][2] not in (None, name)):
                self.lift(at)
                hand.append(name)
            elif ":s" not in at and want[at][1] != p["upside_down"]:
                self.ask({"op": "flip", "at": at})
        world = self.world()
        for at, (colour, down, named) in sorted(want.items()):
            if world.get(self.at(at) or "", {}).get("at") == at:
                continue
            mine = [n for n in hand if n == named or (named is None and
                                                       n.startswith(colour + "-"))]
            if not mine:
                spot = self.taken_spot(colour, named)
                mine = [self.lift(spot)]
                hand.extend(mine)
            hand.remove(mine[0])
            self.place(mine[0], at, down)
        for name in hand:
            self.place(name, self.free_spot(name.split("-")[0]), False)
        self.wait(300)
        self.check()
        return rec

    # -- after a power cut, an undo, a mismatch: what the board asks -----------------------
    def recover(self, turns, doing=None, since=0):
        """Once the power is back after a cut, the players read the board and do what it asks
        (docs/power-cuts.md): the `resumed` event says how many turns it kept. turns: how many
        the players' own game has; doing: the turn under way when the power went (None,
        ("pass",) or ("play", card kind, rules Move)); since: the index of self.events before
        the cut. The turn under way counts if the board kept it (its effects are then done
        where the board shows them); a card left on the reader is taken up; every location the
        board lists is put as the game has it. Returns (the rules events of the turn under way
        if it counted, else None; whether the board read its card again at power-up and waits
        for its move: finish it with finish_play)."""
        self.wait(BOOT_MS)
        seen = self.events[since:]
        resumed = [e for e in seen if e.get("event") == "resumed"]
        if len(resumed) != 1:
            raise TableError("not one resume after the power cut: %s" % seen)
        kept = resumed[0]["turns"]
        done = None
        if doing is not None and kept == turns + 1:
            mv = Move(-1, -1) if doing[0] == "pass" else doing[2]
            self.st, done = rules_apply(self.st, mv)
        elif kept != turns:
            raise TableError("the board resumed %d turns, the players' game has %d (under "
                             "way: %s)" % (kept, turns, doing))
        self.ask({"op": "card_off"})  # a card left lying is read once: taken up, tapped again
        self.wait(CARD_GONE_MS)
        view = self.put_right()
        in_play = view["phase"] == "await_move"
        if in_play and (done is not None or doing is None or doing[0] != "play" or
                        view["card"] != doing[1]):
            raise TableError("the board waits for a move of %s, the players were %s"
                             % (view["card"], doing))
        self.check()
        return done, in_play

    def put_right(self, rounds=PUT_RIGHT_ROUNDS):
        """Makes every location the public view's `expected` lists what the players' game has
        there, round after round until the board asks for nothing; then what the sensors
        cannot tell apart (pieces of one kind exchanged, as a swap the board lost to a power
        cut: docs/power-cuts.md) the players put back from what they know. Returns the view."""
        for _ in range(rounds):
            view = self.public()
            todo = view["expected"] or sorted(self.misplaced(self.world(),
                                                             wanted_board(self.st)))
            if not todo:
                return view
            self.fix(todo)
            self.wait(RANK_READ_MS)
        raise TableError("the board still asks for %s: %s" % (view["expected"], view))

    def fix(self, todo):
        """One round at the locations todo, as a person does it: what does not belong there
        is lifted (and a piece the game has there too: the board asks to see it lifted, as
        after an undo's exchange), a piece lying the wrong way up turned over; then each of
        them the game puts a piece on gets it (from the hand, else a piece of that colour
        standing where the game does not have it, else its start area); what is left in the
        hand goes to its start area where the game has room there, or waits in the hand for
        the board's next answer."""
        want = wanted_board(self.st)
        world = self.world()
        for loc in todo:
            name = self.at_in(world, loc)
            if name is None:
                continue
            if ":s" in loc:
                if world[name]["upside_down"]:
                    self.ask({"op": "flip", "at": loc})
                elif self.in_start(world, name) > self.start_count(name) or \
                        self.target(name) is not None:
                    self.lift(loc)
                continue
            w = want.get(loc)
            if w is not None and w[0] == _colour(name) and w[2] in (None, name) and \
                    world[name]["upside_down"] != w[1]:
                self.ask({"op": "flip", "at": loc})
            else:
                self.lift(loc)
        self.wait()
        for loc in todo:
            world = self.world()
            if self.at_in(world, loc) is not None:
                continue
            if loc in want:
                colour, down, named = want[loc]
                self.place(self.fetch(world, want, colour, named, True), loc, down)
            elif ":s" in loc:
                colour = loc.split(":")[0]
                mine = [n for n in world if _colour(n) == colour]
                if mine and self.in_start(world, mine[0]) < self.start_count(mine[0]):
                    piece = self.fetch(world, want, colour, None, False)
                    if piece is not None:
                        self.place(piece, loc, False)
        world = self.world()
        for name, p in sorted(world.items()):
            if p["at"] is None and self.target(name) is None and \
                    self.in_start(world, name) < self.start_count(name):
                self.place(name, self.free_spot(_colour(name)), False)
                world = self.world()

    def fetch(self, world, want, colour, named, from_start):
        """A piece of that colour (that piece, when named) for a square that waits for one:
        from the hand, else standing where the game does not have it, else (from_start) from
        its start area; lifted if it stands somewhere. None if there is none."""
        def fits(n):
            return n == named or named is None and _colour(n) == colour
        for n, p in sorted(world.items()):
            if fits(n) and p["at"] is None:
                return n
        for at in sorted(self.misplaced(world, want)):
            n = self.at_in(world, at)
            if fits(n):
                return self.lift(at)
        if from_start:
            return self.lift(self.taken_spot(colour, named))
        return None

    def misplaced(self, world, want):
        """Squares of the track and the homes with a piece the players' game does not have
        there (another colour, another piece, or none), whether the sensors see it or not; and
        start-area spots with a piece of a ranked game the game has on the board."""
        out = []
        for name, p in world.items():
            at = p["at"]
            if at is None:
                continue
            if ":s" in at:
                if self.target(name) is not None:
                    out.append(at)
                continue
            w = want.get(at)
            if w is None or w[0] != _colour(name) or w[2] not in (None, name):
                out.append(at)
        return out

    @staticmethod
    def at_in(world, loc):
        for name, p in world.items():
            if p["at"] == loc:
                return name
        return None

    def in_start(self, world, name):
        colour = _colour(name)
        return len([p for n, p in world.items() if _colour(n) == colour and p["at"] and
                    p["at"].startswith(colour + ":s")])

    def start_count(self, name):
        st = self.st
        lay = st.lay
        c = lay.cidx[_colour(name)]
        if c not in st.seats:
            return lay.ppc  # a colour not in the game rests in its area
        return len([p for p in lay.pieces_of(c) if st.pos[p] >= lay.nboard])

    def target(self, name):
        """In a ranked game, where the game has this physical piece on the board (None: in its
        start area); None in a game whose pieces of a colour are alike."""
        st = self.st
        lay = st.lay
        if not st.game.ranked:
            return None
        colour, k = name.rsplit("-", 1)
        p = lay.piece(lay.cidx[colour], int(k) - 1)
        return wloc(st.pos[p], lay) if st.pos[p] < lay.nboard else None

    def check(self):
        """The board's public view must be the players' own game."""
        view = self.public()
        mine = public_board(self.st)
        lay = self.st.lay
        ranks = public_ranks(self.st)
        if view["board"] != mine or view["to_move"] != lay.colours[self.st.to_move] or \
                view["cards_left"] != dict((lay.colours[c], self.st.cards[c])
                                           for c in self.st.seats) or \
                view.get("ranks") != ranks:
            raise TableError("the board and the players disagree:\nboard   %s\nplayers %s\n%s"
                             % (view["board"], mine, self.events[-12:]))

    def do_move(self, mv):
        """Moves pieces for mv; returns knocked-out pieces still in hand."""
        st = self.st
        lay = st.lay
        held = []
        if mv.act == movegen.SWAP or mv.act == movegen.SWAP_OWN:
            a = wloc(st.pos[mv.a], lay)
            b = wloc(st.pos[mv.b], lay)
            pa = self.lift(a)
            pb = self.lift(b)
            self.wait()  # both squares empty for a moment, as hands do it
            self.place(pa, b)
            self.place(pb, a)
            return held
        if mv.act == movegen.STEPS or mv.act == movegen.MAGNET:
            frm = st.pos[mv.a]
            d = movegen.dest_of(mv.b)
            to = wloc(d, lay)
            if st.at(d) >= 0:
                held.append(self.lift(to))  # the victim first, at a human pace
                self.wait()
            if frm >= lay.nboard:
                named = piece_name(lay, mv.a) if st.game.ranked else None
                src = self.taken_spot(lay.colours[frm - lay.nboard], named)
            else:
                src = wloc(frm, lay)
            piece = self.take_up(src, to)
            self.put_down(piece, src, to)
            j = movegen.jump_of(mv.b)
            if j >= 0:  # the citizen stands on the special space a moment, then jumps on
                self.wait()
                self.place(self.lift(to), wloc(j, lay))
            return held
        # the Partner 4: segment by segment, burned pieces taken off as the piece passes
        work = st.copy()
        sp = split.Split(st, st.plays(st.to_move))
        total = st.game.cards.steps[movegen.effective(st, mv.card)][0]
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
                    burned.append(wloc(d, lay))
                i += 1
            for b in burned:
                held.append(self.lift(b))
            if burned:
                self.wait()
            piece = self.take_up(wloc(start, lay), wloc(work.pos[p], lay))
            self.put_down(piece, wloc(start, lay), wloc(work.pos[p], lay))
            self.wait()
        return held

    def take_up(self, src, to):
        """Lifts the moving piece from src; a bumping hand first lifts another piece and puts
        it back where it stood."""
        other = self.bump(self, src, to) if self.bump else None
        if other is not None:
            p = self.at(other)
            upside_down = self.world()[p]["upside_down"]
            self.lift(other)
            self.wait()
            self.place(p, other, upside_down)
            self.wait()
            self.fumbled.append((src, other, to))
        return self.lift(src)

    def put_down(self, piece, src, to):
        """Puts a lifted moving piece on `to`; a fumbling hand first puts it on a wrong
        square, waits for the board's refusal, and puts it back on `src` before it goes on."""
        wrong = self.fumble(self, src, to) if self.fumble else None
        if wrong is not None:
            self.place(piece, wrong)
            self.wait()
            self.lift(wrong)
            self.place(piece, src)
            self.wait()
            self.lift(src)
            self.fumbled.append((src, wrong, to))
        self.place(piece, to)

    def do_effects(self, events, held, mv=None):
        """Carries out the effects the board announced, in order; then lets the board see
        them done: it ends the turn then (at once, without effects)."""
        n = len(self.events) - len(events)  # events: the turn's so far (since(n))
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
        self.wait_for(TURN_DONE, EFFECTS_MS, n)


def _colour(piece):
    return piece.split("-")[0]


def wanted_board(st):
    """Where the players' game has its pieces on the board: location name -> (colour, upside
    down, the physical piece in a ranked game, else None)."""
    lay = st.lay
    want = {}
    for p in range(lay.npieces):
        if st.pos[p] < lay.nboard and lay.piece_colour[p] in st.seats:
            want[wloc(st.pos[p], lay)] = (lay.colours[lay.piece_colour[p]], st.undercover(p),
                                          piece_name(lay, p) if st.game.ranked else None)
    return want


def public_board(st):
    lay = st.lay
    out = {}
    for p in range(lay.npieces):
        loc = st.pos[p]
        if loc < lay.nboard:
            out[wloc(loc, lay)] = "undercover" if st.undercover(p) else \
                lay.colours[lay.piece_colour[p]]
    return out


def public_ranks(st):
    """What the public view shows of the ranks (a ranked game), else None."""
    if not st.game.ranked:
        return None
    lay = st.lay
    return dict((wloc(st.pos[p], lay), RANKS[lay.piece_slot[p]]) for p in range(lay.npieces)
                if st.pos[p] < lay.nboard)


def _first_meeting(evs):
    for j in range(len(evs)):
        if evs[j]["type"] == "meeting":
            return j
    return len(evs)


def legal(st, card):
    from shared_rules.move import legal_moves
    return legal_moves(st, st.game.cards.index[card])


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
    lay = st.lay
    for ev in events:
        t = ev["type"]
        if t == "capture":
            s += -500 if st.same_team(seat, lay.cidx[ev["colour"]]) else 40
        elif t == "win":
            s += 10000
        elif t == "reveal":
            s += 30 if ev["outcome"] == "stays" else -10
        elif t == "draw":
            s += 25
    mine = [c for c in range(lay.ncol) if st.same_team(seat, c)]
    for c in mine:
        for p in lay.pieces_of(c):
            for pos, sign in ((new.pos[p], 1), (st.pos[p], -1)):
                if lay.is_home(pos):
                    s += sign * (200 + 10 * lay.home_index(pos))
                elif pos < lay.n:
                    s += sign * (30 + (pos - lay.start[c]) % lay.n)
    return s


class Players:
    """Hands for the seats: dealt from the players' own shuffled deck, swapped, played."""

    def __init__(self, table, seed):
        from shared_rules.rng import Rng
        from shared_rules.randgame import Table as Cards
        self.table = table
        self.rng = Rng(seed)
        self.cards = Cards(table.game.cards, self.rng)

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
            t.pass_turn()
            self.after_turn(st, True)
            return t.since(n)
        _, k, mv = best
        hand.remove(k)
        self.cards.discard.append(k)
        evs = t.play(st.game.cards.names[k], mv)
        self.after_turn(st, False)
        return evs

    def after_turn(self, st, passed):
        """The hand of the seat that moved from position st once its turn counts (the table's
        game has moved on): a team's seat that passed lays its cards aside, a player alone one
        card; a seat that went out lays its hand aside."""
        hand = self.cards.hands.setdefault(st.to_move, [])
        if passed and st.team_game():
            self.cards.discard.extend(hand)
            del hand[:]
        elif passed and hand:
            self.cards.discard.append(hand.pop(self.rng.below(len(hand))))
        elif not passed and (self.table.st.out >> st.to_move) & 1 and hand:
            self.cards.discard.extend(hand)
            del hand[:]

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
