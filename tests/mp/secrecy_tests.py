# Hidden colours on the real interpreter: MicroPython orders a dict's keys by its hash table's
# history, which CPython does not, so the raw bytes the console writes are compared here too.
# Positions of a whole random game; the colours under the undercover pieces are permuted; the
# public view and every event after each card is tapped must be the same bytes.
import json

from shared_rules import layout, cards as cards_mod, randgame
from firmware.console import Console
from firmware.games.track.places import Places
from firmware.games.track.referee import Referee
from firmware.gamelog import Store
from firmware.store import Guarded
from firmware.cardmap import CardMap
from firmware.hal.scanner import EMPTY, UP
from simboard import check

SCRATCH = "/tmp"
LAY = layout.load()
CARDS = cards_mod.load()


def board_index():
    with open("hardware/sensors.json") as f:
        names = [s["loc"] for s in json.load(f)["sensors"]]
    index = {}
    for i in range(len(names)):
        index[names[i]] = i
    return names, index


NAMES, INDEX = board_index()


def console_bytes(st):
    places = Places(LAY, INDEX)
    lines = []
    con = Console(None, lines.append)
    ref = Referee(places, Guarded(Store(SCRATCH), con.emit), CardMap(SCRATCH, CARDS.names),
                  con.emit)
    for k in range(len(CARDS.names)):
        ref.cardmap._put(bytes([0, 0, 0, 0, 0, 0, k]), CARDS.names[k])
    ref.st = st
    sensed = bytearray(places.n)
    exp = bytearray(places.n)
    counts = bytearray(LAY.ncol)
    places.expected(st, exp, counts)
    for i in range(places.n):
        sensed[i] = exp[i] if exp[i] != 255 else EMPTY
    for c in range(LAY.ncol):
        for j in range(min(counts[c], 4) if counts[c] != 255 else 4):
            sensed[places.spots[c][j]] = UP
    ref.phase = "await_card"
    ref.on_board(sensed, ())
    con.emit({"re": "public", "ok": True, "view": ref.public_view()})
    for k in range(len(CARDS.names)):
        ref.on_card("000000000000%02x" % k)
        con.emit({"re": "public", "ok": True, "view": ref.public_view()})
        ref.cancel_card()
    return lines


def permuted(st):
    uc = [p for p in range(LAY.npieces) if st.undercover(p)]
    locs = [st.pos[p] for p in uc]
    other = st.copy()
    for p in uc:
        other.put(p, LAY.start_area(p // LAY.ppc))
    for j in range(len(uc)):
        other.put(uc[j], locs[(j + 1) % len(uc)])
    return other


def test_console_bytes_do_not_depend_on_who_is_undercover():
    found = []

    def report(before, seat, k, mv, events):
        uc = [p for p in range(LAY.npieces) if before.undercover(p)]
        colours = [p // LAY.ppc for p in uc]
        if len(uc) >= 2 and min(colours) != max(colours) and not before.winners():
            found.append(before.copy())

    randgame.play(21, 4, report=report)
    check(len(found) >= 20, "only %d positions with two colours undercover" % len(found))
    for st in found[::3]:
        a = console_bytes(st)
        b = console_bytes(permuted(st))
        check(a == b, "console bytes differ:\n%s\n%s" % (
            [x for x in a if x not in b][:1], [x for x in b if x not in a][:1]))
