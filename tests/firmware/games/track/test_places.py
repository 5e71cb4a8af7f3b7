# The board the game implies and where the sensed board differs from it (firmware/games/track/places.py).
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
from firmware.games.track.places import Places, COUNTED, ANY
from firmware.hal.scanner import EMPTY, UP, DOWN, FAULT, NO_BAND
from conftest import ROOT

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


def set_up(game, st):
    """The board as position st sets it up (each start area filled from its first spot, the
    pieces there of rank 0, 1, ...): places, the expected classes, counts and bands (None
    unranked), the sensed classes and bands (None unranked)."""
    places = places_for(game, st)
    n = places.n
    ranked = st.game.ranked
    classes, bands = bytearray(n), bytearray(n)
    counts = bytearray(st.lay.ncol)
    places.expected(st, classes, counts, bands if ranked else None)
    sensed = bytearray(EMPTY if c == COUNTED else c for c in classes)
    sensed_bands = bytearray(bands)
    for c, row in enumerate(places.spots):
        for k in range(min(counts[c], len(row)) if counts[c] != ANY else 0):
            sensed[row[k]] = UP
            sensed_bands[row[k]] = k
    if not ranked:
        return places, classes, counts, None, sensed, None
    return places, classes, counts, bands, sensed, sensed_bands


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


@settings(max_examples=300, deadline=None)
@given(game=hs.sampled_from(sorted(BOARDS)), which=hs.integers(0, 10 ** 6),
       changes=hs.lists(hs.tuples(hs.integers(0, 255), hs.sampled_from(CLASSES),
                                  hs.sampled_from((0, 1, 2, 3, NO_BAND))), max_size=4),
       all_bands_right=hs.booleans())
def test_differences_follow_the_rule(game, which, changes, all_bands_right):
    sts = BOARDS[game][1]
    places, classes, counts, bands, sensed, sensed_bands = set_up(game, sts[which % len(sts)])
    assert places.differences(classes, counts, sensed, bands, sensed_bands) == []
    for i, cls, band in changes:
        i %= places.n
        sensed[i] = cls
        if sensed_bands is not None and not all_bands_right:
            sensed_bands[i] = band if cls in (UP, DOWN) else NO_BAND
    got = places.differences(classes, counts, sensed, bands, sensed_bands)
    assert len(got) == len(set(got)), "a sensor listed twice"
    assert set(got) == reference(places, classes, counts, sensed, bands, sensed_bands)


def test_an_empty_square_reading_a_band_is_looked_at_sensor_by_sensor():
    # the fast compare sees a band where no piece stands; the rule does not ask about it
    places, classes, counts, bands, sensed, sensed_bands = set_up("dog-royal",
                                                                  BOARDS["dog-royal"][1][0])
    empty = next(i for i in range(places.n) if classes[i] == EMPTY)
    sensed_bands[empty] = 2
    assert places.differences(classes, counts, sensed, bands, sensed_bands) == []
    wrong_rank = next(i for i in range(places.n) if classes[i] == UP)
    sensed_bands[wrong_rank] = (bands[wrong_rank] + 1) % 4
    assert places.differences(classes, counts, sensed, bands, sensed_bands) == [wrong_rank]


def test_a_start_area_piece_upside_down_and_one_too_many_is_listed_once():
    # Agent DOG: a full start area (its count is all its spots) with one more piece would not
    # fit, so take a seat whose area is short of one and put two pieces in: one upside down
    sts = BOARDS["agent-dog"][1]
    for st in sts:
        places, classes, counts, bands, sensed, sensed_bands = set_up("agent-dog", st)
        for c, row in enumerate(places.spots):
            if counts[c] != ANY and counts[c] + 1 < len(row):
                sensed[row[counts[c]]] = UP
                sensed[row[counts[c] + 1]] = DOWN  # the second piece past the count
                got = places.differences(classes, counts, sensed, bands, sensed_bands)
                assert sorted(got) == [row[counts[c]], row[counts[c] + 1]]
                return
    raise AssertionError("no position with a start area two short of full")
