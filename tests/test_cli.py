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


def test_every_command_explains_itself():
    code, out, _ = run("--help")
    assert code == 0
    for name in ("flash", "deploy", "enrol", "calibrate", "export", "monitor", "replay", "sim",
                 "virtual"):
        assert name in out
        code, out2, _ = run(name, "--help")
        assert code == 0 and "usage: agentboard " + name in out2


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
    made = subprocess.run([sys.executable, "-m", "host_tools.sim.avenue_demo", "--players",
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
    from host_tools.sim.players import Table, find
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
    from host_tools.sim.players import Table, Players
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
