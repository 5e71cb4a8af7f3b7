# The referee end to end: the real firmware on the MicroPython unix port, the simulated board,
# and players acting through the simulator's control channel (tests/table.py).
import pytest

from table import Table, find, TableError

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
    table.wait(100)
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
    assert rej and rej[0]["locations"] == ["6"], table.since(n)
    assert table.public()["phase"] == "await_move"
    table.place(table.lift("6"), "5")
    evs = table.wait()
    assert "move" in kinds(evs)


def test_a_knock_out_in_either_order_and_the_victim_goes_home(table):
    table.new_game(4)
    table.play("13", find(table.st, "13", 0, 13))        # red 0 -> 13
    table.play("10", find(table.st, "10", 16, 26))       # blue 16 -> 26
    table.play("13", find(table.st, "13", 32, 45))       # green 32 -> 45
    table.play("13", find(table.st, "13", 48, 61))       # yellow 48 -> 61
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
    # victim off and mover down within one debounce time: the square never read empty, so the
    # board equals "mover still in hand"; the referee waits, and confirm accepts the capture
    table.new_game(4)
    table.play("13", find(table.st, "13", 0, 13))
    table.play("10", find(table.st, "10", 16, 26))
    table.play("13", find(table.st, "13", 32, 45))
    table.play("13", find(table.st, "13", 48, 61))
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
