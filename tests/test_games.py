# Whole games on the simulated board: players tap real cards and move pieces by hand (through
# the simulator), the firmware referees, and after every turn its public view must equal the
# players' own game kept with the rules core. 2, 3 and 4 players, to the win.
import pytest

from host_tools.sim.players import Table, Players

pytestmark = pytest.mark.micropython

SEEN = {}


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 1)])
def test_a_whole_game_to_the_win(players, seed):
    t = Table(seed=seed)
    try:
        t.new_game(players)
        turns, evs = Players(t, seed).game()
        wins = [e for e in t.events if e.get("event") == "win"]
        assert len(wins) == 1 and t.public()["phase"] == "game_over"
        if players == 4:
            assert len(wins[0]["seats"]) == 2  # a team wins
        else:
            assert len(wins[0]["seats"]) == 1
        record = t.send({"op": "export"})["record"]
        assert len(record["turns"]) == turns
        for e in t.events:
            key = e.get("event") + (":" + e["kind"] if e.get("event") == "effect" else "")
            SEEN[key] = SEEN.get(key, 0) + 1
            if e.get("event") == "card":
                SEEN["card:" + e["card"]] = SEEN.get("card:" + e["card"], 0) + 1
    finally:
        t.close()


def test_the_games_covered_every_card_and_effect():
    if len(SEEN) == 0:
        pytest.skip("runs after the whole games")  # pragma: no cover
    wanted = ["card:%s" % c for c in ("2", "3", "5", "6", "7", "8", "9", "10", "12", "1/11",
                                      "13", "swap", "copy", "partner")]
    wanted += ["effect:knock_out", "effect:flip", "effect:meeting", "effect:reveal",
               "effect:out", "pass", "round_end", "win"]
    missing = [w for w in wanted if w not in SEEN]
    assert not missing, "never happened in the games: %s" % missing
