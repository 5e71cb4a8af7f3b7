# The web twin's parts without a browser or a device: the hands of cards against the board's
# counts, what each LED asks (firmware/README.md's LED table), the guidance line, the checks of
# the page's actions and of request bodies. Expectations come from docs/board-protocols.md, the
# LED table and the rule texts (seed 004: five cards each, a 2-3 player pass discards one card),
# not from what the code returns.
import json

import pytest

from firmware.games.track import view as fw
from host_tools.games.track import actions, guidance, lights
from host_tools.games.track.hands import Hands, IN_HAND, IN_PLAY, PLAYED
from host_tools.web.server import BadRequest, MAX_DEPTH, parse_body

def deck():
    """110 stickers: the kinds repeat, the UIDs do not (enough for the bookkeeping)."""
    kinds = ["1/11", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "13", "copy",
             "partner", "swap"]
    return [("%014x" % j, kinds[j % len(kinds)]) for j in range(110)]


def every_card_once(h):
    held = [c for hand in h.hands.values() for c in hand]
    every = held + h.stock + h.pile
    return sorted(every) == sorted(h.handles)


def view(phase="await_card", to_move="red", cards=None, **kw):
    v = {"phase": phase, "to_move": to_move, "cards_left": cards or {"red": 5, "green": 5},
         "board": {}, "start_areas": {"red": 4, "green": 4}, "expected": [], "card": None,
         "steps_left": None, "out": [], "players": 2, "dealer": "red", "last_card": None}
    v.update(kw)
    return v


# -- the hands -------------------------------------------------------------------------------
def test_a_new_game_deals_what_the_board_counts():
    h = Hands(deck(), 1)
    h.follow({"red": 5, "green": 5})
    assert [len(h.hands[s]) for s in ("red", "green")] == [5, 5]
    assert every_card_once(h)
    assert all(h.state_of(s, c) == IN_HAND for s in h.hands for c in h.hands[s])


def test_only_the_seat_to_move_plays_one_card_at_a_time():
    h = Hands(deck(), 1)
    h.follow({"red": 5, "green": 5})
    red, green = h.hands["red"], h.hands["green"]
    v = view()
    assert h.refusal(red[0], v) is None
    assert "red's turn" in h.refusal(green[0], v)
    assert h.refusal("c999", v) == "no such card in a hand"
    assert "no game" in h.refusal(red[0], None)
    assert "no card can be played now" in h.refusal(red[0], view("await_effect"))
    h.took("red", red[0])
    # the second tap: refused, and the first card is still in the hand (in play)
    why = h.refusal(red[1], view("await_move", card=h.cards[red[0]][1]))
    assert why.startswith("the %s is in play" % h.cards[red[0]][1]) and "press back" in why
    assert red[0] in h.hands["red"] and h.state_of("red", red[0]) == IN_PLAY
    assert len(h.hands["red"]) == 5


def test_a_card_taken_back_is_a_card_in_hand_again():
    h = Hands(deck(), 2)
    h.follow({"red": 5, "green": 5})
    first = list(h.hands["red"])
    h.took("red", first[2])
    h.card_back()
    assert h.hands["red"] == first and h.state_of("red", first[2]) == IN_HAND


def test_a_played_card_leaves_when_the_board_stops_counting_it():
    h = Hands(deck(), 3)
    h.follow({"red": 5, "green": 5})
    red = list(h.hands["red"])
    h.took("red", red[1])
    h.moved()
    assert h.state_of("red", red[1]) == PLAYED
    h.follow({"red": 5, "green": 5})  # effects still being carried out: the board counts 5
    assert h.hands["red"] == red
    h.turn_over()
    h.follow({"red": 4, "green": 5})
    assert h.hands["red"] == red[:1] + red[2:]  # that card, not another
    assert h.pile[-1] == red[1]
    assert every_card_once(h)


def test_undo_gives_back_the_card_of_the_turn_taken_back():
    h = Hands(deck(), 4)
    h.follow({"red": 5, "green": 5})
    red = list(h.hands["red"])
    h.took("red", red[3])
    h.moved()
    h.turn_over()
    h.follow({"red": 4, "green": 5})
    h.undone()
    h.follow({"red": 5, "green": 5})
    assert h.hands["red"] == red
    assert all(h.state_of("red", c) == IN_HAND for c in red)
    assert every_card_once(h)


def test_undo_across_a_deal_takes_the_deal_back():
    h = Hands(deck(), 5)
    h.follow({"red": 1, "green": 0})
    last = list(h.hands["red"])
    stock = list(h.stock)
    h.took("red", last[0])
    h.moved()
    h.turn_over()
    h.follow({"red": 4, "green": 4})  # the round ended: four cards each
    assert len(h.hands["red"]) == 4 and last[0] not in h.hands["red"]
    h.undone()
    h.follow({"red": 1, "green": 0})
    assert h.hands["red"] == last and h.hands["green"] == [] and h.stock == stock


def test_a_pass_with_two_players_discards_one_card_and_undo_returns_it():
    h = Hands(deck(), 6)
    h.follow({"red": 5, "green": 5})
    red = list(h.hands["red"])
    h.passed()
    h.follow({"red": 4, "green": 5})
    assert len(h.hands["red"]) == 4 and set(h.hands["red"]) < set(red)
    h.undone()
    h.follow({"red": 5, "green": 5})
    assert h.hands["red"] == red


def test_the_stock_runs_out_and_the_pile_is_shuffled_into_it():
    h = Hands(deck(), 7)
    for _ in range(30):
        h.follow({"red": 5, "green": 5, "blue": 5, "yellow": 5})
        h.follow({"red": 0, "green": 0, "blue": 0, "yellow": 0})
        assert every_card_once(h)
    h.follow({"red": 5, "green": 5, "blue": 5, "yellow": 5})
    assert all(len(h.hands[s]) == 5 for s in h.hands)


def test_hands_are_listed_in_the_seat_order_given():
    h = Hands(deck(), 8)
    h.follow({"yellow": 2, "red": 3})
    pub = h.public(["red", "blue", "green", "yellow"])
    assert list(pub) == ["red", "yellow"]
    assert [c["state"] for c in pub["red"]] == ["hand"] * 3


# -- the lights ------------------------------------------------------------------------------
def lit(code, brightness=96):
    """A palette colour as the strip holds it at the firmware's default brightness."""
    return [v * brightness // 255 for v in fw.PALETTE[code]]


def test_red_says_knock_out_take_off_put_back_or_seat_by_where_and_when():
    red = lit(fw.KNOCK)
    assert lit(fw.TAKE) == red  # the firmware's palette: the same red
    assert lights.meaning("12", red, "await_move") == "knock"
    assert lights.meaning("12", red, "await_effect") == "take"
    assert lights.meaning("12", red, "mismatch") == "take"
    assert lights.meaning("9", red, "await_move", refused=["0", "9"]) == "put_back"
    assert lights.meaning("seat:red", [96, 0, 0], "await_move") == "seat"


def test_amber_says_meeting_point_or_steps_and_yellow_seat_is_a_seat():
    amber = lit(fw.MEET)
    assert lights.meaning("8", amber, "await_move") == "meet"
    assert lights.meaning("red:s2", lit(fw.STEPS), "await_move") == "steps"
    yellow_seat = [v * 96 // 255 for v in fw.SEAT["yellow"]]
    assert lights.meaning("seat:yellow", yellow_seat, "await_card") == "seat"


def test_every_other_colour_of_the_led_table():
    assert lights.meaning("3", lit(fw.MOVABLE), "await_move") == "movable"
    assert lights.meaning("3", lit(fw.TARGET), "await_move") == "target"
    assert lights.meaning("3", lit(fw.ACCEPT), "await_effect") == "accepted"
    assert lights.meaning("red:h1", lit(fw.HOME), "await_move") == "home"
    assert lights.meaning("3", lit(fw.PUT), "setup") == "put"
    assert lights.meaning("3", lit(fw.TURN), "mismatch") == "turn"
    assert lights.meaning("3", lit(fw.FAULT), "mismatch") == "fault"
    assert lights.meaning("3", lit(fw.EXCHANGE), "mismatch") == "exchange"
    assert lights.meaning("3", [0, 0, 0], "mismatch") is None
    assert set(lights.MEANINGS) >= {"knock", "take", "put_back", "seat", "meet", "steps"}


# -- the guidance line -----------------------------------------------------------------------
def test_await_card_and_await_move():
    g = guidance.line(view(), [], {}, {})
    assert g == {"kind": "do", "text": "Red: tap a card."}
    g = guidance.line(view("await_move", card="8"), [{"event": "card", "card": "8"}],
                      {"0": "red"}, {"0": "movable"})
    assert g["kind"] == "do" and g["text"].startswith("Red: move a piece with the 8")
    g = guidance.line(view("await_move", card="8"), [{"event": "card", "card": "8"}], {},
                      {"0": "movable", "8": "meet"}, held=1)
    assert g["text"] == "Red: put the piece down on 8 (meeting point), or back where it was."


def test_a_refused_placement_stands_until_the_piece_is_back():
    v = view("await_move", card="8", board={"0": "red"})
    evs = [{"event": "card", "card": "8", "seat": "red"},
           {"event": "reject", "reason": "no legal move of the 8 puts a piece there: put it "
            "back", "locations": ["0", "9"]}]
    g = guidance.line(v, evs, {"9": "red"}, {})
    assert g["kind"] == "refused"
    assert g["text"] == "Refused: no legal move of the 8 puts a piece there: put it back " \
        "(blinking red: 0 and 9)."
    assert guidance.refused_locations(v, evs, {"9": "red"}) == ["0", "9"]
    back = guidance.line(v, evs, {"0": "red"}, {})
    assert back["kind"] == "do" and guidance.refused_locations(v, evs, {"0": "red"}) == []


def test_a_refused_card_is_said_with_its_reason():
    evs = [{"event": "turn", "seat": "red"},
           {"event": "reject", "reason": "13 cannot be played now: no legal move with it"}]
    g = guidance.line(view(), evs, {}, {})
    assert g["kind"] == "refused"
    assert g["text"].startswith("Refused: 13 cannot be played now: no legal move with it. "
                                "Red: tap another card")


def test_effects_in_plain_words():
    evs = [{"event": "move", "seat": "red", "card": "8"},
           {"event": "effect", "kind": "meeting", "point": 56, "from": 38, "to": 55},
           {"event": "effect", "kind": "flip", "at": 55, "undercover": True}]
    v = view("await_effect", expected=["38", "55"])
    assert guidance.line(v, evs, {"38": "blue"}, {"38": "take", "55": "put"})["text"] == \
        "Move the piece on 38 to 55, upside down (meeting point 56)."
    evs = [{"event": "move", "seat": "red", "card": "5"},
           {"event": "effect", "kind": "knock_out", "at": 12, "to": "blue:start",
            "colour": "blue"}]
    v = view("await_effect", expected=["blue:s3"])
    assert guidance.line(v, evs, {"12": "red"}, {"blue:s3": "put"})["text"] == \
        "Take the knocked-out piece from 12 to blue's start area."
    evs = [{"event": "move"}, {"event": "effect", "kind": "flip", "at": 20, "undercover": False}]
    v = view("await_effect", expected=["20"])
    assert guidance.line(v, evs, {"20": "undercover"}, {})["text"] == \
        "Turn the piece on 20 face up."
    # done effects drop out: only what the board still expects is said
    v = view("await_effect", expected=["blue:s3"])
    evs = [{"event": "move"}, {"event": "effect", "kind": "flip", "at": 20, "undercover": False},
           {"event": "effect", "kind": "knock_out", "at": 12, "colour": "blue"}]
    assert guidance.line(v, evs, {}, {})["text"] == \
        "Take the knocked-out piece from 12 to blue's start area."


def test_a_mismatch_says_what_to_put_right():
    v = view("mismatch", board={"8": "green"}, expected=["8", "11"])
    g = guidance.line(v, [{"event": "mismatch", "locations": ["8", "11"]}], {"11": "green"},
                      {"8": "put", "11": "take"})
    assert g["text"] == "The board differs from the game: move the piece on 11 to 8."
    v = view("mismatch", board={"4": "undercover"}, expected=["4"])
    g = guidance.line(v, [], {"4": "red"}, {"4": "turn"})
    assert g["text"] == "The board differs from the game: turn the piece on 4 upside down."
    v = view("mismatch", board={"4": "undercover", "36": "undercover"}, expected=["4", "36"])
    g = guidance.line(v, [{"event": "undo", "turns": 3}],
                      {"4": "undercover", "36": "undercover"},
                      {"4": "exchange", "36": "exchange"})
    assert g["text"] == "Undone: put the pieces back: swap the pieces on 4 and 36 back."


def test_setup_moves_each_seats_piece_from_its_start_area():
    v = view("setup", board={"0": "red", "32": "green"},
             expected=["0", "32", "red:s4", "green:s4"], start_areas={"red": 3, "green": 3})
    pieces = dict(("%s:s%d" % (c, k), c) for c in ("red", "green") for k in range(1, 5))
    g = guidance.line(v, [], pieces, {"0": "put", "32": "put", "red:s4": "take",
                                      "green:s4": "take"})
    assert g["text"] == "Set up: move a red piece from its start area to 0; move a green " \
        "piece from its start area to 32."


def test_no_game_menu_stopped_fault_and_game_over():
    assert guidance.line(None, [], {}, {})["kind"] == "idle"
    g = guidance.line(None, [], {}, {"seat:red": "seat", "seat:green": "seat"})
    assert g["text"].startswith("New-game menu: 2 players (green, red)")
    g = guidance.line(view(), [], {}, {}, device={"running": False,
                                                  "reason": "its power was cut"})
    assert g["kind"] == "stopped" and "its power was cut" in g["text"] and "power on" in g["text"]
    g = guidance.line(view(), [], {}, {}, device={"running": True,
                                                  "failure": "KeyError: 'board'"})
    assert g["kind"] == "fault" and "KeyError: 'board'" in g["text"] and "restart" in g["text"]
    g = guidance.line(view(), [{"event": "fault", "what": "calib.json", "reason": "unreadable"}],
                      {}, {})
    assert g == {"kind": "fault", "text": "Fault in calib.json: unreadable."}
    g = guidance.line(view("game_over"), [{"event": "win", "seats": ["red", "green"]}], {}, {})
    assert g["kind"] == "over" and "red and green won" in g["text"]


# -- the page's actions and bodies ---------------------------------------------------------------
LOCS = frozenset(["0", "12", "red:h1", "red:s1"])


@pytest.mark.parametrize("req, words", [
    ({"op": "press", "button": "back", "ms": "x"}, "ms must be a whole number"),
    ({"op": "press", "button": "back", "ms": -1}, "ms must be a whole number"),
    ({"op": "press", "button": "back", "ms": True}, "ms must be a whole number"),
    ({"op": "press", "button": "back", "ms": 60001}, "ms must be a whole number"),
    ({"op": "press", "button": "middle"}, "button must be one of confirm, back"),
    ({"op": "press", "button": "back", "extra": 1}, "press takes button, ms; not 'extra'"),
    ({"op": "lift", "at": "99"}, "at must be a board location"),
    ({"op": "lift", "at": 12}, "at must be a board location"),
    ({"op": "lift"}, "lift needs the field 'at'"),
    ({"op": "place", "id": "h1", "at": "12", "upside_down": "yes"}, "upside_down must be true"),
    ({"op": "slide", "id": "h1", "path": []}, "path must list 1 to"),
    ({"op": "slide", "id": "h1", "path": ["0"] * 300}, "path must list 1 to"),
    ({"op": "new_game", "players": "4"}, "players must be a whole number from 2 to 6"),
    ({"op": "new_game", "players": 7}, "players must be a whole number from 2 to 6"),
    ({"op": "new_game", "players": True}, "players must be a whole number from 2 to 6"),
    ({"op": "new_game", "players": 4, "game": "chess"}, "game must be one of agent-dog, dog, dog-royal"),
    ({"op": "fault", "kind": "fire", "at": "12"}, "kind must be one of"),
    ({"op": "fault", "kind": "noise", "ms": 100}, "needs the sensor's location"),
    ({"op": "fault", "kind": "noise", "at": "12", "ms": 0}, "ms must be a whole number"),
    ({"op": "teleport"}, "unknown action 'teleport'"),
    ({"op": 5}, "unknown action (not a short name)"),
    ([1, 2], "an action is a JSON object"),
    ({"op": "power_on", "now": True}, "power_on takes no fields"),
])
def test_malformed_actions_are_refused_with_a_reason(req, words):
    with pytest.raises(actions.ActionError) as e:
        actions.check(req, LOCS)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_well_formed_actions_pass():
    for req in ({"op": "press", "button": "back", "ms": 2000}, {"op": "lift", "at": "red:s1"},
                {"op": "place", "id": "h1", "at": "12", "upside_down": True},
                {"op": "fault", "kind": "nfc_crc", "ms": 500}, {"op": "fault", "kind": "clear"},
                {"op": "new_game", "players": 3}, {"op": "power_on"}, {"op": "card", "id": "c4"}):
        assert actions.check(req, LOCS) is req


@pytest.mark.parametrize("body, code, words", [
    (b"[" * 100000, 400, "nested too deeply"),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), 400, "nested too deeply"),
    (b'{"a": NaN}', 400, "NaN and Infinity"),
    (b'[-Infinity]', 400, "NaN and Infinity"),
    (b"\xff{}", 400, "not UTF-8"),
    (b"{lift", 400, "the body is not JSON"),
])
def test_bodies_the_server_refuses(body, code, words):
    with pytest.raises(BadRequest) as e:
        parse_body(body)
    assert e.value.code == code and words in e.value.reason


def test_bodies_the_server_takes():
    assert parse_body(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    assert parse_body(json.dumps({"op": "lift", "at": "12"}).encode()) == {"op": "lift",
                                                                           "at": "12"}
