"""A game of Agent Avenue begun on the board itself: holding confirm opens the new-game menu,
short presses step through it (simple and advanced, for each seating), the seat LEDs show the
seats in play and the black-market corners light for the advanced mode; holding confirm starts
the game, green first, and the first offer is tapped in on the tap pad."""
from host_tools.games.avenue.players import Players, TB, HOLD_MS, same_game

MARKET_SPACES = ("2", "5", "9", "12")  # the advanced side's corners (facts note)
SEAT_LEDS = ("seat:green-0", "seat:green-1", "seat:blue-0", "seat:blue-1")


def agrees(p):
    wrong = same_game(p, p.view())
    assert not wrong, wrong


def lit(leds, names):
    return [n for n in names if any(leds[n])]


def test_the_menu_starts_an_advanced_game_for_two_and_the_offer_is_tapped_in():
    p = Players(8, "advanced", (1, 1), console_start=False)
    try:
        assert p.console({"op": "public"})["error"] == "no_game"
        p.press("confirm", HOLD_MS)  # the menu opens on its first choice: simple, 1/1
        leds = p.ask({"op": "leds"})["leds"]
        assert lit(leds, SEAT_LEDS) == ["seat:green-0", "seat:blue-0"]
        assert lit(leds, MARKET_SPACES) == []
        p.press("confirm")  # the next choice: advanced, 1/1
        leds = p.ask({"op": "leds"})["leds"]
        assert lit(leds, SEAT_LEDS) == ["seat:green-0", "seat:blue-0"]
        assert lit(leds, MARKET_SPACES) == list(MARKET_SPACES)
        p.press("confirm", HOLD_MS)
        view = p.view()
        assert view["mode"] == "advanced" and view["seats"] == {"green": 1, "blue": 1}
        assert view["phase"] == "setup" and view["tap"] == "offer"
        assert view["active"] == "green"
        # the players' own game: the same start (green first) and the offer they lay out
        from shared_rules.avenue.state import new_game
        p.st = new_game(TB, True, (1, 1), 0, p.table.offer, len(p.table.market))
        for c in p.table.offer:
            p.tap(p.uid(TB.market_names[c]))
        wrong = same_game(p, p.view())
        assert not wrong, wrong
        p.play_to_end(agrees)
    finally:
        p.close()


def test_the_menu_steps_through_the_team_seatings_and_back_closes_it():
    p = Players(8, "simple", (2, 2), console_start=False)
    try:
        p.press("confirm", HOLD_MS)
        p.press("confirm")
        p.press("confirm")  # simple, 2/2
        leds = p.ask({"op": "leds"})["leds"]
        assert lit(leds, SEAT_LEDS) == list(SEAT_LEDS)
        p.press("back")  # closes the menu: no game
        leds = p.ask({"op": "leds"})["leds"]
        assert lit(leds, SEAT_LEDS) == []
        assert p.console({"op": "public"})["error"] == "no_game"
    finally:
        p.close()
