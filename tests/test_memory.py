# Memory on the device: the heap the firmware keeps alive must not grow from game to game.
import pytest

from host_tools.sim.players import Table, Players

pytestmark = pytest.mark.micropython


def test_no_heap_growth_over_consecutive_games():
    t = Table(seed=2)
    try:
        used = []
        for game in range(4):
            t.new_game(2)
            used.append(t.send({"op": "status"})["heap_used"])
            Players(t, 10 + game).game()
            assert t.public()["phase"] == "game_over"
            for name, p in t.world().items():  # everyone back to the start areas
                if p["at"] is not None and ":s" not in p["at"]:
                    t.place(t.lift(p["at"]), t.free_spot(name.split("-")[0]))
            t.wait()
        # live heap after a collection, at the start of each game (bytes of the 64-bit port).
        # The first game fills tables and caches on first use (firmware and simulator share
        # the process); from then on a game must leave nothing behind.
        later = used[1:]
        assert max(later) - min(later) < 2048, used
        assert later[-1] <= later[0] + 1024, used
    finally:
        t.close()
