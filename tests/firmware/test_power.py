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

from host_tools.games.track.players import Table, Players, TableError

pytestmark = [pytest.mark.micropython, pytest.mark.slow]  # power cuts across whole games


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
    sector = 4096
    at, texts = 0, []
    while at < len(data):
        if sector - at % sector < 8:  # no record fits: on at the next sector
            at += sector - at % sector
            continue
        n, game, crc = struct.unpack_from("<HHI", data, at)
        if n == 0xFFFF:
            break
        if n == 0:  # the rest of this sector unused
            at += sector - at % sector
            continue
        text = data[at + 8:at + 8 + n]
        assert zlib.crc32(text, zlib.crc32(data[at:at + 4])) == crc, "record at %d" % at
        texts.append(json.loads(text))
        at += (8 + n + 3) & ~3
    return texts


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


def test_a_full_game_partition_is_reported_once_and_the_game_goes_on(tmp_path):
    # a journal with room for some 90 records: the save the flash refuses is told once (fault
    # event, the fault tone sounded whole), the referee goes on with the game kept in RAM, the
    # export holds every turn, and after a power cut the board resumes the turns the flash holds
    from host_tools.sim.nor_flash import blank, PARTITION_FILE, SECTOR
    from firmware.hal.buzzer import PATTERNS
    scan_ms = 20  # firmware/loop.py's SCAN_MS: the buzzer's pattern advances a scan at a time
    flash = str(tmp_path)
    blank(os.path.join(flash, PARTITION_FILE % "game"), 3 * SECTOR)
    t = Table(seed=4, flash=flash)
    try:
        t.new_game(4)  # a game of some 300 turns
        players = Players(t, 4)
        players.deal()

        def play(n):
            for _ in range(n):
                evs = players.turn()
                assert not any(e.get("event") == "win" for e in evs), "the game ended early"
                if any(e.get("event") == "round_end" for e in evs):
                    players.deal()

        played = 0
        while not [e for e in t.events if e.get("what") == "save"]:
            assert played < 200, "no save refused"
            notes = t.ask({"op": "buzzer"})["notes"]
            before_us = notes[-1][0] if notes else 0  # the turn's sounds come after this
            play(1)
            played += 1
        fault = [e for e in t.events if e.get("what") == "save"]
        assert fault[0]["event"] == "fault" and fault[0]["errno"] == 28, fault
        assert "full" in fault[0]["reason"] and "power cut" in fault[0]["reason"], fault
        tone_hz, tone_ms = PATTERNS["fault"][0]
        # the players go on as soon as the board answers: the tone is heard to its end
        t.wait(tone_ms + 2 * scan_ms)
        notes = [n for n in t.ask({"op": "buzzer"})["notes"] if n[0] > before_us]
        whole = [notes[i + 1][0] - notes[i][0] for i in range(len(notes) - 1)
                 if notes[i][1] == tone_hz and notes[i][2] > 0]
        # sounded whole: the accept of the same move did not cut it (a pattern's time runs
        # in the scan loop's ticks, the first in the scan that started it; a scan's sleep is
        # timed in whole ms, so each may end up to 1 ms early: a tone cut short by the accept
        # would last a scan or two)
        short_ms = tone_ms // scan_ms
        assert whole and max(whole) >= (tone_ms - scan_ms - short_ms) * 1000, notes
        play(12)
        played += 12
        assert len([e for e in t.events if e.get("what") == "save"]) == 1, "told more than once"
        rec = t.record()
        assert len(rec["turns"]) == played
        saved = partition_records(flash)[1:]
        assert 60 < len(saved) < played and rec["turns"][:len(saved)] == saved
        # undo still reads the turns kept in memory
        assert t.send({"op": "undo"})["ok"]
        assert t.record()["turns"] == rec["turns"][:-1]
        t.power_cycle()
        assert any(e.get("event") == "resumed" for e in t.pull() + t.events[-5:])
        assert t.adopt_device_game()["turns"] == saved
        play(3)  # refereed again; the flash still full, told again once after the restart
        assert len([e for e in t.events if e.get("what") == "save"]) == 2
    finally:
        t.close()
