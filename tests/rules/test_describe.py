# The board's events in words (shared_rules/describe.py and its parts), as the page, `agentboard
# monitor`, the demos and the replay say them: every event the published protocols list
# (docs/board-protocols.md, docs/agent-avenue-board.md) has words, plain words (no JSON, no raw
# location names); they are the same on CPython and MicroPython (the board's own phone view
# will say them); a sentence names a colour or a card only where its event does, and the words
# of whole games stay the same when the hidden facts (who hides under the undercover pieces,
# which card lies face down) are permuted.
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, micropython_cmd
from shared_rules import describe
from shared_rules.describe_base import name

DOCS = os.path.join(ROOT, "docs")
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
with open(os.path.join(ROOT, "shared_rules", "data", "agent-avenue-names.json")) as f:
    NAMES = json.load(f)
CARD_KEYS = [c["name"] for c in NAMES["agents"] + NAMES["market"]]

# one event of every kind the protocols list, with the fields they give it
TRACK = [
    {"event": "boot", "version": "4f2a9c1", "calibrated": True, "cards_enrolled": 110,
     "nfc_version": 146},
    {"event": "resumed", "turns": 12, "to_move": "blue"},
    {"event": "resumed", "turns": 0, "to_move": "red"},
    {"event": "new_game", "game": "agent-dog", "layout": "agent-dog-4", "players": 4,
     "seats": ["red", "blue", "green", "yellow"], "dealer": "red"},
    {"event": "turn", "seat": "green"},
    {"event": "card", "card": "5", "seat": "red"},
    {"event": "card_back", "card": "1/11", "seat": "red"},
    {"event": "move", "seat": "red", "card": "5", "move": {"card": "5", "path": [[12, 17]]}},
    {"event": "move", "seat": "blue", "card": "13",
     "move": {"card": "13", "path": [["blue:start", 16]], "rank": "king"}},
    {"event": "move", "seat": "red", "card": "partner",
     "move": {"card": "partner", "path": [[12, 14], [60, "red:h2"]]}},
    {"event": "move", "seat": "red", "card": "swap", "move": {"card": "swap", "swap": [20, 44]}},
    {"event": "move", "seat": "red", "card": "7", "move": {"card": "7", "path": [[1, 8]],
                                                         "jump": 24, "meet": [8, 40]}},
    {"event": "effect", "kind": "knock_out", "at": 20, "to": "blue:start", "colour": "blue"},
    {"event": "effect", "kind": "flip", "at": 12, "undercover": True},
    {"event": "effect", "kind": "flip", "at": 12, "undercover": False},
    {"event": "effect", "kind": "meeting", "point": 8, "from": 5, "to": 7},
    {"event": "effect", "kind": "meetings", "points": [8, 40],
     "note": "carry out the meetings in the order you choose"},
    {"event": "effect", "kind": "reveal", "at": "green:h3", "colour": "green",
     "outcome": "stays", "to": "green:h3"},
    {"event": "effect", "kind": "reveal", "at": "red:h1", "colour": "yellow",
     "outcome": "to_home", "to": "yellow:h4"},
    {"event": "effect", "kind": "out", "seat": "yellow", "reason": "own_capture"},
    {"event": "reject", "reason": "that piece cannot move with the 5",
     "locations": ["12", "red:s2"]},
    {"event": "reject", "reason": "unknown card: this sticker is not enrolled",
     "uid": "04a1b2c3d4e5f6"},
    {"event": "mismatch", "locations": ["0", "16", "32", "48", "red:s4"]},
    {"event": "resolved", "phase": "await_card"},
    {"event": "pass", "seat": "blue"},
    {"event": "undo", "turns": 7},
    {"event": "round_end", "dealer": "blue"},
    {"event": "win", "seats": ["red", "green"]},
    {"event": "fault", "what": "save", "reason": "no space", "errno": 28},
    {"event": "fault", "what": "memory", "reason": "no room left to keep the game"},
    {"event": "fault", "what": "load", "reason": "unreadable", "errno": 5},
    {"event": "fault", "what": "calib.json", "reason": "not JSON"},
    {"event": "draw", "seat": "red"},
    {"event": "jump", "from": 24, "to": 40, "rank": "citizen"},
]
AVENUE = [
    {"event": "boot", "version": "4f2a9c1", "game": "agent-avenue", "calibrated": True,
     "cards_enrolled": 53, "nfc_version": 145},
    {"event": "new_game", "game": "agent-avenue", "mode": "advanced",
     "seats": {"green": 2, "blue": 1}, "active": "green"},
    {"event": "offer", "offer": ["masterplan", "outpost", "leader_of_the_pack"]},
    {"event": "resumed", "decisions": 9, "phase": "recruit"},
    {"event": "turn", "side": "blue"},
    {"event": "card", "face": "up", "card": "double_agent", "side": "green", "seat": 0},
    {"event": "card", "face": "down", "side": "green", "seat": 1},
    {"event": "card_off", "face": "down"},
    {"event": "seat", "side": "green", "seat": 1},
    {"event": "forced", "side": "blue"},
    {"event": "taken", "face": "up"},
    {"event": "tap", "what": "market", "card": "outpost"},
    {"event": "tap", "what": "refill", "card": "spycation"},
    {"event": "tap", "what": "agent", "card": "sentinel"},
    {"event": "tap", "what": "cleared"},
    {"event": "reject", "reader": "down", "reason": "the two cards must bear different names"},
    {"event": "mismatch", "locations": ["3", "5"]},
    {"event": "mismatch", "locations": []},
    {"event": "win", "side": "green"},
    {"event": "fault", "what": "save", "reason": "no space", "errno": 28},
    {"event": "discard", "side": "blue", "seat": 0},
    {"event": "draw", "side": "blue", "seat": 0, "n": 2},
    {"event": "play", "side": "green", "up": "enforcer", "up_seat": 0},
    {"event": "recruit", "side": "green", "agent": "enforcer", "count": 2},
    {"event": "pawn", "side": "blue", "from": 9, "to": 6, "steps": -3},
    {"event": "market", "side": "blue", "card": "masterplan"},
    {"event": "refill", "card": "smoke_screen"},
    {"event": "hand", "side": "green", "agent": "mole", "to": "blue"},
    {"event": "end", "winner": "blue", "reason": "cards_out", "tie": True},
]
SAMPLES = [("agent-dog", e) for e in TRACK] + [("agent-avenue", e) for e in AVENUE]


def documented(doc):
    """The event kinds a protocol page lists: its events table, the effect kinds and (Agent
    Avenue) the rules core's events it writes as they happen."""
    with open(os.path.join(DOCS, doc)) as f:
        text = f.read()
    part = text[text.index("### Events"):]
    part = part[:part.index("\n### ", 5)]
    kinds = set(re.findall(r"^\| `(\w+)` \|", part, re.M))
    if "`effect`" in part:
        row = next(line for line in part.splitlines() if line.startswith("| `effect`"))
        kinds |= set("effect:" + k for k in re.findall(r"`(\w+)` \(", row))
        kinds |= set("effect:" + k for k in re.findall(r"`(meetings)`", row))
        kinds.discard("effect")  # its kinds stand for it
    head = part[:part.index("|")]
    kinds |= set(re.findall(r"`(\w+)`(?:,| \(|\.)", head)) - {"event", "type", "up",
                                                               "up_seat", "apply"}
    return kinds


def kind_of(ev):
    return "effect:" + ev["kind"] if ev["event"] == "effect" else ev["event"]


PLAIN = re.compile(r"[{}\[\]\"_\\]|\b\w+:[sh]?\d|\bnull\b|\bNone\b|\bTrue\b|\bFalse\b")


def plain(text):
    """A sentence for a person: no JSON, no raw location names, no code names."""
    return text and not PLAIN.search(text) and text[0].isupper() and text[-1] in ".!"


# -- every event has words ---------------------------------------------------------------------
@pytest.mark.parametrize("doc,game", [("board-protocols.md", "agent-dog"),
                                      ("agent-avenue-board.md", "agent-avenue")])
def test_every_event_the_protocols_list_has_words(doc, game):
    kinds = documented(doc)
    assert len(kinds) > 15, kinds  # the tables were found
    sampled = set(kind_of(e) for g, e in SAMPLES if g == game)
    assert kinds <= sampled, "events without a sample here: %s" % sorted(kinds - sampled)
    for g, ev in SAMPLES:
        if g != game:
            continue
        said = describe.words(ev, game)
        assert plain(said), (ev, said)
        assert not said.startswith("The board says"), (ev, said)  # the fallback
        # the event's game is found from its own fields too (monitor before any new_game)
        assert describe.words(ev) == said, ev


def test_the_words_of_the_issue():
    say = describe.words
    assert say(TRACK[7]) == "Red plays a 5: 12 -> 17."
    assert say(TRACK[12]) == "Blue's piece on 20 is knocked out: put it in blue's start area."
    assert say(AVENUE[23]) == "Green recruits the Enforcer (2 in play)."
    # the raw lists the page showed before: in words
    assert say(TRACK[0]) == ("The board started (build 4f2a9c1): 110 cards enrolled, sensors "
                             "calibrated, card reader answers.")
    assert say(TRACK[22]) == ("The board differs from the game at 0, 16, 32, 48 and red's "
                              "start area.")
    assert say(TRACK[8]) == "Blue plays a 13: blue's start area -> 16 (the king)."
    assert say(TRACK[9]) == "Red plays a partner card: 12 -> 14, 60 -> red's home space 2."
    assert say(AVENUE[6]) == "Green puts a card face down (seat 2)."
    assert say(AVENUE[-1]) == ("Blue wins (the cards ran out and its pawn was closer to a "
                               "catch; the tie rule decided).")


def test_an_unknown_event_still_gets_words():
    # a newer firmware's event: its kind, said plainly, never its JSON
    assert describe.words({"event": "new_thing", "x": [1]}) == "The board says: new thing."


def test_the_names_of_the_cards_are_their_english_names():
    # names come from the rules core's keys, so the board needs no table of names in memory
    for c in NAMES["agents"] + NAMES["market"]:
        assert name(c["name"]) == c["names"]["en"]


def test_the_rules_cores_events_have_the_boards_words():
    # a track game's capture is the board's knock_out; a move is said by move_text
    capture = {"type": "capture", "at": 20, "colour": "blue", "rank": "king"}
    assert describe.words(capture) == ("Blue's king on 20 is knocked out: put it in blue's "
                                       "start area.")
    assert describe.words({"type": "move", "from": 1, "to": 2}) is None
    assert describe.words({"type": "recruit", "side": "blue", "agent": "mole", "count": 1},
                          "agent-avenue") == "Blue recruits the Mole (1 in play)."


VIEWS = [
    {"game": "agent-dog", "players": 4, "phase": "await_move", "to_move": "red",
     "card": "partner", "steps_left": 3, "out": ["green"],
     "cards_left": {"red": 4, "blue": 5, "green": 0, "yellow": 5},
     "expected": ["0", "16", "red:s4"]},
    {"game": "dog-royal", "players": 2, "phase": "setup", "to_move": "red", "card": None,
     "steps_left": None, "out": [], "cards_left": {"red": 6, "green": 6},
     "expected": ["red:s1"]},
    {"game": "agent-avenue", "mode": "advanced", "seats": {"green": 1, "blue": 2},
     "phase": "market", "rules_phase": "market", "pending": ["blue"], "active": "green",
     "deck": 20, "market_deck": 9, "expected": [], "tap": "market"},
    {"game": "agent-avenue", "mode": "simple", "seats": {"green": 1, "blue": 1},
     "phase": "await_effect", "rules_phase": "recruit", "pending": [], "active": "green",
     "deck": 1, "market_deck": 12, "expected": ["3", "5"], "tap": None},
]


def test_the_public_view_in_a_line():
    for v in VIEWS:
        for actor in (True, False):
            line = describe.view_words(v, actor)
            assert not PLAIN.search(line) and "await" not in line, line
    assert describe.view_words(VIEWS[0]) == (
        "Agent DOG, 4 players · red to move with the partner · 3 steps left · out of the "
        "round: green · cards in hand: blue 5, green 0, red 4, yellow 5")
    assert describe.view_words(VIEWS[0], False).startswith(
        "Agent DOG, 4 players · the partner in play")
    # who acts in the black market: the side taking, never the active one
    assert "blue: the black market" in describe.view_words(VIEWS[2])
    assert "blue" not in describe.view_words(VIEWS[2], False).split("·", 2)[2]


# -- the same words on both interpreters ---------------------------------------------------------
def said_by(interpreter, requests):
    out = subprocess.run([interpreter, "tests/mp/words.py"], input="".join(
        json.dumps(r) + "\n" for r in requests), capture_output=True, text=True, cwd=ROOT,
        timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.mark.micropython
def test_the_words_are_the_same_on_micropython(whole_games):
    requests = [{"ev": e, "game": g} for g, e in SAMPLES]
    requests += [{"ev": e, "game": None} for g in sorted(whole_games)
                 for e in whole_games[g]]
    requests += [{"view": v, "actor": a} for v in VIEWS for a in (True, False)]
    here = said_by(sys.executable, requests)
    assert here == said_by(micropython_cmd(), requests)
    assert all(here), "an event with no words"


# -- no hidden fact ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def whole_games():
    """The console events of whole games on the simulated boards (the real firmware):
    Agent DOG (undercover pieces), DOG Royal (ranks, draws, jumps), Agent Avenue advanced."""
    from host_tools.games.track import demo
    from host_tools.games.avenue.players import Players
    from host_tools.games.track.players import Table
    games = {}
    for game, board, seed in (("agent-dog", "agent-dog-4", 2), ("dog-royal", "dog-4", 3)):
        table = Table(seed=seed, board=board)
        try:
            demo.play(table, 2, game, seed)
            games[game] = list(table.events)
        finally:
            table.close()
    p = Players(4, "advanced", (1, 1))
    try:
        p.play_to_end()
        p.drain()
        games["agent-avenue"] = list(p.lines)
    finally:
        p.close()
    return games


def values(obj):
    """Every string and number in an event, however deep (and the keys of its mappings, such
    as the sides of a seating)."""
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in [k] + values(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in values(v)]
    return [str(obj)]


def named(text, words):
    return set(w for w in words if re.search(r"\b%s\b" % re.escape(w), text, re.I))


def test_a_sentence_names_a_colour_or_a_card_only_where_its_event_does(whole_games):
    kinds = set()
    for game in sorted(whole_games):
        for ev in whole_games[game]:
            said = describe.words(ev)
            kinds.add(ev["event"])
            assert plain(said), (ev, said)
            carried = " ".join(values(ev)).replace("_", " ")
            # (the black market is no colour)
            colours = named(said.replace("black market", ""), COLOURS)
            assert colours <= named(carried, COLOURS), (ev, said)
            cards = [name(k) for k in CARD_KEYS]
            assert named(said, cards) <= named(carried, cards), (ev, said)
    # the games said the events a game is made of
    assert {"card", "move", "effect", "turn", "recruit", "pawn", "end", "win"} <= kinds


def test_the_words_do_not_depend_on_who_is_undercover():
    """Positions of whole games and the same boards with the colours under the undercover
    pieces permuted: the words of every console line the referee writes while players tap
    cards, lift pieces, swap and take back, up to the line the rules reveal a colour in, are
    the same (tests/firmware/games/track/test_secrecy.py runs the referee)."""
    from shared_rules.rng import Rng
    from test_secrecy import outputs, permuted, positions_of_whole_games, scripts_for, \
        until_revealed
    rng = Rng(8)
    checked = 0
    for st in positions_of_whole_games()[::6]:
        other = permuted(st, 1 + rng.below(3))
        if other is None or bytes(other.pos) == bytes(st.pos):
            continue
        for script in scripts_for(st, rng)[:4]:
            a = until_revealed(outputs(st, script))
            b = until_revealed(outputs(other, script))
            assert [said_of(lines) for lines, _ in a] == [said_of(lines) for lines, _ in b]
            checked += 1
    assert checked > 20


def said_of(lines):
    out = []
    for line in lines:
        obj = json.loads(line)
        if "event" in obj:
            out.append(describe.words(obj))
    return out


@pytest.mark.micropython
def test_the_words_do_not_depend_on_the_face_down_card():
    """A game up to a play, the face-down card each of three agents: the words of every event
    the board writes up to the recruit are the same (tests/firmware/
    test_avenue_board_secrecy.py)."""
    from test_avenue_board_secrecy import downs_possible, outputs, to_the_play
    p, mv = to_the_play(3, "advanced", (2, 1), 1)
    st = p.st
    p.close()
    said = []
    for down in downs_possible(st, mv.up)[:3]:
        steps = outputs(3, "advanced", (2, 1), 1, down)
        said.append([said_of([x for x in step[1] if x.startswith("{")])
                     for step in steps if not step[0].endswith("view")])
    assert len(said) == 3 and any(said[0])
    assert said[0] == said[1] == said[2]
