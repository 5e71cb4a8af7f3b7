# Runs on MicroPython from a device tree (.mpy firmware and rules core, no simulator), imported
# from a ROMFS image that holds it and host_tools/bench/stubs (`micropython -X heapsize=NwK
# mp_rom_game.py IMAGE SEED PLAYERS [GAME] [-ops]`, see host_tools/bench/hardware.py) in a
# folder holding the board's config/ (as `agentboard deploy --board` writes it), cards.json
# and, for a board with ranked pieces, a ranked calib.json. Plays one whole random game of
# GAME (default Agent DOG) through the real application loop (scanner, referee, judge, store,
# LED view, console), presenting each move to the sensors the way hands
# make it (victim lifted first, both pieces of a swap lifted, a citizen stopping on its special
# space before it jumps on, the Partner 4 segment by segment, then the effects; in a ranked
# game each piece reads as its rank, and each player starts with a piece of a rank chosen at
# random). The hardware is the stand-ins' readings array, nothing more, so the heap measured is
# the firmware's own: the game is played inside a function, so the harness's own names live in
# its frame, not in a module dictionary that would grow mid-game.
# With -ops, the console commands a player's tools send at a game's end follow it
# (END_COMMANDS). Prints the turns played; a MemoryError means the heap was too small.
import sys
# the stand-ins come from the image this runs from (mp_rom_game.py), the firmware through '' as
# on an ESP32 (sys.path ['', ...]), so each module's __file__ is the board's own path
sys.path.insert(1, "")
import gc
import json
import machine
import clock

# the clock never waits: the scans run back to back here (stubs/clock.py says why)
sys.modules["time"] = clock
# the stand-ins wired as the board's maps say, first, before the firmware is loaded
machine.wire()
# on an ESP32 `esp32` is C: its stand-in (the "game" partition, as `agentboard flash` makes
# it, with its scratch page) is loaded here, before the figure's basis is taken
import esp32  # noqa: E402,F401
gc.collect()
# what is alive before the firmware's first import: the ROMFS image(s) the unix port holds in
# its heap, this harness and the stand-ins with their tables (on an ESP32 `machine` is C and
# its pins are constant objects): none of it is the firmware's
HARNESS_HEAP = gc.mem_alloc()
# the application, as firmware/launch.py loads it on the device; the rules core this harness
# plays with is imported after that (in play)
from firmware.games.track import app as app_mod  # noqa: E402
from firmware.hal.calibration import MID, NOMINAL_SWING  # noqa: E402
from firmware.hal.scanner import UP  # noqa: E402

VERBOSE = "-v" in sys.argv
# -ops: after the game, the console commands a player's tools send at its end, through the
# console as the board reads them (a command line in, its answer out, long ones streamed)
OPS = "-ops" in sys.argv
ARGS = [a for a in sys.argv if a not in ("-v", "-ops")]  # ... SEED PLAYERS [GAME]
GAME = None if ARGS[-1].isdigit() else ARGS.pop()  # None: the rules core's default game
SEED = int(ARGS[-2])
PLAYERS = int(ARGS[-1])
MAX_TURNS = 3000


class NoInput:
    """The console's input: no command, or the lines queued in `lines`, one a poll."""

    def __init__(self):
        self.lines = []

    def poll(self):
        return self.lines.pop(0) if self.lines else None


# what `agentboard monitor`, `export` and a player's undo and new game send once a game is
# over (docs/board-protocols.md, section 1)
END_COMMANDS = ('{"op": "status"}', '{"op": "public"}', '{"op": "export"}', '{"op": "undo"}',
                '{"op": "new_game", "game": "%s", "players": %d}', '{"op": "status"}',
                '{"op": "public"}')


def streamed(parts):
    """A long answer written piece by piece, as the board's console writes it to USB."""
    for _ in parts:
        pass


def end_commands(app, inp, said, game, players):
    """Each of END_COMMANDS, answered by the board's loop (which polls the console each scan);
    the new game is the same game for as many players. said: the answers, as the console's
    write notes them."""
    del said[:]
    for line in END_COMMANDS:
        inp.lines.append(line % (game, players) if "%s" in line else line)
        app.step(0)
    # every command answered (export's streamed), and each answer ok (a MemoryError in one is
    # answered as an internal error: said here with the answer)
    assert said == [True] * (len(END_COMMANDS) - 1), said


class Hands:
    """What the players' hands put on the board, read through the stand-in ADCs."""

    def __init__(self, app):
        self.app = app
        self.places = app.places
        self.lay = app.lay
        self.exp = bytearray(self.places.n)
        self.counts = bytearray(self.lay.ncol)
        cal = app.board.calib
        self.ranked = cal.ranked
        if cal.ranked:  # a rank's reading: its level of the king's swing
            self.up = [MID + int(cal.king_up * v) for v in cal.levels]
            self.down = [MID - int(cal.king_down * v) for v in cal.levels]
        else:
            self.up = [MID + NOMINAL_SWING]
            self.down = [MID - NOMINAL_SWING]
        # a new rank under a piece already read holds for rank_scans (scanner.py)
        sc = app.board.scanner
        self.scans = (sc.rank_scans if cal.ranked else sc.stable) + 2
        self.n = 0

    def reading(self, p, cls):
        r = p % self.lay.ppc if self.ranked else 0
        return self.up[r] if cls == UP else self.down[r]

    def show(self, st, held=()):
        """The sensors read position st (pieces in `held` are in a hand), then the board
        scans until it has settled."""
        places = self.places
        lay = self.lay
        readings = machine.READINGS
        places.expected(st, self.exp, self.counts)
        for i in range(places.n):
            readings[i] = MID
        for p in range(lay.npieces):
            loc = st.pos[p]
            if loc < lay.nboard:
                i = places.sensor[loc]
                readings[i] = self.reading(p, self.exp[i])
        for c in range(lay.ncol):
            # the pieces waiting in a start area stand on its spots, in the order of their
            # ranks; a colour not in the game keeps all its pieces there
            k = 0
            spots = places.spots[c]
            for p in range(c * lay.ppc, (c + 1) * lay.ppc):
                if st.pos[p] >= lay.nboard and k < len(spots):
                    readings[spots[k]] = self.reading(p, UP)
                    k += 1
        for p in held:
            loc = st.pos[p]
            if loc < lay.nboard:
                readings[places.sensor[loc]] = MID
        for _ in range(self.scans):
            self.app.step(self.n)
            self.n += 1


def same_board(a, b):
    """Whether the same pieces stand in the same places in positions a and b: the colours
    (pieces of one colour are alike, hidden colours included), and in a ranked game the ranks
    too. Compared in place: this harness's own heap stays out of the figure."""
    lay = a.lay
    for loc in range(lay.nboard):
        p = a.board[loc]
        q = b.board[loc]
        if (p == 0) != (q == 0):
            return False
        if p and (p != q if a.game.ranked else (p - 1) // lay.ppc != (q - 1) // lay.ppc):
            return False
    return True


def put(st, p, loc):
    q = st.at(loc)
    if q >= 0:
        st.put(q, st.lay.start_area(q // st.lay.ppc))
    st.put(p, loc)


def deck(cards):
    """One enrolled sticker per card kind (cards.json, as the simulator's deck writes it)."""
    uid_of = [None] * len(cards.names)
    with open("cards.json") as f:
        while True:
            line = f.readline()
            if not line:
                break
            u, kind = json.loads(line)
            k = cards.index[kind]
            if uid_of[k] is None:
                uid_of[k] = u
    return uid_of


def present(hands, st, mv):
    """The players make move mv of position st on the board, as hands do it."""
    from shared_rules import movegen
    lay = st.lay
    work = st.copy()
    if mv.act == movegen.SWAP or mv.act == movegen.SWAP_OWN:
        hands.show(work, (mv.a, mv.b))  # both squares empty a moment
        la = work.pos[mv.a]
        lb = work.pos[mv.b]
        work.put(mv.a, lay.start_area(0))
        work.put(mv.b, la)
        work.put(mv.a, lb)
        hands.show(work)
    elif mv.act == movegen.STEPS or mv.act == movegen.MAGNET:
        d = movegen.dest_of(mv.b)
        q = work.at(d)
        if q >= 0:
            hands.show(work, (q,))  # the victim off first
        put(work, mv.a, d)
        hands.show(work)
        j = movegen.jump_of(mv.b)
        if j >= 0:  # the citizen stands on the special space a moment, then jumps on
            put(work, mv.a, j)
            hands.show(work)
    else:
        # (imported here, as the firmware loads it with the first split: a DOG board never
        # plays one, and the harness's imports in play count in the figure)
        from shared_rules import split
        sp = split.Split(st, st.plays(st.to_move))
        total = st.game.cards.steps[movegen.effective(st, mv.card)][0]
        steps = split.unpack(mv.a, total)
        i = 0
        while i < len(steps):
            p = steps[i][0]
            ahead = work.copy()  # where this segment goes and whom it burns
            j = i
            burned = []
            while j < len(steps) and steps[j][0] == p:
                d = split.dest(ahead, sp, p, steps[j][1])
                q = split.step(ahead, p, d)
                if q >= 0:
                    burned.append(q)
                j += 1
            if burned:
                hands.show(work, burned)  # burned pieces come off first, as hands do it
            work = ahead
            i = j
            hands.show(work)


def the_game(lay):
    """The game GAME on the board's layout, looked up as the firmware's console op new_game
    looks it up (firmware/games/track/lookup.py, dropped again after it)."""
    from firmware import ondemand
    from firmware.games.track.referee import LOOKUP
    return ondemand.call(LOOKUP, "load", GAME, lay.name)


def play():
    for i in range(len(machine.READINGS)):
        machine.READINGS[i] = MID  # an empty board
    inp = NoInput()
    said = []  # the console's answers (not its events): True for an ok one, else the answer
    app = app_mod.App("config", ".", write=lambda line: '"re": ' in line and said.append(
        '"ok": true' in line or line), inp=inp, write_parts=streamed)
    app.boot()
    from shared_rules import movegen
    from shared_rules.apply import apply as rules_apply
    from shared_rules.move import count_moves, nth_move
    from shared_rules.rng import Rng
    from shared_rules.state import new_game
    ref = app.ref
    lay = app.lay
    hands = Hands(app)
    rng = Rng(SEED)
    game = the_game(lay)
    cards = game.cards
    uid_of = deck(cards)
    st = ref.start(PLAYERS, game=game) or ref.st
    if game.ranked:  # each player puts a piece of a rank of their choice on the start space
        first = {}
        for c in st.seats:
            first[c] = rng.below(lay.ppc)
        st = new_game(game, PLAYERS, st.seats, st.dealer, first)
    hands.show(st)
    assert ref.phase == "await_card", ref.phase
    turns = 0
    while turns < MAX_TURNS:
        st = ref.st
        playable = [k for k in range(len(cards.names)) if movegen.any_move(st, k)]
        if not playable:
            assert ref.pass_turn()
        else:
            k = playable[rng.below(len(playable))]
            mv = nth_move(st, k, rng.below(count_moves(st, k)))
            ref.on_card(uid_of[k])
            assert ref.phase == "await_move", ref.phase
            present(hands, st, mv)
            if ref.phase == "await_move":
                ref.confirm()  # a move the sensors cannot tell from a longer one
            new, _ = rules_apply(st, mv)
            hands.show(new)  # the effects, carried out
            assert ref.phase != "await_effect", ref.diffs
            if not same_board(ref.st, new):
                raise AssertionError("the referee's game differs from the move played: %r %r"
                                     % (list(ref.st.board), list(new.board)))
        turns += 1
        if turns in (50, 400, 800) and VERBOSE:
            gc.collect()
            print(turns, gc.mem_alloc(), len(ref.turns))
        if ref.phase == "game_over":
            break
    won = ref.phase == "game_over"
    if OPS:
        end_commands(app, inp, said, game.name, PLAYERS)
    gc.collect()
    print(json.dumps({"turns": turns, "heap_used": gc.mem_alloc(), "harness_heap": HARNESS_HEAP,
                      "won": won}))


play()
