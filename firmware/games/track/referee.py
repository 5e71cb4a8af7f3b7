# The referee: turns board events (sensor classes and rank bands, cards, buttons) into a game
# of Agent DOG, DOG or DOG Royal, whichever the players start on this board.
#
# Phases (docs/board-protocols.md): setup -> await_card -> await_move -> await_effect -> await_card
# ..., with mismatch whenever the board differs from the game outside a move, round_end between
# rounds and game_over at the end. The rules core decides everything; the referee only finds
# which legal move the players made (games/track/judge.py), directs the effects, and keeps the game
# on flash before it acknowledges a move. What differs between the games comes from the rules
# core's variant (its cards, whether its pieces are ranked); what the LEDs show is published as
# a small model (firmware/games/track/move_lights.py Shown) the view draws from.
#
# Everything it emits (events, the public view) is built from public information: the colour
# under an undercover piece appears only once the rules reveal it (a knock-out, a reveal).
from shared_rules import movegen, notation
from shared_rules.apply import apply as rules_apply
from firmware import ondemand
from firmware.games.track import move_lights
from shared_rules.move import Move, permutations
from shared_rules.state import new_game
from firmware.store import FORMAT, Offsets
from firmware.games.track import judge as judge_mod, judging
from firmware.games.track.places import NO_BAND
from firmware.hal.scanner import EMPTY, FAULT
from shared_rules.ranks import RANKS

# rules-core events the players must see and carry out (or just carried out): the console's
# `effect` kinds, and the fields they keep
EFFECTS = {"capture": "knock_out", "flip": "flip", "meeting": "meeting", "reveal": "reveal",
           "out": "out"}
FAULT_BYTE = bytes([FAULT])
# how long a piece may stand on a space a legal move of it passes before the board refuses it
# there: a hand carrying a piece space by space rests on each (a person counting spaces, some
# 150 to 400 ms), a piece put down stays. docs/architecture.md, "Recognising moves"
TRANSIT_MS = 600
# the modules of the rarely run steps, imported for each call and dropped after it, not kept
# in the heap (firmware/ondemand.py): its set-up; a game resumed at power-up, a pass, an undo,
# the public view and the export. A new game (start) stays: a game starts just after its
# variant's tables are loaded, the heap's fullest moment, where a module loaded as well would
# need its room too
SETUP = "firmware.games.track.setup"
RARE = "firmware.games.track.referee_rare"
# the games by name (the registry's look-ups), loaded for each look-up the rare steps make
LOOKUP = "firmware.games.track.lookup"


# the type checker's alone (pyright reads any TYPE_CHECKING as true): the set-up builds
# the object elsewhere (setup.py, on demand), so the class says what it holds; on a board the
# block is never run
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable
    from shared_rules.layout import Layout
    from firmware.games.track.places import Places
    from firmware.store import Guarded
    from firmware.cardmap import CardMap


class Referee:
    # what setup.init_referee makes (annotations only: no code, no heap on a board)
    lay: "Layout"
    places: "Places"
    store: "Guarded"
    cardmap: "CardMap"
    out: "Callable[[dict], object]"
    sensed: bytearray
    bands: bytearray
    exp: bytearray
    exp_bands: bytearray
    counts: bytearray
    touched: bytearray
    untouched: bytes
    move_start: bytearray
    recheck: bytearray
    transit_scans: int
    shown: "move_lights.Shown"
    # and what a new game sets (start)
    game: "Any"
    cards: "Any"
    header: dict
    turns: "Offsets"

    def __init__(self, places, store, cardmap, out, game=None):
        """store: a store.Guarded (undo asks it whether the record is whole); out: receives
        every event object; game: the variant refereed at first (default Agent DOG); a new game
        may choose another played on the same board."""
        ondemand.call(SETUP, "init_referee", self, places, store, cardmap, out, game)

    # -- the game on flash -----------------------------------------------------------------
    def resume_from_flash(self):
        return ondemand.call(RARE, "resume_from_flash", self)

    def start(self, players, seats=None, dealer=None, game=None):
        """A new game of `game` (a rules variant on this board; default the one played last).
        The players then set the board up; in a ranked game each player puts a piece of their
        choice on the start space, and the board reads which when the setup is done."""
        if game is not None:
            self.game = game
            self.cards = game.cards
        lay = self.lay
        seat_idx = None if seats is None else [lay.cidx[c] for c in seats]
        d = None if dealer is None else lay.cidx[dealer]
        st = new_game(self.game, players, seat_idx, d)
        self.header = {"format": FORMAT, "game": self.game.name, "layout": lay.name,
                       "players": players, "seats": [lay.colours[c] for c in st.seats],
                       "dealer": self._c(st.dealer)}
        self.recheck[:] = self.untouched
        if not self.game.ranked:
            self.store.new(self.header)  # a ranked game's once the starting pieces are read
        self.st = st
        self.turns = Offsets()
        self._set_phase("setup")
        # one event for a game begun from the console or the board's menu alike
        self.out({"event": "new_game", "game": self.game.name, "layout": lay.name,
                  "players": players, "seats": self.header["seats"],
                  "dealer": self.header["dealer"]})
        self._refresh()

    def _c(self, colour):
        return self.lay.colours[colour]

    # -- board ---------------------------------------------------------------------------
    def on_board(self, sensed, changed=()):
        """sense() and decide() at once (tests and boot; the app waits for a still board)."""
        self.sense(sensed, changed)
        self.decide()

    def sense(self, sensed, changed, bands=None):
        """After a scan with changes: sensed is the class per sensor, bands the rank band
        each reads (boards that read ranks), changed the sensors."""
        self.sensed[:] = sensed
        if bands is not None:
            self.bands[:] = bands
        # A piece put down on an empty square and taken away again (a wrong placement put
        # right) leaves the move as if it had never been there; an occupied square keeps its
        # touch, the only trace of a capture or a swap on it. (Over a range: a for loop over
        # `changed` itself holds two words more, and this frame, called on every scan with a
        # change, would go to the heap: docs/measuring.md, "Frames".)
        for k in range(len(changed)):
            i = changed[k]
            self.touched[i] = 0 if sensed[i] == EMPTY and self.move_start[i] == EMPTY else 1
            if self.recheck[i] and sensed[i] == EMPTY:
                self.recheck[i] = 0
                self._lifted_back()

    def decide(self):
        """Judges the board once it is still (no sensor part way to a change; the loop asks):
        the changes of one action (a lift and a placement) can straddle two scans, and half
        of it must not be judged."""
        if self.st is None:
            return
        ph = self.phase
        if ph == "await_move":
            self._judge()
        elif ph == "await_effect":
            self._effects()
        else:
            self._refresh()

    def _expect(self, st):
        self.places.expected(st, self.exp, self.counts,
                             self.exp_bands if st.game.ranked else None)

    def _differences(self):
        if self.st.game.ranked:
            return self.places.differences(self.exp, self.counts, self.sensed, self.exp_bands,
                                           self.bands)
        return self.places.differences(self.exp, self.counts, self.sensed)

    def _board_diffs(self):
        # outside a move the board must equal the game: what differs, and what must be lifted
        self._expect(self.st)
        diffs = self._differences()
        if self.recheck != self.untouched:
            for i in range(len(self.recheck)):
                if self.recheck[i] and i not in diffs:
                    diffs.append(i)
        return diffs

    def _refresh(self):
        self.diffs = self._board_diffs()
        ph = self.phase
        if ph == "setup":
            if self.st.game.ranked and self.header.get("first") is None:
                self._read_starting_pieces()
            if not self.diffs:
                self._after_turn_phase()
                self.out({"event": "turn", "seat": self._c(self.st.to_move)})
        elif ph in ("await_card", "round_end"):
            if self.diffs:
                self.resume = ph
                self._set_phase("mismatch")
                self._mismatch()
        elif ph == "mismatch":
            if not self.diffs:
                self._set_phase(self.resume)
                self._last_mismatch = []
                self.out({"event": "resolved", "phase": self.resume})
            elif self.diffs != self._last_mismatch:
                self._mismatch()

    def _read_starting_pieces(self):
        # a ranked game starts with a piece of each player's choice on the start space: any
        # rank the sensors can read will do; once all are read, the game begins with them
        lay = self.lay
        first = {}
        for c in self.st.seats:
            i = self.places.sensor[lay.start[c]]
            if i in self.diffs and self.sensed[i] == self.exp[i] and self.bands[i] != NO_BAND:
                self.diffs.remove(i)
            if i not in self.diffs:
                first[c] = self.bands[i]
        if self.diffs:
            return
        st = self.st
        self.st = new_game(self.game, st.players, st.seats, st.dealer, first)
        self.header["first"] = dict((self._c(c), RANKS[first[c]]) for c in st.seats)
        self.store.new(self.header)

    def _mismatch(self):
        self._last_mismatch = list(self.diffs)
        self.out({"event": "mismatch", "locations": self._names(self.diffs)})

    def _names(self, sensors):
        return [self.places.name(i) for i in sensors]

    def _set_phase(self, ph):
        self.phase = ph

    def _after_turn_phase(self):
        if self.st.winners():
            self._set_phase("game_over")
        else:
            self._set_phase("await_card")
        self.diffs = self._board_diffs()
        if self.diffs and self.phase != "game_over":
            self.resume = self.phase
            self._set_phase("mismatch")
            self._mismatch()

    # -- cards ---------------------------------------------------------------------------
    # on_card and its parts keep their frames within MicroPython's 11 words (docs/measuring.md,
    # "Frames"): a card tap is waiting for its first LEDs
    def on_card(self, uid_hex):
        kind = self.cardmap.kind(uid_hex)
        if kind is None:
            self.out({"event": "reject", "reason": "unknown card: this sticker is not enrolled",
                      "uid": uid_hex})
            return
        reason = self._card_refused(kind)
        if reason is None:
            reason = self._play_card(kind)
        if reason is not None:
            self.out({"event": "reject", "reason": reason})

    def _card_refused(self, kind):
        """Why card kind cannot be played now (before its moves are listed), or None."""
        if self.st is None or self.phase not in ("await_card", "round_end", "await_move"):
            return "%s: no card can be played now (%s)" % (
                kind, self.phase if self.st else "no game")
        if self.phase == "await_move" and any(self.touched):
            return "%s: finish or undo the move of the %s first" % (
                kind, self.cards.names[self.card])
        if movegen.effective(self.st, self.cards.index[kind]) < 0:
            return "%s cannot be played now: nothing to copy yet this round" % kind
        return None

    def _play_card(self, kind):
        """Card kind played: its lights are worked out, its move awaited; or why not (a card
        that lights no piece has no move)."""
        k = self.cards.index[kind]
        judge = judge_mod.for_card(self.st, k, self.places)
        lights = judge.lights()
        if not lights.movable and not lights.areas:
            return "%s cannot be played now: no legal move with it" % kind
        self.card = k
        self.judge = judge
        self.lights = lights
        self.pre_move = self.st
        self.drawing = -1  # the next card is played: the last draw is done
        self._untouch()
        self.bad = []
        self.rejected = False
        self.diffs = []  # a move starts on a board that equals the game
        self._set_phase("await_move")
        self.out({"event": "card", "card": kind, "seat": self._c(self.st.to_move)})
        return None

    # -- the move --------------------------------------------------------------------------
    def _lifted_back(self):
        # every square an undo asked to be lifted has been: saved, so that after a power cut
        # the board does not ask for them again
        if self.recheck == self.untouched:
            self.store.append({"lifted": True})

    def _untouch(self):
        # a move (or its next Partner 4 segment) begins on the board as it stands
        self.touched[:] = self.untouched
        self.move_start[:] = self.sensed

    def _faulty(self):
        # sensors reading nonsense (a dead or shorted sensor): they read no piece, so a move
        # judged with them could be taken or refused on squares nobody can see
        out = []
        sensed = self.sensed
        if FAULT_BYTE not in sensed:  # the common case, found at C speed
            return out
        for i in range(len(sensed)):
            if sensed[i] == FAULT:
                out.append(i)
        return out

    def _settling(self, res, late):
        """A verdict that waits transit_scans before it counts: a piece standing on a space a
        move of it passes (a hand carrying it on, or a placement if it stays: then taken, or
        refused, where it stands), or a piece of another rank than the move puts there (a
        rank read while a piece settles, or the wrong piece). late: it has waited."""
        if res == judging.RESTING or res == judging.WRONG_RANK or (
                res == judging.ILLEGAL and self.judge.in_transit(self.sensed,
                                                                   self.judge.bad)):
            if not late:
                self.transit_left = self.transit_scans  # each board its own wait
                return judging.AMBIGUOUS if res == judging.RESTING else judging.WAIT
            if res == judging.RESTING:
                return judging.DONE
        return res

    def _refusal(self, res):
        card = self.cards.names[self.card]
        if res == judging.WRONG_RANK:  # ranks are printed on the pieces: public
            return "the piece there reads as %s, where the %s puts %s: put that piece there" % (
                " and ".join(["no rank" if self.bands[i] == NO_BAND else RANKS[self.bands[i]]
                              for i in self.judge.bad]),
                card, " and ".join([RANKS[k] for k in self.judge.rank_want]))
        return "no legal move of the %s puts a piece there: put it back" % card

    def tick(self):
        """Once a scan while a piece stands on a space its move passes (transit_left): once
        it has stood there long enough, it is judged where it stands."""
        self.transit_left -= 1
        if not self.transit_left and self.phase == "await_move":
            self._judge(True)
            return True
        return False

    def _judge(self, late=False):
        self.transit_left = 0
        faulty = self._faulty()
        if faulty or self.diffs:
            # the move waits while a sensor reads nonsense, shown where it is (as outside a
            # move); it is judged again once every sensor reads
            if faulty != self.diffs:
                self.diffs = faulty
                if faulty:
                    self._mismatch()
                else:
                    self._last_mismatch = []
                    self.out({"event": "resolved", "phase": "await_move"})
            if faulty:
                return
        left = self.judge.left()
        res = self.judge.judge(self.sensed, self.touched, self.bands)
        if self.judge.left() != left:  # a Partner 4 segment is done: the next one begins
            self._untouch()
            self.lights = self.judge.lights()
        if self.phase == "await_move":
            self.lights.follow(self.sensed, self.touched)
        res = self._settling(res, late)
        if res == judging.DONE:
            self._accept(self.judge.move)
        elif res == judging.ILLEGAL or res == judging.WRONG_RANK:
            if not self.rejected or self.bad != self.judge.bad:
                self.bad = list(self.judge.bad)
                self.rejected = True
                self.out({"event": "reject", "reason": self._refusal(res),
                          "locations": self._names(self.bad)})
        else:
            if self.rejected and res == judging.WAIT and not self.judge.bad:
                self.rejected = False
                self.bad = []
        self.ambiguous = res == judging.AMBIGUOUS

    def confirm(self):
        if self.phase == "await_move" and self.ambiguous and self.judge.move is not None:
            self._accept(self.judge.move)
            return True
        return False

    def cancel_card(self):
        if self.phase == "await_move" and not any(self.touched):
            self.out({"event": "card_back", "card": self.cards.names[self.card],
                      "seat": self._c(self.st.to_move)})
            self.card = -1
            self.judge = None
            self.lights = move_lights.NONE
            self._set_phase("await_card")
            return True
        return False

    def _accept(self, mv):
        st = self.st
        cards = self.cards
        fired = self.judge.fired()
        orders = permutations(fired) if len(fired) > 1 else [None]
        self.cands = []
        for order in orders:
            m = Move(mv.card, mv.act, mv.a, mv.b, order)
            new, events = rules_apply(st, m, True)  # the judge found it among the legal moves
            self.cands.append((m, new, events))
        self.move_json = notation.to_json(st, Move(mv.card, mv.act, mv.a, mv.b))
        self.saved = False
        if len(self.cands) == 1:
            self._save(self.cands[0][0])
        self.accepted_at = self._destination(mv)
        self.out({"event": "move", "seat": self._c(st.to_move), "card": cards.names[mv.card],
                  "move": self.move_json})
        if len(self.cands) == 1:
            self._announce(self.cands[0][2])
        else:
            # what every order shares comes first (knock-outs, flips, reveals of the moved
            # pieces); the pulls depend on the order, which the players choose by doing them
            self._announce(before_meetings(self.cands[0][2]))
            self.out({"event": "effect", "kind": "meetings", "points": fired,
                      "note": "carry out the meetings in the order you choose"})
        self._set_phase("await_effect")
        self._effects()

    def _destination(self, mv):
        # the square a one-piece move ended on (after a citizen's jump, where it jumped to)
        if mv.act == movegen.STEPS or mv.act == movegen.MAGNET:
            j = movegen.jump_of(mv.b)
            return self.places.sensor[j if j >= 0 else movegen.dest_of(mv.b)]
        return -1

    def _save(self, m):
        turn = {"seat": self._c(self.st.to_move), "card": self.cards.names[m.card],
                "move": notation.to_json(self.st, m)}
        self.turns.append(self.store.append(turn))
        self.saved = True

    def _announce(self, events):
        for ev in events:
            t = ev["type"]
            kind = EFFECTS.get(t)
            if kind is not None:
                e = {"event": "effect", "kind": kind}
                for key in ev:
                    if key != "type":
                        e[key] = ev[key]
                if t == "capture":
                    e["to"] = ev["colour"] + ":start"
                self.out(e)
            elif t == "draw":  # a special space: the mover draws a card now (board tells so)
                self.drawing = self.lay.cidx[ev["seat"]]
                self.out({"event": "draw", "seat": ev["seat"]})
            elif t == "jump":
                self.out({"event": "jump", "from": ev["from"], "to": ev["to"],
                          "rank": ev["rank"]})

    def _effects(self):
        # (every still board until the effects are carried out: over a range, as a for loop
        # over the list would put this frame on the heap)
        best = None
        for k in range(len(self.cands)):
            c = self.cands[k]
            self._expect(c[1])
            d = self._differences()
            if not d:
                self._finish(c)
                return
            if best is None or len(d) < len(best[1]):
                best = (c, d)
        self._expect(best[0][1])
        self.diffs = best[1]

    def _finish(self, cand):
        m, new, events = cand
        if not self.saved:
            self._save(m)
            self._announce(events[len(before_meetings(events)):])
        self.st = new
        self.card = -1
        self.judge = None
        self.lights = move_lights.NONE
        self.cands = []
        self.diffs = []
        self.accepted_at = -1
        self.touched[:] = self.untouched
        round_over = False
        for ev in events:
            if ev["type"] == "round_end":
                round_over = True
                self.out({"event": "round_end", "dealer": ev["dealer"]})
            elif ev["type"] == "win":
                self.out({"event": "win", "seats": ev["seats"]})
        if new.winners():
            self._set_phase("game_over")
            return
        self._set_phase("round_end" if round_over else "await_card")
        self.out({"event": "turn", "seat": self._c(new.to_move)})

    # -- passing and undo ----------------------------------------------------------------
    def pass_turn(self):
        return ondemand.call(RARE, "pass_turn", self)

    def undo(self):
        return ondemand.call(RARE, "undo", self)

    # -- what players and tools may see ------------------------------------------------------
    def publish(self):
        """Brings the view model (self.shown) up to date: what the LEDs show, from public
        information only. (Called for every redraw after a change: it and its parts keep their
        frames within MicroPython's 11 words, docs/measuring.md "Frames".)"""
        sh = self.shown
        st = self.st
        sh.menu = None
        sh.seat = st.to_move if st is not None else -1
        sh.lights = move_lights.NONE
        # nothing lit of each kind (one empty tuple: five lists made at every redraw were heap
        # garbage); a list only where a kind is filled in below
        sh.special = sh.spots = sh.steps = sh.todo = sh.bad = ()
        sh.accepted = -1
        sh.draw = self.drawing
        if st is None:
            return sh
        if self.phase == "await_move":
            # a move under way: the card's lights, the start-area pieces that may come into
            # play, the Partner 4's steps left, a refused placement, sensors reading nonsense
            # (the move waits for them)
            sh.lights = self.lights
            n = len(self.lights.areas)
            if n:
                sh.spots = []
            k = 0
            while k < n:  # (a for loop's four words more would put this frame on the heap)
                self._publish_spots(sh, self.lights.areas[k])
                k += 1
            left = self.judge.left()
            if left:
                sh.steps = self.places.spots[st.plays(st.to_move)][:left]
            if self.bad:
                sh.bad = self.bad
            if self.diffs:
                self._publish_todo(sh, False)
        elif self.phase in ("setup", "await_effect", "mismatch"):
            self._publish_todo(sh, st.game.ranked)
            if self.phase == "await_effect":
                sh.accepted = self.accepted_at
        return sh

    def _publish_spots(self, sh, c):
        # the pieces waiting in colour c's start area, which may come into play
        for i in self.places.spots[c]:
            if self.sensed[i] != EMPTY:
                sh.spots.append(i)

    def _publish_todo(self, sh, ranked):
        # what the players must change at each sensor that differs (ranked: a ranked game's
        # board, where the right kind of piece may be of the wrong rank)
        n = len(self.diffs)
        sh.todo = []
        k = 0
        while k < n:
            sh.todo.append(self._todo(self.diffs[k], ranked))
            k += 1

    def _todo(self, i, ranked):
        return i, self.places.todo(i, self.exp, self.sensed, self.recheck, ranked)

    def public_view(self):
        return ondemand.call(RARE, "public_view", self)

    def export_parts(self):
        return ondemand.call(RARE, "export_parts", self)


def before_meetings(events):
    """The events before the first meeting: the same whatever order the meetings take."""
    for j in range(len(events)):
        if events[j]["type"] == "meeting":
            return events[:j]
    return events
