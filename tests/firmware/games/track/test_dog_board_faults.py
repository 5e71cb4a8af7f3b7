# Faults on the DOG boards, as tests/firmware/games/track/test_referee.py and test_power.py play them on
# the Agent DOG board: the real firmware on the MicroPython unix port against the simulated 4- and
# 6-seat DOG boards, hands acting through the simulator's control channel
# (docs/board-protocols.md, section 2). Noise on sensors, a piece slid along the track (on the
# 6-seat board across its multiplexers and its two banks), a dead sensor under a piece, bumped
# pieces, power cuts in the middle of a move (a Royal 1-7, a swap) and at random moments of a
# whole 6-player Royal game. In DOG Royal the board also reads each piece's rank, so a piece of
# another rank put back where one stood is a mismatch there. Expectations come from the rules
# (seed 001, docs/dog-rules.md) and the protocol (docs/board-protocols.md): moves counted by
# hand on the boards' tracks, mismatches by location, play resumed at the last completed move.
import json
import os
import random
import threading

import pytest

from host_tools import paths
from host_tools.games.track.players import Table, Players, TableError, find
from shared_rules.apply import apply as rules_apply

pytestmark = pytest.mark.micropython

KING, KNIGHT, CITIZEN, JESTER = 0, 1, 2, 3  # a colour's pieces in rank order: red-1 the king
RANKS = ("king", "knight", "citizen", "jester")
# docs/dog-rules.md, the boards: colours clockwise and their start spaces
DOG4_START = {"red": 0, "blue": 16, "green": 32, "yellow": 48}
DOG6_START = {"red": 0, "blue": 16, "white": 32, "green": 48, "yellow": 64, "black": 80}
# a rank per seat on the 6-seat board (colour index: red 0, blue 1, white 2, green 3, ...)
DOG6_FIRST = {0: KING, 1: KNIGHT, 2: CITIZEN, 3: JESTER, 4: KING, 5: KNIGHT}
CUT_SETTLE_MS = 300  # boot, resume and a few scans after power-on


def kinds(events):
    return [e.get("event") for e in events]


def moves(events):
    return [e["move"] for e in events if e.get("event") == "move"]


def mismatches(events):
    return [e for e in events if e.get("event") == "mismatch"]


def lit(table, locations):
    leds = table.ask({"op": "leds"})["leds"]
    return all(leds[loc] != [0, 0, 0] for loc in locations)


def blinks(table, loc, ms=600, every_ms=50):
    """The LED at loc comes on within ms of board time (a faulty sensor's LED blinks)."""
    for _ in range(ms // every_ms):
        if lit(table, [loc]):
            return True
        table.wait(every_ms)
    return False


def cut_power(table):
    """The power goes and comes back: the events of the boot and the resume."""
    table.ask({"op": "power_cut"})
    table.ask({"op": "power_on"})
    return table.wait(CUT_SETTLE_MS)


def open_dog6(table):
    """A 6-player Royal game on the 6-seat board; every seat moves its piece from its start
    space 2 forward (red 0 -> 2, blue 16 -> 18, ...): nobody passes anybody, no special space
    (8, 24, ...) is reached."""
    table.new_game(6, game="dog-royal", first=DOG6_FIRST)
    for colour in ("red", "blue", "white", "green", "yellow", "black"):
        assert table.public()["to_move"] == colour
        s = DOG6_START[colour]
        table.play("2", find(table.st, "2", s, s + 2))


def sensor_wiring(board):
    """Location -> (ADC pin, bank) from the board's sensor map and pin map: multiplexer m sits
    on ADC pin mux.adc[m % 6], enabled by bank line mux.bank[m // 6] (pins.json's `why`)."""
    folder = os.path.join(paths.HARDWARE, "variants", board)
    with open(os.path.join(folder, "sensors.json")) as f:
        sensors = json.load(f)["sensors"]
    with open(os.path.join(folder, "pins.json")) as f:
        mux = json.load(f)["mux"]
    nadc = len(mux["adc"])
    return dict((s["loc"], (mux["adc"][s["mux"] % nadc], s["mux"] // nadc)) for s in sensors)


@pytest.fixture
def dog4():
    t = Table(seed=3, board="dog-4")
    yield t
    t.close()


@pytest.fixture
def dog6():
    t = Table(seed=4, board="dog-6")
    yield t
    t.close()


# -- noise ----------------------------------------------------------------------------------

@pytest.mark.parametrize("board, game, players, noisy", [
    ("dog-4", "dog", 4, ("40", "3", "32")),                      # empty, on the way, a piece
    ("dog-6", "dog-royal", 6, ("40", "3", "48", "red:s2", "blue:h1")),  # and the second bank
])
def test_noise_on_sensors_during_a_move_changes_nothing(board, game, players, noisy):
    t = Table(seed=3, board=board)
    try:
        t.new_game(players, game=game, first=DOG6_FIRST if board == "dog-6" else None)
        before = t.public()
        t.card("5")
        n = len(t.events)
        # each burst (40 ms: two scans) scatters its readings: the scanner's conversions that
        # confirm a reading never agree with them
        t.ask({"op": "fault", "kind": "noise", "at": noisy[0], "ms": 40})
        piece = t.lift("0")
        for at in noisy[1:]:
            t.ask({"op": "fault", "kind": "noise", "at": at, "ms": 40})
        t.wait()
        t.place(piece, "5")
        t.wait()
        evs = t.since(n)
        assert "reject" not in kinds(evs) and "mismatch" not in kinds(evs), evs
        assert moves(evs) == [{"card": "5", "path": [[0, 5]]}]
        view = t.public()
        assert view["board"]["5"] == "red" and "0" not in view["board"]
        if game == "dog-royal":  # the noise on the pieces did not change a rank read
            assert view["ranks"]["5"] == before["ranks"]["0"] == RANKS[DOG6_FIRST[0]]
            assert dict((k, v) for k, v in view["ranks"].items() if k != "5") == dict(
                (k, v) for k, v in before["ranks"].items() if k != "0")
    finally:
        t.close()


# -- slides -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["dog", "dog-royal"])
def test_a_piece_slid_along_the_track_counts_only_where_it_lands(dog4, game):
    dog4.new_game(4, game=game)
    dog4.card("5")
    n = len(dog4.events)
    piece = dog4.lift("0")
    dog4.ask({"op": "slide", "piece": piece, "path": ["1", "2", "3", "4", "5"]})
    dog4.wait(600)
    evs = dog4.since(n)
    assert "reject" not in kinds(evs), evs
    assert moves(evs) == [{"card": "5", "path": [[0, 5]]}]  # never 1, 2, 3 or 4


def test_on_the_6_seat_board_slides_across_multiplexers_and_banks_count_where_they_land(dog6):
    wiring = sensor_wiring("dog-6")
    # the 4 backward from red's start space: 95, 94, 93, 92 (seed 001: from the own start
    # space 4 backward is allowed) crosses from the multiplexer of 0..15 to that of 80..95
    back = ["95", "94", "93", "92"]
    assert wiring["0"][0] != wiring["95"][0]
    # then a 6 from 92: 93, 94, 95, 0 (red's start space, passed), red:h1, red:h2 (the home is
    # entered past the own start space): from the track's bank to the homes' bank, and at
    # 0 -> red:h1 on the same ADC pin, where only the enable lines tell the banks apart
    home = ["93", "94", "95", "0", "red:h1", "red:h2"]
    assert wiring["0"][0] == wiring["red:h1"][0] and wiring["0"][1] != wiring["red:h1"][1]
    dog6.new_game(6, game="dog-royal", first=DOG6_FIRST)
    dog6.card("4")
    n = len(dog6.events)
    king = dog6.lift("0")
    dog6.ask({"op": "slide", "piece": king, "path": back})
    dog6.wait(600)
    evs = dog6.since(n)
    assert "reject" not in kinds(evs), evs
    assert moves(evs) == [{"card": "4", "path": [[0, 92]]}]
    dog6.st = rules_apply(dog6.st, find(dog6.st, "4", 0, 92))[0]
    dog6.check()  # the board's view is the players' game
    for colour in ("blue", "white", "green", "yellow", "black"):
        s = DOG6_START[colour]
        dog6.play("2", find(dog6.st, "2", s, s + 2))
    dog6.card("6")
    n = len(dog6.events)
    king = dog6.lift("92")
    dog6.ask({"op": "slide", "piece": king, "path": home})
    dog6.wait(600)
    evs = dog6.since(n)
    assert "reject" not in kinds(evs), evs
    assert moves(evs) == [{"card": "6", "path": [[92, "red:h2"]]}]
    view = dog6.public()
    assert view["board"]["red:h2"] == "red" and view["ranks"]["red:h2"] == "king"
    assert "0" not in view["board"] and "red:h1" not in view["board"]


# -- a dead sensor ------------------------------------------------------------------------------

@pytest.mark.parametrize("board, game, players, dead", [
    ("dog-4", "dog", 4, "32"),             # under green's piece on its start space
    ("dog-6", "dog-royal", 6, "48"),       # under green's jester: its rank read again after
    ("dog-6", "dog-royal", 6, "red:s2"),   # a start-area spot, on the second bank
    ("dog-6", "dog-royal", 6, "black:s3"),
])
def test_a_dead_sensor_under_a_piece_is_shown_and_play_resumes_when_it_recovers(
        board, game, players, dead):
    t = Table(seed=5, board=board)
    try:
        t.new_game(players, game=game, first=DOG6_FIRST if board == "dog-6" else None)
        assert t.at(dead) is not None  # a piece stands on the sensor that fails
        before = t.public()
        n = len(t.events)
        t.ask({"op": "fault", "kind": "dead_sensor", "at": dead, "ms": 3000})
        t.wait(600)
        mm = mismatches(t.since(n))
        # only the dead sensor's location: nothing else is to be put right
        assert mm and mm[0]["locations"] == [dead], t.since(n)
        assert t.send({"op": "status"})["faults"] == [dead]
        view = t.public()
        assert view["phase"] == "mismatch" and view["expected"] == [dead]
        assert blinks(t, dead)
        rej = t.card("5")  # no card is taken while it lasts
        assert "reject" in kinds(rej) and "card" not in kinds(rej)
        t.wait(2500)  # the sensor reads again (3 s after it failed) and the piece is seen
        view = t.public()
        assert view["phase"] == "await_card" and view["expected"] == []
        assert view["board"] == before["board"] and view.get("ranks") == before.get("ranks")
        t.play("5", find(t.st, "5", 0, 5))
    finally:
        t.close()


# -- bumped pieces ------------------------------------------------------------------------------

@pytest.mark.parametrize("board, game, players, frm, to", [
    ("dog-4", "dog", 4, "16", "17"),
    ("dog-6", "dog-royal", 6, "80", "81"),
    ("dog-6", "dog-royal", 6, "16", "15"),  # back across two multiplexers' boundary
])
def test_a_bumped_piece_is_a_mismatch_by_location_and_play_waits(board, game, players, frm, to):
    t = Table(seed=6, board=board)
    try:
        t.new_game(players, game=game, first=DOG6_FIRST if board == "dog-6" else None)
        before = t.public()
        n = len(t.events)
        t.place(t.lift(frm), to)  # someone knocks the piece along
        t.wait()
        mm = mismatches(t.since(n))
        assert mm and sorted(mm[0]["locations"]) == sorted([frm, to]), t.since(n)
        assert t.public()["phase"] == "mismatch" and lit(t, [frm, to])
        rej = t.card("5")
        assert [e for e in rej if e.get("event") == "reject"]
        assert "card" not in kinds(rej)
        t.place(t.lift(to), frm)
        t.wait()
        view = t.public()
        assert view["phase"] == "await_card" and view["expected"] == []
        assert view["board"] == before["board"] and view.get("ranks") == before.get("ranks")
        t.play("5", find(t.st, "5", 0, 5))
    finally:
        t.close()


def test_royal_pieces_bumped_off_and_put_back_in_each_others_places_differ_by_rank(dog4):
    # red's king on 0, green's knight on 32: the sensors see no colours, only that a king's
    # magnet stands where a knight's belongs and the other way round
    dog4.new_game(2, game="dog-royal", first={0: KING, 2: KNIGHT})
    before = dog4.public()
    assert before["ranks"] == {"0": "king", "32": "knight"}
    n = len(dog4.events)
    king = dog4.lift("0")
    knight = dog4.lift("32")
    dog4.place(knight, "0")
    dog4.place(king, "32")
    dog4.wait(400)  # a new rank read counts after eight scans
    view = dog4.public()
    assert view["phase"] == "mismatch" and sorted(view["expected"]) == ["0", "32"], view
    assert mismatches(dog4.since(n)) and lit(dog4, ["0", "32"])
    rej = dog4.card("5")
    assert "reject" in kinds(rej) and "card" not in kinds(rej)
    dog4.lift("0")
    dog4.lift("32")
    dog4.wait()
    dog4.place(king, "0")
    dog4.place(knight, "32")
    dog4.wait(400)
    view = dog4.public()
    assert view["phase"] == "await_card" and view["ranks"] == before["ranks"]
    dog4.play("5", find(dog4.st, "5", 0, 5))


# -- power cuts in the middle of a move ---------------------------------------------------------

def test_a_power_cut_with_a_piece_in_hand_resumes_at_the_last_completed_move(dog4):
    dog4.new_game(4, game="dog")
    for colour in ("red", "blue", "green", "yellow"):  # 0 -> 3, 16 -> 19, 32 -> 35, 48 -> 51
        s = DOG4_START[colour]
        dog4.play("3", find(dog4.st, "3", s, s + 3))
    before = dog4.public()
    dog4.card("5")
    held = dog4.lift("3")  # a move in progress when the power goes
    evs = cut_power(dog4)
    assert {"event": "resumed", "turns": 4, "to_move": "red"} in evs
    mm = mismatches(evs)
    assert mm and mm[0]["locations"] == ["3"]  # the lifted piece must go back first
    assert lit(dog4, ["3"])
    dog4.place(held, "3")
    dog4.wait()
    after = dog4.public()
    assert after["phase"] == "await_card" and after["board"] == before["board"]
    assert after["cards_left"] == before["cards_left"]  # the card played before the cut is back
    dog4.play("5", find(dog4.st, "5", 3, 8))


def test_a_power_cut_in_the_middle_of_a_royal_1_7_resumes_before_it(dog6):
    # red's king goes 1-7 from 2 and the power goes while it slides over 3, 4 ...; the hand
    # finishes the slide on 6 in the dark. The 1-7 was never accepted: the game is the six
    # opening moves, and the board shows where the king stood and where it now stands
    open_dog6(dog6)
    before = dog6.public()
    assert before["ranks"]["2"] == "king"
    dog6.card("1-7")
    king = dog6.lift("2")
    dog6.wait(100)
    dog6.ask({"op": "slide", "piece": king, "path": ["3", "4", "5", "6"]})
    dog6.wait(60)  # over 3 or 4, not yet down
    evs = cut_power(dog6)
    assert {"event": "resumed", "turns": 6, "to_move": "red"} in evs
    mm = mismatches(evs)
    assert mm and sorted(mm[0]["locations"]) == ["2", "6"], evs
    assert lit(dog6, ["2", "6"])
    view = dog6.public()
    assert view["phase"] == "mismatch" and view["board"] == before["board"]
    assert view["ranks"] == before["ranks"] and view["cards_left"] == before["cards_left"]
    rej = dog6.card("1-7")
    assert "reject" in kinds(rej) and "card" not in kinds(rej)
    dog6.place(dog6.lift("6"), "2")
    dog6.wait()
    assert dog6.public()["phase"] == "await_card"
    evs = dog6.play("1-7", find(dog6.st, "1-7", 2, 6))
    assert moves(evs) == [{"card": "1-7", "path": [[2, 6]]}]


def royal_swap_position(table, game):
    """2 players on the 4-seat board: red's king 0 -> 2, green's knight 32 -> 34 (neither on
    its own start space any more, so they may be swapped)."""
    table.new_game(2, game=game, first={0: KING, 2: KNIGHT} if game == "dog-royal" else None)
    table.play("2", find(table.st, "2", 0, 2))
    table.play("2", find(table.st, "2", 32, 34))


def test_a_power_cut_in_the_middle_of_a_royal_swap_resumes_before_it(dog4):
    royal_swap_position(dog4, "dog-royal")
    before = dog4.public()
    assert before["ranks"] == {"2": "king", "34": "knight"}
    dog4.card("swap")
    king = dog4.lift("2")
    knight = dog4.lift("34")
    dog4.wait()
    dog4.place(king, "34")  # half the swap done when the power goes
    evs = cut_power(dog4)
    assert {"event": "resumed", "turns": 2, "to_move": "red"} in evs
    # 2 is empty; on 34 stands a king where the game has green's knight
    mm = mismatches(evs)
    assert mm and sorted(mm[0]["locations"]) == ["2", "34"], evs
    assert lit(dog4, ["2", "34"])
    # finishing the swap in the dark is no swap: both squares hold the other rank
    dog4.place(knight, "2")
    dog4.wait(400)
    view = dog4.public()
    assert view["phase"] == "mismatch" and sorted(view["expected"]) == ["2", "34"], view
    assert view["board"] == before["board"] and view["ranks"] == before["ranks"]
    dog4.lift("2")
    dog4.lift("34")
    dog4.wait()
    dog4.place(king, "2")
    dog4.place(knight, "34")
    dog4.wait(400)
    assert dog4.public()["phase"] == "await_card"
    evs = dog4.play("swap", find(dog4.st, "swap", 2, 34))
    assert moves(evs) == [{"card": "swap", "swap": [2, 34]}]
    assert dog4.public()["ranks"] == {"2": "knight", "34": "king"}


def test_a_power_cut_in_the_middle_of_a_dog_swap_shows_both_lifted_pieces(dog4):
    royal_swap_position(dog4, "dog")
    before = dog4.public()
    dog4.card("swap")
    red = dog4.lift("2")
    green = dog4.lift("34")
    evs = cut_power(dog4)
    assert {"event": "resumed", "turns": 2, "to_move": "red"} in evs
    mm = mismatches(evs)
    assert mm and sorted(mm[0]["locations"]) == ["2", "34"], evs
    dog4.place(red, "2")
    dog4.wait()
    assert dog4.public()["expected"] == ["34"]
    dog4.place(green, "34")
    dog4.wait()
    view = dog4.public()
    assert view["phase"] == "await_card" and view["board"] == before["board"]
    evs = dog4.play("swap", find(dog4.st, "swap", 2, 34))
    assert moves(evs) == [{"card": "swap", "swap": [2, 34]}]


def test_after_a_power_cut_a_piece_of_another_rank_put_back_is_a_mismatch_there(dog4):
    # red's knight went 0 -> 3; the power goes with it in hand, and red's king is put on 3
    # instead: the count is right, the colour is right, the rank is not
    dog4.new_game(2, game="dog-royal", first={0: KNIGHT, 2: KING})
    dog4.play("3", find(dog4.st, "3", 0, 3))
    dog4.play("3", find(dog4.st, "3", 32, 35))
    before = dog4.public()
    assert before["ranks"] == {"3": "knight", "35": "king"}
    dog4.card("5")
    knight = dog4.lift("3")
    evs = cut_power(dog4)
    assert {"event": "resumed", "turns": 2, "to_move": "red"} in evs
    assert mismatches(evs)[0]["locations"] == ["3"]
    king_spot = dog4.taken_spot("red", "red-1")
    king = dog4.lift(king_spot)
    dog4.place(king, "3")
    dog4.place(knight, king_spot)
    dog4.wait(400)  # a rank read counts after eight scans
    view = dog4.public()
    assert view["phase"] == "mismatch" and view["expected"] == ["3"], view
    assert view["ranks"] == before["ranks"] and lit(dog4, ["3"])
    rej = dog4.card("5")
    assert "reject" in kinds(rej) and "card" not in kinds(rej)
    dog4.place(dog4.lift("3"), dog4.free_spot("red"))
    dog4.wait()
    dog4.place(dog4.lift(dog4.taken_spot("red", "red-2")), "3")
    dog4.wait(400)
    view = dog4.public()
    assert view["phase"] == "await_card" and view["ranks"] == before["ranks"]
    evs = dog4.play("5", find(dog4.st, "5", 3, 8))
    assert {"event": "draw", "seat": "red"} in evs  # 8: a special space, midway to blue


# -- power cuts at random moments of a whole game -------------------------------------------------

MAX_CUTS = 5  # a few: each boots the device again and replays its game log


def kill_during(table, wait_ms, after_s):
    """Lets board time run for wait_ms and kills the device after about after_s seconds of
    real time, wherever it is (scanning, judging, writing the game log), as test_power.py."""
    timer = threading.Timer(after_s, lambda: table.sim.proc and table.sim.proc.kill())
    timer.start()
    try:
        table.sim.request({"op": "wait", "ms": wait_ms})
    finally:
        timer.cancel()
    table.ask({"op": "power_cut"})
    table.ask({"op": "card_off"})  # a card left on the reader is taken away
    table.ask({"op": "power_on"})
    table.wait(CUT_SETTLE_MS)


@pytest.mark.slow
def test_random_power_cuts_never_corrupt_a_6_player_royal_game_on_the_6_seat_board():
    seed = 1
    rng = random.Random(seed)
    t = Table(seed=seed, board="dog-6")
    try:
        t.new_game(6, game="dog-royal")
        players = Players(t, seed)
        players.deal()
        cuts = 0
        for turn in range(1500):
            if cuts < MAX_CUTS and rng.random() < 0.04:
                done_before = len(t.record()["turns"])
                # cut somewhere inside this turn: start it, then kill while time runs
                orig_wait = t.wait
                state = {"armed": True}

                def wait(ms=160, _orig=orig_wait, _state=state):
                    if _state["armed"] and rng.random() < 0.3:
                        _state["armed"] = False
                        kill_during(t, ms, rng.random() * 0.02)
                        raise TableError("power cut")
                    return _orig(ms)

                t.wait = wait
                try:
                    evs = players.turn()
                except TableError:
                    evs = []
                finally:
                    t.wait = orig_wait
                if state["armed"]:  # the turn finished before the cut came
                    if "win" in kinds(evs):
                        break
                    if "round_end" in kinds(evs):
                        players.deal()
                    continue
                cuts += 1
                assert "resumed" in kinds(t.events[-40:]), "no resume after the power cut"
                # the saved game loads and is the players' game up to at most the move in
                # progress; the pieces are put where it says, the ranks included, and the
                # board's view must then be that game (adopt_device_game checks)
                rec = t.adopt_device_game()
                assert len(rec["turns"]) in (done_before, done_before + 1)
                assert t.public()["phase"] in ("await_card", "round_end", "game_over")
                if t.st.winners():
                    break
            else:
                evs = players.turn()
                if "win" in kinds(evs):
                    break
                if "round_end" in kinds(evs):
                    players.deal()
        assert cuts >= 3
        assert t.st.winners(), "no winner"
        assert t.public()["phase"] == "game_over"
        rec = t.adopt_device_game()  # the record on flash replays to the won game
        assert t.st.winners()
    finally:
        t.close()


# -- a dead start-area sensor in the middle of a move ---------------------------------------------

@pytest.mark.parametrize("dies", ["spot left", "spot with a piece"])
def test_a_start_area_sensor_that_dies_while_a_piece_enters_holds_the_move_until_it_reads(
        dog4, dies):
    """The judge counts the pieces on each start area's spots: entering needs one fewer. A
    spot sensor that dies mid-move reads no piece, so its count would say a piece left that
    did not (or two left): the fault is shown at that spot, no move is taken from the
    count it spoils, and once the sensor reads again the entry is accepted as made."""
    dog4.new_game(4, game="dog")
    for colour in ("red", "blue", "green", "yellow"):  # every start space free again
        s = DOG4_START[colour]
        dog4.play("5", find(dog4.st, "5", s, s + 5))
    mv = find(dog4.st, "13", "red:start", 0)
    n = len(dog4.events)
    assert "card" in kinds(dog4.card("13"))
    spot = dog4.taken_spot("red")
    piece = dog4.lift(spot)
    dead = spot if dies == "spot left" else dog4.taken_spot("red")
    dog4.ask({"op": "fault", "kind": "dead_sensor", "at": dead, "ms": 1500})
    dog4.wait(300)
    dog4.place(piece, "0")
    dog4.wait(400)
    during = dog4.since(n)
    # nothing taken or refused while a spot reads nothing: the fault is shown where it is
    assert "move" not in kinds(during) and "reject" not in kinds(during), during
    assert [m["locations"] for m in mismatches(during)] == [[dead]], during
    view = dog4.public()
    assert view["phase"] == "await_move" and view["expected"] == [dead], view
    assert blinks(dog4, dead)
    assert dog4.send({"op": "status"})["faults"] == [dead]
    dog4.wait(1500)  # the sensor reads again
    dog4.wait()
    after = dog4.since(n)
    assert {"event": "resolved", "phase": "await_move"} in after, after
    assert moves(after) == [{"card": "13", "path": [["red:start", 0]]}], after
    dog4.st, _ = rules_apply(dog4.st, mv)
    dog4.check()
    view = dog4.public()
    assert view["phase"] == "await_card" and view["to_move"] == "blue" and view["expected"] == []
