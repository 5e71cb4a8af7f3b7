# The card readers as designed (hardware/design/readers.json): the field model against the loop
# antenna's closed form, where every board's discard pile lies (out of every reader's field: a
# pile over the reader, the first design, makes the second card played two cards and a full
# pile unreadable), hardware/README.md's Card readers block computed from the data, and the
# control channel's discard op (docs/board-protocols.md, section 2). The readers' behaviour with
# the firmware on MicroPython: tests/mp/nfc_tests.py.
import copy

import pytest

from hardware.design import readers as R
from hardware.design import data
from hardware.design.__main__ import README, readme_readers_block
from host_tools.sim import requests
from host_tools.sim.server import Sim

SPEC = R.load()
FIELD = R.Field(SPEC)
DOG_DECK = 110  # the DOG and Agent DOG decks: a discard pile grows to most of them
DOG_BOARDS = ("agent-dog-4", "dog-4", "dog-6")


def test_the_field_is_the_loop_antennas_on_its_axis_and_a_dipoles_far_off():
    a = FIELD.a
    for z in (3.0, 10.0, 50.0):
        # on the axis: H = I a^2 / (2 (a^2 + z^2)^1.5)
        closed = FIELD.scale * a * a / (2 * (a * a + z * z) ** 1.5)
        assert FIELD.h(0, 0, z) == pytest.approx(closed, rel=1e-9)
    assert FIELD.h(0, 0, SPEC["field"]["reference_distance_mm"]) == pytest.approx(
        SPEC["field"]["reference_a_per_m"])
    # far off in the antenna's plane a loop is a dipole: half its on-axis field, reversed
    far = 2000.0
    assert FIELD.h(far, 0, 0.5) / FIELD.h(0, 0, far) == pytest.approx(0.5, rel=0.01)
    # the complete elliptic integrals at a known point: K(1/2) = 1.8540747, E(1/2) = 1.3506439
    k, e = R.ellip_ke(0.5)
    assert (k, e) == (pytest.approx(1.8540747, abs=1e-7), pytest.approx(1.3506439, abs=1e-7))


def test_stickers_on_each_other_lose_their_field_and_a_lone_one_keeps_it():
    p = R.stack_products(SPEC, 30)
    assert R.detune(p, 0, 1) == 1.0
    two = R.detune(p, 0, 2)
    assert two == pytest.approx(1 - SPEC["sticker"]["stack_loss"], rel=0.01)
    assert R.detune(p, 10, 21) < R.detune(p, 0, 21) < two


def test_every_board_has_a_layout_with_a_pad_under_each_reader():
    for folder in data.variant_folders():
        v = data.Variant(folder)
        lay = SPEC["layouts"][v.config.get("layout", v.name)]
        assert sorted(lay["pads_mm"]) == sorted(v.pins["nfc"].get("readers", ["cards"]))


def pile_reaches(spec):
    """{board: the strongest field of any reader at a card of its discard pile, over the
    field the most sensitive sticker of a deck needs}."""
    lo = R._needs(spec)[0]
    out = {}
    for name, lay in spec["layouts"].items():
        out[name] = max(R.pile_field(spec, FIELD, lay, p) for p in lay["pads_mm"]) / lo
    return out


def test_every_discard_pile_lies_out_of_every_readers_field():
    reach = pile_reaches(SPEC)
    assert all(r < 0.1 for r in reach.values()), reach


def test_a_pile_over_the_reader_would_power_the_cards_under_the_one_played():
    # the first design of the DOG boards (the reader under the discard pile): a card played
    # on the pile lies in the field with those under it, and a pile of a deck reads not at all
    old = copy.deepcopy(SPEC)
    for name in DOG_BOARDS:
        lay = old["layouts"][name]
        lay["pile_mm"] = list(lay["pads_mm"]["cards"])
    reach = pile_reaches(old)
    assert all(reach[name] > 1 for name in DOG_BOARDS), reach
    depth = old["layouts"]["agent-dog-4"]["antenna_depth_mm"]
    _, nominal, _ = R._needs(SPEC)
    assert R.pile_read(SPEC, FIELD, depth, 2, nominal)  # two cards: both answer, they collide
    assert R.largest_pile(SPEC, FIELD, depth, nominal) < DOG_DECK // 10


def test_the_readme_carries_the_computed_card_readers():
    with open(README, encoding="utf-8") as f:
        block = readme_readers_block(f.read())
    assert block is not None, "hardware/README.md lost its card-readers markers"
    assert block == R.report(), \
        "hardware/README.md's Card readers are stale: python -m hardware.design readers --readme"


def test_discard_is_checked_like_card_off():
    assert requests.check({"op": "discard"}) == {"op": "discard"}
    assert requests.check({"op": "discard", "reader": "tap"}) == {"op": "discard",
                                                                  "reader": "tap"}
    for bad in ({"op": "discard", "reader": 3}, {"op": "discard", "at": "12"},
                {"op": "discard", "uid": "04a1b2c3d4e5f6"}):
        with pytest.raises(requests.BadRequest):
            requests.check(bad)


@pytest.mark.micropython
def test_the_discard_pile_keeps_every_card_played_through_a_power_cut():
    s = Sim(seed=3)
    try:
        cards = [c["uid"] for c in s.request({"op": "deck"})["cards"][:3]]
        for uid in cards:
            assert s.request({"op": "card", "uid": uid})["ok"]
            assert s.request({"op": "wait", "ms": 200})["ok"]
            assert s.request({"op": "discard"}) == {"ok": True}
        snap = s.mirror.snapshot()
        assert snap["pile"] == cards and snap["tags"] == []
        ans = s.request({"op": "discard", "reader": "tap"})
        assert ans["error"] == "refused" and "one card reader" in ans["reason"]
        # the hands work with the device off; the pile is there when it boots again
        assert s.request({"op": "power_cut"})["ok"]
        assert s.request({"op": "card", "uid": cards[0]})["error"] == "device_off"
        assert s.request({"op": "discard"}) == {"ok": True}
        assert s.request({"op": "power_on"})["ok"]
        assert s.request({"op": "wait", "ms": 500})["ok"]
        assert s.mirror.snapshot()["pile"] == cards
        # a card of a kind taken from the hands, not from the pile, while the hands hold one
        kind = s.request({"op": "deck"})["cards"][0]["card"]
        assert s.request({"op": "card", "card": kind})["ok"]
        assert s.mirror.snapshot()["tags"] != [cards[0]]
    finally:
        s.close()
