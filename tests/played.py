# Whole games played once per test run and shared by the test files that read them. A whole
# game on the simulated board takes seconds to minutes: a file that needs a game another file
# plays asks for it here, by its key, and the first to ask plays it. With pytest-xdist every
# worker has its own run, so the files that share a game are listed in GROUPS: make test's
# scheduler (conftest.py) sends them to one worker as one unit, and the game is played once.

# file -> its group: the files that share the Agent Avenue game of seed 19 (advanced, 1 / 2)
GROUPS = {"tests/firmware/test_avenue_board_games.py": "avenue-19",
          "tests/host/test_avenue_board_record.py": "avenue-19"}
_avenue = {}


class AvenueGame:
    """What a whole Agent Avenue game on the simulated board leaves: every console line the
    firmware said, the players' final position, how many decisions it took, and the record
    the board exported at its end."""

    def __init__(self, lines, st, decisions, record):
        self.lines = lines
        self.st = st
        self.decisions = decisions
        self.record = record


def checked(players):
    """After every decision the board's public view is the players' position."""
    from host_tools.sim.avenue_players import same_game
    view = players.view()
    wrong = same_game(players, view)
    assert not wrong, "after decision %d: %s" % (players.decisions, "; ".join(wrong))


def avenue(seed, mode, seats):
    """The whole game (seed, mode, seats) played on the simulated board to its end, the view
    checked after every decision; played once per worker."""
    from host_tools.sim.avenue_players import Players
    key = (seed, mode, tuple(seats))
    if key not in _avenue:
        p = Players(seed, mode, seats)
        try:
            checked(p)
            st = p.play_to_end(checked)
            p.drain()
            record = p.console({"op": "export"})["record"]
            _avenue[key] = AvenueGame(list(p.lines), st, p.decisions, record)
        finally:
            p.close()
    return _avenue[key]
