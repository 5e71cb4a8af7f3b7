"""Whole games of Agent Avenue on the simulated board, the real firmware refereeing on the
MicroPython unix port: the players' own rules game decides, their hands carry each decision out
on the pads, the pawns and the buttons, and after every decision the board's public view must
be the players' position (the face-down card hidden)."""
import pytest

from tests.avenue_board import Players, same_game


def checked(players):
    view = players.view()
    wrong = same_game(players, view)
    assert not wrong, "after decision %d: %s" % (players.decisions, "; ".join(wrong))


def play(seed, mode, seats, **kw):
    p = Players(seed, mode, seats, **kw)
    try:
        checked(p)
        st = p.play_to_end(checked)
        events = [e for e in p.lines if e.get("event") == "end"]
        assert len(events) == 1 and events[0]["winner"] == ("green", "blue")[st.winner]
        return p
    finally:
        p.close()


def test_a_simple_game_to_the_end():
    play(3, "simple", (1, 1))
