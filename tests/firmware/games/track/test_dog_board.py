# DOG Royal's own rules refereed on the simulated 4-seat DOG board, scene by scene: the ranks
# the players put on their start spaces read from the sensors, a piece of the wrong rank put
# back, the king's limit, a special space making the mover draw, a citizen jumping on, and a
# board refusing more players than it seats. Expectations from the DOG Royal rulebook (seed
# 001, docs/dog-rules.md): special spaces midway between the starts (8, 24, 40, 56 on dog-4),
# the king moves only with counts of 1 to 7, ending a counted move on a special space draws.
import json

import pytest

from host_tools.games.track.players import Table
from host_tools.sim.server import Sim
from shared_rules import movegen
from shared_rules.apply import apply as rules_apply
from shared_rules.move import legal_moves

pytestmark = pytest.mark.micropython

KING, KNIGHT, CITIZEN, JESTER = 0, 1, 2, 3  # a colour's pieces in their order: red-1 is the king
RED, GREEN = 0, 2  # colour indices on dog-4 (red, blue, green, yellow); 2 players: red, green


@pytest.fixture
def table():
    t = Table(seed=3, board="dog-4")
    yield t
    t.close()


def kinds(events):
    return [e.get("event") for e in events]


def move_of(st, card, piece, to, jump=False):
    """The legal move of that card taking piece (its index) to track space `to`."""
    k = st.game.cards.index[card]
    for mv in legal_moves(st, k):
        if mv.a == piece and movegen.dest_of(mv.b) == to and \
                (movegen.jump_of(mv.b) >= 0) == jump:
            return mv
    raise AssertionError("no legal %s move of piece %d to %d" % (card, piece, to))


def test_the_ranks_the_players_put_on_their_start_spaces_are_read(table):
    ans = table.send({"op": "new_game", "game": "dog-royal", "players": 2})
    assert ans["ok"] and table.public()["phase"] == "setup"
    # red chooses its knight, green its jester: nobody tells the board which
    table.place(table.lift(table.taken_spot("red", "red-2")), "0")
    table.place(table.lift(table.taken_spot("green", "green-4")), "32")
    table.wait()
    view = table.public()
    assert view["phase"] == "await_card", view
    assert view["ranks"] == {"0": "knight", "32": "jester"}
    assert table.record()["first"] == {"red": "knight", "green": "jester"}


def test_a_piece_of_the_wrong_rank_put_back_is_a_mismatch_at_its_space(table):
    table.new_game(2, game="dog-royal", first={RED: KING, GREEN: KING})
    king = table.lift("0")
    spot = table.taken_spot("red", "red-2")
    knight = table.lift(spot)
    table.place(king, spot)  # the two traded places: every count is still right
    table.place(knight, "0")  # the same colour, upright: only the rank tells them apart
    # no empty moment on 0 (a quick hand): a new rank under a piece counts after 8 scans
    table.wait(400)
    view = table.public()
    assert view["phase"] == "mismatch" and view["expected"] == ["0"], view
    table.place(table.lift("0"), table.free_spot("red"))
    table.place(table.lift(spot), "0")
    table.wait(400)  # the king back on 0 at once, as quick: its rank counts after 8 scans too
    view = table.public()
    assert view["phase"] == "await_card" and view["expected"] == []
    assert view["ranks"] == {"0": "king", "32": "king"}


def test_a_king_moved_eight_is_refused_and_a_knight_on_a_special_space_draws(table):
    table.new_game(2, game="dog-royal", first={RED: KNIGHT, GREEN: KING})
    table.play("5", move_of(table.st, "5", RED * 4 + KNIGHT, 5))
    table.play("5", move_of(table.st, "5", GREEN * 4 + KING, 37))
    table.play("13", move_of(table.st, "13", RED * 4 + KING, 0))  # the king comes in
    table.play("2", move_of(table.st, "2", GREEN * 4 + KING, 39))
    table.card("8")  # the knight can go 5 -> 13; the king may not count 8
    n = len(table.events)
    king = table.lift("0")
    table.place(king, "8")
    table.wait()
    rej = [e for e in table.since(n) if e.get("event") == "reject"]
    assert rej and sorted(rej[0]["locations"]) == ["0", "8"], table.since(n)
    assert "move" not in kinds(table.since(n))
    table.place(table.lift("8"), "0")
    table.place(table.lift("5"), "13")
    table.wait()
    assert "move" in kinds(table.since(n)), table.since(n)
    table.st = rules_apply(table.st, move_of(table.st, "8", RED * 4 + KNIGHT, 13))[0]
    table.check()
    table.play("2", move_of(table.st, "2", GREEN * 4 + KING, 41))
    left = table.public()["cards_left"]["red"]
    evs = table.play("1/11", move_of(table.st, "1/11", RED * 4 + KNIGHT, 24))
    assert {"event": "draw", "seat": "red"} in evs, evs  # 24: midway between blue and green
    assert table.public()["cards_left"]["red"] == left - 1 + 1  # played one, drew one


def test_a_citizen_on_a_special_space_may_jump_on_to_the_next_free_one(table):
    table.new_game(2, game="dog-royal", first={RED: CITIZEN, GREEN: KING})
    evs = table.play("8", move_of(table.st, "8", RED * 4 + CITIZEN, 8, jump=True))
    draws = [e for e in evs if e.get("event") in ("draw", "jump")]
    assert [e["event"] for e in draws] == ["draw", "jump"], evs
    jump = draws[1]
    assert (jump["from"], jump["to"]) == (8, 24)  # 24: the next special space, free
    view = table.public()
    assert view["board"].get("24") == "red" and "8" not in view["board"]
    assert view["ranks"]["24"] == "citizen"


def test_a_board_refuses_more_players_than_it_seats(table):
    for game in ("dog", "dog-royal"):
        ans = table.send({"op": "new_game", "game": game, "players": 5})
        assert (ans["ok"], ans["error"]) == (False, "bad_request"), ans
        assert table.send({"op": "public"})["error"] == "no_game"  # nothing was begun
    ans = table.send({"op": "new_game", "game": "agent-dog", "players": 4})
    assert (ans["ok"], ans["error"]) == (False, "bad_request")  # not played on dog-4


def test_royal_on_a_board_whose_ranks_were_never_calibrated_is_refused_with_the_reason():
    # Without the ranks step the board has no bands to read a rank from: every piece would read
    # as no rank, a mismatch everywhere. The console says so (and changes nothing); the menu
    # rejects the choice with the reason; plain DOG, which reads no ranks, still starts.
    sim = Sim(board="dog-4", seed=3, calibrate=False)

    def send(cmd):
        lines = sim.request({"op": "console", "send": cmd})["lines"]
        objs = [json.loads(x) for x in lines]
        return [o for o in objs if o.get("re") == cmd["op"]][0], objs
    try:
        ans, _ = send({"op": "new_game", "game": "dog-royal", "players": 4})
        assert ans["ok"] is False and ans["error"] == "not_calibrated"
        assert "calibrate" in ans["reason"]
        assert send({"op": "status"})[0]["phase"] == "idle"
        # the menu: dog 4, 2, 3 players, then dog-royal 4 (firmware/games/track/app.py choices)
        sim.request({"op": "press", "button": "confirm", "ms": 2200})
        sim.request({"op": "wait", "ms": 2500})
        for _ in range(3):
            sim.request({"op": "press", "button": "confirm", "ms": 150})
            sim.request({"op": "wait", "ms": 400})
        status, _ = send({"op": "status"})
        assert (status["menu_game"], status["menu_players"]) == ("dog-royal", 4)
        sim.request({"op": "press", "button": "confirm", "ms": 2200})
        sim.request({"op": "wait", "ms": 2500})
        status, objs = send({"op": "status"})
        rejects = [o for o in objs if o.get("event") == "reject"]
        assert status["phase"] == "idle" and status["menu_game"] is None
        assert rejects and "calibrate" in rejects[0]["reason"]
        ans, _ = send({"op": "new_game", "game": "dog", "players": 4})
        assert ans["ok"] is True and send({"op": "status"})[0]["phase"] == "setup"
    finally:
        sim.close()
