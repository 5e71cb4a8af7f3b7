# The Agent Avenue referee: follows a game of La Via delle Spie on the board through its three
# card pads (up, down, tap) and the hall sensors under the 14 spaces, over the rules core
# (shared_rules/avenue). Each decision the players make with cards (a discard, the play, the
# recruit, a black-market card with its ability) is checked by the core, saved to flash as one
# line, and only then acknowledged; the pawn moves it causes are then shown as the spaces to
# change until the sensors agree.
#
# What stays secret: the face-down card is known here from the moment it lies on its pad, and
# from then on nothing a player can read depends on it (console, LEDs, key order) until the
# other side recruits. Discarded cards are tapped so the board counts them, and are never named.
from shared_rules.errors import BadInput
from shared_rules.avenue import tables, legality
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import PLAY, RECRUIT, MARKET, PHASES
from shared_rules.avenue.tables import NONE
from firmware.store import Offsets
from firmware.games.avenue import record
from firmware.games.avenue import shown as S
from firmware.mpconst import const

GAME = record.GAME
UP = const(0)
DOWN = const(1)
TAP = const(2)
READERS = ("up", "down", "tap")
_NO_KIND = const(255)
# board phases beside the rules' play, recruit and market
SETUP = "setup"
AWAIT = "await_effect"
MISMATCH = "mismatch"
OVER = "game_over"
# what the tap pad expects (public: it follows the phase, never a hidden card)
TAP_OFFER = "offer"      # setup: the first offer's cards
TAP_DISCARD = "discard"  # phase play: a card laid aside (optional)
TAP_TAKE = "market"      # the black-market card taken from the offer
TAP_REFILL = "refill"    # the card revealed from the market deck
TAP_AGENT = "agent"      # the agent an ability names
TAP_AGAIN = "again"      # spycation: the same agent once more to recruit it again
_SCANNER_FAULT = const(3)  # hal.scanner.FAULT
NO_CARD = ""             # a pad with nothing on it (UIDs are hex text)
# a play's record keeps the two stickers' UIDs (to know them again after a power cut), each
# padded to the longest UID a reader gives (10 bytes): its length never depends on the card
_UID_WIDTH = const(20)
_REJECT_SCANS = const(100)  # a refused card's pad blinks 2 s (scans of 20 ms, firmware/loop.py)


class Referee:
    def __init__(self, store, cardmap, emit, pawn_class, spaces):
        """store: firmware.store.Guarded; cardmap: firmware.cardmap.CardMap over card_kinds();
        emit(obj): one console event; pawn_class: per side, the scanner class its pawn's
        magnet reads as (bytes); spaces: number of spaces (sensor i is space i)."""
        self.tb = tables.load()
        # a play's record is padded to the longest agent name, so its length, and with it
        # whether and where the flash runs out of room, never depends on the face-down card
        self.longest = max([len(n) for n in self.tb.agent_names])
        self.store = store
        self.cardmap = cardmap
        self.emit = emit
        self.pawn_class = pawn_class
        self.n = spaces
        self.sensed = bytearray(spaces)
        self.st = None
        self.header = None
        self.offsets = Offsets()
        self.setup = False
        self.moving = False
        self.diff = []          # spaces whose sensor differs from the game (sorted)
        self.mismatched = False
        self.seat = 0           # the lit seat of a team: plays face up, discards, takes
        self.up_seat = 0        # the seat whose card lies face up (set when it is put down)
        self.forced = False     # identical names declared for this play
        self.pad = [NO_CARD, NO_CARD, NO_CARD]  # UID on each pad
        self.pad_kind = bytearray([_NO_KIND] * 3)
        self.played = [NO_CARD, NO_CARD]  # UIDs of the played cards (phase recruit)
        self.taken = -1         # phase recruit: the pad emptied first, -1 none yet
        # phase recruit after a power-up: which card the other side takes is a decision, and a
        # card missing from its pad says nothing of it (it may have gone during the cut): no
        # lift counts until both played cards lie on their pads again, or the players press
        # confirm to say that the one missing was taken
        self.unsure = False
        # the pads whose cards were found lying at power-up in a team's play: which seat put
        # them is not known, so they count only once put down again (a bit per pad)
        self.stale = 0
        self.offer_taps = []    # setup: offer cards tapped so far
        self.mk = [NONE, NONE, NONE, 0]   # market: card, refill, agent, again
        self.reject_reader = -1  # the pad whose card was refused (its LED blinks)
        self.reject_left = 0
        self.shown = S.Shown(spaces, len(READERS))  # the published view (publish)

    # -- cards ----------------------------------------------------------------------------
    def kinds(self):
        return card_kinds(self.tb)

    def _kind(self, uid):
        """(is_agent, index) of a sticker, or None when it is not enrolled."""
        name = self.cardmap.kind(uid)
        if name is None:
            return None
        tb = self.tb
        a = tb.agent_index.get(name, -1)
        if a >= 0:
            return True, a
        return False, tb.market_index[name]

    # -- a new game -------------------------------------------------------------------------
    def start(self, mode, seats, active, offer=None):
        """seats: (green, blue) players; offer: the first offer's market indices or None (then
        the players tap it in during the setup)."""
        tb = self.tb
        advanced = mode == "advanced"
        h = record.header(tb, mode, seats, active)
        self.store.new(h)
        self.header = h
        self.offsets = Offsets()
        self.st = record.start(tb, h)
        self.setup = True
        for r in range(len(self.pad_kind)):
            self.pad_kind[r] = _NO_KIND  # cards left from before: lift them, then play
        self.offer_taps = []
        self._new_turn()
        self.moving = False
        self.emit({"event": "new_game", "game": GAME, "mode": mode, "seats": h["seats"],
                   "active": h["active"]})
        if advanced and offer is not None:
            self._set_offer(offer)
        self._settle()

    def _set_offer(self, offer):
        tb = self.tb
        record.set_offer(tb, self.st, offer)
        names = [tb.market_names[c] for c in offer]
        self.offsets.append(self.store.append({"offer": names}))
        self.emit({"event": "offer", "offer": names})

    def _new_turn(self):
        self.seat = 0
        self.forced = False
        self.taken = -1
        self.mk[0] = self.mk[1] = self.mk[2] = NONE
        self.mk[3] = 0

    # -- resuming after a power cut ----------------------------------------------------------
    def resume_from_flash(self):
        header, offsets = self.store.load()
        if header is None or header.get("game") != GAME:
            return
        self.header = header
        self.offsets = offsets
        st, n, offer, last = record.replay(self.tb, self.store, header, offsets)
        self.st = st
        self.setup = n == 0  # until the pawns stand at home (and the offer is known)
        self._new_turn()
        if st.phase == RECRUIT and st.winner < 0:
            # the played cards are known again by their stickers, never by their names: what
            # the board answers a card put on a pad must not depend on the face-down card
            uids = last.get("uids") if last else None
            for r in (UP, DOWN):
                self.played[r] = uids[r].strip() if uids else NO_CARD
            self.unsure = True
        self.moving = True  # a move cut short: its pawns may still be on their way
        self.emit({"event": "resumed", "decisions": n, "phase": PHASES[st.phase]})
        self._settle()

    # -- the sensors ------------------------------------------------------------------------
    def sense(self, state):
        s = self.sensed
        for i in range(self.n):
            s[i] = state[i]

    def _want(self, i):
        """The scanner class space i should read, or -1 when both pawns share it."""
        p = self.st.pawns
        if p[0] == i:
            return -1 if p[1] == i else self.pawn_class[0]
        if p[1] == i:
            return self.pawn_class[1]
        return 0

    def _diff(self):
        out = []
        for i in range(self.n):
            w = self._want(i)
            if w >= 0 and self.sensed[i] != w:
                out.append(i)
        return out

    def decide(self):
        """The board is still (no sensor part way to a change): compare it with the game."""
        if self.st is not None:
            self._settle()

    def _settle(self):
        st = self.st
        self.diff = self._diff()
        if not self.diff:
            done = self.moving
            self.moving = False
            if self.mismatched:
                self.mismatched = False
                self.emit({"event": "mismatch", "locations": []})
            if self.setup and (not st.advanced or st.offer[0] != NONE):
                self.setup = False
                self._turn_event()
            elif done and not self.setup:
                self._turn_event()  # the pawns stand where the turn's end left them
            if st.winner < 0 and st.phase == PLAY and not self.setup:
                self._try_play()
        elif not self.moving and not self.setup and st.winner < 0 and not self.mismatched:
            self.mismatched = True
            self.emit({"event": "mismatch", "locations": [str(i) for i in self.diff]})

    @property
    def phase(self):
        """The board's phase (the loop's contract: firmware/loop.py), None without a game."""
        st = self.st
        if st is None:
            return None
        if st.winner >= 0:
            return OVER
        if self.setup:
            return SETUP
        if self.diff:
            return AWAIT if self.moving else MISMATCH
        return PHASES[st.phase]

    def ready(self):
        """Cards are taken only while the pawns stand where the game says."""
        return self.st is not None and self.st.winner < 0 and not self.diff and not self.setup

    # -- the pads ---------------------------------------------------------------------------
    def on_pad(self, r, uid, found=False):
        """A card was put on reader r (its UID in hex); found: it lay there at power-up."""
        self.pad[r] = uid
        self.pad_kind[r] = _NO_KIND
        st = self.st
        if st is None or st.winner >= 0:
            return
        k = self._kind(uid)
        if k is None:
            self._reject(r, "unknown card: enrol its sticker first (agentboard enrol)")
            return
        is_agent, c = k
        if found and self._found_stale(r):
            return
        if r == TAP:
            self._on_tap(is_agent, c)
            return
        if st.phase == RECRUIT:
            self._on_played_pad(r, uid, is_agent, c)
            return
        if st.phase != PLAY or self.setup:
            self._reject(r, "no card is played now")
            return
        if not is_agent:
            self._reject(r, "a black-market card is never played: play agent cards")
            return
        self.pad_kind[r] = c
        if r == UP:
            self.up_seat = self.seat
            self.emit({"event": "card", "face": "up", "card": self.tb.agent_names[c],
                       "side": self.tb.sides[st.active], "seat": self.seat})
        else:
            self.emit({"event": "card", "face": "down", "side": self.tb.sides[st.active],
                       "seat": self._down_seat()})
        if self.ready():
            self._try_play()

    def _found_stale(self, r):
        """A card found lying on pad r at power-up: on the tap pad it may be one already
        counted (a tap is taken when it is read: a discard, a market card saved before the
        cut), and in a team's play nobody knows which seat put it. Such a card counts only
        once lifted and put down again; True when it is one (refused until then)."""
        st = self.st
        if r != TAP and not (st.phase == PLAY and st.seats[st.active] == 2):
            return False
        self.stale |= 1 << r
        self._reject(r, "the board restarted with this card on the pad: lift it, and put it "
                        "down again if it is still to be played or tapped (the lit seat's)")
        return True

    def _on_played_pad(self, r, uid, is_agent, c):
        # phase recruit: only the card played on this pad may lie on it. Stickers are compared,
        # never names: the answer is the same whatever the face-down card is
        if not self.played[r] and is_agent:
            self.played[r] = uid  # a record from before stickers were saved: the first agent
        if uid != self.played[r]:
            self._reject(r, "not the card played on this pad: the other side recruits one of "
                            "the two cards played, each lying on its own pad")
            return
        self.pad_kind[r] = c
        if r == self.taken:
            self.taken = -1  # put back before the other card left: no choice made
        if self.unsure and self.pad[UP] == self.played[UP] and \
                self.pad[DOWN] == self.played[DOWN]:
            self.unsure = False  # both lie there again: the next card lifted is the choice

    def on_pad_off(self, r):
        """The card on reader r was taken away."""
        had = self.pad[r]
        self.pad[r] = NO_CARD
        self.pad_kind[r] = _NO_KIND
        if self.stale & (1 << r):
            self.stale &= ~(1 << r)  # a card from before the power cut, lifted: nothing played
            return
        if had and r != TAP:
            self._lifted(r, had)

    def _lifted(self, r, had):
        st = self.st
        if st is None or st.winner >= 0:
            return
        if st.phase == RECRUIT:
            if self.unsure or had != self.played[r]:
                return  # after a power-up, or a card refused here: nothing is decided
            if self.taken < 0:
                self.taken = r
            elif r != self.taken:
                self._commit(M.recruit(M.TAKE_UP if self.taken == UP else M.TAKE_DOWN))
        elif st.phase == PLAY:
            self.emit({"event": "card_off", "face": READERS[r]})

    def wants_back(self, r):
        """Whether the board waits to read pad r's played card again (phase recruit after a
        power-up): public, the same whatever the cards are."""
        return self.unsure and self.st.phase == RECRUIT and (
            not self.played[r] or self.pad[r] != self.played[r])

    def put_back(self):
        """The pads wants_back, by reader name."""
        if self.st is None:
            return []
        return [READERS[r] for r in (UP, DOWN) if self.wants_back(r)]

    def on_two(self, r):
        self._reject(r, "two cards on the %s pad: one at a time" % READERS[r])

    def tick(self):
        """Once a scan (the board's loop)."""
        if self.reject_left:
            self.reject_left -= 1

    def _down_seat(self):
        """In a team the partner of the seat that played face up (or of the lit seat, while
        nothing lies face up) plays face down."""
        up = self.up_seat if self.pad_kind[UP] != _NO_KIND else self.seat
        return up if self.st.seats[self.st.active] == 1 else 1 - up

    def _try_play(self):
        up = self.pad_kind[UP]
        down = self.pad_kind[DOWN]
        if up == _NO_KIND or down == _NO_KIND:
            return
        if not legality.pair_allowed(up, down, self.forced):
            self._reject(DOWN, "the two cards must bear different names; if every card in "
                               "the hand bears this name, hold confirm to say so")
            return
        mv = M.play(up, down, self.up_seat, self._down_seat(), up == down)
        self.played[UP] = self.pad[UP]
        self.played[DOWN] = self.pad[DOWN]
        if not self._commit(mv):
            self.played[UP] = self.played[DOWN] = NO_CARD

    # -- the tap pad ------------------------------------------------------------------------
    def tap_wants(self):
        st = self.st
        if st is None or st.winner >= 0:
            return None
        if self.setup:
            return TAP_OFFER if st.advanced and st.offer[0] == NONE else None
        if self.diff:
            return None
        if st.phase == PLAY:
            return TAP_DISCARD if legality.may_discard(st, self.seat) else None
        if st.phase == MARKET:
            if self.mk[0] == NONE:
                return TAP_TAKE
            if self.mk[1] == NONE and st.market_deck:
                return TAP_REFILL
            if self.mk[2] == NONE:
                return TAP_AGENT
            return TAP_AGAIN
        return None

    def _on_tap(self, is_agent, c):
        want = self.tap_wants()
        tb = self.tb
        st = self.st
        if want is None:
            self._reject(TAP, "the pawns first: the board shows where they go" if self.diff
                         else "nothing to tap now")
        elif want == TAP_OFFER:
            if is_agent or c in self.offer_taps:
                self._reject(TAP, "tap the %d black-market cards of the offer, each once"
                             % tb.offer_size)
                return
            self.offer_taps.append(c)
            if len(self.offer_taps) == tb.offer_size:
                self._set_offer(self.offer_taps)
                self.offer_taps = []
                self._settle()
        elif want == TAP_DISCARD:
            if not is_agent:
                self._reject(TAP, "a discard is an agent card from the hand")
                return
            self._commit(M.discard(self.seat))
        elif want in (TAP_TAKE, TAP_REFILL):
            if is_agent:
                self._reject(TAP, "tap a black-market card")
                return
            if want == TAP_TAKE:
                if st.offer_slot(c) < 0:
                    self._reject(TAP, "%s is not in the offer" % tb.market_names[c])
                    return
                self.mk[0] = c
                self.emit({"event": "tap", "what": want, "card": tb.market_names[c]})
            else:
                if not st.in_market_deck(c):  # (the card taken, mk[0], lies in the offer)
                    self._reject(TAP, "%s is not in the market deck" % tb.market_names[c])
                    return
                self.mk[1] = c
                self.emit({"event": "tap", "what": want, "card": tb.market_names[c]})
            self._market_next()
        else:
            if not is_agent:
                self._reject(TAP, "tap the agent card the ability names")
                return
            if want == TAP_AGENT:
                self.mk[2] = c
                self.emit({"event": "tap", "what": want, "card": tb.agent_names[c]})
                self._market_next()
            elif c != self.mk[2]:
                self._reject(TAP, "tap the same agent again to recruit it, or press back")
            else:
                self.mk[3] = 1
                self._market_commit()

    def _needs(self):
        return self.tb.needs[self.mk[0]]

    def _market_next(self):
        if self.tap_wants() == TAP_REFILL:
            return
        needs = self._needs()
        if self.mk[2] == NONE and ("top" in needs or "agent" in needs):
            return  # an agent to tap, or back for none
        if self.mk[2] != NONE and "again" in needs and not self.mk[3]:
            return
        self._market_commit()

    def _market_commit(self):
        mk = self.mk
        mv = M.market(mk[0], mk[1], self.seat, mk[2], bool(mk[3]))
        if not self._commit(mv):
            mk[2] = NONE  # the ability's agent was refused: tap another, or back for none
            mk[3] = 0

    # -- buttons ----------------------------------------------------------------------------
    def confirm(self):
        """A short press: in a team, the lit seat passes to the partner (in phase play until
        the face-down card lies on its pad: a seat may discard after its partner played face
        up; in the market until the card taken is tapped). In a recruit after a power-up with
        one played card back on its pad: the other was the one taken."""
        st = self.st
        if st is None or st.winner >= 0:
            return False
        if st.phase == RECRUIT:
            return self._declare_taken()
        side = st.who_acts()
        if st.seats[side] < 2:
            return False
        if st.phase == PLAY and self.pad[DOWN] == NO_CARD or \
                st.phase == MARKET and self.mk[0] == NONE:
            self.seat = 1 - self.seat
            self.emit({"event": "seat", "side": self.tb.sides[side], "seat": self.seat})
            return True
        return False

    def _declare_taken(self):
        if not self.unsure:
            return False
        for kept in (UP, DOWN):
            gone = 1 - kept
            if self.played[kept] and self.pad[kept] == self.played[kept] and \
                    self.pad[gone] == NO_CARD:
                self.unsure = False
                self.taken = gone  # as if the players had lifted it now: the other decides
                self.emit({"event": "taken", "face": READERS[gone]})
                return True
        return False

    def hold_confirm(self):
        """Declares an identical pair for this play (every card in the hand bears the name)."""
        st = self.st
        if st is None or st.winner >= 0 or st.phase != PLAY:
            return False
        self.forced = True
        self.emit({"event": "forced", "side": self.tb.sides[st.active]})
        if self.ready():
            self._try_play()
        return True

    def back(self):
        """A short press: in the market, 'none' for the ability's agent (or no recruit again);
        before that, takes back the market taps."""
        st = self.st
        if st is None or st.winner >= 0 or st.phase != MARKET or self.diff:
            return False
        mk = self.mk
        want = self.tap_wants()
        if want == TAP_AGENT:
            self._market_commit()
        elif want == TAP_AGAIN:
            self._market_commit()
        else:
            mk[0] = mk[1] = mk[2] = NONE
            mk[3] = 0
            self.emit({"event": "tap", "what": "cleared"})
        return True

    # -- deciding ---------------------------------------------------------------------------
    def _reject(self, r, reason):
        self.reject_reader = r
        self.reject_left = _REJECT_SCANS
        self.emit({"event": "reject", "reader": READERS[r], "reason": reason})

    def _commit(self, mv):
        """Checks, saves, then carries out one decision; False when the rules refuse it."""
        st = self.st
        tb = self.tb
        try:
            legality.check(st, mv)
        except BadInput as e:
            self._reject(TAP if mv.kind in (M.DISCARD, M.MARKET) else DOWN, e.reason)
            return False
        side = st.who_acts()
        line = {"side": tb.sides[side], "move": M.to_json(tb, st, mv)}
        if mv.kind == M.PLAY:
            line["pad"] = " " * (self.longest - len(tb.agent_names[mv.down]))
            line["uids"] = [_padded(self.played[UP]), _padded(self.played[DOWN])]
        new, events = apply(st, mv)
        self.offsets.append(self.store.append(line))  # saved before it is acknowledged
        self.st = new
        if new.who_acts() != side:
            self.seat = 0  # another side acts now: its seat 0 is lit first
        moved = False
        for ev in events:
            out = {"event": ev["type"]}
            for k in ev:
                if k != "type":
                    out[k] = ev[k]
            if ev["type"] == "play":
                out["up"] = tb.agent_names[mv.up]
                out["up_seat"] = mv.up_seat
            elif ev["type"] == "pawn":
                moved = True
            self.emit(out)
        if moved:
            self.moving = True
        if mv.kind == M.MARKET or mv.kind == M.RECRUIT:
            self.mk[0] = self.mk[1] = self.mk[2] = NONE
            self.mk[3] = 0
        if new.winner >= 0:
            self.emit({"event": "win", "side": tb.sides[new.winner]})
        elif new.phase == PLAY and mv.kind != M.DISCARD:
            self._new_turn()
            self.played[UP] = self.played[DOWN] = NO_CARD
        if mv.kind == M.RECRUIT:
            self.unsure = False
            for r in (UP, DOWN):
                self.pad_kind[r] = _NO_KIND  # a card still lying is lifted before the next play
        if not moved and new.phase == PLAY and mv.kind != M.DISCARD:
            self._turn_event()
        self._settle()
        return True

    def _turn_event(self):
        st = self.st
        if st.phase == PLAY and st.winner < 0:
            self.emit({"event": "turn", "side": self.tb.sides[st.active]})

    # -- what players may read --------------------------------------------------------------
    def public_view(self):
        from shared_rules.avenue import position
        st = self.st
        out = position.dump(st)
        if "played" in out:
            out["played"]["down"] = "hidden"  # until the recruit
        out["phase"] = self.phase
        out["rules_phase"] = PHASES[st.phase]
        out["expected"] = [str(i) for i in self.diff]
        out["layout"] = GAME
        out["seat"] = self.seat
        out["tap"] = self.tap_wants()
        tb = self.tb
        out["put_back"] = self.put_back()
        out["pads"] = {"up": None if self.pad_kind[UP] == _NO_KIND else
                       tb.agent_names[self.pad_kind[UP]],
                       "down": None if self.pad_kind[DOWN] == _NO_KIND else "hidden"}
        if st.phase == MARKET and st.winner < 0:
            mk = self.mk
            out["taken"] = None if mk[0] == NONE else tb.market_names[mk[0]]
        return out

    def publish(self):
        """The published view (shown.py), filled from public facts only: where the pawns stand
        and must go, the seats to act, what each pad expects. The LEDs draw from it alone."""
        sh = self.shown
        st = self.st
        sh.playing = st is not None
        if st is None:
            return sh
        sh.advanced = st.advanced
        sh.pawns[0] = st.pawns[0]
        sh.pawns[1] = st.pawns[1]
        self._publish_spaces(sh.spaces)
        if st.winner >= 0:
            sh.seat_side = st.winner
            sh.seat_lit = S.ALL_SEATS
        else:
            sh.seat_side = st.who_acts()
            sh.seat_lit = self.seat
        sh.seat_count = st.seats[sh.seat_side]
        self._publish_pads(sh.pads)
        return sh

    def _publish_spaces(self, marks):
        for i in range(self.n):
            marks[i] = S.SPACE_OK
        for i in self.diff:
            if self.sensed[i] == _SCANNER_FAULT:
                marks[i] = S.SPACE_FAULT
            elif self._want(i) == 0:
                marks[i] = S.SPACE_TAKE
            else:
                marks[i] = S.SPACE_COME

    def _publish_pads(self, marks):
        phase = self.st.phase
        ready = self.ready()
        for r in range(len(READERS)):
            marks[r] = S.PAD_OFF
            if r == TAP:
                if self.tap_wants() is not None:
                    marks[r] = S.PAD_WANT
            elif ready and phase == PLAY:
                marks[r] = S.PAD_FULL if self.pad[r] else S.PAD_WANT
            elif ready and phase == RECRUIT:
                if self.wants_back(r):
                    marks[r] = S.PAD_BACK  # its played card, back on it
                elif self.pad[r]:
                    marks[r] = S.PAD_PICK
            if self.stale & (1 << r):
                marks[r] = S.PAD_LIFT  # found at power-up: lift it first
        if self.reject_left and self.reject_reader >= 0:
            marks[self.reject_reader] = S.PAD_LIFT

    def export_parts(self):
        """The game record (docs/agent-avenue-board.md) piece by piece."""
        return record.export_parts(self.store, self.header, self.offsets)


def _padded(uid):
    return uid + " " * (_UID_WIDTH - len(uid))


def card_kinds(tb):
    """Every card kind a sticker can be enrolled as: the agents, then the black-market cards."""
    return tb.agent_names + tb.market_names
