# Whole games on the page, as a person who has never seen the games plays them (issue 28): an
# Agent DOG, a DOG Royal and an Agent Avenue game, each from the new-game button to the win, in
# headless Chromium (Debian's, driven by Playwright) against the page `agentboard sim` serves,
# the real firmware on the simulated board behind it. The players act through the page's own
# API (POST /api/act: the actions its clicks make, fast), board time stepped by hand; before
# each act they read the guidance line, which must name who acts and what to do, and at every
# step every line the page shows a person (the status bar, the guidance line, the "Board says"
# list, the result box, the legend of the board's features and of its lights) must be words:
# no JSON, no raw location names ("red:s4"), no lists of bare numbers ("0 16 32 48"), no
# phase or code names ("await_effect", "None").
import math
import re
import time

import pytest

from host_tools.games.track.players import Table, score
from host_tools.games.avenue.twin import AvenueTwin
from host_tools.web.server import serve
from host_tools.games.track.twin import TrackTwin
from shared_rules import variant
from shared_rules.describe_avenue import acting
from shared_rules.describe_base import cap, where
from shared_rules.move import legal_moves
from shared_rules.state import new_game
from test_web import VIEWPORT, board_seq, board_since, until
from test_web_avenue import PagePlayers, act, firmware, new_game as avenue_new_game

SPEED = 4  # board time runs 4 times the wall clock (the twins' ticks are 200 board ms)
GUIDE_TICKS = 5  # the guidance line asks for the next act within this many ticks of the board
TURNS_AT_MOST = 400  # a whole game of two players ends well before this many turns

# what no line for a person holds: JSON's marks and literals, a code name's "_", a raw
# location name ("red:s4", "blue:h2"), three bare numbers in a row (a location list), a
# phase name
NOT_WORDS = re.compile(r"[{}\[\]_\\]|\b[a-z]+:[sh]?\d|\b\d+(?: \d+){2}\b|\bnull\b|\bNone\b|"
                       r"\bTrue\b|\bFalse\b|\bundefined\b|\bNaN\b|\bawait\b|\bput right:")

# every line the page shows a person, read right after the page has read the board (its own
# refresh, the one its poll makes): selector -> the texts of the shown elements
LINES = """async () => {
    await refresh();
    const shown = e => e.getClientRects().length > 0;
    const out = {};
    for (const sel of ["#status", "#guidance", "#events li", "#result", "#features li",
                       "#legend li", "#message"])
        out[sel] = [...document.querySelectorAll(sel)].filter(shown)
            .map(e => e.textContent.trim()).filter(t => t);
    out.kind = document.getElementById("guidance").dataset.kind;
    // a line cut short (the status bar ends in an ellipsis when its text is too wide)
    out.cut = [...document.querySelectorAll("#status, #guidance")]
        .filter(e => e.scrollWidth > e.clientWidth).map(e => e.id + ": " + e.textContent);
    return out;
}"""


class Reader:
    """A person at the page: reads every line it shows, each must be words; keeps what the
    guidance line said."""

    def __init__(self, page):
        self.page = page
        self.looks = 0
        self.spent = 0.0
        self.said = []  # the guidance lines, in order, each once
        self.heard = set()  # every line the "Board says" list showed

    def look(self):
        t = time.time()
        lines = self.page.evaluate(LINES)
        self.spent += time.time() - t
        kind = lines.pop("kind")
        assert not lines.pop("cut"), "a line is cut short at 1280x720: %s" % lines
        for sel, texts in lines.items():
            for text in texts:
                assert not NOT_WORDS.search(text), "%s shows %r" % (sel, text)
        assert lines["#status"] and lines["#guidance"] and lines["#features li"] and \
            lines["#legend li"], lines
        self.looks += 1
        self.heard.update(lines["#events li"])
        line = lines["#guidance"][0]
        if not self.said or self.said[-1] != line:
            self.said.append(line)
        return line, kind, lines


class Site:
    def __init__(self, browser, twin):
        self.twin = twin
        self.httpd = serve(twin, 0)
        self.port = self.httpd.server_address[1]
        self.page = browser.new_page(viewport=VIEWPORT)
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto("http://127.0.0.1:%d/" % self.port)
        self.page.wait_for_selector("#features li")
        # the person's reads (each the page's own refresh) stand for the page's poll: one
        # read per step, not five a second competing with the board for the two cores
        self.page.wait_for_function("() => document.getElementById('status').dataset.phase")
        self.page.evaluate("() => { for (let id = 1; id < 10000; id++) clearInterval(id); }")
        self.reader = Reader(self.page)

    def close(self):
        self.page.close()
        self.httpd.shutdown()
        self.twin.close()


@pytest.fixture
def site(browser):
    made = []

    def make(twin):
        made.append(Site(browser, twin))
        return made[-1]
    yield make
    for s in made:
        s.close()


# -- the DOG boards: host_tools/games/track/players.py's table, its hands the page's -------
class PageTable(Table):
    """The players' table of host_tools/games/track/players.py (the moves and effects carried
    out the way hands do them, their own copy of the game checked against the board's after every
    turn), with every hand action made through the page's API and the cards the page deals;
    board time stepped by hand. Before it acts it reads the guidance line (the person's only
    guide): the line must ask for what it does."""

    def __init__(self, site):
        self.site = site
        self.twin = site.twin
        self.seen = board_seq(self.twin)
        Table.__init__(self, enrol=False, link=self.twin.sim, board=self.twin.board)

    # the control channel's hand ops, as the page makes them
    def ask(self, req, ok=True):
        op = req["op"]
        if op in ("deck", "world"):
            with self.twin.lock:
                return self.twin.sim.request(req)
        if op == "wait":
            self.twin.step(max(1, int(math.ceil(req["ms"] / float(self.twin.tick_ms)))))
            return {"ok": True}
        if op in ("card_off", "discard"):  # the twin moves the card on when the next is tapped
            return {"ok": True}
        if op == "card":
            req = {"op": "card", "id": self.handle(req["card"])}
        elif op == "place":
            req = {"op": "place", "id": req["piece"], "at": req["at"],
                   "upside_down": bool(req["upside_down"])}
        code, ans = act(self.site.port, req)  # POST /api/act, as the page's clicks make it
        assert code == 200 and ans.get("ok") or not ok, (req, code, ans)
        if op == "lift":
            ans["piece"] = ans["id"]
        return ans

    def handle(self, kind):
        seat = self.twin.view["to_move"]
        return next(c["id"] for c in self.twin.hands.public([seat])[seat]
                    if c["card"] == kind and c["state"] == "hand")

    def pull(self):
        new = board_since(self.twin, self.seen)
        self.seen = board_seq(self.twin)
        self.events.extend(new)
        return new

    def send(self, cmd):
        with self.twin.lock:
            ans = self.twin._send(cmd)
        self.pull()
        return ans

    # what the guidance line asks before each act
    def guided(self, *wanted):
        """The line asks for all of wanted (a person gives the board a moment to light
        what it asks: a few ticks)."""
        for _ in range(GUIDE_TICKS):
            line, kind, _ = self.site.reader.look()
            if kind in ("do", "refused") and all(w in line for w in wanted):
                return line
            self.twin.step(1)
        raise AssertionError("the guidance line does not ask for %s: %r" % (wanted, line))

    def card(self, kind):
        self.guided("%s: tap a card." % cap(self.twin.view["to_move"]))
        return Table.card(self, kind)

    def do_move(self, mv):
        self.guided("%s: move a piece with the %s" % (cap(self.twin.view["to_move"]),
                                                       self.twin.view["card"]))
        return Table.do_move(self, mv)

    def do_effects(self, events, held, mv=None):
        # the pieces the board asks to be taken off, turned over or pulled: the line names
        # where each stands
        view = self.twin.view
        asked = set(str(x) for x in view.get("expected", []))
        todo = [str(e.get("at", e.get("from"))) for e in events if e.get("event") == "effect"
                and (e["kind"] == "knock_out" or str(e.get("at", e.get("from"))) in asked)]
        if todo and view["phase"] == "await_effect":
            self.guided(*[where(at) for at in todo])
        return Table.do_effects(self, events, held, mv)

    def pass_turn(self):
        self.guided("%s: tap a card." % cap(self.twin.view["to_move"]))
        return Table.pass_turn(self)

    # a game begun on the page, set up from its guidance line
    def begin(self, game, players):
        page = self.site.page
        if page.is_visible("#game"):  # a board that plays one game has no game menu
            page.select_option("#game", game)
        page.select_option("#players", str(players))
        page.click("#new-game")
        if page.is_visible("#confirm-new"):
            page.click("#new-yes")
        until(lambda: self.twin.view and self.twin.view["phase"] == "setup", "the new game")
        self.twin.pause()
        self.wait()  # the board lights the setup
        view = self.public()
        g = variant.load(game, self.twin.board)
        self.game, lay = g, g.lay
        first = {}
        for colour in view["cards_left"]:
            c = lay.cidx[colour]
            self.guided("move a %s piece from its start area to %d" % (colour, lay.start[c]))
            spot = self.taken_spot(colour)
            first[c] = int(self.at(spot).rsplit("-", 1)[1]) - 1  # red-1 is the king, ...
            self.place(self.lift(spot), str(lay.start[c]))
        self.wait()
        self.st = new_game(g, players, None, None, first if g.ranked else None)
        self.check()

    def turn(self):
        """The seat to move plays its best card of the hand the page shows (host_tools/sim/
        players.py's score), or passes when none can move."""
        st = self.st
        seat = self.twin.view["to_move"]
        best = None
        for c in self.twin.hands.public([seat])[seat]:
            k = st.game.cards.index[c["card"]]
            for mv in legal_moves(st, k):
                s = score(st, mv)
                if best is None or s > best[0]:
                    best = (s, c["card"], mv)
        if best is None:
            return self.pass_turn()
        return self.play(best[1], best[2])


def whole_dog_game(site, game, players):
    t0 = time.time()
    table = PageTable(site)
    table.begin(game, players)
    turns = 0
    while table.twin.view["phase"] != "game_over":
        assert turns < TURNS_AT_MOST, "no win after %d turns" % turns
        table.turn()
        turns += 1
    line, kind, lines = site.reader.look()
    assert kind == "over" and line.startswith("Game over: ") and " won." in line, line
    assert not site.errors
    return turns, time.time() - t0


# seeds whose games are short (81 and 91 turns): the whole suite stays within minutes
@pytest.mark.parametrize("game,board,seed", [("agent-dog", "agent-dog-4", 7),
                                             ("dog-royal", "dog-4", 1)])
def test_a_whole_game_on_the_dog_page_in_words(site, game, board, seed):
    s = site(TrackTwin(seed=seed, board=board, game=game, speed=SPEED))
    turns, seconds = whole_dog_game(s, game, 2)
    # the line led through every kind of step: the setup, a card, a move, an effect
    said = " ".join(s.reader.said)
    for step in ("Set up: move a red piece", "Red: tap a card.", "Green: tap a card.",
                 "Red: move a piece with the ", "Take the knocked-out piece from "):
        assert step in said, step
    assert any(x.startswith("Red plays ") for x in s.reader.heard), s.reader.heard
    print("%s: %d turns, %d looks (%.1f s in the browser), %.1f s" % (
        game, turns, s.reader.looks, s.reader.spent, seconds))


# -- the Agent Avenue board: test_web_avenue.py's players, reading the line first ---------------
class GuidedPlayers(PagePlayers):
    """The random players of shared_rules/avenue/randgame.py at the page (tests/
    test_web_avenue.py), each decision taken by the side the guidance line names, each pawn
    moved where it says."""

    def __init__(self, site, seed):
        PagePlayers.__init__(self, site.twin, site.port, seed)
        self.reader = site.reader

    def guided(self, *wanted):
        for _ in range(GUIDE_TICKS):
            line, kind, _ = self.reader.look()
            if kind == "do" and all(w in line for w in wanted):
                return line
            self.twin.step(1)
        raise AssertionError("the guidance line does not ask for %s: %r" % (wanted, line))

    def decide(self):
        side = acting(self.view())
        assert side, self.view()
        self.guided(cap(side))  # the line names the side that acts, and the page no other
        return PagePlayers.decide(self)

    def pawns(self):
        view = self.view()
        if view["expected"]:
            self.guided(*["move the %s pawn to %s" % (side, view["pawns"][side])
                          for side in sorted(view["pawns"]) if str(view["pawns"][side]) in
                          view["expected"]])
        return PagePlayers.pawns(self)


def test_a_whole_game_on_the_agent_avenue_page_in_words(site):
    t0 = time.time()
    s = site(AvenueTwin(seed=12, speed=SPEED))
    avenue_new_game(s.page, "advanced", 2)
    until(lambda: s.twin.view and s.twin.view.get("phase") == "play", "the first turn")
    s.twin.pause()
    hands = GuidedPlayers(s, 12)
    hands.play(s.reader.look)
    end = [e for _, e in s.twin.events if e.get("event") == "end"][-1]
    line, kind, lines = s.reader.look()
    assert kind == "over" and line.startswith(cap(end["winner"]) + " wins ("), line
    assert lines["#result"] == [line.split(" Press")[0]], lines["#result"]
    assert firmware(s.twin)["view"]["phase"] == "game_over" and not s.errors
    print("agent-avenue: %d decisions, %d looks (%.1f s), %.1f s" % (
        hands.decisions, s.reader.looks, s.reader.spent, time.time() - t0))
