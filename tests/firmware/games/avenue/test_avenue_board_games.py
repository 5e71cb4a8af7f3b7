"""Whole games of Agent Avenue on the simulated board, the real firmware refereeing on the
MicroPython unix port: the players' own rules game decides, their hands carry each decision out
on the pads, the pawns and the buttons, and after every decision the board's public view must
be the players' position (the face-down card hidden).

The games are chosen so that, between them, every black-market card is taken (each ability with
an agent, with none where it can be none, Spycation recruiting again and not), every end of the
game happens (with and without the tie rule), a discard and a declared identical pair are
played, in the simple and the advanced mode, alone and in teams (2/2, 2/1, 1/2)."""
import json
import os

import pytest

from host_tools.games.avenue.players import Players, public_of
from shared_rules.protocol import Rules
from conftest import ROOT
import played
from played import AvenueGame, checked

CARDS = json.load(open(os.path.join(ROOT, "shared_rules", "data", "agent-avenue-cards.json")))
BOARD = json.load(open(os.path.join(ROOT, "shared_rules", "data", "agent-avenue-board.json")))

# (seed, mode, seats, black-market cards taken, end reason and tie, what else happens)
GAMES = [
    (3, "simple", (1, 1), (), ("catch", False), ()),
    (19, "advanced", (1, 2), ("leader_of_the_pack", "mind_control", "security_system",
                              "smoke_screen", "spycation", "watchtower"), ("catch", False),
     ("discard",)),
    (18, "advanced", (1, 2), ("distraction_device", "getaway_car", "masterplan",
                              "secret_recruit", "supercomputer", "surveillance_truck"), None, ()),
    (40, "advanced", (2, 1), ("double_trouble", "outpost", "sinister_twin"), ("catch", True), ()),
    (43, "advanced", (2, 1), ("double_trouble",), ("codebreakers", False), ()),
    (31, "advanced", (2, 1), ("spycation",), ("daredevils", False), ()),
    (85, "advanced", (2, 1), ("outpost", "secret_recruit"), None, ()),
    (39, "advanced", (1, 1), (), ("security_system", False), ()),
    (46, "advanced", (1, 1), (), ("daredevils", True), ()),
    (3, "advanced", (1, 1), (), ("security_system", True), ()),
    (29, "simple", (1, 1), (), ("codebreakers", True), ()),
    (34, "advanced", (1, 1), (), ("masterplan", False), ()),
    (31, "simple", (1, 2), (), None, ("forced",)),
    (101, "advanced", (2, 2), ("smoke_screen",), None, ()),
    (47, "advanced", (2, 1), (), ("masterplan", True), ()),
    (50, "simple", (2, 1), (), ("cards_out", False), ()),
]


def play(seed, mode, seats, **kw):
    """The whole game, checked after every decision (played.checked), then: one end, its
    winner the players' and the only win said, the exported record replayed to the players'
    final position. A plain game (no kw) is played once per run (tests/played.py)."""
    if kw:
        p = Players(seed, mode, seats, **kw)
        try:
            checked(p)
            st = p.play_to_end(checked)
            p.drain()
            g = AvenueGame(list(p.lines), st, p.decisions, p.console({"op": "export"})["record"])
        finally:
            p.close()
    else:
        g = played.avenue(seed, mode, seats)
    ends = [e for e in g.lines if e.get("event") == "end"]
    assert len(ends) == 1 and ends[0]["winner"] == ("green", "blue")[g.st.winner]
    wins = [e for e in g.lines if e.get("event") == "win"]
    assert [w["side"] for w in wins] == [ends[0]["winner"]]
    replayed(g)
    return g


def start_position(rec):
    """The opening position of a record (agent-avenue-rules.md: pawns on their homes, 4 cards
    per seat, the deck the rest, full discards: 4 alone, 2 in a team)."""
    setup = BOARD["setup"]
    seats = rec["seats"]
    hands = dict((s, [setup["hand"]] * seats[s]) for s in seats)
    discards = dict((s, [setup["discards_alone"] if seats[s] == 1 else setup["discards_team"]]
                         * seats[s]) for s in seats)
    pos = {"game": "agent-avenue", "mode": rec["mode"], "seats": seats, "active": rec["active"],
           "phase": "play", "pawns": dict(BOARD["homes"]), "hands": hands,
           "deck": 38 - setup["hand"] * rec["players"], "discards_left": discards}
    if rec["mode"] == "advanced":
        pos["offer"] = rec["offer"]
        pos["market_deck"] = len(CARDS["market"]) - len(rec["offer"])
        pos["ongoing"] = {"green": [], "blue": []}
    return pos


def replayed(g):
    """The board's exported record, replayed through the rules protocol from its start, ends
    in the players' own final position."""
    rec = g.record
    assert rec["format"] == "agentboard-record/1" and rec["game"] == "agent-avenue"
    assert len(rec["turns"]) == g.decisions
    rules = Rules()
    pos = start_position(rec)
    for turn in rec["turns"]:
        ans = rules.handle({"op": "apply", "position": pos, "move": turn["move"]})
        assert ans["ok"], (turn, ans)
        pos = json.loads(json.dumps(ans["position"]))
    want = json.loads(json.dumps(public_of(g.st)))
    assert pos == want


@pytest.mark.parametrize("seed,mode,seats,taken,end,also", GAMES)
def test_a_whole_game(seed, mode, seats, taken, end, also):
    g = play(seed, mode, seats)
    events = g.lines
    got = set(e["card"] for e in events if e.get("event") == "market")
    assert set(taken) <= got
    if end is not None:
        e = [x for x in events if x.get("event") == "end"][0]
        assert (e["reason"], bool(e.get("tie"))) == end
    for what in also:
        assert any(x.get("event") == what for x in events), what
    if mode == "simple":
        assert not got


def test_the_games_cover_every_card_and_every_end():
    market = set(c["name"] for c in CARDS["market"])
    assert set(c for g in GAMES for c in g[3]) == market
    ends = set(g[4][0] for g in GAMES if g[4])
    assert ends == set(BOARD["end_reasons"])
    assert set(g[2] for g in GAMES) == {(1, 1), (2, 2), (2, 1), (1, 2)}


def test_stickers_enrolled_on_the_console_and_the_offer_tapped_in():
    p = play(7, "advanced", (1, 1), enrol=True, offer_by_tap=True)
    offers = [e for e in p.lines if e.get("event") == "offer"]
    assert len(offers) == 1 and len(offers[0]["offer"]) == 3


def test_the_demo_plays_a_whole_game(capsys):
    from host_tools.games.avenue import demo as avenue_demo
    assert avenue_demo.main(["--seed", "19", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "puts a card face down" in out and "wins (" in out
    assert "public view matched the players' own game" in out
