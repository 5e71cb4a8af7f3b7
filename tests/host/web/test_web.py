# The board in a browser: headless Chromium (Debian's, driven by Playwright) against the page
# of `agentboard sim`, with the real firmware on the simulated board behind it. Every hand
# action below is a click on the page; the checks compare the page with what the firmware's
# LEDs hold and with the simulated world, read the guidance line and the hands against the
# board's public view (docs/board-protocols.md), and look for hidden colours in the DOM, the
# traffic and the order of the bytes the server sends.
import json
import os
import re
import socket
import threading
import time

import pytest

from host_tools.web import replay_view
from polls import until, answered
from host_tools.web.server import serve
from host_tools.games.track.twin import TrackTwin
from shared_rules import layout

PIECE_NAME = re.compile(r"\b(red|blue|green|yellow)-[1-4]\b")
VIEWPORT = {"width": 1280, "height": 720}  # the page must fit it without scrolling
PAST_THE_PASS_MS = 2600  # board time: longer than the pass gesture (back held 2 s)
CARD_GONE_MS = 700  # board time: a card off the reader and the board's reader turns past it
LAY = layout.load()


class Site:
    """A twin, its server and a page on it."""

    def __init__(self, browser, seed, request_seconds=5.0, **twin_kw):
        self.twin = TrackTwin(seed=seed, **twin_kw)
        self.httpd = serve(self.twin, 0, request_seconds=request_seconds)
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d/" % self.port
        self.page = browser.new_page(viewport=VIEWPORT)
        self.traffic = []
        self.errors = []
        self.page.on("response", lambda r: self.traffic.append((r.url, r)))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.url)
        self.page.wait_for_selector("g.loc")

    def close(self):
        self.page.close()
        self.httpd.shutdown()
        self.twin.close()


@pytest.fixture(scope="module")
def site(browser):
    s = Site(browser, 2)
    yield s.twin, s.page, s.traffic, s.errors
    s.close()


@pytest.fixture
def playing(site):
    """The module's page with a game in play: the one the tests before left, else a 2-player
    game begun on the page, so that each test also runs alone (pytest -k)."""
    twin, page, traffic, errors = site
    view = twin.state()["view"]
    if not view or view["phase"] == "game_over":
        start_two_player_game(page)
    return site


@pytest.fixture
def fresh(browser):
    """A new twin with no game, its own server and page."""
    made = []

    def make(seed=3, **kw):
        made.append(Site(browser, seed, **kw))
        return made[-1]
    yield make
    for s in made:
        s.close()


def status(page):
    return page.get_attribute("#status", "data-phase")


def guide(page):
    return page.inner_text("#guidance"), page.get_attribute("#guidance", "data-kind")


def says(page, text, kind="do", seconds=8.0):
    """The guidance line comes to say exactly this."""
    until(lambda: guide(page) == (text, kind),
          "the guidance line to say %r (%s); it says %r" % (text, kind, guide(page)), seconds)


def click(page, loc):
    page.click('g.loc[data-loc="%s"]' % loc)


def mode(page, m):
    page.check('input[name=mode][value="%s"]' % m)


def page_leds(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('circle.led')]
        .map(c => [c.dataset.led, c.dataset.rgb]))""")


def leds_match(page, twin):
    """The page shows the LEDs the firmware last wrote (they blink: wait for a match)."""
    def same():
        fw = dict((k, ",".join(str(x) for x in v)) for k, v in twin.state()["leds"].items())
        shown = page_leds(page)
        return all(shown.get(k, "0,0,0") == v for k, v in fw.items())
    until(same, "the page to show the firmware's LEDs")


def pieces_match(page, twin):
    """Every piece where the simulated world has it: upright ones in their colour, upside-down
    ones as undercover, empty locations empty."""
    def same():
        world = twin.state(referee=True)
        want = world["pieces"]
        shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('g.loc')]
            .filter(g => g.querySelector('.piece'))
            .map(g => [g.dataset.loc, g.querySelector('.piece').dataset.piece]))""")
        return all(shown.get(loc, "") == want.get(loc, "") for loc in shown)
    until(same, "the page to show the pieces where they are")


def page_hands(page):
    """seat -> [(card, state, enabled)] as the page shows them."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#hands .hand')]
        .map(d => [d.dataset.seat, [...d.querySelectorAll('button')]
        .map(b => [b.dataset.card, b.dataset.state, !b.disabled])]))""")


def board_ms(twin, ms, what):
    """Waits until the twin's board clock has run ms on (under load it runs behind the
    wall's: a wall-clock sleep could be too short)."""
    t0 = twin.clock_ms
    until(lambda: twin.clock_ms - t0 >= ms, what)


def card_gone(twin):
    """The tapped card off the reader, and the board's reader has seen it go."""
    until(lambda: twin.on_reader is None, "the card lifted off the reader")
    board_ms(twin, CARD_GONE_MS, "the board's reader to see the card gone")


def pumping(page):
    """A pause that lets Playwright run the page's event handlers and routes meanwhile (a
    plain sleep holds them, and a routed request with them)."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def hand_shown(page, twin, seat):
    """The page shows the very cards the seat holds (a stacked deck: other cards than the last
    poll showed)."""
    def ids():
        return sorted(page.evaluate("""seat => [...document.querySelectorAll(
            '#hands .hand[data-seat="' + seat + '"] button')].map(b => b.dataset.id)""", seat))
    until(lambda: ids() == sorted(str(c["id"]) for c in twin.state()["hands"][seat]),
          "the page to show %s's hand" % seat)


def hands_equal_the_board(page, twin):
    """Every seat's hand, in the API and on the page, holds what the board counts."""
    def same():
        s = twin.state()
        left = s["view"]["cards_left"]
        shown = page_hands(page)
        return sorted(s["hands"]) == sorted(left) and all(
            len(s["hands"][seat]) == n and len(shown.get(seat, [])) == n
            for seat, n in left.items())
    until(same, "the hands to hold what the board counts")


def events(page):
    return page.evaluate("""() => [...document.querySelectorAll('#events li')].reverse()
        .map(li => li.textContent)""")


def board_seq(twin):
    """The number of the board's last event so far (the page's server numbers them)."""
    with twin.lock:
        return twin.seq


def board_since(twin, seq):
    """The board's events numbered above seq, as the firmware wrote them."""
    with twin.lock:
        return [e for s, e in twin.events if s > seq]


def wait_event(twin, kind, after, seconds=8.0):
    return until(lambda: [e for e in board_since(twin, after) if e.get("event") == kind],
                 "the board to say " + kind, seconds)


def expects(twin, loc):
    """The board's view names loc among the locations to put right."""
    view = twin.state()["view"] or {}
    return loc in view.get("expected", [])


def lies(twin, loc, how):
    """The piece clicked down at loc lies there, upright or upside down, in the simulated world:
    the page acts one click after the other, so the next click may not count on it before."""
    def there():
        got = twin.state()["pieces"].get(loc)
        return got is not None and (got == "undercover") == (how == "undercover")
    until(there, "a piece %s at %s" % (how, loc))


def carry_out(page, twin, evs):
    """The effects the board announced, done by hand on the page, in order."""
    for f in evs:
        if f.get("event") != "effect":
            continue
        if f["kind"] == "meeting":
            if f["from"] != f["to"]:
                to = str(f["to"])
                mode(page, "move")
                click(page, str(f["from"]))
                page.uncheck("#upside-down")  # forgotten: the board wants it turned over
                click(page, to)
                lies(twin, to, "upright")
                until(lambda: expects(twin, to), "the board to ask for %s" % to)
                mode(page, "flip")
                click(page, to)
                lies(twin, to, "undercover")
                mode(page, "move")
        elif f["kind"] == "knock_out":
            colour = f["colour"]
            if not page.query_selector_all("#held button"):
                click(page, str(f["at"]))
            spot = next("%s:s%d" % (colour, k) for k in range(1, 5)
                        if not page.get_attribute('g.loc[data-loc="%s:s%d"] .piece'
                                                  % (colour, k), "data-piece"))
            page.uncheck("#upside-down")
            click(page, spot)
            lies(twin, spot, "upright")
        elif f["kind"] == "flip":
            at, down = str(f["at"]), f["undercover"]
            # the world, not the page (which may not have drawn the last action yet)
            if (twin.state()["pieces"].get(at) == "undercover") != down:
                mode(page, "flip")
                click(page, at)
                lies(twin, at, "undercover" if down else "upright")
                mode(page, "move")


def finish_turn(page, twin, n, next_seat):
    """The move accepted, its effects carried out, the next seat to move; the page showing
    the firmware's LEDs and the pieces where they are, and hands as the board counts them."""
    wait_event(twin, "move", n)
    # the effects come with the move: the page has them all once it lists what the board said
    until(lambda: page_events(page) == board_events(twin), "the page to list the move")
    carry_out(page, twin, board_since(twin, n))
    until(lambda: status(page) == "await_card" and
          page.get_attribute("#status", "data-to-move") == next_seat, next_seat + "'s turn")
    says(page, "%s: tap a card." % next_seat.capitalize())
    leds_match(page, twin)
    pieces_match(page, twin)
    hands_equal_the_board(page, twin)


def start_two_player_game(page):
    """A 2-player game begun on the page, red and green, one piece each onto its start."""
    page.select_option("#players", "2")
    page.click("#new-game")
    if page.is_visible("#confirm-new"):
        page.click("#new-yes")
    until(lambda: status(page) == "setup", "the setup phase")
    says(page, "Set up: move a red piece from its start area to 0; move a green piece from "
         "its start area to 32.")
    for colour, start in (("red", "0"), ("green", "32")):
        click(page, colour + ":s1")
        click(page, start)
    until(lambda: status(page) == "await_card", "the first turn: %s; %s; %s" % (
        guide(page), page.inner_text("#status"), page.inner_text("#message")))
    says(page, "Red: tap a card.")


def test_a_game_played_with_clicks(fresh, tmp_path):
    s = fresh(seed=2)  # a board with no game yet: its pieces in their start areas
    twin, page, traffic, errors = s.twin, s.page, s.traffic, s.errors
    start_two_player_game(page)
    leds_match(page, twin)
    pieces_match(page, twin)
    hands_equal_the_board(page, twin)
    # a scripted scene (the rules core finds it: 8 lands on a meeting point, then a 1 from
    # the hole behind it knocks a piece out): stack the deck for it
    twin.stack("red", ["8"])
    twin.stack("green", ["1/11"])
    hand_shown(page, twin, "red")
    hand_shown(page, twin, "green")

    n = board_seq(twin)
    page.click('#hands .hand[data-seat="red"] button[data-card="8"]')
    until(lambda: status(page) == "await_move", "the card to be taken")
    until(lambda: guide(page)[0].startswith("Red: move a piece with the 8"), "the move line")
    leds_match(page, twin)  # the pieces that may move are lit
    # a wrong placement first: the board rejects it and shows where the piece came from
    click(page, "0")
    leds_match(page, twin)  # where the lifted piece may go
    click(page, "9")
    reject = wait_event(twin, "reject", n)[0]
    # the board names where the piece went and where it came from, and the line says so
    assert reject["locations"] == ["0", "9"], reject
    says(page, "Refused: %s (blinking red: 0 and 9)." % reject["reason"], "refused")
    # and the list of what the board says has it in words
    until(lambda: "Refused: %s (at 0 and 9)." % reject["reason"] in events(page),
          "the refusal in words")
    assert any(twin.state()["leds"]["0"]), "the origin is not lit to put the piece back"
    leds_match(page, twin)
    click(page, "9")
    click(page, "8")
    wait_event(twin, "move", n)
    meeting = next(e for e in board_since(twin, n) if e.get("kind") == "meeting")
    says(page, "Move the piece on %s to %s, upside down (meeting point %s)." % (
        meeting["from"], meeting["to"], meeting["point"]))
    finish_turn(page, twin, n, "green")

    # the meeting left a piece undercover: nothing on the page names its colour ...
    undercover = [loc for loc, p in twin.state()["pieces"].items() if p == "undercover"]
    assert undercover, "the scene leaves an undercover piece"
    for loc in undercover:
        assert page.get_attribute('g.loc[data-loc="%s"] .piece' % loc, "class") == \
            "piece undercover"
    # ... and the referee view, switched on, does show it (so the check above can fail)
    page.check("#referee")
    assert page.is_visible("#referee-banner")
    truth = twin.state(referee=True)["truth"]
    until(lambda: all(page.get_attribute('g.loc[data-loc="%s"] .piece' % loc, "class")
                      == "piece undercover truth-" + truth[loc] for loc in undercover),
          "the referee view's colours")
    page.uncheck("#referee")
    until(lambda: page.get_attribute('g.loc[data-loc="%s"] .piece' % undercover[0], "class")
          == "piece undercover", "the colours to go again")
    traffic.clear()  # what the referee view fetched is not the default view's traffic

    n = board_seq(twin)
    page.click('#hands .hand[data-seat="green"] button[data-card="1/11"]')
    until(lambda: status(page) == "await_move", "green's card to be taken")
    click(page, "8")  # the victim off first
    click(page, "7")  # the mover, out of its hole
    page.uncheck("#upside-down")
    page.click("#held button:last-child")  # the mover, not the victim
    click(page, "8")
    wait_event(twin, "move", n)
    knock = next(e for e in board_since(twin, n) if e.get("kind") == "knock_out")
    says(page, "Take the knocked-out piece from %s to %s's start area." % (knock["at"],
                                                                          knock["colour"]))
    finish_turn(page, twin, n, "red")
    assert not errors

    html = page.content()
    assert not PIECE_NAME.search(html)
    bodies = [r.text() for url, r in traffic if "/api/" in url]
    assert bodies and not any(PIECE_NAME.search(b) or '"truth"' in b for b in bodies)

    # replay: the game's record, exported from the device, stepped through on the page
    record = twin.export()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.set_input_files("#record-file", str(path))
    until(lambda: page.is_visible("#replay-controls"), "the replay controls")
    assert page.is_visible("#replay-banner") and "REPLAY" in page.inner_text("#replay-banner")
    until(lambda: guide(page)[1] == "replay", "the line to say it is a replay")
    rec = replay_view.load(record, twin.board)
    assert page.get_attribute("#replay-turn", "max") == "2"
    for k in (1, 2, 0):
        page.fill("#replay-turn", str(k))
        page.dispatch_event("#replay-turn", "input")
        want = replay_view.board_at(rec, k)["pieces"]
        until(lambda: all(page.get_attribute('g.loc[data-loc="%s"] .piece' % loc, "data-piece")
                          == (want.get(loc) or "") for loc in twin.locations),
              "replay turn %d" % k)
        replayed_everywhere(page, rec, k)
    page.click("#replay-exit")
    until(lambda: not page.is_visible("#replay-banner"), "the replay banner to go")
    says(page, "Red: tap a card.")
    # live again, all of it: the status, the board's words, the hands, the tools
    assert not page.inner_text("#status").startswith("Replay")
    assert displayed(page, "#events") and not displayed(page, "#replay-events")
    hands_equal_the_board(page, twin)
    assert page.is_visible("#tools") and page.is_visible("#sensor-panel")


def displayed(page, selector):
    """Whether the page lays the element out (an empty list is shown, though of no size)."""
    return page.eval_on_selector(selector, "e => getComputedStyle(e).display !== 'none'")


def replayed_everywhere(page, rec, k):
    """Replay mode shows turn k of the record everywhere on the page (docs/board-protocols.md,
    section 5): the status bar, the guidance line and the list of what the board says are the
    turn's; nothing live stays (no hands, no pieces in hand, no lit LED, no tools)."""
    b = replay_view.board_at(rec, k)
    turn = [x["text"] for x in b["said"] if x["turn"] == k]
    until(lambda: page.inner_text("#status") == "Replay: Agent DOG, 2 players · after turn %d "
          "of 2" % k, "the status bar at turn %d: %s" % (k, page.inner_text("#status")))
    line = guide(page)
    assert line[1] == "replay" and line[0].startswith(
        "Turn %d of 2: %s" % (k, " ".join(turn)) if k else "The start of the game"), line
    shown = page.evaluate("""() => [...document.querySelectorAll('#replay-events li')]
        .reverse().map(li => li.textContent)""")
    assert shown == [x["text"] for x in b["said"]] and (shown or k == 0)
    assert displayed(page, "#replay-events") and not displayed(page, "#events")
    assert page_hands(page) == {} and "Replay" in page.inner_text("#hands")
    assert not page.query_selector_all("#held button")
    assert all(rgb == "0,0,0" for rgb in page_leds(page).values())
    assert not page.is_visible("#tools") and not page.is_visible("#sensor-panel")


def test_the_page_fits_1280x720_and_nothing_hides_a_number(site):
    twin, page, traffic, errors = site
    box = page.evaluate("""() => {
        const d = document.documentElement, a = document.querySelector('aside');
        const b = document.getElementById('board').getBoundingClientRect();
        return {sw: d.scrollWidth, sh: d.scrollHeight, aside: [a.scrollHeight, a.clientHeight],
                board: [b.left, b.top, b.right, b.bottom]}; }""")
    assert box["sw"] <= VIEWPORT["width"] and box["sh"] <= VIEWPORT["height"], box
    assert box["aside"][0] <= box["aside"][1], "the panels beside the board scroll: %r" % box
    left, top, right, bottom = box["board"]
    assert left >= 0 and top >= 0 and right <= VIEWPORT["width"] and \
        bottom <= VIEWPORT["height"], box
    assert right - left >= 560, "the board is drawn too small: %r" % box
    # every track number is drawn, and none under a space, a spot, a seat or another label
    clashes = page.evaluate("""() => {
        const r = e => e.getBoundingClientRect();
        const boxes = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const disc = (c, b) => {  // an LED's circle against a label's box
            const cx = (c.left + c.right) / 2, cy = (c.top + c.bottom) / 2, rad = (c.right - c.left) / 2;
            const x = Math.max(b.left, Math.min(cx, b.right)), y = Math.max(b.top, Math.min(cy, b.bottom));
            return (x - cx) ** 2 + (y - cy) ** 2 < rad ** 2; };
        const labels = [...document.querySelectorAll('.track-number, .seat-label')];
        const out = [];
        for (const t of labels) {
            for (const led of document.querySelectorAll('g.loc .led'))
                if (disc(r(led), r(t))) out.push([t.textContent, led.dataset.led]);
            for (const o of labels)
                if (o !== t && boxes(r(t), r(o))) out.push([t.textContent, o.textContent]);
        }
        return [document.querySelectorAll('.track-number').length, out]; }""")
    assert clashes[0] == LAY.n and clashes[1] == [], clashes


def sensor_row(page, sensor, cls):
    """The sensor panel read afresh: the row of the sensor if the firmware classes it cls (the
    panel reads once per click; an injected fault is in the world once the page's request for
    it is answered, and in the firmware's classes a scan later), else None."""
    page.click("#refresh-sensors")
    row = page.evaluate("""sensor => [...document.querySelectorAll('#sensors tbody tr')]
        .map(tr => [...tr.children].map(td => td.textContent)).find(r => r[0] === sensor)""",
                        sensor)
    return row if row and row[2] == cls else None


def test_sensor_panel_and_fault_injection(playing):
    twin, page, traffic, errors = playing
    page.click("#sensor-panel summary")
    page.fill("#fault-at", "10")
    page.select_option("#fault-kind", "dead_sensor")
    page.fill("#fault-ms", "3000")
    page.click("#inject")
    row = until(lambda: sensor_row(page, "10", "fault"), "the sensor panel to read 10 dead")
    assert len(page.query_selector_all("#sensors tbody tr")) == 96
    assert int(row[1]) < 2000, row  # a disconnected sensor reads ~0 V
    # outside a move the board must equal the game: the line names the faulty sensor
    until(lambda: "the sensor under 10 reads nonsense" in guide(page)[0], "the fault said")
    page.select_option("#fault-kind", "clear")
    page.click("#inject")
    assert page.inner_text("#message") == ""
    until(lambda: status(page) == "await_card", "play to go on once the sensor reads again")
    page.click("#sensor-panel summary")
    assert not errors


def test_a_slide_registers_only_where_the_piece_lands(playing):
    twin, page, traffic, errors = playing
    until(lambda: status(page) == "await_card", "a turn to begin: " + page.inner_text("#status"), 12)
    at = next(loc for loc, p in sorted(twin.state()["pieces"].items())
              if loc.isdigit() and p != "undercover")
    to = str((int(at) + 3) % 64)
    assert to not in twin.state()["pieces"]
    mode(page, "slide")
    click(page, at)
    click(page, to)
    until(lambda: status(page) == "mismatch", "the board to see the piece out of place")
    # the spaces passed over never registered: only where it left and where it landed
    until(lambda: expects(twin, at) and expects(twin, to), "the two places to put right")
    for passed in ((int(at) + 1) % 64, (int(at) + 2) % 64):
        assert not expects(twin, str(passed))
    says(page, "The board differs from the game: move the piece on %s to %s." % (to, at))
    mode(page, "move")  # and back by hand
    click(page, to)
    click(page, at)
    until(lambda: status(page) == "await_card", "play to go on")
    pieces_match(page, twin)


def test_holding_back_passes_the_turn(playing):
    twin, page, traffic, errors = playing
    until(lambda: status(page) == "await_card", "a turn to begin")
    seat = page.get_attribute("#status", "data-to-move")
    n = board_seq(twin)
    page.click("#hold-back")  # held for 2.1 s: the gesture for "I cannot play"
    assert wait_event(twin, "pass", n)[0]["seat"] == seat
    until(lambda: "%s passes: no card to play." % seat.capitalize() in events(page),
          "the pass in words")
    until(lambda: page.get_attribute("#status", "data-to-move") not in (seat, None),
          "the next seat")
    hands_equal_the_board(page, twin)
    leds_match(page, twin)


def test_new_game_asks_before_ending_the_game(playing):
    twin, page, traffic, errors = playing
    before = twin.state()
    assert before["view"] and before["view"]["phase"] != "game_over"
    page.click("#new-game")
    assert page.is_visible("#confirm-new")
    assert "ends" in page.inner_text("#confirm-new")
    page.click("#new-no")
    assert not page.is_visible("#confirm-new")
    answered(twin, "state", 2, "two polls of the page after its answer")
    after = twin.state()
    assert after["view"]["phase"] == before["view"]["phase"] != "setup"
    assert after["hands"] == before["hands"]


def test_hands_follow_the_board(fresh):
    s = fresh(seed=4)
    twin, page = s.twin, s.page
    start_two_player_game(page)
    hands_equal_the_board(page, twin)
    # red to move: green's cards cannot be played, on the page or through the API
    shown = page_hands(page)
    assert all(enabled for _, _, enabled in shown["red"])
    assert not any(enabled for _, _, enabled in shown["green"])
    ans = twin.act({"op": "card", "id": twin.state()["hands"]["green"][0]["id"]})
    assert ans == {"ok": False, "error": "refused",
                   "reason": "it is red's turn: only red plays a card now"}

    # a card the board refuses (nothing to copy yet): the line says why, the card stays
    twin.stack("red", ["copy", "2"])
    hand_shown(page, twin, "red")
    n = board_seq(twin)
    page.click('#hands .hand[data-seat="red"] button[data-card="copy"]')
    reject = wait_event(twin, "reject", n)[0]
    says(page, "Refused: %s. Red: tap another card (or hold back 2 s to pass)."
         % reject["reason"], "refused")
    assert [c for c, _, _ in page_hands(page)["red"]].count("copy") >= 1
    card_gone(twin)

    # the 2: in play; a second tap refused and the 2 still in the hand
    red = twin.state()["hands"]["red"]
    two = next(c["id"] for c in red if c["card"] == "2")
    page.click('#hands .hand[data-seat="red"] button[data-id="%s"]' % two)
    until(lambda: status(page) == "await_move", "the 2 to be taken")
    until(lambda: page.get_attribute('button[data-id="%s"]' % two, "data-state") == "in_play",
          "the 2 shown in play")
    assert not any(enabled for _, _, enabled in page_hands(page)["red"])
    other = next(c["id"] for c in red if c["id"] != two)
    ans = twin.act({"op": "card", "id": other})
    assert ans["ok"] is False and ans["reason"].startswith("the 2 is in play")
    hands_equal_the_board(page, twin)
    # back (short) takes the card back: in the hand again
    page.click("#back")
    until(lambda: status(page) == "await_card", "the card to be taken back")
    until(lambda: page.get_attribute('button[data-id="%s"]' % two, "data-state") == "hand",
          "the 2 back in the hand")
    card_gone(twin)

    # played: 0 -> 2, then undone: the very same card comes back
    red_before = [c["id"] for c in twin.state()["hands"]["red"]]
    n = board_seq(twin)
    page.click('#hands .hand[data-seat="red"] button[data-id="%s"]' % two)
    until(lambda: status(page) == "await_move", "the 2 to be taken again")
    click(page, "0")
    click(page, "2")
    finish_turn(page, twin, n, "green")
    assert two not in [c["id"] for c in twin.state()["hands"]["red"]]
    n = board_seq(twin)
    page.click("#hold-confirm")  # held 2.1 s during a game: undo
    wait_event(twin, "undo", n)
    says(page, "Undone: put the pieces back: move the piece on 2 to 0.")
    until(lambda: [c["id"] for c in twin.state()["hands"]["red"]] == red_before,
          "the 2 back in red's hand")
    hands_equal_the_board(page, twin)
    click(page, "2")
    click(page, "0")
    says(page, "Red: tap a card.")

    # a few turns: the hands hold what the board counts after each
    for seat, start in (("red", 0), ("green", 32)):
        twin.stack(seat, ["2"])
        hand_shown(page, twin, seat)
        n = board_seq(twin)
        page.click('#hands .hand[data-seat="%s"] button[data-card="2"]' % seat)
        until(lambda: status(page) == "await_move", seat + "'s 2 to be taken")
        click(page, str(start))
        click(page, str(start + 2))
        finish_turn(page, twin, n, "green" if seat == "red" else "red")
    n = board_seq(twin)
    page.click("#hold-back")  # red passes: with 2 players one card is discarded
    wait_event(twin, "pass", n)
    hands_equal_the_board(page, twin)
    assert twin.state()["view"]["cards_left"] == {"red": 3, "green": 4}
    assert not s.errors


def test_a_game_begun_from_the_board_menu_deals_and_a_stopped_board_says_so(fresh):
    s = fresh(seed=5)
    twin, page = s.twin, s.page
    says(page, "No game: press \"new game\" (or hold confirm on the board for its menu).", "idle")
    page.click("#hold-confirm")  # no game: the new-game menu (4 players first)
    says(page, "New-game menu: 4 players (blue, green, red, yellow). Press confirm for another "
         "number, hold confirm to start, press back to close.", "idle")
    # the hold ends (2.1 s of board time, which runs slower than the wall's on a busy
    # machine) ...
    until(lambda: twin.clock_ms >= twin.pressed["confirm"], "confirm to be let go")
    page.click("#confirm")  # ... then a press: 4 -> 2 players
    until(lambda: guide(page)[0].startswith("New-game menu: 2 players"), "the menu at 2")
    page.click("#hold-confirm")
    until(lambda: status(page) == "setup", "the game begun from the menu")
    hands_equal_the_board(page, twin)
    assert sorted(twin.state()["hands"]) == sorted(twin.state()["view"]["cards_left"])
    assert all(len(h) == 5 for h in twin.state()["hands"].values())  # five cards each
    dealt = twin.state()["hands"]

    # "new game" during a game asks; "start it" deals anew
    page.select_option("#players", "3")
    page.click("#new-game")
    page.click("#new-yes")
    until(lambda: len(twin.state()["hands"]) == 3, "a 3-player game")
    hands_equal_the_board(page, twin)
    assert twin.state()["hands"] != dealt

    # the device stops: a banner says so and how to start it again
    twin.sim.request({"op": "power_cut"})
    until(lambda: page.is_visible("#stopped-banner"), "the stopped banner")
    assert "STOPPED: its power was cut" in page.inner_text("#stopped-banner")
    assert guide(page)[1] == "stopped" and "power on" in guide(page)[0]
    ans = twin.act({"op": "card", "id": twin.state()["hands"]["red"][0]["id"]})
    assert ans["ok"] is False and ans["error"] == "device_off"
    page.click("#power-on")
    until(lambda: not page.is_visible("#stopped-banner"), "the banner to go")
    # the game resumes from flash (a setup not yet done shows as pieces to put right)
    until(lambda: any(e.startswith("The board found its game on the flash")
                      for e in events(page)), "the game resumed")
    until(lambda: status(page) in ("setup", "mismatch"), "the game resumed from flash")
    until(lambda: guide(page)[1] == "do" and "from its start area to 0" in guide(page)[0],
          "the line to say what to set up")
    assert not s.errors


# -- hostile requests ------------------------------------------------------------------------
def http(port, head, body=b"", seconds=5.0, pause=0.0):
    """A raw request (the head without its blank line): (status, JSON answer)."""
    conn = socket.create_connection(("127.0.0.1", port))
    conn.settimeout(seconds)
    conn.sendall(head + b"\r\n\r\n" + body)
    data = b""
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        conn.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(rest)


def post(port, path, body, ctype=b"application/json", extra=b""):
    head = b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: %s\r\n" \
        b"Content-Length: %d%s" % (path, port, ctype, len(body), extra)
    return http(port, head, body)


def get(port, path, extra=b""):
    return http(port, b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d%s" % (path, port, extra))


def snapshot(port, twin):
    """Everything a player or the referee could read, as raw bytes, and the physical world."""
    out = []
    for path in (b"/api/state", b"/api/state?referee=1"):
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (path, port))
        data = b""
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        conn.close()
        out.append(data.partition(b"\r\n\r\n")[2])
    out.append(json.dumps(twin.sim.request({"op": "world"}), sort_keys=True).encode())
    return out


def act(port, req):
    return post(port, b"/api/act", json.dumps(req).encode())


def test_hostile_requests_get_one_clear_reason_and_change_nothing(fresh, capfd):
    s = fresh(seed=6, request_seconds=0.5)
    twin, page, port = s.twin, s.page, s.port
    start_two_player_game(page)
    green_card = twin.state()["hands"]["green"][0]["id"]
    page.close()  # only raw requests from here
    twin.pause()
    code, lifted = act(port, {"op": "lift", "at": "green:s2"})
    assert code == 200
    before = snapshot(port, twin)
    H = b"Host: 127.0.0.1:%d\r\n" % port
    cases = [
        ("a deeply nested body", lambda: post(port, b"/api/act", b"[" * 100000), 400),
        ("a body that is not JSON", lambda: post(port, b"/api/act", b"{lift"), 400),
        ("NaN", lambda: post(port, b"/api/act", b'{"op": "press", "ms": NaN}'), 400),
        ("invalid UTF-8", lambda: post(port, b"/api/act", b'{"op": "\xff"}'), 400),
        ("a huge body", lambda: post(port, b"/api/act", b" " * (2 << 20)), 413),
        ("Content-Length -1", lambda: http(port, b"POST /api/act HTTP/1.1\r\n" + H +
                                           b"Content-Type: application/json\r\n"
                                           b"Content-Length: -1"), 400),
        ("Content-Length abc", lambda: http(port, b"POST /api/act HTTP/1.1\r\n" + H +
                                            b"Content-Type: application/json\r\n"
                                            b"Content-Length: abc"), 400),
        ("no Content-Length", lambda: http(port, b"POST /api/act HTTP/1.1\r\n" + H +
                                           b"Content-Type: application/json"), 411),
        ("an empty body", lambda: post(port, b"/api/act", b""), 400),
        ("a body that never comes", lambda: http(port, b"POST /api/act HTTP/1.1\r\n" + H +
                                                 b"Content-Type: application/json\r\n"
                                                 b"Content-Length: 100", b'{"op"'), 408),
        ("text/plain", lambda: post(port, b"/api/act", b'{"op": "power_on"}', b"text/plain"),
         415),
        ("a form", lambda: post(port, b"/api/act", b"op=power_on",
                                b"application/x-www-form-urlencoded"), 415),
        ("an unknown path", lambda: get(port, b"/api/nothing"), 404),
        ("an unknown POST path", lambda: post(port, b"/api/nothing", b"{}"), 404),
        ("../ out of static", lambda: get(port, b"/static/../server.py"), 404),
        ("%2e%2e out of static", lambda: get(port, b"/static/%2e%2e/twin.py"), 404),
        ("an absolute static path", lambda: get(port, b"/static//etc/passwd"), 404),
        ("a NUL in a file name", lambda: get(port, b"/static/app.js%00"), 404),
        ("GET on an action", lambda: get(port, b"/api/act"), 405),
        ("PUT on the state", lambda: http(port, b"PUT /api/state HTTP/1.1\r\n" + H[:-2]),
         405),
        ("a made-up method", lambda: http(port, b"BREW /api/state HTTP/1.1\r\n" + H[:-2]), 405),
        ("a broken request line", lambda: http(port, b"nonsense"), 400),
        ("since=-1", lambda: get(port, b"/api/state?since=-1"), 400),
        ("referee=2", lambda: get(port, b"/api/state?referee=2"), 400),
        ("an unknown parameter", lambda: get(port, b"/api/state?peek=1"), 400),
        ("another Host", lambda: http(port, b"GET /api/state?referee=1 HTTP/1.1\r\n"
                                            b"Host: evil.example:%d" % port), 403),
        ("another site's page", lambda: post(port, b"/api/act", b'{"op": "power_on"}',
                                             extra=b"\r\nOrigin: http://evil.example"), 403),
        ("press with ms \"x\"", lambda: act(port, {"op": "press", "button": "back", "ms": "x"}),
         400),
        ("press with ms -5", lambda: act(port, {"op": "press", "button": "back", "ms": -5}),
         400),
        ("a fault with ms -5", lambda: act(port, {"op": "fault", "kind": "noise", "at": "3",
                                                  "ms": -5}), 400),
        ("a made-up button", lambda: act(port, {"op": "press", "button": "home"}), 400),
        ("a made-up field", lambda: act(port, {"op": "lift", "at": "0", "hand": "left"}), 400),
        ("a made-up action", lambda: act(port, {"op": "_restore"}), 400),
        ("a location off the board", lambda: act(port, {"op": "lift", "at": "99"}), 400),
        ("a place onto a piece", lambda: act(port, {"op": "place", "id": lifted["id"],
                                                   "at": "0"}), 409),
        ("a lift from nothing", lambda: act(port, {"op": "lift", "at": "33"}), 409),
        ("a piece not in hand", lambda: act(port, {"op": "place", "id": "h99", "at": "33"}), 400),
        ("green's card on red's turn", lambda: act(port, {"op": "card", "id": green_card}), 409),
        ("a card no one holds", lambda: act(port, {"op": "card", "id": "c999"}), 400),
        ("players \"4\"", lambda: act(port, {"op": "new_game", "players": "4"}), 400),
        ("7 players", lambda: act(port, {"op": "new_game", "players": 7}), 400),
        ("power on a running board", lambda: act(port, {"op": "power_on"}), 409),
        ("a record with players \"4\"", lambda: post(port, b"/api/replay", json.dumps(
            {"format": "agentboard-record/1", "players": "4", "seats": ["red"],
             "dealer": "red", "turns": []}).encode()), 400),
        ("a record turn without a seat", lambda: post(port, b"/api/replay", json.dumps(
            {"format": "agentboard-record/1", "players": 2, "seats": ["red", "green"],
             "dealer": "red", "turns": [{"card": "2"}]}).encode()), 400),
        ("a record with 7 players", lambda: post(port, b"/api/replay", json.dumps(
            {"format": "agentboard-record/1", "players": 7, "seats": ["red"] * 7,
             "dealer": "red", "turns": []}).encode()), 400),
        ("a turn of no record", lambda: get(port, b"/api/replay/3"), 404),
    ]
    for what, send, want in cases:
        code, ans = send()
        assert code == want, (what, code, ans)
        assert sorted(ans) == ["error", "ok", "reason"] and ans["ok"] is False, (what, ans)
        assert ans["reason"] and "\n" not in ans["reason"] and "Traceback" not in ans["reason"]
        assert not PIECE_NAME.search(ans["reason"]), (what, ans)
        assert snapshot(port, twin) == before, "%s changed what the page reads" % what
    # still serving, and the refused press really pressed nothing: time runs, no one passes
    assert act(port, {"op": "place", "id": lifted["id"], "at": "green:s2"})[0] == 200
    twin.go()
    seat = twin.state()["view"]["to_move"]
    for ms in ("x", -5, 0, 2000.5):
        assert act(port, {"op": "press", "button": "back", "ms": ms})[0] == 400
    board_ms(twin, PAST_THE_PASS_MS, "board time past the pass gesture")
    st = twin.state()
    assert st["view"]["to_move"] == seat and st["view"]["phase"] == "await_card"
    assert not [e for e in st["events"] if e["event"]["event"] == "pass"]
    assert "Traceback" not in capfd.readouterr().err


def test_state_bytes_do_not_follow_hidden_colours(fresh):
    """Two undercover pieces swapped: the default view's bytes stay the same (the referee
    view's change, so the arrangement did change)."""
    s = fresh(seed=7)
    twin, port = s.twin, s.port
    s.page.close()
    twin.pause()

    def lift(at):
        code, ans = act(port, {"op": "lift", "at": at})
        assert code == 200, ans
        return ans["id"]

    def put(handle, at):
        assert act(port, {"op": "place", "id": handle, "at": at, "upside_down": True})[0] == 200

    put(lift("red:s1"), "4")
    put(lift("green:s1"), "39")
    a = snapshot(port, twin)
    red, green = lift("4"), lift("39")
    put(red, "39")
    put(green, "4")
    b = snapshot(port, twin)
    assert a[0] == b[0], "the default view's bytes follow the hidden colours"
    assert a[1] != b[1] and a[2] != b[2], "the pieces were not swapped"
    assert b'"4":"undercover"' in b[0] and b'"39":"undercover"' in b[0]
    # a piece lifted upside down is "undercover" in hand too
    held = lift("4")
    st = json.loads(snapshot(port, twin)[0])
    assert st["held"] == [{"id": held, "piece": "undercover"}]


# -- the board's events, on a loaded machine ---------------------------------------------------
def page_events(page):
    """(seq, kind) of every entry of the page's event list, oldest first."""
    return page.evaluate("""() => [...document.querySelectorAll('#events li')].reverse()
        .map(li => [Number(li.dataset.seq), li.dataset.event])""")


def board_events(twin):
    """(seq, kind) of every event the board said (the twin numbers them from 1)."""
    with twin.lock:
        return [[n, e["event"]] for n, e in twin.events]


def kinds(events):
    return [k for _, k in events]


def slow_answers(twin, seconds):
    """A loaded machine: every answer of /api/state takes `seconds` longer than the poll
    interval. Returns a counter whose "most" says how many answers were under way at once."""
    plain = twin.state
    count = {"now": 0, "most": 0}
    lock = threading.Lock()

    def state(**kw):
        with lock:
            count["now"] += 1
            count["most"] = max(count["most"], count["now"])
        try:
            time.sleep(seconds)
            return plain(**kw)
        finally:
            with lock:
                count["now"] -= 1
    twin.state = state
    return count


def test_a_click_does_what_was_chosen_when_it_was_made(fresh):
    """The page carries out clicks one after the other. A click that waits its turn does what
    the mode and the upside-down box said at the click, not what they say when it is carried
    out (a person sets them for the next click while the last one is on its way)."""
    s = fresh(seed=6)
    twin, page = s.twin, s.page
    start_two_player_game(page)
    # the page is still busy with an earlier action for a while
    page.evaluate("() => { busy = busy.then(() => new Promise(r => setTimeout(r, 600))); }")
    mode(page, "move")
    click(page, "0")  # lift red's piece ...
    mode(page, "flip")  # ... and choose to flip for the next click
    until(lambda: twin.state()["held"], "the piece on 0 to be lifted")
    assert twin.state()["pieces"].get("0") is None, "the click flipped the piece on 0"
    page.evaluate("() => { busy = busy.then(() => new Promise(r => setTimeout(r, 600))); }")
    page.check("#upside-down")
    mode(page, "move")
    click(page, "0")  # put it back down upside down ...
    page.uncheck("#upside-down")  # ... and take the box off for the next one
    lies(twin, "0", "undercover")
    assert not s.errors


def test_slow_answers_show_each_event_once(fresh):
    """Polls that take longer than the page's interval of 200 ms: the page asks once at a time
    and lists every event the board said once, in its order."""
    s = fresh(seed=6)
    twin, page = s.twin, s.page
    until(lambda: kinds(page_events(page)) == kinds(board_events(twin)) == ["boot"],
          "the boot event")
    count = slow_answers(twin, 0.7)
    page.select_option("#players", "2")
    page.click("#new-game")  # a game: new_game, asked for between polls
    until(lambda: status(page) == "setup", "the setup phase", 15)
    for colour, start in (("red", "0"), ("green", "32")):  # by hands the page does not see
        held = twin.act({"op": "lift", "at": colour + ":s1"})["id"]
        assert twin.act({"op": "place", "id": held, "at": start})["ok"]
    until(lambda: status(page) == "await_card", "the first turn", 20)
    # answers asked for before the last one came have all come
    answered(twin, "state", 2, "two more slow answers")
    shown, said = page_events(page), board_events(twin)
    assert kinds(shown) == kinds(said), "the list repeats or misses events"
    assert shown == said
    assert "new_game" in kinds(said)
    assert count["most"] == 1, "%d answers of /api/state were under way at once" % count["most"]
    assert not s.errors


def test_events_at_or_below_the_last_shown_are_not_listed_again(fresh):
    """A server that answers every poll with every event (as though `since` were 0): the page
    lists each event once all the same."""
    s = fresh(seed=6)
    twin, page = s.twin, s.page
    page.route(re.compile(r".*/api/state\?.*"), lambda route: route.continue_(
        url=re.sub(r"since=\d+", "since=0", route.request.url)))
    page.select_option("#players", "2")
    page.click("#new-game")
    until(lambda: status(page) == "setup", "the setup phase")
    answered(twin, "state", 5, "five more polls, each answered with every event",
             sleep=pumping(page))
    said = board_events(twin)
    assert "new_game" in kinds(said)
    assert kinds(page_events(page)) == kinds(said), "the list repeats events"
    assert page_events(page) == said
    assert not s.errors


def test_the_state_answer_holds_the_events_after_since(fresh):
    """GET /api/state?since=N: the events numbered above N, in order, each with its number;
    since at the last number or beyond: none; a since that is not a whole number from 0 to
    10^12: 400, nothing changed."""
    s = fresh(seed=6)
    twin, port = s.twin, s.port
    s.page.close()
    assert twin.act({"op": "new_game", "players": 2})["ok"]
    twin.pause()
    said = board_events(twin)
    assert len(said) >= 2 and [n for n, _ in said] == list(range(1, len(said) + 1))
    for since in range(len(said) + 2):
        code, ans = get(port, b"/api/state?since=%d" % since)
        assert code == 200
        got = [[e["seq"], e["event"]["event"]] for e in ans["events"]]
        assert got == [e for e in said if e[0] > since], since
    for bad in (b"-1", b"1.5", b"x", b"", b"%d" % (10 ** 12 + 1)):
        code, ans = get(port, b"/api/state?since=" + bad)
        assert code == 400 and ans["error"] == "bad_request", bad
    assert board_events(twin) == said


# -- the new-game menu ---------------------------------------------------------------------------
def menu(page, select):
    """(the chosen value, [(value, label, under a heading or None)]) of a menu."""
    return page.evaluate("""(sel) => { const s = document.querySelector(sel);
        return [s.value, [...s.options].map(o => [o.value, o.textContent,
            o.parentNode.tagName === 'OPTGROUP' ? o.parentNode.label : null])]; }""", select)


def test_a_page_started_for_dog_royal_offers_dog_royal(fresh):
    """`agentboard sim --game dog-royal` draws the 4-seat DOG board, which plays DOG and DOG
    Royal with the same cards (docs/board-protocols.md: new_game's game). The menu offers
    DOG Royal first and chosen; DOG only under a heading saying it is another game of the
    board; "new game" begins DOG Royal; a game begun otherwise shows in the menu."""
    s = fresh(seed=8, board="dog-4", game="dog-royal")
    twin, page = s.twin, s.page
    chosen, options = menu(page, "#game")
    assert chosen == "dog-royal"
    assert options[0] == ["dog-royal", "DOG Royal", None]
    assert options[1:] == [["dog", "DOG", "other games this board plays"]]
    assert page.is_visible("#game")
    assert menu(page, "#players")[0] == "4"
    page.click("#new-game")  # no game: begun at once
    until(lambda: status(page) == "setup", "the setup phase")
    assert twin.state()["view"]["game"] == "dog-royal"
    assert page.get_attribute("#status", "data-game") == "dog-royal"
    assert page.inner_text("#status").startswith("DOG Royal, 4 players · setting up")
    # a DOG game begun through the API: the menu shows it, then keeps the user's choice
    assert twin.act({"op": "new_game", "game": "dog", "players": 3})["ok"]
    until(lambda: menu(page, "#game")[0] == "dog", "the menu to show DOG")
    until(lambda: menu(page, "#players")[0] == "3", "the menu to show 3 players")
    page.select_option("#game", "dog-royal")
    page.select_option("#players", "2")
    answered(twin, "state", 5, "five polls after the choice")
    assert (menu(page, "#game")[0], menu(page, "#players")[0]) == ("dog-royal", "2")
    # the twin's own default is the page's game as well
    assert twin.act({"op": "new_game", "players": 2})["ok"]
    assert twin.state()["view"]["game"] == "dog-royal"
    assert not s.errors
