"""`agentboard deploy --board agent-avenue`: the build carries the Agent Avenue board's maps and
its variant.json (which names the application firmware/launch.py starts) under config/, and the
board's code; the Agent DOG board's build names no application, so it starts firmware/app.py."""
import json
import os

import pytest

from host_tools import deploy as dp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "hardware", "variants", "agent-avenue")


@pytest.fixture(scope="module")
def builds():
    return dp.build(), dp.build(board="agent-avenue")


def test_the_board_build_carries_its_maps_and_application(builds):
    dog, avenue = builds
    for name in ("pins.json", "sensors.json", "leds.json"):
        with open(os.path.join(VARIANT, name), "rb") as f:
            assert avenue["config/" + name] == f.read(), name
    with open(os.path.join(VARIANT, "variant.json")) as f:
        design = json.load(f)
    device = json.loads(avenue["config/variant.json"])  # the part of it the firmware reads
    assert device["app"] == "firmware.avenue.app" == design["app"]
    assert (device["layout"], device["pawns"]) == ("agent-avenue", design["pawns"])
    for mod in ("firmware/launch.mpy", "firmware/avenue/app.mpy", "firmware/avenue/referee.mpy",
                "firmware/avenue/lights.mpy", "shared_rules/avenue/apply.mpy"):
        assert mod in avenue, mod
    assert "shared_rules/avenue/__main__.mpy" not in avenue  # the rules' command line: host only
    assert "app" not in json.loads(dog["config/variant.json"])  # firmware/app.py's board
    # each board carries the rules data of its own games only
    assert sorted(p for p in avenue if p.startswith("shared_rules/data/")) == [
        "shared_rules/data/agent-avenue-board.json", "shared_rules/data/agent-avenue-cards.json"]
    assert not any("avenue" in p for p in dog if p.startswith("shared_rules/data/"))
    assert dog["config/pins.json"] != avenue["config/pins.json"]
    assert dog["version.json"] != avenue["version.json"]  # two builds, two versions


def test_an_unknown_board_is_refused_with_a_reason():
    with pytest.raises(dp.DeployError, match="'nope' is not a board variant"):
        dp.build(board="nope")
