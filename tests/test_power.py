# Power cuts at random moments: the simulated device is killed while its board time runs (it
# may be scanning, judging, or writing the game log), then powered on from the same flash.
# The saved game must always load, be exactly the players' game up to at most the move in
# progress, and play must go on once the pieces stand where the saved game says.
import random
import threading
import time

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
