# The board in a browser: headless Chromium (Debian's, driven by Playwright) against the page
# of `agentboard sim`, with the real firmware on the simulated board behind it. Every hand
# action below is a click on the page; the checks compare the page with what the firmware's
# LEDs hold and with the simulated world, and look for hidden colours in the DOM and traffic.
import json
import os
import re
import time

import pytest

from host_tools.web import replay_view
from host_tools.web.server import serve
from host_tools.web.twin import Twin

CHROMIUM = "/usr/bin/chromium"
PIECE_NAME = re.compile(r"\b(red|blue|green|yellow)-[1-4]\b")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def site():
    from playwright.sync_api import sync_playwright
    assert os.path.exists(CHROMIUM), "Debian's chromium is missing: `make test` installs it"
    twin = Twin(seed=2)
    httpd = serve(twin, 0)
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        traffic = []
        errors = []
        page.on("response", lambda r: traffic.append((r.url, r)))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("g.loc")
        yield twin, page, traffic, errors
        browser.close()
    httpd.shutdown()
    twin.close()


def until(cond, what, seconds=8.0):
    end = time.time() + seconds
    while time.time() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def status(page):
    return page.get_attribute("#status", "data-phase")


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


def events(page):
    return page.evaluate("""() => [...document.querySelectorAll('#events li')].reverse()
        .map(li => li.textContent)""")


def wait_event(page, prefix, after):
    return until(lambda: [e for e in events(page)[after:] if e.startswith(prefix)],
                 "the board to say " + prefix)


def expects(page, loc):
    """The status line names loc among the locations to put right."""
    text = page.inner_text("#status")
    return "put right:" in text and loc in text.split("put right:")[1].split()


def carry_out(page, evs):
    """The effects the board announced, done by hand on the page, in order."""
    for text in evs:
        if not text.startswith("effect"):
            continue
        fields = dict(re.findall(r'(\w+) ("[^"]*"|true|false|-?\d+)', text))
        kind = json.loads(fields["kind"])
        if kind == "meeting":
            frm, to = json.loads(fields["from"]), json.loads(fields["to"])
            if frm != to:
                mode(page, "move")
                click(page, str(frm))
                page.uncheck("#upside-down")  # forgotten: the board wants it turned over
                click(page, str(to))
                until(lambda: expects(page, str(to)), "the board to ask for %s" % to)
                mode(page, "flip")
                click(page, str(to))
                mode(page, "move")
        elif kind == "knock_out":
            at, colour = json.loads(fields["at"]), json.loads(fields["colour"])
            if not page.query_selector_all("#held button"):
                click(page, str(at))
            spot = next("%s:s%d" % (colour, k) for k in range(1, 5)
                        if not page.get_attribute('g.loc[data-loc="%s:s%d"] .piece'
                                                  % (colour, k), "data-piece"))
            page.uncheck("#upside-down")
            click(page, spot)
        elif kind == "flip":
            at, down = str(json.loads(fields["at"])), fields["undercover"] == "true"
            shown = page.get_attribute('g.loc[data-loc="%s"] .piece' % at, "data-piece")
            if (shown == "undercover") != down:
                mode(page, "flip")
                click(page, at)
                mode(page, "move")


def finish_turn(page, twin, n, next_seat):
    """The move accepted, its effects carried out, the next seat to move; the page showing
    the firmware's LEDs and the pieces where they are."""
    wait_event(page, "move", n)
    time.sleep(0.3)
    carry_out(page, events(page)[n:])
    until(lambda: status(page) == "await_card" and
          page.get_attribute("#status", "data-to-move") == next_seat, next_seat + "'s turn")
    leds_match(page, twin)
    pieces_match(page, twin)


def test_a_game_played_with_clicks(site, tmp_path):
    twin, page, traffic, errors = site
    page.select_option("#players", "2")
    page.click("#new-game")
    until(lambda: status(page) == "setup", "the setup phase")
    leds_match(page, twin)
    for colour, start in (("red", "0"), ("green", "32")):  # one piece each onto its start
        click(page, colour + ":s1")
        click(page, start)
    until(lambda: status(page) == "await_card", "the first turn")
    leds_match(page, twin)
    pieces_match(page, twin)
    # a scripted scene (the rules core finds it: 8 lands on a meeting point, then a 1 from
    # the hole behind it knocks a piece out): stack the deck for it
    twin.stack("red", ["8"])
    twin.stack("green", ["1/11"])
    time.sleep(0.4)

    n = len(events(page))
    page.click('#hands .hand[data-seat="red"] button[data-card="8"]')
    until(lambda: status(page) == "await_move", "the card to be taken")
    leds_match(page, twin)  # the pieces that may move are lit
    # a wrong placement first: the board rejects it and shows where the piece came from
    click(page, "0")
    leds_match(page, twin)  # where the lifted piece may go
    click(page, "9")
    reject = wait_event(page, "reject", n)[0]
    # the board names where the piece went and where it came from
    assert json.loads(reject.split("locations ", 1)[1]) == ["0", "9"], reject
    assert any(twin.state()["leds"]["0"]), "the origin is not lit to put the piece back"
    leds_match(page, twin)
    click(page, "9")
    click(page, "8")
    finish_turn(page, twin, n, "green")
    kinds = [e.split(",")[0] for e in events(page)[n:]]
    assert "effect" in kinds and any('kind "meeting"' in e for e in events(page)[n:])

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

    n = len(events(page))
    page.click('#hands .hand[data-seat="green"] button[data-card="1/11"]')
    until(lambda: status(page) == "await_move", "green's card to be taken")
    click(page, "8")  # the victim off first
    click(page, "7")  # the mover, out of its hole
    page.uncheck("#upside-down")
    page.click("#held button:last-child")  # the mover, not the victim
    click(page, "8")
    finish_turn(page, twin, n, "red")
    assert any('kind "knock_out"' in e for e in events(page)[n:])
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
    rec = replay_view.load(record)
    assert page.get_attribute("#replay-turn", "max") == "2"
    for k in (1, 2, 0):
        page.fill("#replay-turn", str(k))
        page.dispatch_event("#replay-turn", "input")
        want = replay_view.board_at(rec, k)["pieces"]
        until(lambda: all(page.get_attribute('g.loc[data-loc="%s"] .piece' % loc, "data-piece")
                          == (want.get(loc) or "") for loc in twin.locations),
              "replay turn %d" % k)
    page.click("#replay-exit")


def test_sensor_panel_and_fault_injection(site):
    twin, page, traffic, errors = site
    page.fill("#fault-at", "10")
    page.select_option("#fault-kind", "dead_sensor")
    page.fill("#fault-ms", "3000")
    page.click("#inject")
    time.sleep(0.5)
    page.click("#refresh-sensors")
    until(lambda: len(page.query_selector_all("#sensors tbody tr")) == 96, "96 sensor rows")
    row = page.evaluate("""() => [...document.querySelectorAll('#sensors tbody tr')]
        .map(tr => [...tr.children].map(td => td.textContent)).find(r => r[0] === '10')""")
    assert int(row[1]) < 2000 and row[2] == "fault", row  # a disconnected sensor reads ~0 V
    assert not errors


def test_a_slide_registers_only_where_the_piece_lands(site):
    twin, page, traffic, errors = site
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
    until(lambda: expects(page, at) and expects(page, to), "the two places to put right")
    for passed in ((int(at) + 1) % 64, (int(at) + 2) % 64):
        assert not expects(page, str(passed))
    mode(page, "move")  # and back by hand
    click(page, to)
    click(page, at)
    until(lambda: status(page) == "await_card", "play to go on")
    pieces_match(page, twin)


def test_holding_back_passes_the_turn(site):
    twin, page, traffic, errors = site
    until(lambda: status(page) == "await_card", "a turn to begin")
    seat = page.get_attribute("#status", "data-to-move")
    n = len(events(page))
    page.click("#hold-back")  # held for 2.1 s: the gesture for "I cannot play"
    wait_event(page, "pass", n)
    assert 'seat "%s"' % seat in [e for e in events(page)[n:] if e.startswith("pass")][0]
    until(lambda: page.get_attribute("#status", "data-to-move") not in (seat, None),
          "the next seat")
    view = twin.state()["view"]
    assert len(twin.state()["hands"][seat]) == view["cards_left"][seat]
    leds_match(page, twin)


def test_bad_requests_get_a_reason_and_change_nothing(site):
    import urllib.request
    import urllib.error
    twin, page, traffic, errors = site
    base = page.url.rstrip("/")
    before = twin.state(referee=True)["truth"]

    def call(path, body=None, raw=None):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    assert call("/api/act", raw=b"{lift") == (400, {"ok": False, "error": "bad_request",
                                                    "reason": "the body is not JSON"})
    code, ans = call("/api/act", {"op": "teleport"})
    assert code == 400 and "unknown action 'teleport'" in ans["reason"]
    code, ans = call("/api/act", {"op": "lift"})
    assert code == 400 and ans["error"] == "bad_request"
    code, ans = call("/api/act", {"op": "lift", "at": "33"})  # nothing stands there
    assert code == 409 and not ans["ok"] and ans["reason"]
    code, ans = call("/api/act", {"op": "place", "id": "h999", "at": "33"})
    assert code == 400 and ans["reason"] == "no such piece in hand"
    code, ans = call("/api/act", {"op": "card", "id": "c999"})
    assert code == 400 and ans["reason"] == "no such card in a hand"
    code, ans = call("/api/replay", {"format": "something-else"})
    assert code == 400 and "not an agentboard game record" in ans["reason"]
    code, ans = call("/api/replay/99")
    assert code == 404 and ans["ok"] is False
    code, ans = call("/static/../server.py")
    assert code == 404
    assert call("/api/state?since=x")[0] == 400
    assert twin.state(referee=True)["truth"] == before
