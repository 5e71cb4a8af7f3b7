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
    for name in ("pins.json", "sensors.json", "leds.json", "variant.json"):
        with open(os.path.join(VARIANT, name), "rb") as f:
            assert avenue["config/" + name] == f.read(), name
    assert json.loads(avenue["config/variant.json"])["app"] == "firmware.avenue.app"
    for mod in ("firmware/launch.mpy", "firmware/avenue/app.mpy", "firmware/avenue/referee.mpy",
                "firmware/avenue/lights.mpy", "shared_rules/avenue/apply.mpy"):
        assert mod in avenue and mod in dog, mod
    assert "shared_rules/avenue/__main__.mpy" not in avenue  # the rules' command line: host only
    assert "config/variant.json" not in dog
    assert dog["config/pins.json"] != avenue["config/pins.json"]
    assert dog["version.json"] != avenue["version.json"]  # two builds, two versions


def test_an_unknown_board_is_refused_with_a_reason():
    with pytest.raises(dp.DeployError, match="no hardware/variants/nope"):
        dp.build(board="nope")
