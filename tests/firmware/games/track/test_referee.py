# The referee end to end: the real firmware on the MicroPython unix port, the simulated board,
# and players acting through the simulator's control channel (tests/table.py).
import pytest

from host_tools.games.track.players import Table, find, TableError

pytestmark = pytest.mark.micropython


@pytest.fixture
def table():
    t = Table(seed=3)
    yield t
    t.close()


def kinds(events):
    return [e.get("event") for e in events]


def test_setup_guides_the_pieces_then_waits_for_a_card(table):
    table.send({"op": "new_game", "players": 4})
    view = table.public()
    assert view["phase"] == "setup"
    # each colour's fourth piece must go from its start area onto its start space
    assert sorted(view["expected"]) == sorted(["0", "16", "32", "48", "red:s4", "blue:s4",
                                               "green:s4", "yellow:s4"])
    leds = table.ask({"op": "leds"})["leds"]
    assert leds["0"] != [0, 0, 0] and leds["1"] == [0, 0, 0]
    for colour, start in (("red", "0"), ("blue", "16"), ("green", "32"), ("yellow", "48")):
        table.place(table.lift(colour + ":s4"), start)
    evs = table.wait()
    assert {"event": "turn", "seat": "red"} in evs
    assert table.public()["phase"] == "await_card"


def test_a_simple_move_is_accepted_and_the_turn_passes(table):
    table.new_game(4)
    evs = table.play("5", find(table.st, "5", 0, 5))
    moves = [e for e in evs if e.get("event") == "move"]
    assert moves == [{"event": "move", "seat": "red", "card": "5",
                      "move": {"card": "5", "path": [[0, 5]]}}]
    assert {"event": "turn", "seat": "blue"} in evs
    view = table.public()
    assert view["board"]["5"] == "red" and "0" not in view["board"]
    assert view["cards_left"]["red"] == 4 and view["last_card"] == "5"


def test_unknown_sticker_and_unplayable_card_are_rejected_and_change_nothing(table):
    table.new_game(4)
    before = table.public()
    n = len(table.events)
    table.ask({"op": "card", "uid": "04deadbeef0001"})
    table.wait(150)
    table.ask({"op": "card_off"})
    table.wait(350)
    rej = [e for e in table.since(n) if e.get("event") == "reject"]
    assert rej and rej[0]["uid"] == "04deadbeef0001" and "not enrolled" in rej[0]["reason"]
    evs = table.card("copy")  # nothing to copy at the start of a round
    assert [e for e in evs if e.get("event") == "reject"][0]["reason"].startswith("copy cannot")
    assert table.public() == before


def test_an_illegal_placement_is_rejected_and_put_right(table):
    table.new_game(4)
    table.card("5")
    n = len(table.events)
    piece = table.lift("0")
    table.place(piece, "6")
    table.wait()
    rej = [e for e in table.since(n) if e.get("event") == "reject"]
    assert rej and sorted(rej[0]["locations"]) == ["0", "6"], table.since(n)  # from, to
    assert table.public()["phase"] == "await_move"
    table.place(table.lift("6"), "5")
    evs = table.wait()
    assert "move" in kinds(evs)


def test_a_knock_out_in_either_order_and_the_victim_goes_home(table):
    opening(table)
    # red 13 -> 26 knocks blue out; the mover lifted first, the victim last
    table.card("13")
    table.card("13")  # a second tap of the same card changes nothing
    n = len(table.events)
    mover = table.lift("13")
    table.wait()
    assert "move" not in kinds(table.since(n))  # lifting is not moving
    victim = table.lift("26")
    table.wait()
    table.place(mover, "26")
    table.wait()
    ko = [e for e in table.since(n) if e.get("event") == "effect"]
    assert {"event": "effect", "kind": "knock_out", "at": 26, "to": "blue:start",
            "colour": "blue"} in ko
    view = table.public()
    assert view["phase"] == "await_effect" and view["expected"] == [table.free_spot("blue")]
    table.place(victim, table.free_spot("blue"))
    evs = table.wait()
    assert {"event": "turn", "seat": "blue"} in evs
    assert table.public()["start_areas"]["blue"] == 4


def test_a_capture_too_fast_for_the_sensor_waits_for_confirm(table):
    # victim off and mover down within one debounce time (two scans): the square never read
    # empty, so the board equals "mover still in hand"; the referee waits, and confirm accepts the capture
    opening(table)
    table.card("13")
    n = len(table.events)
    victim = table.lift("26")
    table.place(table.lift("13"), "26")
    table.wait(400)
    assert "move" not in kinds(table.since(n))
    table.ask({"op": "press", "button": "confirm", "ms": 150})
    table.wait(300)
    assert "move" in kinds(table.since(n))
    table.place(victim, table.free_spot("blue"))
    assert {"event": "turn", "seat": "blue"} in table.wait()


def opening(table):
    """red 0 -> 13, blue 16 -> 26, green 32 -> 45, yellow 48 -> 61."""
    table.new_game(4)
    table.play("13", find(table.st, "13", 0, 13))
    table.play("10", find(table.st, "10", 16, 26))
    table.play("13", find(table.st, "13", 32, 45))
    table.play("13", find(table.st, "13", 48, 61))


def test_a_piece_left_upright_on_a_hole_must_be_turned_over(table):
    opening(table)
    table.card("7")  # red 13 -> 20, a hole
    n = len(table.events)
    table.place(table.lift("13"), "20", upside_down=False)
    table.wait()
    assert {"event": "effect", "kind": "flip", "at": 20, "undercover": True} in table.since(n)
    view = table.public()
    assert view["phase"] == "await_effect" and view["expected"] == ["20"]
    assert table.ask({"op": "leds"})["leds"]["20"] == [96, 0, 96]  # magenta: turn it over
    table.ask({"op": "flip", "at": "20"})
    assert {"event": "turn", "seat": "blue"} in table.wait()
    assert table.public()["board"]["20"] == "undercover"


def test_a_meeting_point_pulls_the_nearest_piece_behind(table):
    opening(table)
    # red 13 -> 24 (a meeting point): the nearest piece behind is... red itself left 13; blue
    # is on 26 (ahead), so going back from 23: 22 .. 0, 63, 62, 61: yellow on 61
    mv = find(table.st, "11" if False else "1/11", 13, 24)
    evs = table.play("1/11", mv)
    meet = [e for e in evs if e.get("kind") == "meeting"]
    assert meet == [{"event": "effect", "kind": "meeting", "point": 24, "from": 61, "to": 23}]
    assert table.world()[table.at("23")]["upside_down"] is True
    assert table.public()["board"]["23"] == "undercover"


def test_partner_four_step_by_step_burning_and_steps_left(table):
    opening(table)
    # red plays the partner: red 13 -> 15 (2 steps), then teammate green 45 -> 47 (2 steps)
    table.card("partner")
    assert table.public()["steps_left"] == 4
    table.place(table.lift("13"), "15")
    table.wait()
    assert table.public()["steps_left"] == 2
    leds = table.ask({"op": "leds"})["leds"]
    assert [leds["red:s%d" % k] != [0, 0, 0] for k in range(1, 5)].count(True) >= 2
    n = len(table.events)
    table.place(table.lift("45"), "47")
    table.wait()
    assert "move" in kinds(table.since(n))
    assert {"event": "turn", "seat": "blue"} in table.since(n)
    assert table.public()["board"]["47"] == "green"


def test_partner_that_would_overrun_is_rejected(table):
    opening(table)
    table.card("partner")
    n = len(table.events)
    table.place(table.lift("13"), "18")  # five steps
    table.wait()
    assert [e for e in table.since(n) if e.get("event") == "reject"][0]["locations"] == ["18"]
    table.place(table.lift("18"), "17")
    table.wait()
    assert "move" in kinds(table.since(n))


def test_swap_exchanges_two_undercover_pieces(table):
    opening(table)
    table.play("7", find(table.st, "7", 13, 20))      # red onto hole 20
    table.play("2", find(table.st, "2", 26, 28))      # blue onto hole 28
    evs = table.play("swap", find(table.st, "swap", 20, 28))
    assert [e for e in evs if e.get("event") == "move"][0]["move"] == {
        "card": "swap", "swap": [20, 28]}
    # the referee carried the identities through: the red piece is now on 28
    record = table.send({"op": "export"})["record"]
    assert record["turns"][-1]["move"]["swap"] == [20, 28]
    assert table.public()["board"]["28"] == "undercover"


@pytest.mark.parametrize("offset_ms", [0, 7, 13])
def test_pass_by_holding_back_for_the_contracts_2000_ms_puts_the_seat_out(table, offset_ms):
    # board-protocols.md section 2: a seat passes by holding back for 2 seconds (press, ms
    # 2000). The press may fall anywhere between two scans of the buttons (every 20 ms).
    table.new_game(4)
    table.wait(offset_ms)
    n = len(table.events)
    table.ask({"op": "press", "button": "back", "ms": 2000})
    table.wait(2400)
    evs = table.since(n)
    assert {"event": "pass", "seat": "red"} in evs
    assert {"event": "effect", "kind": "out", "seat": "red", "reason": "pass"} in evs
    assert table.public()["to_move"] == "blue" and table.public()["out"] == ["red"]


def test_a_shorter_press_of_back_does_not_pass(table):
    table.new_game(4)
    n = len(table.events)
    table.ask({"op": "press", "button": "back", "ms": 1500})
    table.wait(2400)
    assert "pass" not in kinds(table.since(n))
    view = table.public()
    assert view["to_move"] == "red" and view["out"] == [] and view["phase"] == "await_card"


def test_a_bumped_piece_is_shown_and_play_waits(table):
    table.new_game(4)
    n = len(table.events)
    table.place(table.lift("16"), "17")  # someone knocks blue's piece along
    table.wait()
    mm = [e for e in table.since(n) if e.get("event") == "mismatch"]
    assert mm and sorted(mm[0]["locations"]) == ["16", "17"]
    assert table.public()["phase"] == "mismatch"
    rej = table.card("5")
    assert [e for e in rej if e.get("event") == "reject"]
    table.place(table.lift("17"), "16")
    table.wait()
    assert table.public()["phase"] == "await_card"
    table.play("5", find(table.st, "5", 0, 5))


def test_power_cut_resumes_at_the_last_completed_move(table):
    opening(table)
    before = table.public()
    table.card("5")
    table.lift("13")  # a move in progress when the power goes
    table.ask({"op": "power_cut"})
    table.ask({"op": "power_on"})
    evs = table.wait(300)
    assert {"event": "resumed", "turns": 4, "to_move": "red"} in evs
    mm = [e for e in evs if e.get("event") == "mismatch"]
    assert mm and mm[0]["locations"] == ["13"]  # the lifted piece must go back first
    held = [n for n, p in table.world().items() if p["at"] is None][0]
    table.place(held, "13")
    table.wait()
    after = table.public()
    assert after["phase"] == "await_card"
    assert after["board"] == before["board"] and after["cards_left"] == before["cards_left"]
    table.play("5", find(table.st, "5", 13, 18))


def test_undo_takes_the_last_move_back_and_guides_the_pieces(table):
    opening(table)
    table.send({"op": "undo"})
    view = table.public()
    assert view["to_move"] == "yellow" and view["phase"] == "mismatch"
    assert sorted(view["expected"]) == ["48", "61"]
    table.place(table.lift("61"), "48")
    table.wait()
    assert table.public()["phase"] == "await_card"
    assert len(table.send({"op": "export"})["record"]["turns"]) == 3


def test_undo_after_a_swap_asks_for_the_pieces_to_be_exchanged_back(table):
    # red on hole 20 and blue on hole 28, both undercover; green swaps them, then the swap is
    # taken back. The sensors see both holes occupied before and after, so the board must not
    # call itself right until both pieces have been lifted (and put back exchanged)
    opening(table)
    table.play("7", find(table.st, "7", 13, 20))      # red onto hole 20
    table.play("2", find(table.st, "2", 26, 28))      # blue onto hole 28
    table.play("swap", find(table.st, "swap", 20, 28))
    red, blue = table.at("28"), table.at("20")
    assert red.startswith("red") and blue.startswith("blue")
    n = len(table.events)
    assert table.send({"op": "undo"})["ok"]
    assert {"event": "undo", "turns": 6} in table.since(n)  # the console's undo says so too
    view = table.public()
    assert view["phase"] == "mismatch" and sorted(view["expected"]) == ["20", "28"]
    assert view["board"]["20"] == view["board"]["28"] == "undercover"
    leds = table.ask({"op": "leds"})["leds"]
    assert leds["20"] == leds["28"] != [0, 0, 0]
    # lifting one and putting it back is not enough: 28 is still to lift
    table.lift("20")
    table.wait()
    table.place(blue, "20")
    table.wait()
    assert table.public()["expected"] == ["28"]
    table.lift("28")
    table.wait()
    table.lift("20")
    table.wait()
    table.place(red, "20")
    table.place(blue, "28")
    table.wait()
    view = table.public()
    assert view["phase"] == "await_card" and view["expected"] == []
    assert {"event": "resolved", "phase": "await_card"} in table.since(n)
    assert table.at("20") == red and table.at("28") == blue


def test_cards_are_enrolled_through_the_console():
    t = Table(seed=5, enrol=False)
    try:
        t.new_game(4)
        uid = [c["uid"] for c in t.deck if c["card"] == "5"][0]
        t.ask({"op": "card", "uid": uid})
        t.wait(150)
        t.ask({"op": "card_off"})
        t.wait(350)  # the reader calls a card gone within 100 ms (two empty polls)
        assert t.events[-1]["event"] == "reject" and t.events[-1]["uid"] == uid
        assert t.send({"op": "enrol", "uid": uid, "card": "5"})["ok"]
        assert not t.send({"op": "enrol", "uid": uid, "card": "joker"})["ok"]
        assert not t.send({"op": "enrol", "uid": "zz", "card": "5"})["ok"]
        t.ask({"op": "card", "uid": uid})
        t.wait(150)
        assert {"event": "card", "card": "5", "seat": "red"} in t.events
    finally:
        t.close()


def test_lifting_the_victim_first_is_no_mistake(table):
    opening(table)
    table.card("13")
    n = len(table.events)
    victim = table.lift("26")  # blue's piece off first
    table.wait()
    assert "reject" not in kinds(table.since(n)), table.since(n)
    table.place(table.lift("13"), "26")
    table.wait()
    assert "move" in kinds(table.since(n))
    table.place(victim, table.free_spot("blue"))
    assert {"event": "turn", "seat": "blue"} in table.wait()


def test_swap_among_three_undercover_pieces(table):
    opening(table)
    table.play("7", find(table.st, "7", 13, 20))
    table.play("2", find(table.st, "2", 26, 28))
    table.play("12", find(table.st, "12", 45, 57))
    table.play("8", find(table.st, "8", 61, 5))
    table.play("1/11", find(table.st, "1/11", 20, 31))   # red leaves the hole ...
    table.play("8", find(table.st, "8", 28, 36))         # blue onto hole 36
    table.play("2", find(table.st, "2", 57, 59))
    table.play("2", find(table.st, "2", 5, 7))           # yellow onto hole 7
    table.play("1/11", find(table.st, "1/11", 31, 42))
    table.play("8", find(table.st, "8", 36, 44))         # blue onto hole 44
    evs = table.play("swap", find(table.st, "swap", 7, 44))
    assert "reject" not in kinds(evs)


def test_noise_during_a_move_changes_nothing(table):
    opening(table)
    table.card("5")
    n = len(table.events)
    table.ask({"op": "fault", "kind": "noise", "at": "40", "ms": 40})
    piece = table.lift("13")
    table.ask({"op": "fault", "kind": "noise", "at": "15", "ms": 40})
    table.wait()
    table.place(piece, "18")
    table.wait()
    evs = table.since(n)
    assert "reject" not in kinds(evs) and "mismatch" not in kinds(evs), evs
    assert [e["move"] for e in evs if e.get("event") == "move"] == [
        {"card": "5", "path": [[13, 18]]}]


def test_a_piece_slid_across_the_track_counts_only_where_it_lands(table):
    opening(table)
    table.card("5")
    n = len(table.events)
    piece = table.lift("13")
    table.ask({"op": "slide", "piece": piece, "path": ["14", "15", "16", "17", "18"]})
    table.wait(600)
    evs = table.since(n)
    assert "reject" not in kinds(evs), evs
    assert [e["move"] for e in evs if e.get("event") == "move"] == [
        {"card": "5", "path": [[13, 18]]}]


def test_a_dead_sensor_under_a_piece_is_shown_and_play_resumes_when_it_recovers(table):
    opening(table)
    n = len(table.events)
    table.ask({"op": "fault", "kind": "dead_sensor", "at": "45", "ms": 1500})
    table.wait(600)
    mm = [e for e in table.since(n) if e.get("event") == "mismatch"]
    assert mm and mm[0]["locations"] == ["45"]
    status = table.send({"op": "status"})
    assert status["faults"] == ["45"] and table.public()["phase"] == "mismatch"
    table.wait(1500)
    assert table.public()["phase"] == "await_card"
    table.play("5", find(table.st, "5", 13, 18))


def test_a_new_game_with_the_buttons():
    t = Table(seed=9)
    try:
        t.ask({"op": "press", "button": "confirm", "ms": 2200})  # no game: open the menu
        t.wait(2500)
        assert t.send({"op": "status"})["menu_players"] == 4
        t.ask({"op": "press", "button": "confirm", "ms": 150})
        t.wait(400)
        assert t.send({"op": "status"})["menu_players"] == 2
        leds = t.ask({"op": "leds"})["leds"]
        lit = sorted(k for k, v in leds.items() if k.startswith("seat:") and v != [0, 0, 0])
        assert lit == ["seat:green", "seat:red"]
        t.ask({"op": "press", "button": "confirm", "ms": 2200})  # hold: start it
        t.wait(2500)
        view = t.public()
        assert view["players"] == 2 and view["phase"] == "setup"
    finally:
        t.close()


def test_holding_confirm_takes_the_last_move_back(table):
    opening(table)
    n = len(table.events)
    table.ask({"op": "press", "button": "confirm", "ms": 2200})
    table.wait(2500)
    assert {"event": "undo", "turns": 3} in table.since(n)
    view = table.public()
    assert view["to_move"] == "yellow" and sorted(view["expected"]) == ["48", "61"]
    table.place(table.lift("61"), "48")
    table.wait()
    assert table.public()["phase"] == "await_card"


def swapped_and_undone(table):
    """Red undercover on hole 20, blue on hole 28, green swaps them, the swap is undone:
    (red's piece, blue's piece), each standing where the swap put it."""
    opening(table)
    table.play("7", find(table.st, "7", 13, 20))
    table.play("2", find(table.st, "2", 26, 28))
    table.play("swap", find(table.st, "swap", 20, 28))
    red, blue = table.at("28"), table.at("20")
    assert table.send({"op": "undo"})["ok"]
    return red, blue


def power_cycle(table):
    assert table.ask({"op": "power_cut"})["ok"] and table.ask({"op": "power_on"})["ok"]
    table.wait(1500)


def test_a_power_cut_before_an_undone_swap_is_exchanged_back_still_asks_for_it(table):
    # the exchange an undo asks for is physical work the sensors cannot see being done; a
    # power cut must not forget it (it did: the board resumed with nothing to exchange, and
    # the hidden colours no longer matched the pieces)
    red, blue = swapped_and_undone(table)
    power_cycle(table)
    view = table.public()
    assert view["phase"] == "mismatch" and sorted(view["expected"]) == ["20", "28"]
    for at in ("20", "28"):
        table.lift(at)
    table.wait()
    power_cycle(table)  # both lifted (and saved so): the exchange is in the players' hands
    table.place(red, "20")
    table.place(blue, "28")
    table.wait()
    view = table.public()
    assert view["phase"] == "await_card" and view["expected"] == []
    assert table.at("20") == red and table.at("28") == blue



def test_new_game_refuses_fields_no_game_of_the_board_has_and_calibrate_in_its_setup(table):
    before = table.send({"op": "status"})["phase"]
    for cmd in ({"op": "new_game", "players": 4, "mode": "advanced"},
                {"op": "new_game", "players": 4, "offer": []}):
        ans = table.send(cmd)
        assert ans["ok"] is False and ans["error"] == "bad_request", ans
        extra = [k for k in cmd if k not in ("op", "players")][0]
        assert repr(extra) in ans["reason"], ans
    assert table.send({"op": "status"})["phase"] == before
    assert table.send({"op": "new_game", "players": 4})["ok"]
    assert table.public()["phase"] == "setup"
    for cmd in ({"op": "calibrate"}, {"op": "sensors"}):
        ans = table.send(cmd)
        assert ans["ok"] is False and ans["error"] == "not_now", ans


def test_a_card_on_the_reader_at_power_up_is_not_played_until_tapped_again(table):
    # red's 5 is tapped and left lying on the reader; the move is made and saved; the power
    # goes. At power-up the card found there may be that move's (it is): it must not be taken
    # as blue's card (outside checks saw it played as the next seat's)
    table.new_game(4)
    table.ask({"op": "card", "card": "5"})
    table.wait(150)
    table.place(table.lift("0"), "5")
    table.wait()
    assert [e["event"] for e in table.events if e.get("event") == "move"] == ["move"]
    table.power_cycle()
    table.wait(400)
    n = len(table.events)
    view = table.public()
    assert view["phase"] == "await_card" and view["to_move"] == "blue"
    table.power_cycle()  # and again: nothing is decided from the card lying there
    table.wait(400)
    seen = table.since(0)
    assert not [e for e in seen[n:] if e.get("event") == "card"], seen[n:]
    assert any(e.get("event") == "reject" and "restarted with a card" in e["reason"]
               for e in seen), seen
    table.ask({"op": "card_off"})
    table.wait(400)
    evs = table.card("5")  # blue taps its own card
    assert {"event": "card", "card": "5", "seat": "blue"} in evs


# Issue 30: a move is taken within two scans of its piece being put down (a class counts after
# 2 scans that agree, and the board is judged in the scan that completes it when nothing else
# is changing), plus the save's own board time on the simulated flash. With 4 scans and a
# still scan after them it took 80 to 100 ms.
SCAN_MS = 20
SAVE_MS = 10  # more than the journal's save of one turn on the simulated flash


@pytest.mark.parametrize("board, game, players, first", [
    ("agent-dog-4", None, 4, None),
    # the 6-seat board reads the pieces' ranks: a piece put down counts once its reading held
    # still for 2 scans, its rank with it (firmware/hal/scanner.py; with the 4 scans a ranked
    # board waited before, it took 80 ms and more)
    ("dog-6", "dog-royal", 6, {0: 0, 1: 1, 2: 2, 3: 3, 4: 0, 5: 1}),
])
def test_a_move_is_taken_within_two_scans_of_its_placement(board, game, players, first):
    t = Table(seed=3 if game is None else 4, board=board)
    try:
        t.new_game(players, game=game, first=first)
        t.card("5")
        piece = t.lift("0")
        t.wait(200)
        t.place(piece, "5")
        ans = t.ask({"op": "wait", "ms": 500, "until": "console"})
        evs = t.wait(300)
        assert kinds(evs)[0] == "move", evs  # the first line after the placement
        assert ans["ms"] <= 2 * SCAN_MS + SAVE_MS, ans
        if game is not None:  # red's king (first: 0), read as a king
            assert t.public()["ranks"]["5"] == "king"
    finally:
        t.close()
