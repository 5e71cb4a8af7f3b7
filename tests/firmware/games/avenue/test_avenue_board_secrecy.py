"""The face-down card stays secret until the recruit: the same game is played on fresh boards up
to a play, and there the face-down card is each of several agents (a different sticker, a
different name); every console byte the firmware writes, every public view and every LED frame
must be the same on all of them, while the cards are put down, while the board waits, when a
card is refused on the other pad, and when the other side lifts its first card (the recruit is
decided only when the second card leaves)."""
import json

import pytest

from shared_rules.avenue import move as M
from host_tools.games.avenue.players import Players, TB

ALTERNATIVES = 3


def to_the_play(seed, mode, seats, nth):
    """A board with the players' game run up to its nth play; returns (players, the play)."""
    p = Players(seed, mode, seats)
    plays = 0
    while True:
        mv = p.choose()
        if mv.kind == M.PLAY:
            if plays == nth:
                return p, mv
            plays += 1
        p.carry_out(mv)


def downs_possible(st, up):
    """Agents the face-down card could be, besides the face-up one's name: copies left."""
    out = []
    for a in range(TB.nagents):
        used = st.in_play(a) + (1 if a == up else 0)
        if a != up and used < TB.copies[a]:
            out.append(a)
    return out


def raw_console(p):
    """Every console line since the last look, as the firmware wrote it (those the players read
    while they waited for the board's answer too)."""
    return p.console_lines()


def cards_read(lines):
    """The faces of the cards the board says it read, in those console lines."""
    return [e["face"] for e in (json.loads(x) for x in lines if x.startswith("{"))
            if e.get("event") == "card"]


def outputs(seed, mode, seats, nth, down):
    p, mv = to_the_play(seed, mode, seats, nth)
    try:
        raw_console(p)  # what came before the play is the same game on every board
        seen = []

        def look(what):
            leds = p.ask({"op": "leds"})["leds"]
            seen.append((what, raw_console(p), json.dumps(leds, sort_keys=True)))
            view = p.ask({"op": "console", "send": {"op": "public"}})["lines"]
            seen.append((what + " view", view))

        p.light_seat(mv.up_seat)
        up = p.uid(TB.agent_names[mv.up])
        p.put(up, "up")
        look("up")
        hidden = p.uid(TB.agent_names[down], (up,))
        p.ask({"op": "card", "uid": hidden, "reader": "down"})
        for ms in (40, 80, 120, 200, 400):
            p.wait(ms)
            look("down +%d ms" % ms)
        p.wait(2000)
        look("waiting")
        # a black-market card tapped now is refused, whatever lies face down
        p.tap(p.uid(TB.market_names[0]))
        look("tap refused")
        p.ask({"op": "card_off", "reader": "down"})  # the other side takes the face-down card
        for ms in (100, 300, 600, 1000):
            p.wait(ms)
            look("first lift +%d ms" % ms)
        p.ask({"op": "card", "uid": hidden, "reader": "down"})  # ... and puts it back
        p.wait(600)
        look("put back")
        return seen
    finally:
        p.close()


@pytest.mark.parametrize("seed,mode,seats,nth", [
    (2, "simple", (1, 1), 1),
    (6, "advanced", (2, 2), 0),
    (3, "advanced", (2, 1), 2),
])
def test_nothing_shows_the_face_down_card_until_the_recruit(seed, mode, seats, nth):
    p, mv = to_the_play(seed, mode, seats, nth)
    st = p.st
    p.close()
    downs = downs_possible(st, mv.up)[:ALTERNATIVES]
    assert len(downs) == ALTERNATIVES
    first = outputs(seed, mode, seats, nth, downs[0])
    assert any("hidden" in "".join(step[1]) for step in first)  # the view was read
    # every line is compared: the first look has the board's answer to the face-up card,
    # which came while the players waited for it
    assert first[0][0] == "up" and cards_read(first[0][1]) == ["up"], first[0]
    for d in downs[1:]:
        other = outputs(seed, mode, seats, nth, d)
        for a, b in zip(first, other):
            assert a == b, "%s differs with %s face down instead of %s" % (
                a[0], TB.agent_names[d], TB.agent_names[downs[0]])


def test_the_recruit_reveals_the_face_down_card():
    p, mv = to_the_play(2, "simple", (1, 1), 1)
    try:
        p.carry_out(mv)
        p.drain()
        p.carry_out(M.recruit(M.TAKE_DOWN))
        recruits = [e for e in p.drain() if e.get("event") == "recruit"]
        # the other side recruits first (it took the face-down card), then the active side
        assert [r["agent"] for r in recruits] == [TB.agent_names[mv.down],
                                                  TB.agent_names[mv.up]]
        assert recruits[0]["side"] != recruits[1]["side"]
    finally:
        p.close()


def outputs_across_power_cuts(seed, mode, seats, nth, down, stranger):
    """The play with `down` face down, then power cuts in the recruit: the other side's first
    card taken before a cut, a stranger card put on the down pad after it, the face-down card
    put back, and a cut once more with both cards lifted."""
    p, mv = to_the_play(seed, mode, seats, nth)
    try:
        raw_console(p)
        seen = []

        def look(what):
            leds = p.ask({"op": "leds"})["leds"]
            seen.append((what, raw_console(p), json.dumps(leds, sort_keys=True)))
            seen.append((what + " view", p.ask({"op": "console", "send": {"op": "public"}})[
                "lines"]))

        p.light_seat(mv.up_seat)
        up = p.uid(TB.agent_names[mv.up])
        p.put(up, "up")
        hidden = p.uid(TB.agent_names[down], (up,))
        p.put(hidden, "down")
        look("played")
        p.take("down")
        p.ask({"op": "power_cut"})
        p.ask({"op": "power_on"})
        for ms in (100, 400, 1500):
            p.wait(ms)
            look("power-up +%d ms" % ms)
        p.put(stranger, "down")
        look("a stranger on the down pad")
        p.take("down")
        p.put(hidden, "down")
        look("the face-down card back")
        p.ask({"op": "power_cut"})
        p.ask({"op": "card_off", "reader": "up"})
        p.ask({"op": "card_off", "reader": "down"})
        p.ask({"op": "power_on"})
        p.wait(1500)
        look("both lifted during a cut")
        return seen
    finally:
        p.close()


def test_power_cuts_in_the_recruit_show_nothing_of_the_face_down_card():
    seed, mode, seats, nth = 2, "simple", (1, 1), 1
    p, mv = to_the_play(seed, mode, seats, nth)
    st = p.st
    p.close()
    downs = downs_possible(st, mv.up)[:ALTERNATIVES]
    assert len(downs) == ALTERNATIVES
    # a card put on the down pad by mistake: of a kind none of the alternatives is
    strangers = [a for a in range(TB.nagents) if a not in downs and a != mv.up]
    stranger = p.uids[TB.agent_names[strangers[0]]][-1]
    first = outputs_across_power_cuts(seed, mode, seats, nth, downs[0], stranger)
    assert any('"resumed"' in "".join(step[1]) for step in first)
    # every line is compared: the first look has the board's answers to both cards played
    assert first[0][0] == "played" and cards_read(first[0][1]) == ["up", "down"], first[0]
    for d in downs[1:]:
        other = outputs_across_power_cuts(seed, mode, seats, nth, d, stranger)
        for a, b in zip(first, other):
            assert a == b, "%s differs with %s face down instead of %s" % (
                a[0], TB.agent_names[d], TB.agent_names[downs[0]])
