"""`agentboard deploy --board agent-avenue`: the build carries the Agent Avenue board's maps and
its variant.json (whose layout's family names, in the registry of games, the application
firmware/launch.py starts) under config/, and the board's code; the Agent DOG board's build
names no application either, and its family's is firmware/games/track/app.py."""
import json
import os

import pytest

from host_tools import deploy as dp
from conftest import ROOT

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
    # the application the board runs is its family's (the registry of games), for its layout
    from shared_rules import games
    assert games.part(games.board_family(device["layout"]), "firmware") == \
        "firmware.games.avenue.app"
    assert (device["layout"], device["pawns"]) == ("agent-avenue", design["pawns"])
    for mod in ("firmware/launch.mpy", "firmware/games/avenue/app.mpy",
                "firmware/games/avenue/referee.mpy", "firmware/games/avenue/lights.mpy",
                "shared_rules/avenue/apply.mpy"):
        assert mod in avenue, mod
    assert "shared_rules/avenue/__main__.mpy" not in avenue  # the rules' command line: host only
    assert "app" not in json.loads(dog["config/variant.json"])  # firmware/games/track/app.py's board
    # each board carries the rules data of its own games only
    assert sorted(p for p in avenue if p.startswith("shared_rules/data/")) == [
        "shared_rules/data/agent-avenue-board.json", "shared_rules/data/agent-avenue-cards.json",
        "shared_rules/data/games.json"]
    assert not any("avenue" in p for p in dog if p.startswith("shared_rules/data/"))
    assert dog["config/pins.json"] != avenue["config/pins.json"]
    assert dog["version.json"] != avenue["version.json"]  # two builds, two versions


def test_an_unknown_board_is_refused_with_a_reason():
    with pytest.raises(dp.DeployError, match="'nope' is not a board variant"):
        dp.build(board="nope")


@pytest.mark.slow
@pytest.mark.micropython
def test_a_virtual_agent_avenue_board_takes_the_deploy_and_referees_its_game():
    # `agentboard virtual --game agent-avenue` then `deploy --board agent-avenue`, as a maker
    # tries the board before building it: the deployed launch starts the Agent Avenue
    # application (its boot line names the game), which starts a simple game and guides the
    # setup (done at once: the pawns are home); the Agent DOG games are refused on this board (docs/agent-avenue-board.md)
    import subprocess
    import sys
    from host_tools.device import SerialConsole
    from host_tools.virtual.device import VirtualDevice
    agentboard = os.path.join(os.path.dirname(sys.executable), "agentboard")
    dev = VirtualDevice(seed=2, board="agent-avenue")
    try:
        out = subprocess.run([agentboard, "deploy", "--port", dev.url, "--board", "agent-avenue"],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, out.stderr + out.stdout
        con = SerialConsole(dev.url, timeout=8)
        try:
            assert con.send({"op": "status"})["game"] == "agent-avenue"
            ans = con.send({"op": "new_game", "game": "agent-dog", "players": 2})
            assert ans["ok"] is False and ans["error"] == "bad_request"
            assert con.send({"op": "new_game", "mode": "simple"})["ok"] is True
            view = con.send({"op": "public"})["view"]
            # a fresh board's pawns stand on their homes (0 and 7), so the setup is done at
            # once: green plays first, with nothing on the pads and no pawn to move
            assert (view["game"], view["mode"]) == ("agent-avenue", "simple")
            assert (view["phase"], view["active"], view["expected"]) == ("play", "green", [])
            assert view["pads"] == {"up": None, "down": None}
        finally:
            con.close()
        # the hands reach this board's world: its pads take a card
        assert dev.request({"op": "deck"})["ok"] is True
    finally:
        dev.close()
