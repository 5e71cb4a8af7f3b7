# Whole random Agent Avenue games in every mode and variant: the same seeded games on CPython and
# MicroPython (shared_rules.rng), protocol answers on positions from real games identical on both
# interpreters and equal to what the game itself did, and games that reach every card and end.
import json
import subprocess

import pytest

from conftest import ROOT, micropython_cmd
from shared_rules.avenue import randgame, position, tables
from shared_rules.avenue import move as M
from avenuebook import MARKET

VARIANTS = [("simple", 1, 1), ("simple", 2, 1), ("simple", 1, 2), ("simple", 2, 2),
            ("advanced", 1, 1), ("advanced", 2, 1), ("advanced", 1, 2), ("advanced", 2, 2)]


def run_demo(interpreter, seed, mode, green, blue):
    out = subprocess.run([interpreter, "-m", "shared_rules.avenue", "demo", str(seed), mode,
                          str(green), str(blue)], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("mode,green,blue", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_seeded_random_games_are_identical_on_both_interpreters(seed, mode, green, blue):
    a = run_demo(ROOT + "/.venv/bin/python", seed, mode, green, blue)
    b = run_demo(micropython_cmd(), seed, mode, green, blue)
    assert a == b
    assert " wins (" in a  # played to the end


def decisions_of_games(mode, seats, seeds, every=2):
    tb = tables.load()
    out = []
    for seed in seeds:
        k = [0]

        def report(before, mv, events):
            k[0] += 1
            if k[0] % every == 0 or any(e["type"] == "end" for e in events):
                out.append((position.dump(before), M.to_json(tb, before, mv), events))

        randgame.play(seed, mode == "advanced", seats, report=report)
    return out


@pytest.mark.parametrize("mode,green,blue", VARIANTS)
def test_protocol_answers_on_positions_from_real_games(both, mode, green, blue):
    asked = 0
    for pos, move, events in decisions_of_games(mode, (green, blue), (20, 21, 22, 23)):
        pos = json.loads(json.dumps(pos))
        moves = both.ask({"op": "legal", "position": pos})["moves"]
        kind = [k for k in M.KINDS if k in move][0]
        assert any(kind in m for m in moves)
        ans = both.ask({"op": "apply", "position": pos, "move": move})
        assert ans["ok"], ans
        assert ans["events"] == events
        asked += 2
    assert asked > 20


def test_random_games_reach_every_card_every_ending_and_the_rare_rules():
    seen = set()
    tb = tables.load()
    for mode, green, blue in VARIANTS:
        for seed in range(60):
            def report(before, mv, events):
                for e in events:
                    if e["type"] == "market":
                        seen.add("card:" + e["card"])
                    elif e["type"] == "end":
                        seen.add("end:" + e["reason"])
                        if e.get("tie"):
                            seen.add("tie")
                    elif e["type"] == "hand":
                        seen.add("hand")
                    elif e["type"] == "discard":
                        seen.add("discard:%s" % ("team" if before.seats[before.active] == 2
                                                 else "alone"))
                if mv.kind == M.PLAY and mv.forced:
                    seen.add("forced")
                if mv.kind == M.MARKET and before.npending == 2:
                    seen.add("both pending")
                if len([e for e in events if e["type"] == "market"]) and \
                        any(e["type"] == "pawn" for e in events) and \
                        before.tb.is_market[before.pawns[before.pending[0]]]:
                    seen.add("market chain")
            randgame.play(seed, mode == "advanced", (green, blue), report=report)
    wanted = ["card:" + c for c in MARKET]
    wanted += ["end:" + r for r in tb.reasons]
    wanted += ["tie", "hand", "forced", "both pending", "discard:team", "discard:alone"]
    missing = [w for w in wanted if w not in seen]
    assert not missing, "never happened in the games: %s" % missing
