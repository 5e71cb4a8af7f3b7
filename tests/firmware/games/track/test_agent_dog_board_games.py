# Whole games on the simulated board: players tap real cards and move pieces by hand (through
# the simulator), the firmware referees, and after every turn its public view must equal the
# players' own game kept with the rules core. 2, 3 and 4 players, to the win.
import pytest

from host_tools.games.track.players import Table, Players

pytestmark = [pytest.mark.micropython, pytest.mark.slow]  # whole games

# (players, seed): seeds chosen only so that the games stay short, never to hide a failure (any
# seed must pass): the shortest of seeds 1-40 whose games together still play every card and
# every effect asked for below (296 turns in all; 561 with the seeds before)
GAMES = [(2, 10), (3, 26), (4, 21)]


def play(players, seed):
    t = Table(seed=seed)
    try:
        t.new_game(players)
        turns, _ = Players(t, seed).game()
        return {"players": players, "turns": turns, "events": list(t.events),
                "phase": t.public()["phase"], "record": t.record()}
    finally:
        t.close()


@pytest.fixture(scope="module")
def games():
    return [play(p, s) for p, s in GAMES]


def test_whole_games_end_with_the_right_winner(games):
    for g in games:
        wins = [e for e in g["events"] if e.get("event") == "win"]
        assert len(wins) == 1 and g["phase"] == "game_over"
        assert len(wins[0]["seats"]) == (2 if g["players"] == 4 else 1)  # a team wins in 4
        assert len(g["record"]["turns"]) == g["turns"]


def test_the_games_covered_every_card_and_effect(games):
    seen = set()
    for g in games:
        for e in g["events"]:
            ev = e.get("event")
            seen.add(ev + (":" + e["kind"] if ev == "effect" else ""))
            if ev == "card":
                seen.add("card:" + e["card"])
    wanted = ["card:%s" % c for c in ("2", "3", "5", "6", "7", "8", "9", "10", "12", "1/11",
                                      "13", "swap", "copy", "partner")]
    wanted += ["effect:knock_out", "effect:flip", "effect:meeting", "effect:reveal",
               "effect:out", "pass", "round_end", "win"]
    missing = [w for w in wanted if w not in seen]
    assert not missing, "never happened in the games: %s" % missing
