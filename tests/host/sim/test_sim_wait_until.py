# The control channel's `wait` with `until` "console" (docs/board-protocols.md, section 2): board
# time stops at the firmware's first console line, and the answer says how long it ran; with
# nothing to say the board runs the whole wait. Simulated players wait so for the board's answer
# to a hand (host_tools/sim/waiting.py).
import json

import pytest

from host_tools.sim import requests, waiting
from host_tools.sim.server import Sim

QUIET_MS = 500   # a still board with nothing on the reader writes nothing for this long
LONG_MS = 5000   # far longer than a card takes to be read


@pytest.fixture(scope="module")
def sim():
    s = Sim(seed=5)
    s.request({"op": "wait", "ms": QUIET_MS})  # the boot's lines out
    s.request({"op": "console"})
    yield s
    s.close()


def events(sim):
    return [json.loads(x) for x in sim.request({"op": "console"})["lines"]
            if x.startswith("{")]


def test_a_still_board_runs_the_whole_wait(sim):
    ans = sim.request({"op": "wait", "ms": QUIET_MS, "until": "console"})
    assert ans == {"ok": True, "ms": QUIET_MS}
    assert events(sim) == []


def test_the_wait_stops_at_the_boards_answer_to_a_card(sim):
    assert sim.request({"op": "card", "card": "5"})["ok"]
    ans = sim.request({"op": "wait", "ms": LONG_MS, "until": "console"})
    # read at the reader's next poll: well before the wait's end
    assert ans["ok"] and 0 < ans["ms"] <= waiting.CARD_READ_MS, ans
    assert events(sim), "the wait stopped without a console line"
    sim.request({"op": "card_off"})
    sim.request({"op": "wait", "ms": waiting.CARD_GONE_MS})
    events(sim)


def test_a_wait_without_until_answers_as_it_always_did(sim):
    assert sim.request({"op": "wait", "ms": 20}) == {"ok": True}


@pytest.mark.parametrize("until", ["led", "", 1, None, True, ["console"]])
def test_an_unknown_until_is_a_bad_request(sim, until):
    ans = sim.request({"op": "wait", "ms": QUIET_MS, "until": until})
    assert ans["ok"] is False and ans["error"] == "bad_request" and "until" in ans["reason"]
    with pytest.raises(requests.BadRequest):
        requests.check({"op": "wait", "ms": 1, "until": until})
