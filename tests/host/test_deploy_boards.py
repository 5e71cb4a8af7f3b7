# `agentboard deploy --board NAME`: the build puts that board variant's pin, sensor and LED maps
# and the part of its variant.json the firmware reads under config/, and of the rules core's
# data only what the games played on that board load (its layout, their card tables).
# Expectations from the files themselves and from docs/dog-rules.md (which games play on which
# board), not from what build() returns.
import json
import os
import subprocess

import pytest

from host_tools import deploy as dp
from conftest import ROOT

HW = os.path.join(ROOT, "hardware")
AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
# docs/dog-rules.md: DOG and DOG Royal share one deck and play on dog-4 and dog-6; Agent DOG
# plays on its own board with its own deck; every board carries the registry of games
# (shared_rules/data/games.json), which its firmware finds its games and application in
DATA = {"agent-dog-4": {"agent-dog-4.json", "agent-dog-cards.json", "games.json"},
        "dog-4": {"dog-4.json", "dog-cards.json", "games.json"},
        "dog-6": {"dog-6.json", "dog-cards.json", "games.json"}}
MAPS = {"agent-dog-4": HW, "dog-4": os.path.join(HW, "variants", "dog-4"),
        "dog-6": os.path.join(HW, "variants", "dog-6")}


@pytest.fixture(scope="module")
def builds():
    return dict((b, dp.build(board=b)) for b in DATA)


@pytest.mark.parametrize("board", sorted(DATA))
def test_a_board_gets_its_own_maps_variant_and_data(builds, board):
    files = builds[board]
    for name in ("pins.json", "sensors.json", "leds.json"):
        with open(os.path.join(MAPS[board], name), "rb") as f:
            assert files["config/" + name] == f.read(), name
    variant = json.loads(files["config/variant.json"])
    assert variant["layout"] == board and variant["name"] == board
    assert variant.get("ranked_pieces", False) == (board != "agent-dog-4")
    assert "kit" not in variant  # what the device does not read stays on the laptop
    data = {p.split("/")[-1] for p in files if p.startswith("shared_rules/data/")}
    assert data == DATA[board]
    assert {p for p in files if p.startswith("config/")} == {
        "config/pins.json", "config/sensors.json", "config/leds.json", "config/variant.json"}


# docs/dog-rules.md and docs/architecture.md (the registry of games): the games each board
# plays, and the registry's default (Agent DOG: what a record that names no game was played
# as), which a DOG board refuses as before
GAMES = {"agent-dog-4": ["agent-dog"], "dog-4": ["agent-dog", "dog", "dog-royal"],
         "dog-6": ["agent-dog", "dog", "dog-royal"]}


@pytest.mark.parametrize("board", sorted(DATA))
def test_a_board_carries_the_registry_of_its_own_games_only(builds, board):
    with open(os.path.join(ROOT, "shared_rules", "data", "games.json")) as f:
        whole = json.load(f)
    reg = json.loads(builds[board]["shared_rules/data/games.json"])
    assert sorted(reg["games"]) == GAMES[board] and reg["default"] == "agent-dog"
    assert reg["format"] == whole["format"]
    for g in GAMES[board]:  # each game's entry whole, as the registry has it
        assert reg["games"][g] == whole["games"][g]
    # its family's modules on the board; those that run on the laptop (twin, world, players,
    # demo, replay: host_tools) left out
    assert sorted(reg["families"]) == ["track"]
    track = whole["families"]["track"]
    kept = reg["families"]["track"]
    assert kept["firmware"] == track["firmware"] and kept["rules"] == track["rules"]
    assert {k for k in track if k not in kept} == {
        "twin", "world", "players", "demo", "replay"}
    assert len(builds[board]["shared_rules/data/games.json"]) < len(json.dumps(whole)) / 2


def test_the_same_code_on_every_board_and_each_build_named_by_its_content(builds):
    code = [sorted(p for p in f if p.endswith(".mpy")) for f in builds.values()]
    assert code[0] == code[1] == code[2]
    versions = {f["version.json"] for f in builds.values()}
    assert len(versions) == 3


def test_an_unknown_board_is_refused_before_anything_is_built():
    with pytest.raises(dp.DeployError, match="not a board variant.*dog-6"):
        dp.build(board="dog-8")
    with pytest.raises(dp.DeployError, match="not a board variant"):
        dp.deploy("socket://127.0.0.1:9", board="../variants/dog-6")


def test_the_cli_offers_the_boards_and_defaults_to_agent_dog():
    out = subprocess.run([AGENTBOARD, "deploy", "--help"], capture_output=True, text=True)
    assert "--board {agent-avenue,agent-dog-4,dog-4,dog-6}" in " ".join(out.stdout.split())
    bad = subprocess.run([AGENTBOARD, "deploy", "--board", "dog-8", "--port", "x"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice: 'dog-8'" in bad.stderr


@pytest.mark.slow
def test_a_deployed_dog_board_runs_the_dog_games_on_its_layout():
    # a virtual 4-seat DOG board, deployed as a maker does it: the firmware reads its layout
    # from config/variant.json (docs/dog-rules.md: 2-4 players on dog-4; docs/board-protocols.md
    # section 3: a 4-seat board refuses 5 and 6 players with bad_request)
    from host_tools.device import SerialConsole
    from host_tools.virtual.device import VirtualDevice
    dev = VirtualDevice(seed=4, board="dog-4", cards="dog-cards")
    try:
        out = subprocess.run([AGENTBOARD, "deploy", "--port", dev.url, "--board", "dog-4"],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, out.stderr + out.stdout
        with open(os.path.join(dev.flash, "config", "variant.json")) as f:
            assert json.load(f)["layout"] == "dog-4"
        con = SerialConsole(dev.url, timeout=8)
        try:
            ans = con.send({"op": "new_game", "game": "dog-royal", "players": 6})
            assert ans["ok"] is False and ans["error"] == "bad_request"
            ans = con.send({"op": "new_game", "game": "dog", "players": 4})
            assert ans["ok"] is True
            view = con.send({"op": "public"})["view"]
            assert view["game"] == "dog" and view["layout"] == "dog-4"
            assert con.send({"op": "status"})["calibrated"] is False  # its maker calibrates
        finally:
            con.close()
    finally:
        dev.close()
