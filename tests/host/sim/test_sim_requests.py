# The simulator's control channel on every board (docs/board-protocols.md, section 2;
# docs/agent-avenue-board.md, "The simulator"): a track space may be written as a whole number
# or as its string in every location field, and reaches the board, the firmware and every
# consumer as the string; a request naming a piece, location, reader or card kind the board
# does not have, or a fault it cannot have, is refused before anything happens, with the device
# on and off, and changes nothing.
import json
import subprocess
import sys

import pytest

from conftest import ROOT
from host_tools.sim import requests
from host_tools.sim.server import BOARDS, Sim

AVENUE = "agent-avenue"
ALL_BOARDS = BOARDS + [AVENUE]
SETTLE_MS = 400  # more than the scanner's debounce: the firmware has read the board again
NOT_LOCATIONS = [1.0, 1.5, True, False, -1, {}, [], "", None, {"at": "3"}, ["3"], "x" * 65]


# -- the requests themselves (no device) -------------------------------------------------------
def location_requests(v):
    """One request per location field, each with the location v."""
    return [{"op": "lift", "at": v}, {"op": "place", "piece": "red-1", "at": v},
            {"op": "flip", "at": v}, {"op": "fault", "kind": "noise", "at": v},
            {"op": "fault", "kind": "clear", "at": v},
            {"op": "slide", "piece": "red-1", "path": ["2", v]}]


def test_a_track_space_as_a_whole_number_is_its_string_in_every_location_field():
    for number, name in ((0, "0"), (12, "12"), (63, "63")):
        for req, by_name in zip(location_requests(number), location_requests(name)):
            sent = json.loads(json.dumps(req))
            got = requests.check(req)
            where = got["path"][-1] if "path" in got else got["at"]
            assert where == name and type(where) is str, (req, got)
            assert got == requests.check(by_name)  # the very request the string form makes
            assert req == sent  # the caller's request is left as it was


def test_a_location_that_is_neither_a_name_nor_a_whole_number_is_a_bad_request():
    for v in NOT_LOCATIONS:
        for req in location_requests(v):
            with pytest.raises(requests.BadRequest) as e:
                requests.check(req)
            assert "location" in str(e.value), (req, str(e.value))


# -- every board --------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=ALL_BOARDS)
def sim(request):
    s = Sim(board=request.param, seed=3)
    yield s
    s.close()


def track(sim):
    """The board's track spaces, by number (0..63 on the 4-seat boards, 0..95 on dog-6, 0..13
    on the Agent Avenue board)."""
    return sorted(int(loc) for loc in sim.mirror.locs if loc.isdigit())


def a_piece(sim):
    """(a piece, where it stands) of a fresh board: off the track on the DOG boards, on its
    home space on the Agent Avenue board."""
    world = sim.request({"op": "world"})["pieces"]
    name = sorted(world)[0]
    return name, world[name]["at"]


def free_space(sim):
    """A track space, by number, with nothing on it nor on the next one."""
    taken = set(p["at"] for p in sim.request({"op": "world"})["pieces"].values())
    return next(n for n in track(sim) if str(n) not in taken and str(n + 1) not in taken)


def seen(sim):
    """What the firmware's scanner reads on each location (console `sensors`: no game runs)."""
    ans = sim.request({"op": "wait", "ms": SETTLE_MS})
    assert ans["ok"], ans
    lines = sim.request({"op": "console", "send": {"op": "sensors"}})["lines"]
    got = [json.loads(line) for line in lines if '"re": "sensors"' in line]
    assert got and got[0]["ok"], lines
    return dict(zip(got[0]["sensors"]["loc"], got[0]["sensors"]["class"]))


def physical(sim):
    """What a refused request must leave as it was."""
    out = [sim.request({"op": "world"})]
    if sim.alive():
        out.append(sim.request({"op": "leds"}))
    return json.dumps(out, sort_keys=True)


@pytest.mark.micropython
def test_a_piece_placed_by_number_is_read_by_the_firmware_as_by_name(sim):
    piece, home = a_piece(sim)
    n = free_space(sim)
    before = physical(sim)
    assert sim.request({"op": "lift", "at": home}) == {"ok": True, "piece": piece}
    assert sim.request({"op": "place", "piece": piece, "at": n}) == {"ok": True}
    assert sim.request({"op": "world"})["pieces"][piece]["at"] == str(n)
    by_number = seen(sim)
    assert by_number[str(n)] != "empty" and by_number[home] == "empty", by_number
    # the same moves by name: the firmware reads the same
    assert sim.request({"op": "lift", "at": str(n)}) == {"ok": True, "piece": piece}
    assert sim.request({"op": "place", "piece": piece, "at": str(n)}) == {"ok": True}
    assert seen(sim) == by_number
    # flip, lift, slide and faults by number as well
    assert sim.request({"op": "flip", "at": n}) == {"ok": True}
    assert sim.request({"op": "world"})["pieces"][piece] == {"at": str(n), "upside_down": True}
    assert sim.request({"op": "flip", "at": n}) == {"ok": True}
    assert sim.request({"op": "lift", "at": n}) == {"ok": True, "piece": piece}
    assert sim.request({"op": "slide", "piece": piece, "path": [n, n + 1, home]}) == {"ok": True}
    assert sim.request({"op": "fault", "kind": "dead_sensor", "at": n, "ms": 100}) == {"ok": True}
    assert sim.request({"op": "fault", "kind": "clear", "at": n}) == {"ok": True}
    seen(sim)  # the slide has landed
    assert physical(sim) == before


@pytest.mark.micropython
def test_a_location_of_the_wrong_type_is_a_bad_request_and_changes_nothing(sim):
    before = physical(sim)
    for v in NOT_LOCATIONS:
        for req in location_requests(v):
            ans = sim.request(req)
            assert ans["ok"] is False and ans["error"] == "bad_request", (req, ans)
    assert physical(sim) == before and sim.alive()


def foreign(sim):
    """Requests naming what this board does not have, every location a string: (request, the
    name the reason gives)."""
    piece, home = a_piece(sim)
    n = free_space(sim)
    there, on = str(n), str(n + 1)
    beyond = str(track(sim)[-1] + 1)  # one past the last track space: no location here
    kinds = set(c["card"] for c in sim.request({"op": "deck"})["cards"])
    kind = sorted(kinds)[0]
    uid = sim.request({"op": "deck"})["cards"][0]["uid"]
    stranger = "red-1" if sim.board == AVENUE else "green-pawn"  # the other game's piece
    out = [({"op": "place", "piece": "nobody-1", "at": there}, "nobody-1"),
           ({"op": "place", "piece": stranger, "at": there}, stranger),
           ({"op": "slide", "piece": stranger, "path": [there, on]}, stranger),
           ({"op": "place", "piece": piece, "at": beyond}, beyond),
           ({"op": "lift", "at": beyond}, beyond),
           ({"op": "lift", "at": "red:h5"}, "red:h5"),
           ({"op": "flip", "at": "nowhere"}, "nowhere"),
           ({"op": "slide", "piece": piece, "path": [there, beyond, on]}, beyond),
           ({"op": "slide", "piece": piece, "path": [there, "nowhere"]}, "nowhere"),
           ({"op": "card", "card": "no-such-card"}, "no-such-card"),
           ({"op": "card", "card": kind, "reader": "side"}, "reader"),
           ({"op": "card", "uid": uid, "reader": "side"}, "reader"),
           ({"op": "card_off", "reader": "side"}, "reader"),
           ({"op": "discard", "reader": "side"}, "reader"),
           ({"op": "fault", "kind": "noise", "at": beyond, "ms": 100}, beyond),
           ({"op": "fault", "kind": "dead_sensor", "at": "nowhere"}, "nowhere"),
           ({"op": "fault", "kind": "stuck_sensor", "at": "red:h5"}, "red:h5"),
           ({"op": "fault", "kind": "nfc_crc", "at": "sideways"}, "sideways"),
           ({"op": "fault", "kind": "clear", "at": "nowhere"}, "nowhere")]
    for other in ("magnet", "partner", "enforcer", "5"):
        if other not in kinds:  # a card of another game's deck
            out.append(({"op": "card", "card": other}, other))
    if sim.board != AVENUE:  # the DOG boards' one reader has no name
        out += [({"op": "card", "card": kind, "reader": "up"}, "one card reader"),
                ({"op": "card_off", "reader": "tap"}, "one card reader"),
                ({"op": "discard", "reader": "tap"}, "one card reader"),
                ({"op": "fault", "kind": "nfc_crc", "at": "up"}, "up")]
    if not sim.mirror.ranked:
        out.append(({"op": "fault", "kind": "weak_magnet", "at": home}, "no rank magnets"))
    return out


def misfits(sim):
    """The requests naming what the board lacks that are not refused with the name, each with
    its answer (an exception raised out of the simulator counts as one)."""
    out = []
    for req, name in foreign(sim):
        try:
            ans = sim.request(req)
        except Exception as e:  # noqa: BLE001 -- the simulator itself must never raise
            ans = {"raised": repr(e)}
        if ans.get("error") != "refused" or name not in ans["reason"] or "Traceback" in ans[
                "reason"]:
            out.append((req, ans))
    return out


@pytest.mark.micropython
def test_a_request_naming_what_the_board_lacks_is_refused_and_changes_nothing(sim):
    before = physical(sim)
    assert misfits(sim) == []
    assert physical(sim) == before and sim.alive()
    status = sim.request({"op": "console", "send": {"op": "status"}})["lines"]
    assert any('"re": "status"' in line and '"ok": true' in line for line in status), status


@pytest.mark.micropython
def test_with_the_device_off_the_same_requests_are_refused_and_change_nothing(sim):
    assert sim.request({"op": "power_cut"}) == {"ok": True}
    try:
        before = physical(sim)
        assert misfits(sim) == []
        assert physical(sim) == before
    finally:
        if not sim.alive():
            assert sim.request({"op": "power_on"}) == {"ok": True}


@pytest.mark.micropython
def test_a_number_naming_no_location_of_the_board_is_refused_and_changes_nothing(sim):
    piece, home = a_piece(sim)
    n = free_space(sim)
    beyond = track(sim)[-1] + 1
    before = physical(sim)
    for req in ({"op": "lift", "at": beyond}, {"op": "place", "piece": piece, "at": beyond},
                {"op": "flip", "at": beyond}, {"op": "slide", "piece": piece,
                                                "path": [n, beyond, n + 1]},
                {"op": "fault", "kind": "noise", "at": beyond}, {"op": "lift", "at": 10 ** 9}):
        ans = sim.request(req)
        assert ans["ok"] is False and ans["error"] == "refused", (req, ans)
        assert str(req.get("at", beyond)) in ans["reason"], (req, ans)
    assert physical(sim) == before and sim.alive()


@pytest.mark.micropython
def test_an_nfc_fault_may_name_a_location_as_older_tools_do(sim):
    # docs/board-protocols.md: nfc_crc's `at` is optional; a location there means every reader
    piece, home = a_piece(sim)
    for at in (home, "3"):
        assert sim.request({"op": "fault", "kind": "nfc_crc", "at": at, "ms": 100}) == {
            "ok": True}
    assert sim.request({"op": "fault", "kind": "clear"}) == {"ok": True}


@pytest.mark.micropython
def test_an_nfc_fault_on_one_avenue_reader_corrupts_that_reader_alone():
    s = Sim(board=AVENUE, seed=3)
    try:
        deck = s.request({"op": "deck"})["cards"]
        assert s.request({"op": "fault", "kind": "nfc_crc", "at": "up", "ms": 3000}) == {
            "ok": True}
        for reader, card in zip(("up", "down", "tap"), deck):
            assert s.request({"op": "card", "uid": card["uid"], "reader": reader})["ok"]
        assert s.request({"op": "wait", "ms": 1000})["ok"]
        lines = s.request({"op": "console", "send": {"op": "status"}})["lines"]
        status = [json.loads(line) for line in lines if '"re": "status"' in line][0]
        errors = dict((r["reader"], r["errors"]) for r in status["readers"])
        assert errors["up"] > 0 and errors["down"] == errors["tap"] == 0, status
        # clear with the reader's name ends it: the up pad reads cleanly again
        assert s.request({"op": "fault", "kind": "clear", "at": "up"}) == {"ok": True}
        assert s.request({"op": "card_off"})["ok"] and s.request({"op": "wait", "ms": 200})["ok"]
        assert s.request({"op": "card", "uid": deck[0]["uid"], "reader": "up"})["ok"]
        assert s.request({"op": "wait", "ms": 1000})["ok"]
        lines = s.request({"op": "console", "send": {"op": "status"}})["lines"]
        again = [json.loads(line) for line in lines if '"re": "status"' in line][0]
        assert dict((r["reader"], r["errors"]) for r in again["readers"]) == errors
    finally:
        s.close()


# -- the other ways in ----------------------------------------------------------------------------
@pytest.mark.micropython
def test_the_headless_channel_takes_a_json_number_for_a_track_space():
    lines = [{"op": "lift", "at": "red:s1"}, {"op": "place", "piece": "red-1", "at": 0},
             {"op": "world"}, {"op": "place", "piece": "red-2", "at": 0.0},
             {"op": "place", "piece": "red-9", "at": 1}, {"op": "lift", "at": 64}]
    proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless", "--seed", "2"],
                          input="".join(json.dumps(r) + "\n" for r in lines).encode(), cwd=ROOT,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert answers[:2] == [{"ok": True, "piece": "red-1"}, {"ok": True}]
    assert answers[2]["pieces"]["red-1"] == {"at": "0", "upside_down": False}
    assert [a["error"] for a in answers[3:]] == ["bad_request", "refused", "refused"], answers


@pytest.mark.micropython
def test_the_virtual_device_checks_requests_against_its_board():
    # nothing deployed: the device is not running an application, so the hands move the host's
    # copy of the board, which must make sense of every request it is given
    from host_tools.virtual.device import VirtualDevice
    from host_tools.virtual.link import VirtualLink
    dev = VirtualDevice(seed=2, board=AVENUE)
    try:
        ans = dev.request({"op": "place", "piece": "red-1", "at": "3"})
        assert ans["error"] == "refused" and "red-1" in ans["reason"], ans
        assert dev.request({"op": "lift", "at": 0}) == {"ok": True, "piece": "green-pawn"}
        assert dev.request({"op": "place", "piece": "green-pawn", "at": 3}) == {"ok": True}
        assert dev.mirror.world()["green-pawn"]["at"] == "3"
        dev.request({"op": "power_cut"})
        for req in ({"op": "card_off", "reader": "side"},
                    {"op": "place", "piece": "red-1", "at": "3"}):
            ans = dev.request(req)
            assert ans["error"] == "refused" and req.get("reader", "red-1") in ans["reason"]
        assert dev.request({"op": "lift", "at": 3}) == {"ok": True, "piece": "green-pawn"}
        # the players' link to it: its own ops (wait, console) are checked as well
        link = VirtualLink(dev)
        try:
            for req in ({"op": "wait", "ms": "x"}, {"op": "wait", "ms": -5},
                        {"op": "console", "send": "status"}):
                assert link.request(req)["error"] == "bad_request", req
            ans = link.request({"op": "place", "piece": "green-pawn", "at": 99})
            assert ans["error"] == "refused" and "99" in ans["reason"], ans
            assert link.request({"op": "place", "piece": "green-pawn", "at": 0}) == {"ok": True}
        finally:
            link.close()
    finally:
        dev.close()


def test_a_fault_of_the_simulated_board_is_answered_not_raised_into_the_firmware(capsys):
    # the device serves hand requests from inside the firmware's own board calls: whatever the
    # world raises must come back as an answer, or it unwinds through the firmware and the
    # device stops as if the firmware had crashed
    from host_tools.games.avenue.world import AvenueWorld
    from host_tools.sim.control import MARK, Control

    class Broken(AvenueWorld):
        def flip(self, at):
            raise IndexError("a bug of the simulator")

    ctl = Control(Broken(3))
    for req in ({"op": "place", "piece": "red-1", "at": "3"}, {"op": "flip", "at": "0"}):
        assert ctl.take(json.dumps(req) + "\n") is False
    answers = [json.loads(line[len(MARK):]) for line in capsys.readouterr().out.splitlines()]
    assert [a["error"] for a in answers] == ["refused", "refused"], answers
    assert "green-pawn" in answers[0]["reason"] and "IndexError" in answers[1]["reason"]
    assert ctl.world.world()["green-pawn"] == {"at": "0", "upside_down": False}
