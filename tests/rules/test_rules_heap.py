# The rules core's heap on the device (issue 30): what a board loads for its game, and the heap
# a whole seeded game needs, compiled to .mpy as a deploy writes it, on the MicroPython unix
# port. On the stock ESP32_GENERIC build (no ROMFS) every byte of bytecode and every table the
# rules core loads sits in the heap, beside the firmware's.
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, micropython_cmd

# Plays whole random games of the named games (4 or 6 seats) through the rules core, asking
# for the hints of every card played and writing and reading back every move as the protocol
# does (what a board does with the rules core), then prints the rules core's modules loaded.
LOADED = """
import sys, json
sys.path.insert(0, %r)
from shared_rules import randgame, hints, notation


def report(st, seat, k, mv, events):
    if k >= 0:
        hints.hints(st, k)
        notation.from_json(st, notation.to_json(st, mv))


for game, players in %r:
    randgame.play(1, players, report=report, game=game)
print(json.dumps(sorted(m for m in sys.modules if m.startswith("shared_rules"))))
"""
SPLIT_CODE = ["shared_rules.segments", "shared_rules.split"]


def loaded(games, interpreter):
    out = subprocess.run([interpreter, "-c", LOADED % (ROOT, games)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_dog_and_dog_royal_never_load_the_split_cards_code(interpreter):
    # DOG and DOG Royal have no split card (data/dog-cards.json): the Partner 4's code
    # (split.py, segments.py: 3.7 KB of heap on the 64-bit port) is Agent DOG's alone
    cmd = sys.executable if interpreter == "cpython" else micropython_cmd()
    mods = loaded((("dog", 6), ("dog-royal", 4)), cmd)
    assert "shared_rules.royal" in mods and "shared_rules.dog" in mods
    assert [m for m in SPLIT_CODE if m in mods] == []
    # and Agent DOG, whose Partner 4 does split, loads it with the first one played
    assert "shared_rules.split" in loaded((("agent-dog", 4),), cmd)


# A whole seeded game through the rules core and its random player (shared_rules/randgame.py)
# must finish in RULES_GAME_WK: `make bench` section 1's figure (rules.heap.*), the smallest
# -X heapsize=NwK (N KB of a 32-bit heap) it completes in, the rules core as .mpy compiled by
# mpy-cross as a deploy does. Measured 2026-11-27 (64-bit unix port, MicroPython 1.29
# preview): Agent DOG 4 players seeds 1-3 32, 33, 33 wK; DOG and DOG Royal 6 players seed 1
# 32 and 33 wK. Before issue 30's steps the same games needed 40, 41, 40 wK and 41, 41 wK:
# the random player's pile, a list of ints growing to 1.5 KB in one block, ran out of a block
# that size with 18 KB free; DOG's boards held the Partner 4's code; the reasons for refused
# moves sat in the heap all game. Where fragmentation falls moves the figure by a wK from one
# build to the next, so the ceiling sits 1 wK above the highest seen: the next growth fails.
RULES_GAME_WK = 34
GAMES = [("agent-dog", 4, 1), ("agent-dog", 4, 2), ("agent-dog", 4, 3), ("dog", 6, 1),
         ("dog-royal", 6, 1)]


@pytest.fixture(scope="module")
def device_tree(tmp_path_factory):
    from host_tools.bench.common import build_device_tree
    dst = str(tmp_path_factory.mktemp("device"))
    build_device_tree(dst)
    return dst


@pytest.mark.micropython
@pytest.mark.parametrize("game, players, seed", GAMES)
def test_a_whole_game_of_the_rules_core_as_mpy_fits_its_heap(device_tree, game, players, seed):
    from host_tools.bench.common import run_mp
    rc, out = run_mp(device_tree, ["mp_game.py", str(seed), str(players), "1", game],
                     RULES_GAME_WK)
    assert rc == 0, out[-2000:]
    assert json.loads(out.strip().splitlines()[-1])["turns"] > 100


def test_agent_avenues_tables_refuse_data_a_byte_cannot_hold():
    # the end reasons' bits and the market cards' counts are kept as bytes: data that does not
    # fit is refused when the tables load, never cut short (MicroPython's bytearray would keep
    # the low 8 bits of 256 without a word)
    from shared_rules import _data
    from shared_rules.avenue import tables
    board = _data.load("agent-avenue-board.json")
    board["end_reasons"] = board["end_reasons"] + ["reason%d" % i for i in range(3)]
    with pytest.raises(ValueError, match="at most 8 end reasons"):
        tables.Tables(_data.load("agent-avenue-cards.json"), board)
    cards = _data.load("agent-avenue-cards.json")
    car = [c for c in cards["market"] if c["name"] == "getaway_car"][0]
    car["effect"]["steps"] = 256
    with pytest.raises(ValueError, match="getaway_car's count 256 does not fit a byte"):
        tables.Tables(cards, _data.load("agent-avenue-board.json"))
    assert tables.load().effect_n[tables.load().market_index["getaway_car"]] == 3
