# The registry of games and boards (shared_rules/data/games.json, read through
# shared_rules/games.py; docs/architecture.md, "The registry of games"): every game it names
# loads in every layer by the module names it gives, every board it names is a board variant
# under hardware/, its player counts are the ones the rules core and the firmware accept, and a
# game added to it reaches the command line without an edit of the code.
import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, micropython_cmd
from shared_rules import _data, games, variant
from shared_rules.errors import BadInput

GAMES = games.names()
LAYERS = ("rules", "firmware", "twin", "world", "players", "demo", "replay", "words")
# what each layer's module offers the code that finds it by name
OFFERS = {"rules": ("game",), "demo": ("main",), "words": ("console", "view")}
MAX_PLAYERS = 8  # more seats than any board of the house has


def test_the_registry_names_each_game_once_with_a_family_title_and_boards():
    reg = games.registry()
    assert reg["default"] in GAMES
    for g in GAMES:
        info = games.info(g)
        assert info["family"] in games.families(), g
        assert info["title"] and info["cards"], g
        assert games.boards(g) and all(type(n) is int for n in games.boards(g)), g
    for fam in games.families():
        assert games.of_family(fam), "family %s has no game" % fam
        for layer in LAYERS:
            assert games.part(fam, layer), "family %s names no %s module" % (fam, layer)


@pytest.mark.parametrize("game", GAMES)
def test_every_layer_of_a_game_loads_by_the_name_the_registry_gives(game):
    fam = games.family(game)
    for layer in ("rules", "demo", "words"):
        mod = games.importing(games.part(fam, layer))
        for name in OFFERS[layer]:
            assert callable(getattr(mod, name, None)), (game, layer, name)
    for layer in ("twin", "world", "players"):
        assert isinstance(games.attribute(games.part(fam, layer)), type), (game, layer)
    replay = games.part(fam, "replay")
    mod = games.importing(replay)
    assert callable(mod.replay_record), game
    assert hasattr(games.load(game), "handle")  # the rules core's object for the game


@pytest.mark.parametrize("game", GAMES)
def test_each_board_of_a_game_is_drawn_and_simulated_by_its_family(game):
    from host_tools.sim import worlds
    from host_tools.web import twins
    fam = games.family(game)
    for board in sorted(set(games.boards(game).values())):
        assert twins.twin_class(board) is games.attribute(games.part(fam, "twin"))
        world = worlds.for_board(board, 1)
        assert type(world) is games.attribute(games.part(fam, "world")), (game, board)


def test_every_board_named_is_a_board_variant_under_hardware():
    for g in GAMES:
        for board in set(games.boards(g).values()):
            path = os.path.join(ROOT, "hardware", "variants", board, "variant.json")
            assert os.path.exists(path), "%s names board %s: no %s" % (g, board, path)
            with open(path) as f:
                assert json.load(f)["layout"] == board


@pytest.mark.parametrize("game", variant.names())
def test_a_track_games_player_counts_are_the_seats_its_boards_have(game):
    # the rules core seats a game's players by its board's layout (default_seats): each count
    # the registry gives is seated on its board, and no board of the game seats any other
    from shared_rules import layout
    from shared_rules.state import new_game
    counts = games.boards(game)
    seated = set()
    for board in set(counts.values()):
        seated.update(layout.load(board).default_seats)
    assert seated == set(counts)
    for n, board in counts.items():
        st = new_game(variant.load(game, board), n)
        assert len(st.seats) == n
    for n in range(1, MAX_PLAYERS + 1):
        if n not in counts:
            assert variant.board_for(game, n) is None


@pytest.mark.parametrize("game", games.of_family("avenue"))
def test_an_avenue_games_player_counts_are_the_seats_its_rules_accept(game):
    # a side has 1 to max_seats players: the rules core refuses a side of 0 or of max_seats + 1
    from shared_rules.avenue import position, tables
    from shared_rules.avenue.state import new_game
    tb = tables.load()
    accepted = set()
    for green in range(0, tb.max_seats + 2):
        for blue in range(0, tb.max_seats + 2):
            # the start position of the nearest seating the state can hold, told these seats
            near = [min(max(n, 1), tb.max_seats) for n in (green, blue)]
            obj = position.dump(new_game(tb, False, tuple(near), 0, None, 0))
            obj["seats"] = {tb.sides[0]: green, tb.sides[1]: blue}
            try:
                position.parse(tb, obj)
            except BadInput:
                continue
            accepted.add(green + blue)
    assert accepted == set(games.boards(game))


def test_on_micropython_the_registry_reads_the_same_and_each_family_app_imports(tmp_path):
    # the device reads the registry (firmware/launch.py, variant.py): same answers as CPython,
    # each family's firmware application imports there, and the Agent Avenue application's own
    # player counts are the registry's
    script = tmp_path / "registry.py"
    script.write_text(
        "import sys, json\n"
        "sys.path.insert(0, %r)\nsys.path.insert(0, %r)\n"
        "from shared_rules import games\n"
        "out = {'names': games.names(), 'boards': {}, 'apps': {}}\n"
        "for g in games.names():\n"
        "    out['boards'][g] = sorted(games.boards(g).items())\n"
        "for f in games.families():\n"
        "    m = games.importing(games.part(f, 'firmware'))\n"
        "    out['apps'][f] = [callable(m.main), sorted(getattr(m, 'DEFAULT_SEATS', {}))]\n"
        "print(json.dumps(out))\n" % (os.path.join(ROOT, "host_tools", "sim", "device"), ROOT))
    out = subprocess.run([micropython_cmd(), str(script)], cwd=str(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["names"] == GAMES
    assert got["boards"] == dict((g, [list(x) for x in sorted(games.boards(g).items())])
                                 for g in GAMES)
    for fam in games.families():
        assert got["apps"][fam][0], fam
    for g in games.of_family("avenue"):
        assert got["apps"]["avenue"][1] == sorted(games.boards(g))


def test_the_firmware_runs_the_application_of_its_boards_family(tmp_path):
    from firmware import launch
    for g in GAMES:
        for board in set(games.boards(g).values()):
            (tmp_path / "variant.json").write_text(json.dumps({"layout": board}))
            assert launch.app_name(str(tmp_path)) == games.part(games.family(g), "firmware")
    (tmp_path / "variant.json").unlink()  # a board whose config names no layout: Agent DOG's
    assert launch.app_name(str(tmp_path)) == games.part(games.family(games.default()),
                                                        "firmware")


def test_a_track_games_title_and_cards_agree_with_its_variant_class():
    # the Variant classes still carry a name, title and card table of their own: the registry's
    # must be the same, or the page and the deploy would disagree with the rules core
    for g in variant.names():
        cls = variant.variant_class(g)
        assert (cls.name, cls.title, cls.cards_name) == (g, games.title(g), variant.cards_name(g))


@pytest.fixture
def registry_with(tmp_path, monkeypatch):
    """Reads the registry from a copy of shared_rules/data with `entry` added as game `name`."""
    def add(name, entry):
        data = tmp_path / "data"
        shutil.copytree(os.path.join(ROOT, "shared_rules", "data"), str(data))
        reg = json.loads((data / "games.json").read_text())
        reg["games"][name] = entry
        (data / "games.json").write_text(json.dumps(reg))
        monkeypatch.setattr(_data, "data_dir", lambda: str(data))
        for cache in ("_kept", "_loaded"):  # the answers kept from the registry as it was
            monkeypatch.setattr(games, cache, {})
    return add


def test_a_game_added_to_the_registry_is_offered_by_the_cli_without_code_change(registry_with):
    from host_tools import cli
    with pytest.raises(SystemExit):  # not a game before it is in the registry
        cli.parser().parse_args(["sim", "--game", "dog-again"])
    entry = dict(games.info("dog"), title="DOG again")
    registry_with("dog-again", entry)
    args = cli.parser().parse_args(["sim", "--game", "dog-again"])
    assert args.game == "dog-again"
    assert "dog-again" in variant.names()
    assert variant.load("dog-again", "dog-6").lay.name == "dog-6"
    assert cli.parser().parse_args(["sim", "--demo", "--game", "dog-again", "--players",
                                    "5"]).players == 5
