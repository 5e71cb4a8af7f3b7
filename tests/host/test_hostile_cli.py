# Every `agentboard` command fed bad input as a hostile user would: missing, empty, binary,
# huge and deeply nested files, wrong types, bad ports, out-of-range numbers, Ctrl-C, a closed
# stdout. Each failure is exactly one line on stderr starting "agentboard:", a non-zero exit,
# no traceback, and nothing changed (no file written, a record left as it was).
import json
import os
import signal
import socket
import subprocess
import time

import pytest

from conftest import ROOT
from polls import until, waiting
from test_cli import esp_image, write_record

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
USAGE = 2  # argparse's exit code for a command line that cannot be used
FAILED = 1
INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C
PIPE_CLOSED = 141  # the shell's code for a program whose output pipe was closed


def run(*args, stdin=subprocess.DEVNULL, timeout=60):
    out = subprocess.run([AGENTBOARD] + [str(a) for a in args], stdin=stdin,
                         capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    return out.returncode, out.stdout, out.stderr


def one_line_failure(code, out, err, expected_code, *fragments):
    """The command failed with expected_code and said so in one line that holds every
    fragment; no traceback anywhere."""
    assert code == expected_code, (code, err)
    assert err.startswith("agentboard: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in out + err
    for f in fragments:
        assert f in err, (f, err)


def snapshot(path):
    """What a file or folder holds, to show a command changed nothing."""
    if not os.path.exists(path):
        return None
    if os.path.isdir(path):
        return sorted(os.listdir(path))
    with open(path, "rb") as f:
        return f.read(), os.stat(path).st_mtime_ns


# -- replay: the whole record is checked before anything is printed -----------------------------
@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    return write_record(path, seed=3, players=3)


def edited(rec, change):
    rec = json.loads(json.dumps(rec))
    change(rec)
    return json.dumps(rec).encode()


def _set(key, value):
    def change(rec):
        rec[key] = value
    return change


def _turn(n, **fields):
    def change(rec):
        for k, v in fields.items():
            if v is None:
                del rec["turns"][n][k]
            else:
                rec["turns"][n][k] = v
    return change


def _wrong_seat(rec):
    seat = rec["turns"][1]["seat"]
    rec["turns"][1]["seat"] = next(s for s in rec["seats"] if s != seat)


def _after_the_win(rec):
    rec["turns"].append(dict(rec["turns"][-1]))


RECORDS = [
    # name, the file's bytes (or an edit of a good record), what the line must say
    ("empty file", b"", "not JSON"),
    ("binary", bytes(range(256)) * 4, "not text (UTF-8)"),
    ("not JSON", b"{not json", "not JSON (Expecting"),
    ("deeply nested", b"[" * 100000, "nests too deeply"),
    ("NaN", b'{"format": "agentboard-record/1", "players": NaN}', "NaN is not a JSON number"),
    ("a list", b"[]", "not an agentboard game record"),
    ("another format", b'{"format": "something-else"}', "not an agentboard game record"),
    ("players as text", _set("players", "3"), 'players must be one of 2, 3, 4, not "3"'),
    ("7 players", _set("players", 7), "players must be one of 2, 3, 4, not 7"),
    ("players true", _set("players", True), "players must be one of 2, 3, 4, not true"),
    ("duplicate seats", _set("seats", ["red", "red", "blue"]), "seats: red is listed twice"),
    ("too few seats", _set("seats", ["red", "blue"]), "seats must list the 3 colours in play"),
    ("unknown colour", _set("seats", ["red", "blue", "purple"]), '"purple" is not a colour'),
    ("seats a text", _set("seats", "red"), "seats must list the 3 colours in play"),
    ("dealer not a seat", _set("dealer", "yellow"), "the dealer must be one of the seats"),
    ("turns not a list", _set("turns", {"1": 2}), "turns must be a list"),
    ("a turn not an object", lambda r: r["turns"].__setitem__(0, 5), "turn 1 must be an object"),
    ("turn without seat", _turn(0, seat=None), "turn 1 has no seat"),
    ("turn without move", _turn(2, move=None), "turn 3 has no move"),
    ("seat not playing", _turn(0, seat="yellow"), "turn 1: seat must be one of the seats"),
    ("move not an object", _turn(0, move="13"), "turn 1: move must be a move object"),
    ("unknown card", _turn(0, card="joker"), 'turn 1: card "joker" is not a card'),
    ("out of turn", _wrong_seat, "turn 2 is"),
    ("illegal move", _turn(5, move={"card": "5", "path": [[0, 40]]}), "turn 6 is not legal"),
    ("move without path", _turn(0, move={"card": "5"}), "turn 1 is not legal"),
    ("after the win", _after_the_win, "comes after the game was won"),
    ("too many turns", lambda r: r["turns"].extend([r["turns"][0]] * 10001),
     "more than any game"),
]


@pytest.mark.parametrize("name,content,says", RECORDS, ids=[r[0] for r in RECORDS])
def test_replay_refuses_a_bad_record_in_one_line_and_prints_nothing(tmp_path, game, name,
                                                                   content, says):
    path = tmp_path / "record.json"
    path.write_bytes(content if isinstance(content, bytes) else edited(game, content))
    before = snapshot(path)
    code, out, err = run("replay", path)
    one_line_failure(code, out, err, FAILED, says)
    assert out == ""  # checked whole before anything is printed
    assert snapshot(path) == before


@pytest.mark.parametrize("target,says", [
    ("missing.json", "does not exist"),
    (".", "is a folder"),
    ("/dev/zero", "larger than 4 MB"),
    ("", "file name is empty"),
])
def test_replay_of_what_is_not_a_record_file(tmp_path, target, says):
    path = str(tmp_path / target) if target and not target.startswith("/") else target
    one_line_failure(*run("replay", path), FAILED, says)


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path, game):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone, as `| head -1` goes after its line
    try:
        proc = subprocess.Popen([AGENTBOARD, "replay", str(path)], stdout=write_end,
                                stderr=subprocess.PIPE, cwd=ROOT)
    finally:
        os.close(write_end)
    assert proc.stderr
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == PIPE_CLOSED and err == b"", err


# -- ports: one sentence per kind of wrong port, the same from every command ---------------------
def closed_tcp_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


BAD_PORTS = [
    # the --port value, what the line must say (and never "busy" unless it is)
    ("/dev/null", "/dev/null is not a serial port"),
    ("FILE", "FILE is not a serial port"),
    ("/", "/ is a folder, not a serial port"),
    ("/dev/ttyUSB97", "no board at /dev/ttyUSB97: is it plugged in?"),
    ("socket://nonsense", "socket://nonsense is not a socket address: write socket://"),
    ("socket://127.0.0.1:99999", "is not a socket address"),
    ("socket://127.0.0.1:CLOSED", "nothing answers at socket://127.0.0.1:"),
    ("", "--port is empty"),
]
PORT_COMMANDS = [["deploy"], ["export"], ["monitor", "--polls", "1"], ["enrol"], ["calibrate"]]


def concrete(port, says, tmp_path):
    """A BAD_PORTS row with its placeholders filled in: a plain file, a closed TCP port."""
    plain = tmp_path / "notes.txt"
    plain.write_text("not a port\n")
    closed = str(closed_tcp_port())
    return (port.replace("FILE", str(plain)).replace("CLOSED", closed),
            says.replace("FILE", str(plain)))


@pytest.mark.parametrize("port,says", BAD_PORTS, ids=[p[0] or "empty" for p in BAD_PORTS])
def test_every_console_command_says_what_is_wrong_with_a_port(tmp_path, port, says):
    port, says = concrete(port, says, tmp_path)
    for command in PORT_COMMANDS:
        code, out, err = run(*command, "--port", port)
        one_line_failure(code, out, err, FAILED, says)
        assert "busy" not in err and "not supported between" not in err


@pytest.mark.parametrize("port,says", [p for p in BAD_PORTS if p[0] != "/dev/null"],
                         ids=[p[0] or "empty" for p in BAD_PORTS if p[0] != "/dev/null"])
def test_flash_says_what_is_wrong_with_a_port_before_connecting(tmp_path, port, says):
    firmware = esp_image(tmp_path / "fw.bin", 0)
    port, says = concrete(port, says, tmp_path)
    code, out, err = run("flash", "--firmware", firmware, "--port", port)
    one_line_failure(code, out, err, FAILED, says)


def test_flash_to_something_that_is_not_a_serial_port(tmp_path):
    firmware = esp_image(tmp_path / "fw.bin", 0)
    code, out, err = run("flash", "--firmware", firmware, "--port", "/dev/null")
    one_line_failure(code, out, err, FAILED, "/dev/null is not a serial port")


# what to do next, as the README says: MicroPython 1.29's ESP32_GENERIC .bin, and where it is
GET_FIRMWARE = ("MicroPython 1.29's ESP32_GENERIC build (the .bin from "
                "micropython.org/download/ESP32_GENERIC) and name it with --firmware")


@pytest.mark.parametrize("what,says", [
    ("folder", "is a folder, not a firmware file"),
    ("", "--firmware is empty"),
    ("missing.bin", "does not exist"),
    ("text", "not an ESP firmware image (no 0xE9 header)"),
    ("empty", "not an ESP firmware image (no 0xE9 header)"),
    ("unknown chip", "is built for an unknown chip (image chip id 999)"),
    ("no partition table", "no partition table where ESP-IDF puts it"),
])
def test_flash_refuses_what_is_not_a_firmware_file_and_says_what_to_flash(tmp_path, what,
                                                                          says):
    path = str(tmp_path / "fw.bin")
    if what == "folder":
        path = str(tmp_path)
    elif what == "text":
        with open(path, "w") as f:
            f.write("not firmware\n" * 10)
    elif what == "empty":
        open(path, "wb").close()
    elif what == "unknown chip":
        esp_image(path, 999)
    elif what == "no partition table":  # an ESP32 image, but not MicroPython's download
        esp_image(path, 0, table=b"\xff" * 0xC00)
    else:
        path = str(tmp_path / what) if what else ""
    before = snapshot(path)
    one_line_failure(*run("flash", "--firmware", path, "--port", "/dev/ttyUSB97"), FAILED,
                     says, "download " + GET_FIRMWARE)
    assert snapshot(path) == before


@pytest.mark.parametrize("args,says", [
    (["flash", "--firmware", "fw.bin", "--baud", "0"], "0 baud is out of range"),
    (["flash", "--firmware", "fw.bin", "--baud", "99999999"], "baud is out of range"),
    (["flash", "--firmware", "fw.bin", "--baud", "fast"], "'fast' is not a whole number"),
    (["flash"], "the following arguments are required: --firmware"),
    (["deploy", "--mpy-cross", ""], "--mpy-cross is empty"),
    (["sim", "--port", "99999"], "99999 is not a TCP port"),
    (["sim", "--port", "-1"], "-1 is not a TCP port"),
    (["sim", "--port", "http"], "'http' is not a whole number"),
    (["sim", "--players", "7"], "invalid choice: 7"),
    (["sim", "--players", "2"], "--players is for --demo"),
    (["sim", "--demo", "--players", "5"], "agent-dog is played by 2, 3, 4 players, not 5"),
    (["sim", "--demo", "--board", "dog-4", "--players", "6"], "6 players do not play dog on"),
    (["sim", "--demo", "--headless"], "give one"),
    (["sim", "--headless", "--port", "9000"], "does not apply to --headless"),
    (["sim", "--seed", "one"], "'one' is not a whole number"),
    (["sim", "--mode", "simple"], "--mode is for --demo"),
    (["sim", "--headless", "--mode", "simple"], "--mode is for --demo"),
    (["sim", "--demo", "--mode", "simple"], "agent-dog has no modes: --mode is for agent-avenue"),
    (["sim", "--demo", "--game", "dog-royal", "--mode", "advanced"], "dog-royal has no modes"),
    (["sim", "--demo", "--board", "dog-6", "--mode", "simple"], "dog has no modes"),
    (["sim", "--demo", "--game", "agent-avenue", "--mode", "expert"], "invalid choice: 'expert'"),
    (["virtual", "--port", "65536"], "65536 is not a TCP port"),
    (["monitor", "--every", "0"], "0 s is out of range"),
    (["monitor", "--every", "nan"], "nan s is out of range"),
    (["monitor", "--every", "1e9"], "1e9 s is out of range"),
    (["monitor", "--polls", "-1"], "-1 is negative"),
    (["enrol", "--card", "seven"], "unknown card kind 'seven'"),
    (["enrol", "--count", "0"], "0 is not a positive number"),
    (["enrol", "--count", "-3"], "-3 is not a positive number"),
    (["export", "--port", "/dev/ttyUSB97", "--sim-flash", "flash"], "name two boards"),
    (["export", "-o", ""], "the file name is empty"),
    (["export", "-o", "/"], "/ is a folder"),
    (["export", "-o", "/no/such/folder/game.json"], "does not exist: make it first"),
    (["replay"], "the following arguments are required: record"),
    (["replay", "a.json", "b.json"], "replay: unexpected argument b.json"),
    (["fly"], "invalid choice: 'fly'"),
    (["--bogus"], "unexpected argument --bogus"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_command_line_that_cannot_be_used_is_one_line(args, says):
    code, out, err = run(*args)
    one_line_failure(code, out, err, USAGE, says)
    assert out == ""


def test_no_command_shows_the_commands():
    code, out, err = run()
    assert code == 0 and err == "" and "replay" in out and "deploy" in out


# -- files and folders a command would write: nothing changes on a refusal -----------------------
@pytest.mark.parametrize("args", [
    ["export", "--sim-flash", "FILE"], ["monitor", "--sim-flash", "FILE"],
    ["enrol", "--sim-flash", "FILE"], ["calibrate", "--sim-flash", "FILE"],
    ["sim", "--headless", "--flash", "FILE"], ["virtual", "--flash", "FILE"],
], ids=lambda v: " ".join(v))
def test_a_file_named_as_the_device_folder_is_refused_and_untouched(tmp_path, game, args):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    before = snapshot(path)
    code, out, err = run(*[str(path) if a == "FILE" else a for a in args])
    one_line_failure(code, out, err, USAGE, "is a file, not a folder")
    assert snapshot(path) == before


def test_a_device_folder_is_not_made_for_a_refused_command(tmp_path):
    folder = tmp_path / "new-flash"
    code, out, err = run("export", "--sim-flash", folder, "--port", "/dev/ttyUSB97")
    one_line_failure(code, out, err, USAGE)
    assert not folder.exists()


def test_export_of_a_board_without_a_game_writes_nothing(tmp_path):
    flash = tmp_path / "flash"
    out_file = tmp_path / "game.json"
    code, out, err = run("export", "--sim-flash", flash, "-o", out_file)
    one_line_failure(code, out, err, FAILED, "no game to export: start one on the board")
    assert not out_file.exists()
    out_file.write_text("an earlier export\n")
    before = snapshot(out_file)
    code, out, err = run("export", "--sim-flash", flash, "-o", out_file)
    one_line_failure(code, out, err, FAILED)
    assert snapshot(out_file) == before
    assert sorted(os.listdir(tmp_path)) == ["flash", "game.json"]  # no part file left


def test_calibrate_says_the_board_is_busy_before_asking_to_clear_it(running_game):
    before = snapshot(running_game)
    code, out, err = run("calibrate", "--sim-flash", running_game, stdin=subprocess.PIPE)
    one_line_failure(code, out, err, FAILED, "cannot calibrate now", "a game is running")
    assert "Take every piece off" not in out
    assert snapshot(running_game) == before


def test_calibrate_without_a_terminal_says_so(tmp_path):
    code, out, err = run("calibrate", "--sim-flash", tmp_path / "flash")
    one_line_failure(code, out, err, FAILED, "run it in a terminal")


# -- Ctrl-C ------------------------------------------------------------------------------------
def descendants(pid):
    """The processes pid started, and the ones they started (from /proc)."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid):
    """Whether process pid still runs (a zombie has ended: only its exit code is left)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def interrupt(args, wait_for, env=None):
    """Starts agentboard, waits until its stdout says wait_for, then sends Ctrl-C (SIGINT, to
    it alone, so that what it started must be ended by it): (exit code, stdout, stderr, the
    processes it had started)."""
    proc = subprocess.Popen([AGENTBOARD] + [str(a) for a in args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env)
    assert proc.stdout is not None
    seen = ""
    end = time.time() + 120
    while wait_for not in seen and time.time() < end:
        ch = proc.stdout.read(1)
        if not ch:
            break
        seen += ch
    until(lambda: waiting(proc.pid), "the command waiting after %r" % wait_for)
    started = descendants(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, seen + out, err, started


def none_left(started):
    # the children end with the command: give a killed one a moment to be gone
    end = time.time() + 5
    while any(running(p) for p in started) and time.time() < end:
        time.sleep(0.1)
    assert not [p for p in started if running(p)], "left running: %s" % started


def test_ctrl_c_in_calibrate_is_one_line(tmp_path):
    code, out, err, started = interrupt(["calibrate", "--sim-flash", tmp_path / "flash"],
                                        "press Enter")
    one_line_failure(code, out, err, INTERRUPTED, "interrupted")
    none_left(started)


def test_ctrl_c_in_the_headless_simulator_is_one_line(tmp_path):
    proc = subprocess.Popen([AGENTBOARD, "sim", "--headless", "--flash", str(tmp_path / "f")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdin and proc.stdout
    proc.stdin.write('{"op": "wait", "ms": 10}\n')
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"]  # up and waiting for the next request
    started = descendants(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    one_line_failure(proc.returncode, out, err, INTERRUPTED, "interrupted")
    none_left(started)


def test_ctrl_c_ends_enrol_with_the_count(tmp_path):
    code, out, err, started = interrupt(["enrol", "--sim-flash", tmp_path / "flash"], "reader")
    one_line_failure(code, out, err, INTERRUPTED, "interrupted", "enrolled before it are stored")
    assert "agentboard: enrolled 0 stickers" in out
    none_left(started)


def test_ctrl_c_in_monitor_is_one_line_and_stops_the_simulated_board(running_game):
    code, out, err, started = interrupt(["monitor", "--json", "--sim-flash", running_game],
                                        "}\n")
    one_line_failure(code, out, err, INTERRUPTED, "interrupted")
    assert json.loads(out.splitlines()[0])["phase"]  # it had shown the game's public view
    assert started  # the simulated board's MicroPython process
    none_left(started)


def test_ctrl_c_on_the_page_is_one_line_and_stops_the_simulated_board(tmp_path):
    code, out, err, started = interrupt(["sim", "--no-browser", "--port", "0", "--flash",
                                         tmp_path / "flash"], "the board is at ")
    one_line_failure(code, out, err, INTERRUPTED, "interrupted")
    assert started
    none_left(started)


def scratch(tmp_path):
    """An environment whose temporary folders are made in a folder of the test's own."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return dict(os.environ, TMPDIR=str(tmp)), tmp


def test_ctrl_c_in_virtual_switches_the_device_off_and_leaves_nothing(tmp_path):
    env, tmp = scratch(tmp_path)
    code, out, err, started = interrupt(["virtual"], "JSON lines here", env=env)
    one_line_failure(code, out, err, INTERRUPTED, "interrupted", "switched off")
    assert started
    none_left(started)
    assert os.listdir(tmp) == []  # its flash and its copy of the simulator too


def test_ctrl_c_while_the_virtual_device_boots_leaves_nothing(tmp_path):
    env, tmp = scratch(tmp_path)
    proc = subprocess.Popen([AGENTBOARD, "virtual"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env)
    started = []
    end = time.time() + 60
    while not started and time.time() < end:  # the device's process exists: it is booting
        started = descendants(proc.pid)
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    one_line_failure(proc.returncode, out, err, INTERRUPTED, "interrupted")
    assert started
    none_left(started)
    assert os.listdir(tmp) == []


# -- a flash folder a running simulator holds ------------------------------------------------
def headless(flash):
    """`agentboard sim --headless --flash flash`, up and answering: (process, its children)."""
    proc = subprocess.Popen([AGENTBOARD, "sim", "--headless", "--flash", str(flash)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdin and proc.stdout
    proc.stdin.write('{"op": "wait", "ms": 10}\n')
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"]
    return proc, descendants(proc.pid)


def flash_files(flash):
    """Every file of a flash folder and its bytes."""
    out = {}
    for top, _, names in os.walk(flash):
        for n in names:
            with open(os.path.join(top, n), "rb") as f:
                out[os.path.relpath(os.path.join(top, n), flash)] = f.read()
    return out


def test_a_flash_a_running_simulator_holds_is_refused_naming_its_process(tmp_path):
    flash = tmp_path / "flash"
    proc, started = headless(flash)
    try:
        before = flash_files(flash)
        for args in (["export", "--sim-flash", flash], ["monitor", "--sim-flash", flash],
                     ["enrol", "--sim-flash", flash], ["calibrate", "--sim-flash", flash],
                     ["sim", "--no-browser", "--port", "0", "--flash", flash],
                     ["sim", "--headless", "--flash", flash], ["virtual", "--flash", flash]):
            code, out, err = run(*args, timeout=120)
            one_line_failure(code, out, err, FAILED)
            # which process, and what to do: stop it, or use that board where it runs
            for said in ("%s is the flash of a simulated board that process %d runs"
                         % (flash, proc.pid), "sim --headless --flash %s" % flash,
                         "stop it (Ctrl-C where it runs, or kill %d)" % proc.pid,
                         "the page of `agentboard sim`"):
                assert said in err, (args, err)
        assert flash_files(flash) == before  # no second device booted from it
        proc.stdin.write('{"op": "world"}\n')  # the simulator that holds it runs on
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["ok"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    none_left(started)
    assert ".sim-lock" not in os.listdir(flash)  # let go as it stopped
    code, out, err = run("export", "--sim-flash", flash)
    one_line_failure(code, out, err, FAILED, "no game to export")  # the board, free again


def test_the_lock_of_a_simulator_that_died_is_taken_over(tmp_path):
    flash = tmp_path / "flash"
    proc, started = headless(flash)
    proc.kill()  # no way to tidy up: its lock file stays behind
    proc.wait(timeout=60)
    for pid in started:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    none_left(started)
    with open(flash / ".sim-lock") as f:
        assert json.load(f)["pid"] == proc.pid
    code, out, err = run("export", "--sim-flash", flash)
    one_line_failure(code, out, err, FAILED, "no game to export")  # not "held"
    assert ".sim-lock" not in os.listdir(flash)
