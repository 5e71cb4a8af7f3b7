# The Agent Avenue board in a browser: headless Chromium (Debian's, driven by Playwright) against
# the page `agentboard sim --game agent-avenue` serves, the real firmware (firmware/games/avenue) on the
# simulated board behind it. Expectations come from the board's data (14 spaces, homes 0 and 7,
# black-market spaces 2 5 9 12: shared_rules/data/agent-avenue-board.json; pawns, readers and
# LEDs: hardware/variants/agent-avenue), from docs/agent-avenue-board.md (events, public view)
# and from the firmware's own answers read over the simulator's control channel, never from
# what the page's server returns.
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from host_tools.games.avenue.twin import AvenueTwin
from host_tools.web.server import serve
from shared_rules.avenue import move as M
from shared_rules.avenue import position, randgame, tables
from shared_rules.avenue.state import MARKET
from shared_rules.avenue.tables import NONE
from shared_rules.rng import Rng
from test_web import board_events, kinds, page_events, slow_answers, sensor_row
from polls import until, answered
from conftest import ROOT

VIEWPORT = {"width": 1280, "height": 720}
TB = tables.load()
with open(os.path.join(ROOT, "shared_rules", "data", "agent-avenue-board.json")) as f:
    BOARD = json.load(f)
with open(os.path.join(ROOT, "hardware", "variants", "agent-avenue", "leds.json")) as f:
    LEDS = json.load(f)["leds"]
SPEED = 4            # board time runs 4 times the wall clock in these tests
TICK = 50 * SPEED    # board ms per tick of the twin
READ_TICKS = 3       # a card on a pad is read within two turns of its reader (160 ms)
OFF_TICKS = 5        # a card lifted is noticed after two empty polls (160 ms at the most)
TAP_TICKS = 4        # a tap rests 600 ms on its pad, then is lifted
MOVE_TICKS = 3       # a pawn put down: two stable scans, a still one at the most (600 ms)


class Site:
    """A twin of the Agent Avenue board, its server and a page on it."""

    def __init__(self, browser, seed, paused=False):
        self.twin = AvenueTwin(seed=seed, speed=SPEED, paused=paused)
        self.httpd = serve(self.twin, 0)
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d/" % self.port
        self.page = None
        self.errors = []
        if browser is not None:
            self.open(browser)

    def open(self, browser):
        """A page on the server (another one: the one before is closed)."""
        if self.page is not None:
            self.page.close()
        self.page = browser.new_page(viewport=VIEWPORT)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.url)
        self.page.wait_for_selector("g.space")
        return self.page

    def close(self):
        if self.page is not None:
            self.page.close()
        self.httpd.shutdown()
        self.twin.close()


@pytest.fixture
def site(browser):
    made = []

    def make(seed=3, with_page=True, paused=False):
        made.append(Site(browser if with_page else None, seed, paused))
        return made[-1]
    yield make
    for s in made:
        s.close()


def fetch(port, path, body=None):
    """(status, raw bytes) of one request to the page's server, as the page makes it."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def act(port, req):
    code, data = fetch(port, "/api/act", req)
    return code, json.loads(data)


def firmware(twin, op="public"):
    """The firmware's answer to a console command, asked now over the control channel."""
    with twin.lock:
        return twin._send({"op": op})


def world(twin):
    with twin.lock:
        return twin.sim.request({"op": "world"})["pieces"]


def fw_leds(twin):
    with twin.lock:
        return twin.sim.request({"op": "leds"})["leds"]


def raw_sensors(twin):
    with twin.lock:
        s = twin.sim.request({"op": "sensors"})
    return dict(zip(s["locations"], s["raw"]))


# -- what the page shows -------------------------------------------------------------------------
def page_pawns(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('g.space')]
        .filter(g => g.querySelector('.pawn').dataset.pawn)
        .map(g => [g.dataset.loc, g.querySelector('.pawn').dataset.pawn]))""")


def page_leds(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('circle.led')]
        .map(c => [c.dataset.led, c.dataset.rgb]))""")


def pawns_where_the_world_has_them(page, twin):
    def same():
        want = dict((p["at"], name.split("-")[0]) for name, p in world(twin).items()
                    if p["at"] is not None)
        return page_pawns(page) == want
    until(same, "the page to show the pawns where the simulated world has them")


def leds_match(page, twin):
    def same():
        fw = dict((k, ",".join(str(x) for x in v)) for k, v in fw_leds(twin).items())
        shown = page_leds(page)
        return sorted(shown) == sorted(LEDS) and all(shown[k] == v for k, v in fw.items())
    until(same, "the page to show the firmware's LEDs")


def shown_view(page):
    """The public view as the page shows it (its game panel, the board's status line)."""
    return page.evaluate("""() => {
        const out = {agents: {}, hands: {}, discards_left: {}, pawns: {}, ongoing: {}};
        for (const tr of document.querySelectorAll('#sides tbody tr')) {
            const side = tr.dataset.side;
            out.agents[side] = Object.fromEntries([...tr.querySelectorAll('.agents .chip')]
                .map(c => [c.dataset.agent, Number(c.dataset.count)]));
            out.hands[side] = tr.querySelector('.hand-count').dataset.counts.split(',').map(Number);
            out.discards_left[side] = tr.querySelector('.discards').dataset.left.split(',').map(Number);
            out.pawns[side] = Number(tr.querySelector('.pawn-at').dataset.space);
            const on = tr.querySelector('.ongoing').dataset.cards;
            out.ongoing[side] = on ? on.split(',') : [];
        }
        out.deck = Number(document.getElementById('deck').dataset.n);
        const md = document.getElementById('market-deck').dataset.n;
        out.market_deck = md === '' ? null : Number(md);
        out.offer = [...document.querySelectorAll('#offer .chip')].map(c => c.dataset.card || null);
        out.active = document.getElementById('status').dataset.active || null;
        out.phase = document.getElementById('status').dataset.phase;
        out.winner = document.getElementById('result').dataset.winner || null;
        out.reason = document.getElementById('result').dataset.reason || null;
        return out;
    }""")


def expected_view(view, end=None):
    """The same fields of the firmware's public view."""
    adv = view["mode"] == "advanced"
    return {"agents": view["agents"], "hands": view["hands"],
            "discards_left": view["discards_left"], "pawns": view["pawns"],
            "ongoing": view["ongoing"] if adv else {"green": [], "blue": []},
            "deck": view["deck"], "market_deck": view["market_deck"] if adv else None,
            "offer": view["offer"] if adv else [], "active": view["active"],
            "phase": view["phase"], "winner": view.get("winner"),
            "reason": end["reason"] if end else None}


def page_shows(page, twin):
    """The page comes to show the firmware's public view (asked of the firmware now)."""
    view = firmware(twin)["view"]
    ends = [e for _, e in twin.events if e.get("event") == "end"]
    want = expected_view(view, ends[-1] if view.get("winner") else None)
    until(lambda: shown_view(page) == want, "the page to show the firmware's public view %s; "
          "it shows %s" % (want, shown_view(page)))
    return view


# -- players at the page: the rules core's random players, acting through the page's API -----------
class PagePlayers:
    """Chooses each decision with shared_rules/avenue/randgame.py from the cards the twin has
    dealt (the players' own cards), and carries it out with the page's actions (POST /api/act),
    board time stepped by hand (the twin paused)."""

    def __init__(self, twin, port, seed):
        self.twin = twin
        self.port = port
        self.rng = Rng(seed)
        self.held = {}  # side -> handle of its pawn in a hand
        self.decisions = 0

    def do(self, req, ticks=0):
        code, ans = act(self.port, req)
        assert code == 200 and ans["ok"], (req, ans)
        self.twin.step(ticks)
        return ans

    def view(self):
        return firmware(self.twin)["view"]

    def table(self):
        """The twin's cards as the random players hold them (kinds; a deck's top last)."""
        c = self.twin.cards
        t = randgame.Table.__new__(randgame.Table)
        t.tb, t.rng, t.discarded = TB, self.rng, []
        t.deck = [TB.agent_index[c.kind(h)] for h in c.deck]
        t.market = [TB.market_index[c.kind(h)] for h in c.market]
        t.offer = [TB.market_index[c.kind(h)] for h in c.offer if h is not None]
        t.hands = [[] for _ in range(2 * TB.max_seats)]
        for (side, seat), hs in c.hands.items():
            t.hands[TB.side_index[side] * TB.max_seats + seat] = [TB.agent_index[c.kind(h)]
                                                                  for h in hs]
        return t

    def handle(self, kind, places, besides=()):
        c = self.twin.cards
        for place in places:
            for h in place:
                if h is not None and c.kind(h) == kind and h not in besides:
                    return h
        raise AssertionError("no %s among the twin's cards %s" % (kind, places))

    def hand(self, side, seat):
        return self.twin.cards.hands[(side, seat)]

    def light(self, seat):
        if self.view()["seat"] != seat:
            self.do({"op": "press", "button": "confirm", "ms": 100}, 2)

    def decide(self):
        view = self.view()
        if view["rules_phase"] == "recruit":
            mv = M.recruit(self.rng.below(2))
            first, second = ("up", "down") if mv.take == M.TAKE_UP else ("down", "up")
            self.do({"op": "card_off", "reader": first}, OFF_TICKS)
            self.do({"op": "card_off", "reader": second}, OFF_TICKS)
            return mv
        pos = dict(view, phase=view["rules_phase"])
        st = position.parse(TB, pos)
        table = self.table()
        mv = randgame.choose(st, table, self.rng)
        side = TB.sides[st.pending[0] if st.phase == MARKET else st.active]
        if mv.kind == M.DISCARD:
            self.light(mv.seat)
            h = self.handle(TB.agent_names[table.discarded[-1]], [self.hand(side, mv.seat)])
            self.do({"op": "card", "id": h, "reader": "tap"}, TAP_TICKS)
        elif mv.kind == M.PLAY:
            self.light(mv.up_seat)
            up = self.handle(TB.agent_names[mv.up], [self.hand(side, mv.up_seat)])
            down = self.handle(TB.agent_names[mv.down], [self.hand(side, mv.down_seat)], (up,))
            self.do({"op": "card", "id": up, "reader": "up"}, READ_TICKS)
            if mv.forced:
                self.do({"op": "press", "button": "confirm", "ms": 2100}, 12)
            self.do({"op": "card", "id": down, "reader": "down"}, READ_TICKS)
        else:
            self.market(st, mv, side)
        return mv

    def market(self, st, mv, side):
        c = self.twin.cards
        self.light(mv.seat)
        self.do({"op": "card", "id": self.handle(TB.market_names[mv.card], [c.offer]),
                 "reader": "tap"}, TAP_TICKS)
        if mv.refill != NONE:
            self.do({"op": "card", "id": "market", "reader": "tap"}, TAP_TICKS)
        needs = TB.needs[mv.card]
        if "top" not in needs and "agent" not in needs:
            return
        if mv.agent == NONE:
            self.do({"op": "press", "button": "back", "ms": 100}, 2)
            return
        t = TB.effect[mv.card]
        name = TB.agent_names[mv.agent]
        other = TB.sides[1 - TB.side_index[side]]
        if t == tables.RECRUIT_TOP:
            agent = "deck"
        elif t in (tables.TAKE_BACK, tables.STEAL):
            agent = self.handle(name, [c.tableau[side if t == tables.TAKE_BACK else other]])
        else:
            agent = self.handle(name, [self.hand(side, mv.seat)])
        self.do({"op": "card", "id": agent, "reader": "tap"}, TAP_TICKS)
        if "again" in needs:
            if mv.again:
                self.do({"op": "card", "id": agent, "reader": "tap"}, TAP_TICKS)
            else:
                self.do({"op": "press", "button": "back", "ms": 100}, 2)

    def pawns(self):
        """The pawns to where the board's view puts them (with the page's lift and place; a
        pawn whose space the other pawn holds stays in the hand)."""
        view = self.view()
        if not view["expected"]:
            return
        where = world(self.twin)
        for side in TB.sides:
            at = where[side + "-pawn"]["at"]
            if at is not None and at != str(view["pawns"][side]):
                self.held[side] = self.do({"op": "lift", "at": at})["id"]
        for side in TB.sides:
            to = str(view["pawns"][side])
            if side in self.held and all(p["at"] != to for p in world(self.twin).values()):
                self.do({"op": "place", "id": self.held.pop(side), "at": to})
        self.twin.step(MOVE_TICKS)

    def play(self, check, most=200):
        while self.view()["phase"] != "game_over":
            assert self.decisions < most, "no end after %d decisions" % most
            self.decide()
            self.twin.step(2)
            self.pawns()
            self.decisions += 1
            check()


def new_game(page, mode, players):
    page.select_option("#mode", mode)
    page.select_option("#players", str(players))
    page.click("#new-game")
    if page.is_visible("#confirm-new"):
        page.click("#new-yes")


# -- the tests --------------------------------------------------------------------------------
def test_the_page_draws_the_street_pawns_pads_and_leds_from_the_board_data(site):
    s = site(seed=3)
    twin, page = s.twin, s.page
    spaces = page.eval_on_selector_all("g.space", "gs => gs.map(g => g.dataset.loc)")
    assert spaces == [str(i) for i in range(BOARD["spaces"])] and len(spaces) == 14
    markets = page.eval_on_selector_all("g.space.market", "gs => gs.map(g => g.dataset.loc)")
    assert markets == [str(i) for i in BOARD["market_spaces"]]
    homes = page.eval_on_selector_all("g.space.home", "gs => gs.map(g => [g.dataset.loc, "
                                      "g.dataset.home])")
    assert dict(homes) == dict((str(v), k) for k, v in BOARD["homes"].items())
    # one screen: the page fits 1280x720 without scrolling, the whole street in view
    size = page.evaluate("() => [document.documentElement.scrollWidth, "
                         "document.documentElement.scrollHeight]")
    assert size[0] <= VIEWPORT["width"] and size[1] <= VIEWPORT["height"], size
    box = page.locator("#board").bounding_box()
    assert box["y"] + box["height"] <= VIEWPORT["height"] and box["width"] > 500
    pads = page.eval_on_selector_all("g.pad", "gs => gs.map(g => g.dataset.pad)")
    assert pads == ["up", "down", "tap"]
    # every LED of the chain is drawn, each where its location is
    assert sorted(page_leds(page)) == sorted(LEDS)
    # the pawns stand where the simulated world has them: a fresh board has them on the homes
    assert page_pawns(page) == {"0": "green", "7": "blue"}
    pawns_where_the_world_has_them(page, twin)
    leds_match(page, twin)
    # the world changes under the page (a hand on the board, not the page): the page follows
    with twin.lock:
        twin.sim.request({"op": "lift", "at": "7"})
        twin.sim.request({"op": "place", "piece": "blue-pawn", "at": "9"})
    until(lambda: page_pawns(page) == {"0": "green", "9": "blue"}, "the pawn on 9")
    # the buzzer is drawn, silent with no game
    assert page.get_attribute("#buzzer", "data-sounding") == "false"
    # the sensor panel: raw readings and the firmware's classes (it shows them between
    # games); a dead sensor injected from the page reads ~0 V and is classed fault ...
    page.click("#sensor-panel summary")
    page.fill("#fault-at", "3")
    page.select_option("#fault-kind", "dead_sensor")
    page.fill("#fault-ms", "60000")
    page.click("#inject")
    until(lambda: sensor_row(page, "3", "fault"), "the sensor panel to read 3 dead")
    rows = page.eval_on_selector_all("#sensors tbody tr", "trs => trs.map(tr => "
                                     "[...tr.children].map(td => td.textContent))")
    assert [r[0] for r in rows] == [str(i) for i in range(14)]
    assert int(rows[3][1]) < 1000 and rows[3][2] == "fault"
    # ... and once a game runs, its LED blinks orange and the line says so
    new_game(page, "simple", 2)
    until(lambda: page.get_attribute('g.space[data-loc="3"]', "data-meaning") == "fault",
          "the fault on space 3")
    until(lambda: page.get_attribute("#guidance", "data-kind") == "fault", "the fault line")
    assert rows[9][2] == "upside_down" and rows[0][2] == "upright"  # blue's pawn reads so
    assert not s.errors


def test_a_turn_played_with_clicks_moves_the_simulated_hardware_and_the_firmware_answers(site):
    s = site(seed=5)
    twin, page = s.twin, s.page
    new_game(page, "simple", 2)
    until(lambda: page.get_attribute("#status", "data-phase") == "play", "the first turn")
    assert page.get_attribute("#status", "data-active") == "green"
    until(lambda: page.query_selector_all('#hands .hand.open[data-side="green"] button.card'),
          "green's hand")
    # only the side that plays holds its cards up: blue's are face down
    assert not page.query_selector_all('#hands .hand[data-side="blue"] button')
    cards = [(b.get_attribute("data-id"), b.get_attribute("data-card")) for b in
             page.query_selector_all('#hands .hand[data-side="green"] button.card')]
    assert len(cards) == BOARD["setup"]["hand"]
    # two agents whose first copy moves a pawn (agent-avenue-cards.json: not the codebreaker
    # nor the sentinel, whose first copy is 0)
    moving = [c for c in cards if c[1] not in ("codebreaker", "sentinel")]
    up = moving[0]
    down = next(c for c in moving if c[1] != up[1])
    n = len(twin.events)
    page.click('#hands button[data-id="%s"]' % up[0])
    page.click('g.pad[data-pad="up"]')
    until(lambda: page.get_attribute('g.pad[data-pad="up"] .pad-card', "data-card") == up[1],
          "the face-up card on its pad")
    page.click('#hands button[data-id="%s"]' % down[0])
    page.click('g.pad[data-pad="down"]')
    # the firmware read both pads: the play, then the recruit (its pads turn yellow)
    until(lambda: page.get_attribute("#status", "data-phase") == "recruit", "the recruit")
    evs = [e for _, e in twin.events[n:]]
    cards_ev = [e for e in evs if e["event"] == "card"]
    assert cards_ev[0] == {"event": "card", "face": "up", "card": up[1], "side": "green",
                           "seat": 0}
    assert cards_ev[1] == {"event": "card", "face": "down", "side": "green", "seat": 0}
    assert page.get_attribute('g.pad[data-pad="down"] .pad-card', "data-card") == "down"
    assert down[1] not in page.text_content('g.pad[data-pad="down"]')
    # the face-down card's handle is nowhere in the page now (its name may be: another copy)
    html = page.content()
    m = re.search(r"\b%s\b" % down[0], html)
    assert not m, html[max(0, m.start() - 300):m.end() + 100]
    leds_match(page, twin)
    assert page.get_attribute('g.pad[data-pad="down"]', "data-meaning") == "pick"
    # blue takes the face-down card, green the other: the recruit names both
    page.click('g.pad[data-pad="down"]')
    until(lambda: page.get_attribute("#lifted", "data-n") == "1", "one card in a hand")
    page.click('g.pad[data-pad="up"]')
    recruits = until(lambda: [e for _, e in twin.events[n:] if e["event"] == "recruit"][:2]
                     if len([1 for _, e in twin.events[n:] if e["event"] == "recruit"]) >= 2
                     else None, "the recruit events")
    assert [(r["side"], r["agent"]) for r in recruits] == [("blue", down[1]), ("green", up[1])]
    # the pawns move by the agents' values (agent-avenue-cards.json): the page says where
    view = firmware(twin)["view"]
    moves = [e for _, e in twin.events[n:] if e["event"] == "pawn"]
    assert sorted(e["side"] for e in moves) == ["blue", "green"]
    for mv in moves:
        assert view["pawns"][mv["side"]] == mv["to"]
    until(lambda: page.get_attribute("#status", "data-phase") == "await_effect",
          "the pawns to move")
    before = raw_sensors(twin)
    for mv in moves:
        frm, to = str(mv["from"]), str(mv["to"])
        assert page.get_attribute('g.space[data-loc="%s"]' % to, "data-meaning") == "go"
        page.click('g.space[data-loc="%s"]' % frm)
        page.click('g.space[data-loc="%s"]' % to)
    # the page's hands moved the simulated pawns: the world and the sensors say so
    want = dict((e["side"] + "-pawn", str(e["to"])) for e in moves)
    until(lambda: all(world(twin)[p]["at"] == at for p, at in want.items()), "the pawns moved")
    # the firmware's scan reads a pawn's field where it now stands (16-bit ADC units; a
    # DRV5055 swings well over a volt under a pawn's magnet: host_tools/sim/data/physics.json)
    until(lambda: all(abs(raw_sensors(twin)[str(mv["to"])] - before[str(mv["to"])]) > 5000
                      for mv in moves), "the sensors under the pawns to read their fields")
    # ... and the firmware answers: blue's turn
    until(lambda: [e for _, e in twin.events[n:] if e == {"event": "turn", "side": "blue"}],
          "blue's turn")
    until(lambda: page.get_attribute("#status", "data-active") == "blue", "the page to say so")
    pawns_where_the_world_has_them(page, twin)
    leds_match(page, twin)
    # a pawn bumped off its space: the board shows a mismatch until it is back
    at = str(firmware(twin)["view"]["pawns"]["green"])
    page.click('g.space[data-loc="%s"]' % at)
    until(lambda: [e for _, e in twin.events if e.get("event") == "mismatch" and
                   e["locations"] == [at]], "the mismatch")
    until(lambda: page.get_attribute("#guidance", "data-kind") == "do" and
          "not where the game puts it" in page.inner_text("#guidance"), "the line to say so")
    page.click('g.space[data-loc="%s"]' % at)
    until(lambda: firmware(twin)["view"]["phase"] == "play", "put right")
    assert not s.errors


@pytest.mark.parametrize("seed,players", [(12, 2), (5, 4)])
def test_a_demo_game_shows_the_firmwares_public_view_after_every_decision(site, seed, players):
    """Whole advanced games (seed 12: two players, with Secret Recruit, Spycation, Mind
    Control and Double Trouble taken; seed 5: two teams of two, with Spycation and Smoke
    Screen) played through the page's actions; after every decision the page shows the
    firmware's public view, and the cards on the table agree with its counts."""
    s = site(seed=seed)
    twin, page, port = s.twin, s.page, s.port
    new_game(page, "advanced", players)
    until(lambda: page.get_attribute("#status", "data-phase") == "play", "the first turn")
    twin.pause()
    hands = PagePlayers(twin, port, seed)
    seen = set()

    def check():
        view = page_shows(page, twin)
        assert twin.cards.disagrees(view) is None
        seen.add(view["rules_phase"])
    check()
    hands.play(check)
    # the end: the page names the winner and the reason of the board's end event
    end = [e for _, e in twin.events if e.get("event") == "end"][-1]
    until(lambda: page.get_attribute("#result", "data-winner") == end["winner"], "the winner")
    assert page.get_attribute("#guidance", "data-kind") == "over"
    from shared_rules.describe_avenue import why_won
    assert page.inner_text("#guidance").startswith("%s wins (%s)" % (
        end["winner"].capitalize(), why_won(end)))
    assert page.inner_text("#result") == "%s wins (%s)." % (end["winner"].capitalize(),
                                                            why_won(end))
    # the black market was visited and an ability's agent tapped (from a hand, a tableau or
    # the deck's top)
    assert {"play", "recruit", "market"} <= seen
    assert [e for _, e in twin.events if e.get("event") == "tap" and e["what"] == "agent"]
    # the board's record holds every decision the page's players made
    rec = firmware(twin, "export")["record"]
    assert len(rec["turns"]) == hands.decisions
    assert not s.errors


def test_a_page_never_receives_the_face_down_card(site):
    """The same game on two boards up to a play; on one the face-down card is X, on the other
    Y (the two swapped between the hand and the deck). From the moment it lies face down until
    the recruit, every byte the page can fetch is the same on both; the referee view's are not
    (so the two boards did differ)."""
    runs = []
    for swap in (False, True):
        s = site(seed=8, with_page=False, paused=True)
        twin, port = s.twin, s.port
        assert act(port, {"op": "new_game", "players": 2, "mode": "advanced"})[0] == 200
        twin.step(8)
        c = twin.cards
        hand = c.hands[("green", 0)]
        up = hand[0]
        x = next(h for h in hand if c.kind(h) != c.kind(up))
        # Y: a card deep in the deck (not drawn after the play) of another name
        y = next(h for h in c.deck[:-4] if c.kind(h) not in (c.kind(up), c.kind(x)))
        if swap:
            i, j = hand.index(x), c.deck.index(y)
            hand[i], c.deck[j] = y, x
            x = y
        assert act(port, {"op": "card", "id": up, "reader": "up"})[0] == 200
        twin.step(READ_TICKS)
        shots = []

        def shoot(what):
            shots.append((what, [fetch(port, p)[1] for p in (
                "/api/state", "/api/state?since=3", "/api/layout", "/api/sensors")],
                fetch(port, "/api/state?referee=1")[1]))
        code, ans = act(port, {"op": "card", "id": x, "reader": "down"})
        assert code == 200, ans
        shoot("put down")
        for k in range(4):
            twin.step(1)
            shoot("down + %d ticks" % (k + 1))
        assert json.loads(shots[-1][1][0])["view"]["rules_phase"] == "recruit"
        # a card tapped now is refused, whatever lies face down
        assert act(port, {"op": "card", "id": "market", "reader": "tap"})[0] == 200
        twin.step(TAP_TICKS)
        shoot("tap refused")
        # blue takes the face-down card, then puts it back (the choice undone)
        assert act(port, {"op": "card_off", "reader": "down"})[0] == 200
        for k in range(OFF_TICKS):
            twin.step(1)
            shoot("lifted + %d ticks" % (k + 1))
        assert act(port, {"op": "card", "id": "lifted", "reader": "down"})[0] == 200
        twin.step(READ_TICKS)
        shoot("put back")
        runs.append(shots)
    for a, b in zip(runs[0], runs[1]):
        assert a[1] == b[1], "%s: the page's bytes differ with another card face down" % a[0]
    assert any(a[2] != b[2] for a, b in zip(runs[0], runs[1])), \
        "the referee view should show the two face-down cards apart"
    state = json.loads(runs[0][1][1][0])
    assert state["pads"]["down"] is True and state["view"]["pads"]["down"] == "hidden"
    assert state["hands"]["green"][0]["cards"] is None  # a recruit: nobody's hand is up


def test_bad_actions_get_a_clear_reason_and_change_nothing(site):
    s = site(seed=4, with_page=False, paused=True)
    twin, port = s.twin, s.port
    assert act(port, {"op": "new_game", "players": 3, "mode": "simple"})[0] == 200
    twin.step(8)
    blue_card = twin.cards.hands[("blue", 0)][0]  # not blue's turn: its cards are not up
    green = twin.cards.hands[("green", 0)]
    assert act(port, {"op": "card", "id": green[0], "reader": "up"})[0] == 200
    twin.step(READ_TICKS)

    def snap():
        return [fetch(port, p)[1] for p in ("/api/state", "/api/state?referee=1")] + [
            json.dumps(world(twin), sort_keys=True).encode()]
    before = snap()
    cases = [
        ({"op": "card", "id": blue_card, "reader": "down"}, 400, "not a card within reach"),
        ({"op": "card", "id": blue_card, "reader": "tap"}, 400, "not a card within reach"),
        ({"op": "card", "id": "c999", "reader": "down"}, 400, "not a card within reach"),
        ({"op": "card", "id": green[1], "reader": "up"}, 409, "a card lies on the up pad"),
        ({"op": "card", "id": green[1], "reader": "side"}, 400, "reader must be one of"),
        ({"op": "card", "id": "lifted", "reader": "down"}, 409, "no card taken off"),
        ({"op": "card_off", "reader": "tap"}, 400, "a tap lifts itself"),
        ({"op": "card_off", "reader": "down"}, 409, "no card lies on the down pad"),
        ({"op": "new_game", "players": 5}, 400, "players must be 2, 3 or 4"),
        ({"op": "new_game", "players": 2, "mode": "expert"}, 400, "simple or advanced"),
        ({"op": "place", "id": "h9", "at": "3"}, 400, "no such piece in hand"),
        ({"op": "lift", "at": "14"}, 400, "must be a board location"),
        ({"op": "lift", "at": "3"}, 409, "there is no piece on 3"),
        ({"op": "flip", "at": "0"}, 400, "unknown action"),
        ({"op": "place", "id": "h1", "at": "3", "upside_down": True}, 400, "not 'upside_down'"),
    ]
    for req, code, words in cases:
        got, ans = act(port, req)
        assert got == code and ans["ok"] is False and words in ans["reason"], (req, got, ans)
        assert snap() == before, "%s changed what the page reads" % req


def test_agentboard_sim_opens_the_avenue_board_and_demo_plays_it(tmp_path):
    for flag in ("--game", "--board"):
        proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", flag,
                                 "agent-avenue", "--no-browser", "--port", "0", "--flash",
                                 str(tmp_path / flag[2:])], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        try:
            url = None
            for line in proc.stdout:
                if "the board is at" in line:
                    url = line.split("the board is at ")[1].split()[0]
                    break
            assert url, "agentboard sim %s agent-avenue did not serve its page" % flag
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            layout = json.loads(fetch(port, "/api/layout")[1])
            assert layout["board"] == "agent-avenue" and layout["spaces"] == 14
            assert b"avenue.js" in fetch(port, "/")[1]
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=10)
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "sim", "--game",
                          "agent-avenue", "--demo", "--seed", "2"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "wins (" in out.stdout and "public view matched" in out.stdout


def test_a_play_sounds_the_buzzer_and_lights_the_pads_for_the_recruit(site):
    s = site(seed=6, with_page=False, paused=True)
    twin, port = s.twin, s.port
    assert act(port, {"op": "new_game", "players": 2, "mode": "simple"})[0] == 200
    twin.step(8)
    hand = twin.cards.hands[("green", 0)]
    up = hand[0]
    down = next(h for h in hand if twin.cards.kind(h) != twin.cards.kind(up))
    assert act(port, {"op": "card", "id": up, "reader": "up"})[0] == 200
    twin.step(READ_TICKS)
    st = twin.state()
    # one card face up: its pad cyan, the down pad still white (firmware/games/avenue/README.md)
    assert st["lights"]["reader:up"] == "full" and st["lights"]["reader:down"] == "want"
    assert act(port, {"op": "card", "id": down, "reader": "down"})[0] == 200
    for _ in range(READ_TICKS):
        twin.step(1)
        if any(e["event"] == "play" for _, e in twin.events):
            break
    # the play is accepted with the "accept" pattern's note (firmware/hal/buzzer.py), heard
    # on the simulated buzzer pin, and both pads turn yellow for the other side to take one
    from firmware.hal.buzzer import PATTERNS
    st = twin.state()
    assert st["buzzer"] == {"sounding": True, "hz": PATTERNS["accept"][0][0]}
    assert st["lights"]["reader:up"] == "pick" and st["lights"]["reader:down"] == "pick"
    twin.step(3)
    assert twin.state()["buzzer"] == {"sounding": False, "hz": 0}


# -- the page's parts, without a browser ------------------------------------------------------
def test_led_meanings_follow_the_firmwares_led_table():
    from firmware.games.avenue import lights as fw
    from host_tools.games.avenue import lights as L

    def dim(code, top=96):  # the strip holds colours scaled by brightness and the limiter
        return [v * top // 255 for v in fw.PALETTE[code]]
    view = {"pawns": {"green": 2, "blue": 7}, "expected": ["0", "2"], "seat": 1}
    assert L.meaning("7", dim(fw.BLUE), view) == "pawn"
    assert L.meaning("2", dim(fw.GREEN), view) == "go"  # blinking: the pawn must go there
    assert L.meaning("0", dim(fw.TAKE), view) == "leave"
    assert L.meaning("3", dim(fw.FAULT), view) == "fault"
    assert L.meaning("5", dim(fw.MARKET), view) == "market"
    assert L.meaning("seat:green-1", dim(fw.GREEN), view) == "acts"
    assert L.meaning("seat:green-0", dim(fw.DIM_GREEN), view) == "partner"
    for code, m in ((fw.WANT, "want"), (fw.FULL, "full"), (fw.PICK, "pick"),
                    (fw.TAKE, "refused")):
        assert L.meaning("reader:down", dim(code), view) == m
    assert L.meaning("4", [0, 0, 0], view) is None
    # a space to change caught dark between blinks still says what it asks
    assert L.meanings({"2": [0, 0, 0], "0": [0, 0, 0]}, view) == {"0": "leave", "2": "go"}


def test_the_guidance_line_says_what_to_do_from_public_facts_only():
    from host_tools.games.avenue.guidance import line
    base = {"mode": "advanced", "seats": {"green": 1, "blue": 2}, "active": "green",
            "pawns": {"green": 3, "blue": 9}, "expected": [], "seat": 0,
            "pads": {"up": None, "down": None}, "tap": "discard", "rules_phase": "play",
            "phase": "play"}
    pieces = {"3": "green", "9": "blue"}
    assert line(base, [], pieces)["text"] == ("Green: put one card face up on the up pad and one "
                                              "face down on the down pad (or tap a card on the "
                                              "tap pad to discard it).")
    up = dict(base, pads={"up": "enforcer", "down": None}, tap=None)
    assert line(up, [], pieces)["text"] == "Green: put one face down on the down pad."
    rec = dict(base, phase="recruit", rules_phase="recruit", tap=None)
    assert "Blue: take one of the two cards" in line(rec, [], pieces)["text"]
    assert line(rec, [], pieces, lifted=1)["text"] == "Green: take the other card off its pad."
    # after a power cut the board asks for the played cards back (docs/power-cuts.md)
    cut = dict(rec, put_back=["down"])
    assert line(cut, [], pieces)["text"] == (
        "The board restarted: put the face-down card on the down pad again, then blue takes "
        "one card; or, if blue already took that card, press confirm.")
    both = dict(rec, put_back=["up", "down"])
    assert line(both, [], pieces)["text"] == (
        "The board restarted: put the face-up card on the up pad and the face-down card on "
        "the down pad again, then blue takes one card.")
    moving = dict(base, phase="await_effect", pawns={"green": 5, "blue": 9}, expected=["3", "5"])
    assert line(moving, [], pieces)["text"] == "Move the pawns: move the green pawn to 5."
    market = dict(base, phase="market", rules_phase="market", pending=["blue"], seat=1,
                  tap="agent", taken="outpost")
    assert line(market, [], pieces)["text"] == ("Blue (seat 2) (Outpost): tap a Sentinel from "
                                                "the hand (it is recruited), or press back if "
                                                "there is none.")
    rej = [{"event": "card", "face": "up", "card": "mole", "side": "green", "seat": 0},
           {"event": "reject", "reader": "down", "reason": "the two cards must bear different "
            "names"}]
    assert line(base, rej, pieces) == {"kind": "refused", "text": "Refused (down pad): the two "
                                       "cards must bear different names."}
    over = dict(base, phase="game_over", winner="blue")
    end = {"winner": "blue", "reason": "catch", "tie": True}
    assert line(over, [], pieces, result=end) == {"kind": "over", "text": "Blue wins (its pawn "
                                                  "caught the other; the tie rule decided). "
                                                  "Press \"new game\" for another."}
    # a reason the firmware gives with a card's key says the card's name
    rej = [{"event": "reject", "reader": "tap", "reason": "security_system is not in the offer"}]
    assert line(base, rej, pieces)["text"] == ("Refused (tap pad): Security System is not in "
                                               "the offer.")


def test_the_cards_on_the_table_follow_the_boards_events():
    from host_tools.games.avenue.cards import Cards
    deck = [("%014x" % j, a) for j, a in enumerate(
        [a for a in TB.agent_names for _ in range(TB.copies[TB.agent_index[a]])] +
        list(TB.market_names))]
    c = Cards(deck, 3)
    assert len(c.deck) == 38 and len(c.market) == 15  # the box: 38 agents, 15 market cards
    offer = c.new_game({"green": 2, "blue": 1}, True)
    # four cards to each player, three face up in the offer (the rulebook's setup)
    assert [len(c.hands[k]) for k in sorted(c.hands)] == [4, 4, 4]
    assert len(c.deck) == 38 - 12 and len(offer) == 3 and len(c.market) == 12
    up, down = c.hands[("green", 0)][0], c.hands[("green", 1)][0]
    c.put(up, "up")
    c.put(down, "down")
    c.follow({"event": "play", "side": "green"})
    c.follow({"event": "draw", "side": "green", "seat": 0, "n": 1})
    assert len(c.hands[("green", 0)]) == 4 and len(c.hands[("green", 1)]) == 3
    c.lift("down")  # the first card lifted: the other side's
    c.lift("up")
    c.follow({"event": "recruit", "side": "blue", "agent": c.kind(down), "count": 1})
    c.follow({"event": "recruit", "side": "green", "agent": c.kind(up), "count": 1})
    assert c.tableau == {"green": [up], "blue": [down]} and not c.lifted and not c.played
    # a black-market card taken, the gap refilled in its place, an agent taken into a hand
    taken = c.offer[1]
    refill = c.market[-1]
    c.tapped = taken
    c.follow({"event": "market", "side": "blue", "card": c.kind(taken)})
    c.follow({"event": "refill", "card": c.kind(refill)})
    assert c.offer[1] == refill and taken in (c.ongoing["blue"] + c.spent)
    c.tapped = up
    c.follow({"event": "hand", "side": "green", "agent": c.kind(up), "to": "blue"})
    assert c.tableau["green"] == [] and up in c.hands[("blue", 0)]
    # a discard lays the tapped card aside, face down: it is in no hand
    d = c.hands[("blue", 0)][0]
    c.tapped = d
    c.follow({"event": "discard", "side": "blue", "seat": 0})
    assert c.discards == [d] and all(d not in h for h in c.hands.values())


def test_a_game_begun_with_the_boards_menu_is_dealt_and_its_offer_tapped_in(site):
    """No game: holding confirm opens the board's menu, a short press steps to the advanced
    mode for 1 against 1, holding again starts it (firmware/games/avenue/README.md). The players
    deal for it, and tap the first offer in from the market deck's top."""
    s = site(seed=9, with_page=False, paused=True)
    twin, port = s.twin, s.port
    for ms, ticks in ((2100, 14), (100, 2), (2100, 14)):
        assert act(port, {"op": "press", "button": "confirm", "ms": ms})[0] == 200
        twin.step(ticks)
    view = firmware(twin)["view"]
    assert view["mode"] == "advanced" and view["phase"] == "setup" and view["tap"] == "offer"
    assert [len(twin.cards.hands[(side, 0)]) for side in ("green", "blue")] == [4, 4]
    for _ in range(TB.offer_size):
        assert act(port, {"op": "card", "id": "market", "reader": "tap"})[0] == 200
        twin.step(TAP_TICKS)
    view = firmware(twin)["view"]
    assert view["phase"] == "play" and None not in view["offer"]
    assert twin.cards.disagrees(view) is None
    assert [x["card"] for x in twin.state()["offer"]] == view["offer"]


def test_a_game_resumed_from_flash_is_laid_out_as_the_board_counts_it(tmp_path):
    """`agentboard sim --flash DIR` on a board whose flash holds a game: the twin never dealt
    it, so it lays the cards out as the board's public view counts them."""
    flash = str(tmp_path / "flash")
    first = AvenueTwin(seed=2, speed=SPEED, paused=True, flash=flash)
    try:
        assert first.act({"op": "new_game", "players": 3, "mode": "advanced"})["ok"]
        first.step(8)
        hand = first.cards.hands[("green", 0)]
        up = hand[0]
        down = next(h for h in first.cards.hands[("green", 1)]
                    if first.cards.kind(h) != first.cards.kind(up))
        for h, pad in ((up, "up"), (down, "down")):
            assert first.act({"op": "card", "id": h, "reader": pad})["ok"]
            first.step(READ_TICKS)
        for pad in ("down", "up"):
            assert first.act({"op": "card_off", "reader": pad})["ok"]
            first.step(OFF_TICKS)
        assert [e["event"] for _, e in first.events].count("recruit") == 2
    finally:
        first.close()
    again = AvenueTwin(seed=2, speed=SPEED, paused=True, flash=flash)
    try:
        again.step(4)
        view = firmware(again)["view"]
        assert [e["event"] for _, e in again.events][:2] == ["boot", "resumed"]
        assert sum(view["agents"]["green"].values()) == 1
        assert again.cards.disagrees(view) is None
    finally:
        again.close()


def test_the_mode_menu_shows_the_running_games_mode(site, browser):
    """A game begun with the board's own menu (advanced, one against one: its second entry,
    firmware/games/avenue/app.py's MENU) or running when the page is opened: the page's menu shows
    its mode and players; a choice made in the menu then stays while that game runs."""
    s = site(seed=9, paused=True)
    twin, port, page = s.twin, s.port, s.page
    assert page.input_value("#mode") == "simple"  # no game: the console's default
    for ms, ticks in ((2100, 14), (100, 2), (2100, 14)):
        assert act(port, {"op": "press", "button": "confirm", "ms": ms})[0] == 200
        twin.step(ticks)
    assert firmware(twin)["view"]["mode"] == "advanced"
    until(lambda: page.get_attribute("#status", "data-phase") == "setup", "the game on the page")
    until(lambda: page.input_value("#mode") == "advanced", "the menu to show advanced")
    assert page.input_value("#players") == "2"
    page.select_option("#mode", "simple")
    page.select_option("#players", "4")
    answered(twin, "state", 5, "five polls after the choice")
    assert (page.input_value("#mode"), page.input_value("#players")) == ("simple", "4")
    page = s.open(browser)  # a page opened on the running game
    until(lambda: page.get_attribute("#status", "data-phase") == "setup", "the game on the page")
    until(lambda: page.input_value("#mode") == "advanced", "the menu to show advanced")
    assert page.input_value("#players") == "2"
    # a new game begun from the page: the menu shows it
    page.select_option("#players", "3")
    page.select_option("#mode", "simple")
    page.click("#new-game")
    page.click("#new-yes")
    until(lambda: firmware(twin)["view"]["mode"] == "simple", "the simple game")
    answered(twin, "state", 5, "five polls after the game began")
    assert (page.input_value("#mode"), page.input_value("#players")) == ("simple", "3")
    assert not s.errors


def test_slow_answers_show_each_event_once_on_the_avenue_page(site):
    """Polls that take longer than the page's interval: one at a time, each event listed once."""
    s = site(seed=5)
    twin, page = s.twin, s.page
    until(lambda: kinds(page_events(page)) == kinds(board_events(twin)) != [], "the boot event")
    count = slow_answers(twin, 0.7)
    page.select_option("#players", "2")
    page.click("#new-game")
    until(lambda: page.get_attribute("#status", "data-phase") == "play", "the first turn", 20)
    # answers asked for before the last one came have all come
    answered(twin, "state", 2, "two more slow answers")
    shown, said = page_events(page), board_events(twin)
    assert "new_game" in kinds(said)
    assert kinds(shown) == kinds(said), "the list repeats or misses events"
    assert shown == said
    assert count["most"] == 1, "%d answers of /api/state were under way at once" % count["most"]
    assert not s.errors
