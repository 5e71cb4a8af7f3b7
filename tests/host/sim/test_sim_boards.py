# The simulator on the DOG boards (docs/board-protocols.md, section 3): `--game` and `--board`,
# pieces red-1..red-4 whose magnets are the ranks' (red-1 the king ... red-4 the jester), the
# bring-up calibration a maker does, the 6-seat board's white and black, and a magnet that
# weakens (the `weak_magnet` fault) seen by the referee as a piece of the wrong rank, shown by
# location. Whole games are the referee's tests; these check what the sensing gives them.
import os

import pytest

from host_tools.games.track.players import Table
from host_tools.sim.server import Sim, SimError, board_and_cards

RANKS = ("king", "knight", "citizen", "jester")
DOG6 = ("red", "blue", "white", "green", "yellow", "black")  # docs/dog-rules.md, clockwise


def test_the_board_follows_the_game_and_its_players():
    assert board_and_cards(None, "dog-royal", 6) == ("dog-6", "dog-cards")
    assert board_and_cards(None, "dog", 3) == ("dog-4", "dog-cards")
    assert board_and_cards("dog-6", None, None) == ("dog-6", "dog-cards")
    assert board_and_cards(None, None, None) == (None, None)  # the Agent DOG board
    for bad, word in ((("dog-6", "agent-dog", None), "not played on"),
                      ((None, "dog", 7), "played by"),
                      (("dog-4", "dog", 6), "6 players"),
                      ((None, "chess", None), "unknown game")):
        with pytest.raises(SimError, match=word):
            board_and_cards(*bad)


def test_a_fresh_6_seat_board_has_every_colour_in_its_start_area_and_is_calibrated():
    sim = Sim(board="dog-6", seed=2)
    try:
        pieces = sim.request({"op": "world"})["pieces"]
        assert len(pieces) == 24
        for c in DOG6:
            for k in range(1, 5):
                assert pieces["%s-%d" % (c, k)] == {"at": "%s:s%d" % (c, k),
                                                    "upside_down": False}
        ans = sim.request({"op": "console", "send": {"op": "status"}})
        status = [line for line in ans["lines"] if '"re": "status"' in line]
        assert status and '"calibrated": true' in status[0]
        # the deck is DOG's: 110 cards, magnets and swaps among them (docs/dog-rules.md)
        deck = sim.request({"op": "deck"})["cards"]
        assert len(deck) == 110 and sum(c["card"] == "magnet" for c in deck) == 6
    finally:
        sim.close()


def test_a_simulated_flash_reopens_as_the_board_it_belongs_to(tmp_path):
    """A real board's flash holds its maps; the tools given only a simulated flash
    (`agentboard calibrate --sim-flash DIR`) must find the 6-seat board again, not the
    default Agent DOG board."""
    from host_tools.device import SimConsole
    flash = str(tmp_path / "flash")
    Sim(board="dog-6", seed=2, flash=flash).close()
    con = SimConsole(flash)
    try:
        assert con.sim.board == "dog-6"
        assert len(con.sim.request({"op": "world"})["pieces"]) == 24  # 6 seats x 4
    finally:
        con.close()
    (tmp_path / "flash" / ".sim-board").write_text("chess-8\n")
    with pytest.raises(SimError, match="unknown board 'chess-8'"):
        Sim(flash=flash)


@pytest.mark.parametrize("seed", [3, 4])
def test_a_royal_game_on_the_6_seat_board_reads_the_rank_each_seat_puts_on_its_start(seed):
    t = Table(seed=seed, board="dog-6")
    try:
        first = dict((j, (seed + 2 * j) % 4) for j in range(6))  # a rank chosen per seat
        t.new_game(6, game="dog-royal", first=first)
        view = t.public()
        assert view["game"] == "dog-royal" and view["layout"] == "dog-6"
        start = {"red": "0", "blue": "16", "white": "32", "green": "48", "yellow": "64",
                 "black": "80"}
        assert view["ranks"] == dict((start[c], RANKS[first[j]]) for j, c in enumerate(DOG6))
        assert view["board"] == dict((start[c], c) for c in DOG6)
        assert view["phase"] == "await_card"
    finally:
        t.close()


def test_a_weak_magnet_is_a_rank_mismatch_shown_by_location():
    t = Table(seed=5, board="dog-4")
    try:
        t.new_game(4, game="dog-royal", first={0: 1, 1: 0, 2: 0, 3: 0})  # red's knight on 0
        assert t.public()["ranks"]["0"] == "knight"
        n = len(t.events)
        t.ask({"op": "fault", "kind": "weak_magnet", "at": "0", "ms": 3000})
        t.wait(400)
        mism = [e for e in t.since(n) if e.get("event") == "mismatch"]
        assert mism and mism[-1]["locations"] == ["0"], t.since(n)
        assert t.public()["expected"] == ["0"]
        t.ask({"op": "fault", "kind": "clear", "at": "0"})
        t.wait(400)
        assert t.public()["phase"] == "await_card" and t.public()["expected"] == []
    finally:
        t.close()


def test_weak_magnet_requests_are_checked():
    sim = Sim(board="dog-4", seed=6)
    try:
        ans = sim.request({"op": "fault", "kind": "weak_magnet"})
        assert ans["error"] == "bad_request" and "'at'" in ans["reason"]
        ans = sim.request({"op": "fault", "kind": "weak_magnet", "at": "30"})
        assert ans["error"] == "refused" and "no piece on 30" in ans["reason"]
    finally:
        sim.close()
    plain = Sim(seed=6)
    try:
        ans = plain.request({"op": "fault", "kind": "weak_magnet", "at": "red:s1"})
        assert ans["error"] == "refused" and "no rank magnets" in ans["reason"]
    finally:
        plain.close()


def test_a_device_boots_the_code_tree_the_environment_names(monkeypatch, tmp_path):
    # the test run names its compiled tree (conftest.py); a user's `agentboard sim` names
    # none and boots the sources; a tree given to the Sim wins over both
    from host_tools.sim.server import DEVICE_CODE_ENV, ROOT
    tree = os.environ.get(DEVICE_CODE_ENV)
    assert tree and os.path.isfile(os.path.join(tree, "firmware", "loop.mpy"))
    def code(flash, **kw):
        sim = Sim(seed=1, flash=str(tmp_path / flash), **kw)  # no request: nothing boots
        sim.close()
        return sim.code
    monkeypatch.setenv(DEVICE_CODE_ENV, str(tmp_path))
    assert code("a") == str(tmp_path)
    assert code("b", code=tree) == tree
    monkeypatch.delenv(DEVICE_CODE_ENV)
    assert code("c") == ROOT
