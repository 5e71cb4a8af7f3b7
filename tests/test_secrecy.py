# Hidden information stays hidden: whatever the referee knows about who hides under the
# undercover pieces, nothing it emits (events, the public view, the LEDs) may depend on it
# until the rules reveal it. Positions from real games; the colours under the undercover
# pieces are permuted (same physical board, other hidden truth), and every output of the
# firmware's referee and LED view is compared while players tap cards, lift pieces, bump them.
import json
import os
import tempfile

from shared_rules import layout, cards as cards_mod, randgame
from shared_rules.rng import Rng
from firmware.places import Places
from firmware.referee import Referee
from firmware.store import Store
from firmware.cardmap import CardMap
from firmware.view import View
from firmware.hal.leds import Strip
from firmware.hal.scanner import EMPTY, UP, DOWN

LAY = layout.load()
CARDS = cards_mod.load()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
    """Runs the referee on position st through `script`; returns everything it emitted."""
    data = tempfile.mkdtemp()
    places = Places(LAY, INDEX)
    out = []
    ref = Referee(places, NAMES, Store(data), CardMap(data, CARDS.names), out.append)
    for k in range(len(CARDS.names)):
        ref.cardmap._put(bytes.fromhex("%014x" % k), CARDS.names[k])
    ref.st = st
    ref.header = {"players": st.players}
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
    ref.on_board(sensed, ())
    frames = []

    def snap():
        view.render(ref, True)
        frames.append(bytes(px.buf))
        frames.append(json.dumps(ref.public_view(), sort_keys=True))

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
        snap()
    return [json.dumps(e, sort_keys=True) for e in out], frames


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


def script_for(st, rng):
    """Players tap each card, lift every movable piece and put it back, bump pieces."""
    steps = []
    occupied = [i for i in range(len(NAMES)) if ":" not in NAMES[i]
                and st.board[int(NAMES[i])]]
    for name in CARDS.names:
        steps.append(("card", name))
        for i in occupied[:6]:
            steps.append(("set", (i, EMPTY)))
            steps.append(("set", (i, DOWN if LAY.hole[int(NAMES[i])] else UP)))
        steps.append(("back", None))
    i = occupied[rng.below(len(occupied))]
    steps.append(("set", (i, EMPTY)))      # a bump: shown as a mismatch
    steps.append(("set", (i, DOWN if LAY.hole[int(NAMES[i])] else UP)))
    return steps


def positions_with_secrets(n):
    found = []

    def report(before, seat, k, mv, events):
        if len(found) < n and sum(1 for p in range(LAY.npieces) if before.undercover(p)) >= 2 \
                and not before.winners():
            found.append(before.copy())

    for seed in range(1, 6):
        randgame.play(seed, 2 + seed % 3, report=report)
    return found[:n]


def test_nothing_emitted_depends_on_who_is_undercover():
    rng = Rng(5)
    checked = 0
    positions = positions_with_secrets(400)[::8]
    for st in positions:
        other = permuted(st, 1 + rng.below(3))
        if other is None or bytes(other.pos) == bytes(st.pos):
            continue
        script = script_for(st, rng)
        a = outputs(st, script)
        b = outputs(other, script)
        assert a[0] == b[0], "events differ"
        assert a[1] == b[1], "LEDs or public view differ"
        checked += 1
    assert checked >= 20


def test_the_check_sees_a_leak():
    # the same comparison catches a view that shows a hidden colour
    import firmware.referee as referee
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
        assert outputs(st, [])[1] != outputs(other, [])[1]
    finally:
        referee.Referee.public_view = real
