# The board the game implies and where the sensed board differs from it (firmware/places.py).
# differences() answers the common case (nothing differs outside the start areas) with two
# whole-array compares; these tests hold it to the rule it implements, written out here sensor
# by sensor from its docstring: every square outside the start areas must read the class the
# position puts there and, in a ranked game, a piece's rank band; each start area must hold
# its count of upright pieces. Positions come from random whole games on the Agent DOG board
# and the 6-seat DOG Royal board; the sensed boards from those positions with random faults.
import json
import os

from hypothesis import given, settings, strategies as hs

from shared_rules import randgame
from firmware.places import Places, COUNTED, ANY
from firmware.hal.scanner import EMPTY, UP, DOWN, FAULT, NO_BAND

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASSES = (EMPTY, UP, DOWN, FAULT)


def board_places(variant_dir):
    with open(os.path.join(ROOT, "hardware", variant_dir, "sensors.json")) as f:
        names = [s["loc"] for s in json.load(f)["sensors"]]
    return dict((n, i) for i, n in enumerate(names))


def positions(game, players, seed, every=7):
    """Positions of one random game, every `every`-th turn."""
    out = []

    def report(before, seat, card, mv, events):
        if len(out) * every <= report.turn:
            out.append(before)
        report.turn += 1
    report.turn = 0
    randgame.play(seed, players, report=report, game=game)
    return out


BOARDS = {
    "agent-dog": ("", positions("agent-dog", 4, 3)),
    "dog-royal": ("variants/dog-6", positions("dog-royal", 6, 5)),
}
PLACES = {}


def places_for(game, st):
    if game not in PLACES:
        PLACES[game] = Places(st.lay, board_places(BOARDS[game][0]))
    return PLACES[game]


def reference(places, classes, counts, sensed, bands, sensed_bands):
    """The rule, sensor by sensor (as a set: the order is the caller's to choose)."""
    out = set()
    for i in range(places.n):
        e = classes[i]
        if e == COUNTED:
            continue
        if sensed[i] != e:
            out.add(i)
        elif bands is not None and bands[i] != NO_BAND and sensed_bands[i] != bands[i]:
            out.add(i)
    for c, row in enumerate(places.spots):
        if counts[c] == ANY:
            continue
        have = [i for i in row if sensed[i] in (UP, DOWN)]
        out.update(i for i in row if sensed[i] not in (EMPTY, UP))  # upside down, faulty
        if len(have) > counts[c]:
            out.update(have[counts[c]:])  # the pieces past the count, in spot order
        elif len(have) < counts[c]:
            # a free spot for each piece missing, but none in stead of a faulty spot
            free = [i for i in row if sensed[i] == EMPTY]
            out.update(free[:max(0, counts[c] - len(row) + len(free))])
    return out


BOARDS = {
    "agent-dog": ("", positions("agent-dog", 4, 3)),
    "dog-royal": ("variants/dog-6", positions("dog-royal", 6, 5)),
}
PLACES = {}


def places_for(game, st):
    if game not in PLACES:
        PLACES[game] = Places(st.lay, board_places(BOARDS[game][0]))
    return PLACES[game]


def reference(places, classes, counts, sensed, bands, sensed_bands):
    """The rule, sensor by sensor (as a set: the order is the caller's to choose)."""
    out = set()
    for i in range(places.n):
        e = classes[i]
        if e == COUNTED:
            continue
        if sensed[i] != e:
            out.add(i)
        elif bands is not None and bands[i] != NO_BAND and sensed_bands[i] != bands[i]:
            out.add(i)
    for c, row in enumerate(places.spots):
        if counts[c] == ANY:
            continue
        upright = [i for i in row if sensed[i] == UP]
        down = [i for i in row if sensed[i] == DOWN]
        faulty = [i for i in row if sensed[i] not in (EMPTY, UP, DOWN)]
        out.update(down)
        out.update(faulty)
        have = len(upright) + len(down)
        if have > counts[c]:
            out.update((upright + down)[counts[c]:])  # never all: which ones is a choice
        elif have < counts[c]:
            free = [i for i in row if sensed[i] == EMPTY]
            out.update(free[:max(0, counts[c] - len(row) + len(free))])
    return out


@settings(max_examples=300, deadline=None)
@given(game=hs.sampled_from(sorted(BOARDS)), which=hs.integers(0, 10 ** 6),
       changes=hs.lists(hs.tuples(hs.integers(0, 255), hs.sampled_from(CLASSES),
                                  hs.sampled_from((0, 1, 2, 3, NO_BAND))), max_size=4),
       all_bands_right=hs.booleans())
def test_differences_follow_the_rule(game, which, changes, all_bands_right):
    sts = BOARDS[game][1]
    st = sts[which % len(sts)]
    places = places_for(game, st)
    n = places.n
    ranked = st.game.ranked
    classes, bands = bytearray(n), bytearray(n)
    counts = bytearray(st.lay.ncol)
    places.expected(st, classes, counts, bands if ranked else None)
    # the board as the position sets it up, each start area filled from its first spot
    sensed = bytearray(EMPTY if c == COUNTED else c for c in classes)
    sensed_bands = bytearray(bands) if ranked else bytearray([NO_BAND]) * n
    for c, row in enumerate(places.spots):
        for k in range(min(counts[c], len(row)) if counts[c] != ANY else 0):
            sensed[row[k]] = UP
            sensed_bands[row[k]] = k if ranked else NO_BAND
    assert places.differences(classes, counts, sensed, bands if ranked else None,
                              sensed_bands if ranked else None) == []
    for i, cls, band in changes:
        i %= n
        sensed[i] = cls
        if ranked and not all_bands_right:
            sensed_bands[i] = band if cls in (UP, DOWN) else NO_BAND
    got = places.differences(classes, counts, sensed, bands if ranked else None,
                             sensed_bands if ranked else None)
    want = reference(places, classes, counts, sensed, bands if ranked else None,
                     sensed_bands if ranked else None)
    assert len(got) == len(set(got)), "a sensor listed twice"
    assert set(got) == want


def test_an_empty_square_reading_a_band_is_looked_at_sensor_by_sensor():
    # the fast compare sees a band where no piece stands; the rule does not ask about it
    game = "dog-royal"
    st = BOARDS[game][1][0]
    places = places_for(game, st)
    n = places.n
    classes, bands = bytearray(n), bytearray(n)
    counts = bytearray(st.lay.ncol)
    places.expected(st, classes, counts, bands)
    sensed = bytearray(EMPTY if c == COUNTED else c for c in classes)
    sensed_bands = bytearray(bands)
    for c, row in enumerate(places.spots):
        for k in range(min(counts[c], len(row)) if counts[c] != ANY else 0):
            sensed[row[k]] = UP
            sensed_bands[row[k]] = k
    empty = next(i for i in range(n) if classes[i] == EMPTY)
    sensed_bands[empty] = 2
    assert places.differences(classes, counts, sensed, bands, sensed_bands) == []
    wrong_rank = next(i for i in range(n) if classes[i] == UP)
    sensed_bands[wrong_rank] = (bands[wrong_rank] + 1) % 4
    assert places.differences(classes, counts, sensed, bands, sensed_bands) == [wrong_rank]
