# `agentboard flash` end to end with the real esptool, against a model of the ESP32 behind its
# USB-serial bridge (host_tools/virtual/rom_loader.py: the ROM's serial loader, esptool's
# flasher stub, eFuses, the SPI flash and its 4 MB, the board's auto-reset circuit), checking
# byte for byte what lands in the modelled flash: the bootloader, the partition table with the
# game's partitions, the application; MD5 verification; a flash cut off half way, reported and
# redone; a chip whose flash is too small, or that does not keep what is written.
import hashlib
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from test_cli import MICROPYTHON_TABLE, TABLE_AT, TABLE_BYTES, table_bytes
from host_tools import partitions
from host_tools.sim.nor_flash import NorFlash, SECTOR
from host_tools.virtual import esp32_chip
from host_tools.virtual.rom_loader import RomLoaderServer

AGENTBOARD = os.path.join(ROOT, ".venv", "bin", "agentboard")
ESPTOOL = os.path.join(ROOT, ".venv", "bin", "esptool")
FLASH_BYTES = 4 << 20  # the ESP32-WROOM-32E's flash
BOOTLOADER_AT = 0x1000  # where the ESP32's ROM looks for the second-stage bootloader
APP_AT = 0x10000  # MicroPython's factory partition (MICROPYTHON_TABLE)
ERASED = b"\xff"
STUB_BLOCK = 0x4000  # esptool sends the stub 16 KB of (compressed) data a block
BAUD = 460800  # agentboard flash's default --baud
STOP_S = 10  # the model ends within a select() round of Ctrl-C


def esp_image(segments, entry):
    """An ESP32 image as esptool documents it (docs/en/advanced-topics/firmware-image-format):
    E9, segment count, SPI mode (2: DIO), size and frequency (0x20: 4 MB, 40 MHz), entry; the
    extended header (WP pin EE, drive settings, chip id 0: ESP32, revisions 0 to v3.99, hash
    appended); each segment as load address, length, data; the checksum (EF xor every data
    byte) as the last byte of a 16-byte line; the SHA-256 of everything before it."""
    out = bytes([0xE9, len(segments), 2, 0x20]) + struct.pack("<I", entry)
    out += struct.pack("<BBBBHBHH4sB", 0xEE, 0, 0, 0, 0, 0, 0, 399, bytes(4), 1)
    check = 0xEF
    for addr, data in segments:
        out += struct.pack("<II", addr, len(data)) + data
        for b in data:
            check ^= b
    out += bytes(15 - len(out) % 16) + bytes([check])
    return out + hashlib.sha256(out).digest()


def random_bytes(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


class Firmware:
    """A synthetic ESP32_GENERIC-like merged image (MicroPython's download is not available
    offline): ESP-IDF's bootloader at 0x1000 (segments where ESP-IDF loads its own), MicroPython's
    partition table at 0x8000, an application at 0x10000, FF between them as esptool's merge_bin
    pads. Random data, so that compression leaves many 16 KB blocks to send."""

    def __init__(self, path, romfs=False):
        """romfs: a build with ROMFS, whose application names vfs.rom_ioctl among its strings
        (MicroPython keeps its qstrs as plain text in the application's read-only data)."""
        rng = random.Random(30)
        self.bootloader = esp_image([(0x3FFF0030, random_bytes(rng, 4728)),
                                     (0x40078000, random_bytes(rng, 14888)),
                                     (0x40080400, random_bytes(rng, 3368))], 0x400805CC)
        self.bootloader_log = ["load:0x3fff0030,len:4728", "load:0x40078000,len:14888",
                               "load:0x40080400,len:3368", "entry 0x400805cc"]
        rodata = random_bytes(rng, 60000)
        if romfs:
            rodata = rodata[:30000] + b"rom_ioctl\x00" + rodata[30010:]
        self.app = esp_image([(0x3F400020, rodata),
                              (0x400D0020, random_bytes(rng, 130000)),
                              (0x40080000, random_bytes(rng, 20000))], 0x40081000)
        image = bytearray(ERASED * (APP_AT - BOOTLOADER_AT + len(self.app)))
        for at, part in ((BOOTLOADER_AT, self.bootloader), (TABLE_AT, table_bytes(
                MICROPYTHON_TABLE)), (APP_AT, self.app)):
            image[at - BOOTLOADER_AT:at - BOOTLOADER_AT + len(part)] = part
        self.image = bytes(image)
        self.path = str(path)
        with open(self.path, "wb") as f:
            f.write(self.image)

    def flashed(self, romfs=False):
        """The flash as `agentboard flash` must leave it: erased but for the image, whose table
        now lists the partitions hardware/design/flash.json adds (the game's journal, and any
        other agentboard keeps there; with romfs, `flash --romfs`, its romfs partition), and
        nothing else."""
        design = partitions.design()
        ours = [(p["label"], p["type"], p["subtype"], p["offset"], p["bytes"])
                for p in design["partitions"] + ([design["romfs"]] if romfs else [])
                if p["label"] != "vfs"]
        flash = bytearray(ERASED * FLASH_BYTES)
        flash[BOOTLOADER_AT:BOOTLOADER_AT + len(self.image)] = self.image
        flash[TABLE_AT:TABLE_AT + TABLE_BYTES] = table_bytes(MICROPYTHON_TABLE + ours)
        return bytes(flash)


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return Firmware(tmp_path_factory.mktemp("fw") / "ESP32_GENERIC-synthetic.bin")


def read_flash(path, at=0, n=FLASH_BYTES):
    buf = bytearray(n)
    NorFlash(FLASH_BYTES // SECTOR, path=str(path)).readblocks(0, buf, at)
    return bytes(buf)


def flash_cmd(firmware, url, *more, env=None):
    out = subprocess.run([AGENTBOARD, "flash", "--firmware", firmware.path, "--port", url]
                         + list(more), capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env=dict(os.environ, **(env or {})))
    return out.returncode, out.stdout, out.stderr


class Board:
    """The model as a program of its own (`python -m host_tools.virtual.rom_loader`), its
    events read from what it prints. A context manager: the program is ended (killed if
    Ctrl-C does not end it) whatever the test does, so no process or port outlives it."""

    def __init__(self, flash, *options):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools.virtual.rom_loader",
                                      "--flash", str(flash)] + list(options), cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.events = None
        try:
            first = self.proc.stdout.readline()
            assert first.startswith("rom_loader: an ESP32 on "), first + self.proc.stderr.read()
        except BaseException:
            self._end()
            raise
        self.url = first.split()[4]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._end()

    def stop(self):
        """Ends the program if it still runs (Ctrl-C) and returns every event it printed."""
        out, err = self._end()
        assert err == "", err
        self.events = [line[len("chip: "):] for line in out.splitlines()
                       if line.startswith("chip: ")]
        return self.events

    def _end(self):
        """(its stdout, its stderr) once it has ended; at once if it already has."""
        if self.proc.returncode is not None:
            return "", ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=STOP_S)  # it prints a few lines: the pipes cannot fill
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        # read(), not communicate(): readline() may have buffered more than the first line
        out, err = self.proc.stdout.read(), self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return out, err


@pytest.fixture(scope="module")
def flashed(firmware, tmp_path_factory):
    """`agentboard flash` once, on a new board whose BOOT button is held (a raw socket: esptool
    cannot reset it into its loader): (exit code, stdout, stderr, the model's events, the
    flash file)."""
    flash = tmp_path_factory.mktemp("board") / "flash.bin"
    with Board(flash) as board:
        started = time.monotonic()
        code, out, err = flash_cmd(firmware, board.url)
        took = time.monotonic() - started
        events = board.stop()
    print("agentboard flash took %.1f s" % took)
    return code, out, err, events, flash


def test_the_flash_holds_bootloader_table_and_application_byte_for_byte(firmware, flashed):
    code, out, err, events, flash = flashed
    assert code == 0 and err == "", err
    assert "MicroPython is on the esp32" in out
    got = read_flash(flash)
    assert got[BOOTLOADER_AT:BOOTLOADER_AT + len(firmware.bootloader)] == firmware.bootloader
    assert got[APP_AT:APP_AT + len(firmware.app)] == firmware.app
    table = partitions.parse(got[TABLE_AT:TABLE_AT + TABLE_BYTES])
    labels = [p.label for p in table]
    assert labels[:3] == ["nvs", "phy_init", "factory"] and "game" in labels
    for p in partitions.design()["partitions"]:
        if p["label"] != "vfs":
            row = [t for t in table if t.label == p["label"]][0]
            assert (row.offset, row.size) == (p["offset"], p["bytes"])
    # and nothing else: before the bootloader, the game's journal, the file system: erased
    assert got == firmware.flashed()


# MicroPython's partitions-4MiB-romfs.csv calls the partition "romfs", a data partition of
# subtype 0x8f; agentboard's goes after the game's journal (1 MB at 0x200000), 256 KB
ROMFS_ROW = ("romfs", 1, 0x8F, 0x300000, 0x40000)


def test_flash_romfs_adds_the_romfs_partition_byte_for_byte(tmp_path):
    firmware = Firmware(tmp_path / "ESP32_ROMFS-synthetic.bin", romfs=True)
    flash = tmp_path / "flash.bin"
    with Board(flash) as board:
        code, out, err = flash_cmd(firmware, board.url, "--romfs")
        board.stop()
    assert code == 0 and err == "", err
    assert "romfs at 0x300000, 0x40000 bytes for the compiled firmware (ROMFS)" in out
    got = read_flash(flash)
    assert got[TABLE_AT:TABLE_AT + TABLE_BYTES] == table_bytes(
        MICROPYTHON_TABLE + [("game", 1, 6, 0x200000, 0x100000), ROMFS_ROW])
    assert got == firmware.flashed(romfs=True)
    # the partition is erased: MicroPython mounts nothing there until deploy writes an image
    assert set(got[0x300000:0x340000]) == {0xFF}


def test_flash_romfs_refuses_a_build_without_romfs_and_writes_nothing(firmware, tmp_path):
    flash = tmp_path / "flash.bin"
    with Board(flash) as board:
        code, out, err = flash_cmd(firmware, board.url, "--romfs")
        events = board.stop()
    assert code == 1 and err.count("\n") == 1, err
    assert "has no ROMFS" in err and "nothing was written" in err and "--romfs" in err
    assert not [e for e in events if e.startswith(("erased", "writing"))]


def test_the_flash_went_as_esptool_does_it_by_default(firmware, flashed):
    code, out, err, events, flash = flashed
    assert [e for e in events if e.startswith("note:")] == []  # nothing the model lacks
    assert "boot into the ROM loader" in events and "flasher stub running" in events
    assert "baud %d" % BAUD in events
    assert "erased 0x0-0x%x" % FLASH_BYTES in events  # the whole chip, before writing
    end = BOOTLOADER_AT + len(firmware.image)
    writing = [e for e in events if e.startswith("writing ")]
    blocks = (len(firmware.image) + STUB_BLOCK - 1) // STUB_BLOCK
    assert len(writing) == 1 and writing[0].startswith("writing 0x%x-0x%x (" % (
        BOOTLOADER_AT, end)) and writing[0].endswith("compressed)")
    assert int(writing[0].split("(")[1].split()[0]) < blocks  # compression saved blocks
    # esptool's verification: the MD5 of exactly what was written, after writing it
    assert events.index("MD5 of 0x%x-0x%x" % (BOOTLOADER_AT, end)) > events.index(writing[0])


def test_the_flash_chip_is_reset_before_writing_as_esptool_write_flash_does(flashed):
    # esptool's write-flash attaches the flash first (attach_flash): among other things it
    # resets the flash chip (66h, 99h) so that no state an application left in it disturbs
    # the write
    code, out, err, events, flash = flashed
    assert "flash chip reset" in events
    assert events.index("flash chip reset") < [k for k, e in enumerate(events)
                                               if e.startswith("writing ")][0]


def test_a_board_on_a_socket_is_told_to_be_reset_by_hand(flashed):
    # esptool cannot reset a chip over a raw socket (no DTR/RTS): agentboard says so and what
    # to press, and does not claim it reset the board, which still runs esptool's stub
    code, out, err, events, flash = flashed
    assert "resetting the board" not in out
    assert "press the board's EN (reset) button" in out
    assert events[-1] != "boot from flash" and "reset held (EN low)" not in events


def test_a_flash_cut_off_half_way_is_reported_and_can_be_redone(firmware, tmp_path):
    # the board loses power after the 5th block. esptool waits for it to come back (its
    # connect_attempts, 7 tries a second apart by default); an esptool.cfg of one try, as a
    # user may write, shortens that wait: what agentboard reports does not change
    flash = tmp_path / "flash.bin"
    config = tmp_path / "esptool.cfg"
    config.write_text("[esptool]\nconnect_attempts = 1\n")
    with Board(flash, "--cut-after", "5") as board:
        code, out, err = flash_cmd(firmware, board.url, env={"ESPTOOL_CFGFILE": str(config)})
        events = board.stop()
    assert events[-2:] == ["cable pulled", "power off"]
    assert code == 1 and "Lost connection, retrying" in out
    assert err.startswith("agentboard: flashing stopped") and err.count("\n") == 1, err
    assert "the board may hold half a firmware" in err and "run flash again" in err
    assert "hold BOOT" in err  # a socket port: the board must be put in its loader by hand
    half = read_flash(flash)
    wanted = firmware.flashed()
    assert half[BOOTLOADER_AT:TABLE_AT] == wanted[BOOTLOADER_AT:TABLE_AT]  # written first
    assert half != wanted  # the application is not all there
    # plugged in again (BOOT held) and flashed again: all there, as if nothing had happened
    with Board(flash) as board:
        code, out, err = flash_cmd(firmware, board.url)
        board.stop()
    assert code == 0, err
    assert read_flash(flash) == wanted


def test_a_connection_lost_half_way_is_taken_up_again_by_esptool(firmware, tmp_path):
    # the cable stays, the bridge drops the connection (the chip keeps running the stub):
    # esptool reconnects, finds its stub still running and writes again from the start
    flash = tmp_path / "flash.bin"
    with RomLoaderServer(str(flash), cut_after=5, unplug=False) as board:
        code, out, err = flash_cmd(firmware, board.url)
        events = list(board.chip.events)
    assert code == 0, err
    assert "Lost connection, retrying" in out
    assert "cable pulled" in events and events.count("flasher stub running") == 1
    assert read_flash(flash) == firmware.flashed()


def test_a_board_with_too_little_flash_is_refused_before_anything_is_written(firmware,
                                                                             tmp_path):
    chip = dict(esp32_chip.identity())
    chip["flash"] = dict(chip["flash"], jedec_id=[0xEF, 0x40, 0x15])  # a W25Q16: 2 MB
    flash = tmp_path / "flash.bin"
    with RomLoaderServer(str(flash), chip=chip) as board:
        code, out, err = flash_cmd(firmware, board.url)
        events = list(board.chip.events)
    assert code == 1 and err.count("\n") == 1
    assert "the board's flash (2048 KB) is too small" in err and "nothing was written" in err
    assert not [e for e in events if e.startswith(("erased", "writing"))]
    assert os.path.getsize(flash) == 2 << 20 and set(read_flash(flash, 0, 2 << 20)) == {0xFF}


def test_a_flash_that_does_not_keep_what_is_written_fails_verification(firmware, tmp_path):
    # a bit of the application that reads 0 whatever is written: every block arrived intact
    # (the stub checks each), only the MD5 of the whole finds it
    flash = tmp_path / "flash.bin"
    where = APP_AT + 0x2345
    bit = next(1 << k for k in range(8) if firmware.app[where - APP_AT] >> k & 1)
    with RomLoaderServer(str(flash), stuck={where: bit}) as board:
        code, out, err = flash_cmd(firmware, board.url)
    assert code == 1 and err.count("\n") == 1, err
    assert "does not read back what was written" in err and "MD5" in err
    assert "cable" not in err and "--baud" not in err  # the link delivered every block


def test_the_reset_lines_put_the_chip_in_its_loader_and_boot_what_was_written(firmware,
                                                                              flashed,
                                                                              tmp_path):
    # the board's port as esptool's RFC 2217 server serves it: DTR and RTS reach EN and GPIO0
    # through the auto-reset circuit. esptool's reset into the loader, the ROM's baud change,
    # and its hard reset, which boots the bootloader agentboard wrote
    from esptool.targets.esp32 import ESP32ROM
    flash = tmp_path / "flash.bin"
    shutil.copy(flashed[4], flash)
    with RomLoaderServer(str(flash), rfc2217=True) as board:
        esp = ESP32ROM(board.url, 115200)
        try:
            esp.connect(attempts=1)
            esp.change_baud(230400)
            assert esp.read_reg(ESP32ROM.CHIP_DETECT_MAGIC_REG_ADDR) == ESP32ROM.MAGIC_VALUE
            esp.hard_reset()
        finally:
            esp._port.close()
        events, logs = booted_again(board, "baud 230400")
    # powered up without BOOT: the ROM boots the flash; esptool's reset: the ROM's loader
    assert "boot:0x13 (SPI_FAST_FLASH_BOOT)" in logs[0]
    assert "boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2))" in logs[1]
    assert logs[1].endswith("waiting for download\r\n")
    assert "baud 230400" in events
    last = logs[-1].split("\r\n")
    assert "boot:0x13 (SPI_FAST_FLASH_BOOT)" in last[2] and "mode:DIO, clock div:2" in last
    assert last[-5:-1] == firmware.bootloader_log
    assert [e for e in events if e.startswith("note:")] == []


def booted_again(board, since):
    """(the chip's events, its boot logs) once the hard reset has booted it from flash after
    the event `since`: the server's reset thread holds EN low a while after esptool has gone."""
    deadline = time.monotonic() + STOP_S
    while time.monotonic() < deadline:
        with board.lock:
            events, logs = list(board.chip.events), list(board.chip.boot_logs)
        if "boot from flash" in events[events.index(since):]:
            return events, logs
        time.sleep(0.05)
    raise AssertionError("the chip did not boot from flash after the hard reset: %s" % events)


@pytest.mark.parametrize("compress", [False, True])
def test_the_rom_loader_writes_and_verifies_without_the_stub(firmware, tmp_path, compress):
    # esptool --no-stub: the ROM's own flash commands (its erase at FLASH_BEGIN, 1 KB blocks in
    # sequence, or deflated ones; the MD5 as 32 hex digits)
    flash = tmp_path / "flash.bin"
    with RomLoaderServer(str(flash)) as board:
        out = subprocess.run([ESPTOOL, "--port", board.url, "--before", "no-reset", "--after",
                              "no-reset", "--no-stub", "write-flash"]
                             + (["--compress"] if compress else [])
                             + ["0x%x" % BOOTLOADER_AT, firmware.path],
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
        events = list(board.chip.events)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Hash of data verified." in out.stdout
    assert "flasher stub running" not in events
    assert [e for e in events if e.startswith("note:")] == []
    got = read_flash(flash)
    assert got[BOOTLOADER_AT:BOOTLOADER_AT + len(firmware.image)] == firmware.image
    assert set(got[BOOTLOADER_AT + len(firmware.image):]) == {0xFF}


def test_the_synthetic_firmware_is_an_image_esptool_and_agentboard_take(firmware):
    from esptool.bin_image import LoadFirmwareImage
    from host_tools import flash as fl
    for part in (firmware.bootloader, firmware.app):
        image = LoadFirmwareImage("esp32", part)  # checks the checksum and the SHA-256
        assert image.chip_id == 0 and image.append_digest
    assert fl.image_chip(firmware.path) == "esp32"
