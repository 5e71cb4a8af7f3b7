# Power cuts at random moments: the simulated device is killed while its board time runs (it
# may be scanning, judging, or writing the game log), then powered on from the same flash.
# The saved game must always load, be exactly the players' game up to at most the move in
# progress, and play must go on once the pieces stand where the saved game says.
import json
import os
import random
import struct
import threading
import time
import zlib

import pytest

from host_tools.sim.players import Table, Players, TableError

pytestmark = pytest.mark.micropython


def cut_during(table, wait_ms, after_s):
    """Lets board time run for wait_ms and kills the device after about after_s seconds of
    real time, wherever it is."""
    timer = threading.Timer(after_s, lambda: table.sim.proc and table.sim.proc.kill())
    timer.start()
    try:
        table.sim.request({"op": "wait", "ms": wait_ms})
    finally:
        timer.cancel()
    table.ask({"op": "power_cut"})
    table.ask({"op": "card_off"})  # a card left on the reader is taken away
    table.ask({"op": "power_on"})
    table.wait(300)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_random_power_cuts_never_corrupt_the_game(seed):
    rng = random.Random(seed)
    t = Table(seed=seed)
    try:
        t.new_game(2 + seed % 3)
        players = Players(t, seed)
        players.deal()
        cuts = 0
        for turn in range(60):
            done_before = len(t.record()["turns"])
            if rng.random() < 0.25:
                # cut somewhere inside this turn: start it, then kill while time runs
                orig_wait = t.wait
                state = {"armed": True}

                def wait(ms=160, _orig=orig_wait, _state=state):
                    if _state["armed"] and rng.random() < 0.3:
                        _state["armed"] = False
                        cut_during(t, ms, rng.random() * 0.02)
                        raise TableError("power cut")
                    return _orig(ms)

                t.wait = wait
                try:
                    players.turn()
                except TableError:
                    pass
                finally:
                    t.wait = orig_wait
                if state["armed"]:
                    continue  # the turn finished before the cut came
                cuts += 1
                resumed = [e for e in t.events if e.get("event") == "resumed"]
                assert resumed, "no resume after the power cut"
                rec = t.adopt_device_game()
                assert len(rec["turns"]) in (done_before, done_before + 1)
            else:
                evs = players.turn()
                if any(e.get("event") == "win" for e in evs):
                    break
                if any(e.get("event") == "round_end" for e in evs):
                    players.deal()
        assert cuts >= 3
    finally:
        t.close()


def partition_records(flash):
    # the journal's records as firmware/flashlog.py writes them: length, game number, CRC,
    # text; the simulated partition file holds each byte inverted (host_tools/sim/nor_flash.py)
    with open(os.path.join(flash, "partition-game.bin"), "rb") as f:
        data = bytes(0xFF ^ b for b in f.read())
    at, texts = 0, []
    while True:
        n, game, crc = struct.unpack_from("<HHI", data, at)
        if n in (0, 0xFFFF):
            return texts
        text = data[at + 8:at + 8 + n]
        assert zlib.crc32(text, zlib.crc32(data[at:at + 4])) == crc, "record at %d" % at
        texts.append(json.loads(text))
        at += (8 + n + 3) & ~3


@pytest.mark.parametrize("partition", [True, False])
def test_the_game_is_journalled_on_its_partition_where_the_flash_has_one(tmp_path, partition):
    # a new simulated flash is as `agentboard flash` leaves a device: with the game partition;
    # a flash without it (MicroPython's own table) keeps the game in game.log instead
    flash = str(tmp_path)
    if not partition:
        with open(os.path.join(flash, "game.log"), "w"):
            pass  # a flash already in use: the simulator adds no partition to it
    t = Table(seed=4, flash=flash)
    try:
        t.new_game(2)
        players = Players(t, 4)
        players.deal()
        for _ in range(6):
            players.turn()
        turns = t.record()["turns"]
        if partition:
            recs = partition_records(flash)
            assert recs[0]["players"] == 2 and recs[1:] == turns
            assert not os.path.exists(os.path.join(flash, "game.log"))
        else:
            assert not os.path.exists(os.path.join(flash, "partition-game.bin"))
            with open(os.path.join(flash, "game.log")) as f:
                lines = [json.loads(ln) for ln in f]
            assert lines[1:] == turns
    finally:
        t.close()
