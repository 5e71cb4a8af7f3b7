# Hidden information stays hidden: whatever the referee knows about who hides under the
# undercover pieces, nothing it emits (console lines, the public view, the LEDs) may depend on
# it until the rules reveal it. Every position of whole games; the colours under the undercover
# pieces are permuted (same physical board, other hidden truth), and the raw bytes the console
# writes and every LED frame are compared while players tap cards, lift pieces, swap two
# undercover pieces and take the swap back, bump a piece, and across power cuts (before the
# undone swap is exchanged back, and with a card played and a piece in the hand).
import json
import os
import tempfile

import pytest

from shared_rules import layout, cards as cards_mod, randgame
from shared_rules.rng import Rng
from firmware.games.track import referee
from firmware.console import Console
from firmware.games.track.places import Places
from firmware.games.track.referee import Referee
from firmware.gamelog import Store
from firmware.store import FORMAT, Guarded
from firmware.cardmap import CardMap
from firmware.games.track.view import View
from firmware.hal.leds import Strip
from firmware.hal.scanner import EMPTY, UP, DOWN
from conftest import ROOT

LAY = layout.load()
CARDS = cards_mod.load()
SENSORS = json.load(open(os.path.join(ROOT, "hardware", "sensors.json")))["sensors"]
LEDS = json.load(open(os.path.join(ROOT, "hardware", "leds.json")))["leds"]
NAMES = [s["loc"] for s in SENSORS]
INDEX = dict((n, i) for i, n in enumerate(NAMES))


class FakePixels:
    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n

    def __len__(self):
        return self.n

    def write(self):
        pass


def outputs(st, script):
    """Runs the referee on position st through `script`; returns, per step (the first is the
    start), the raw bytes of the console lines it wrote and the LED frame after it."""
    with tempfile.TemporaryDirectory(prefix="agentboard-secrecy-") as data:
        return _outputs(st, script, data)


def _outputs(st, script, data):
    places = Places(LAY, INDEX)
    lines = []
    console = Console(None, lambda line: lines.append(line.encode()))

    def boot():
        # a referee on the flash folder, as the application makes one at every power-up (the
        # store as it wraps it: store.open_store)
        r = Referee(places, Guarded(Store(data), console.emit), CardMap(data, CARDS.names),
                    console.emit)
        for k in range(len(CARDS.names)):
            r.cardmap._put(bytes.fromhex("%014x" % k), CARDS.names[k])
        return r

    ref = boot()
    ref.st = st
    # saved as a game begun at st (new_game below gives st), so a power cut resumes it
    ref.header = {"format": FORMAT, "game": "agent-dog", "layout": LAY.name,
                  "players": st.players, "seats": [LAY.colours[c] for c in st.seats],
                  "dealer": LAY.colours[st.dealer]}
    ref.store.new(ref.header)
    px = FakePixels(len(LEDS))
    view = View(Strip(px), LEDS, NAMES, places, LAY)
    sensed = bytearray(places.n)
    exp = bytearray(places.n)
    counts = bytearray(LAY.ncol)
    places.expected(st, exp, counts)
    for i in range(places.n):
        sensed[i] = exp[i] if exp[i] != 255 else EMPTY
    for c in range(LAY.ncol):
        for k in range(min(counts[c], 4) if counts[c] != 255 else 4):
            sensed[places.spots[c][k]] = UP
    ref.phase = "await_card"
    # this game began at st: an undo rebuilds it from there
    real_new_game = referee.new_game
    referee.new_game = lambda *a, **kw: st.copy()
    try:
        ref.on_board(sensed, ())
        steps = []

        def snap():
            view.render(ref.publish(), True)
            console.emit({"re": "public", "ok": True, "view": ref.public_view()})
            steps.append((list(lines), bytes(px.buf)))
            del lines[:]

        snap()
        for action in script:
            kind, arg = action
            if kind == "card":
                ref.on_card("%014x" % CARDS.index[arg])
            elif kind == "set":
                i, cls = arg
                sensed[i] = cls
                ref.on_board(sensed, (i,))
            elif kind == "back":
                ref.cancel_card()
            elif kind == "undo":
                ref.undo()
            elif kind == "cut":  # the power goes and comes back: the board as it stands
                ref = boot()
                ref.sense(sensed, ())
                ref.resume_from_flash()
            snap()
    finally:
        referee.new_game = real_new_game
    return steps


REVEALING = (b'"kind": "knock_out"', b'"kind": "reveal"')


def until_revealed(steps):
    """The steps up to the first console line in which the rules reveal a colour (a piece
    knocked out or revealed in home), that line excluded: what may not differ."""
    out = []
    for lines, frame in steps:
        for j in range(len(lines)):
            if any(r in lines[j] for r in REVEALING):
                out.append((lines[:j], None))
                return out
        out.append((lines, frame))
    return out


def permuted(st, rotate):
    """The same board with the colours under the undercover pieces rotated, or None."""
    uc = [p for p in range(LAY.npieces) if st.undercover(p)]
    if len(uc) < 2:
        return None
    locs = [st.pos[p] for p in uc]
    other = st.copy()
    k = rotate % len(uc) or 1
    for j in range(len(uc)):
        other.put(uc[j], LAY.start_area(uc[j] // LAY.ppc))
    for j in range(len(uc)):
        other.put(uc[j], locs[(j + k) % len(uc)])
    return other


def scripts_for(st, rng):
    """What players do, each from the position st: tap a card and lift pieces and put them
    back (every card); swap two undercover pieces and take the swap back, exchanging them
    again; bump a piece."""
    scripts = []
    occupied = [i for i in range(len(NAMES)) if ":" not in NAMES[i]
                and st.board[int(NAMES[i])]]
    for name in CARDS.names:
        steps = [("card", name)]
        for i in occupied[:6]:
            steps.append(("set", (i, EMPTY)))
            steps.append(("set", (i, DOWN if LAY.hole[int(NAMES[i])] else UP)))
        steps.append(("back", None))
        scripts.append(steps)
    steps = []
    holes = [i for i in occupied if LAY.hole[int(NAMES[i])]]
    a, b = holes[0], holes[-1]
    steps.append(("card", "swap"))
    for i in (a, b):  # the swap: both lifted and put back
        steps.append(("set", (i, EMPTY)))
        steps.append(("set", (i, DOWN)))
    steps.append(("undo", None))
    for i in (a, b):  # and the undo: both lifted and put back, exchanged
        steps.append(("set", (i, EMPTY)))
    for i in (a, b):
        steps.append(("set", (i, DOWN)))
    scripts.append(steps)
    # the same swap and undo with a power cut before the exchange back, and a card played and
    # a piece lifted when the power goes
    cut = steps[:steps.index(("undo", None)) + 1] + [("cut", None)] + \
        steps[steps.index(("undo", None)) + 1:]
    scripts.append(cut)
    scripts.append([("card", CARDS.names[0]), ("set", (a, EMPTY)), ("cut", None),
                    ("set", (a, DOWN))])
    i = occupied[rng.below(len(occupied))]
    scripts.append([("set", (i, EMPTY)),     # a bump: shown as a mismatch
                    ("set", (i, DOWN if LAY.hole[int(NAMES[i])] else UP))])
    return scripts


def positions_with_secrets(n):
    found = []

    def report(before, seat, k, mv, events):
        if len(found) < n and sum(1 for p in range(LAY.npieces) if before.undercover(p)) >= 2 \
                and not before.winners():
            found.append(before.copy())

    for seed in range(1, 6):
        randgame.play(seed, 2 + seed % 3, report=report)
    return found[:n]


def positions_of_whole_games():
    """Every position with two or more undercover pieces, in whole games of 4, 3, 2 players."""
    found = []

    def report(before, seat, k, mv, events):
        if sum(1 for p in range(LAY.npieces) if before.undercover(p)) >= 2 \
                and not before.winners():
            found.append(before.copy())

    for seed, players in ((11, 4), (12, 3), (13, 2)):
        randgame.play(seed, players, report=report)
    return found


@pytest.mark.slow
def test_nothing_emitted_depends_on_who_is_undercover():
    # every console byte and LED frame, compared raw: the order of keys in an answer would
    # tell as much as a value
    rng = Rng(5)
    checked = 0
    undone = 0
    resumed = 0
    positions = positions_of_whole_games()
    for st in positions:
        other = permuted(st, 1 + rng.below(3))
        if other is None or bytes(other.pos) == bytes(st.pos):
            continue
        for script in scripts_for(st, rng):
            a = until_revealed(outputs(st, script))
            b = until_revealed(outputs(other, script))
            assert a == b, "console bytes or LED frames differ"
            undone += any(b'"event": "undo"' in line for lines, _ in a for line in lines)
            resumed += any(b'"event": "resumed"' in line for lines, _ in a for line in lines)
        checked += 1
    # every position: a swap undone, the same with a power cut, a card and a cut mid-move
    assert checked >= 100 and undone == 2 * checked and resumed == 2 * checked


def test_the_check_sees_a_leak():
    # the same comparison catches a view that shows a hidden colour
    st = positions_with_secrets(50)[-1]
    other = permuted(st, 1)
    real = referee.Referee.public_view

    def leaky(self):
        v = real(self)
        # the colour on each hole, by location: what a careless view would show
        v["secret"] = [self.lay.colours[(self.st.board[t] - 1) // self.lay.ppc]
                       for t in range(self.lay.n) if self.lay.hole[t] and self.st.board[t]]
        return v

    referee.Referee.public_view = leaky
    try:
        assert outputs(st, []) != outputs(other, [])
    finally:
        referee.Referee.public_view = real


def test_the_check_sees_a_leak_through_the_order_of_keys():
    # a public view whose board is filled piece by piece (as it once was) comes out of the
    # console in that order: the same values, in an order that names who is where. The
    # raw-byte comparison sees it
    st = positions_with_secrets(50)[-1]
    other = permuted(st, 1)
    assert outputs(st, []) == outputs(other, [])
    real = referee.Referee.public_view

    def piece_by_piece(self):
        v = real(self)
        board = {}
        for p in range(self.lay.npieces):
            loc = self.st.pos[p]
            if loc < self.lay.nboard:
                key = str(self.lay.loc_json(loc))
                board[key] = v["board"][key]
        v["board"] = board
        return v

    referee.Referee.public_view = piece_by_piece
    try:
        assert outputs(st, []) != outputs(other, [])
    finally:
        referee.Referee.public_view = real
