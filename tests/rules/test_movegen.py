# The move generator's own contract: early exit leaves the position untouched, and the
# Partner 4 enumeration gives each distinct outcome (compared with a brute-force walk).
import json
import os

from shared_rules import layout, cards as cards_mod, position, movegen, split
from shared_rules.move import legal_moves
from rulebook import position as pos_json
from conftest import ROOT

LAY = layout.load()
CARDS = cards_mod.load()
BENCH = json.load(open(os.path.join(ROOT, "host_tools", "bench", "positions.json")))


def state(obj):
    return position.parse(obj)


def test_stopping_early_restores_the_position():
    for name, case in BENCH.items():
        if name.startswith("_"):
            continue
        st = state(case["position"])
        before = (bytes(st.pos), bytes(st.board))
        seen = []

        def visit(a, b):
            seen.append(a)
            return len(seen) == 3

        k = st.game.cards.index[case["card"]]
        movegen.moves(st, k, visit)
        assert (bytes(st.pos), bytes(st.board)) == before
        assert len(seen) == min(3, len(legal_moves(st, k)))
        assert movegen.any_move(st, k) == bool(seen)


def _brute_outcomes(st, total):
    # every sequence of single steps, without the generator's order reduction
    sp = split.Split(st, st.plays(st.to_move))
    out = set()

    def walk(work, left, moved):
        if left == 0:
            out.add((bytes(work.pos), frozenset(p for p in moved if work.pos[p] < LAY.nboard)))
            return
        for p in sp.movable:
            for o in (0, 1):
                d = split.dest(work, sp, p, o)
                if d >= 0:
                    nxt = work.copy()
                    split.step(nxt, p, d)
                    walk(nxt, left - 1, moved | {p})

    walk(st, total, frozenset())
    return out


def _generated_outcomes(st, total):
    out = set()

    def visit(code, _):
        moved = {p for p, _ in split.unpack(code, total)}
        out.add((bytes(st.pos), frozenset(p for p in moved if st.pos[p] < LAY.nboard)))

    split.moves(st, st.plays(st.to_move), total, visit)
    return out


def test_partner_generator_finds_every_outcome_of_brute_force():
    cases = [pos_json(red=[9, 11], green=[10, 13], blue=[12, 20]),
             pos_json(players=3, red=[17, 18, 19, 20], blue=[21, 22], green=[62, 63]),
             pos_json(red=[62, 63, 0, "h2"], green=[29, 31], blue=[30, 60])]
    for obj in cases:
        st = state(obj)
        assert _generated_outcomes(st, 4) == _brute_outcomes(st, 4), obj
