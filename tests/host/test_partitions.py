# `agentboard flash` adds the game's partition to MicroPython's partition table
# (host_tools/partitions.py); the firmware finds it by label (firmware/store.py).
import hashlib
import json
import os
import struct

import pytest

from conftest import ROOT
from test_cli import MICROPYTHON_TABLE, TABLE_AT, TABLE_BYTES, esp_image, table_bytes
from host_tools import partitions
from firmware import store

ESP32_BOOTLOADER_AT = 0x1000
GAME = ("game", 1, 6, 0x200000, 0x100000)  # data, ESP-IDF's "undefined" subtype


def image(tmp_path, table=None):
    with open(esp_image(tmp_path / "fw.bin", 0, table), "rb") as f:
        return f.read()


def test_the_game_partition_follows_the_application_and_the_table_stays_valid(tmp_path):
    old = image(tmp_path)
    new, game = partitions.with_game(old, ESP32_BOOTLOADER_AT)
    at = TABLE_AT - ESP32_BOOTLOADER_AT
    # the table as ESP-IDF would write it with the game's row added, MD5 included
    assert new[at:at + TABLE_BYTES] == table_bytes(MICROPYTHON_TABLE + [GAME])
    assert new[:at] == old[:at] and new[at + TABLE_BYTES:] == old[at + TABLE_BYTES:]
    assert (game.label, game.offset, game.size) == ("game", 0x200000, 0x100000)
    # the factory app ends where the game begins; the file system MicroPython registers after
    # the last partition then takes the last 1 MB of a 4 MB module
    assert MICROPYTHON_TABLE[-1][3] + MICROPYTHON_TABLE[-1][4] == game.offset
    assert partitions.room_problem(game, 4 << 20) is None
    # and flashing it again changes nothing
    assert partitions.with_game(new, ESP32_BOOTLOADER_AT)[0] == new


def test_the_firmware_and_the_simulator_use_the_same_partition():
    with open(os.path.join(ROOT, "hardware", "design", "flash.json")) as f:
        parts = {p["label"]: p for p in json.load(f)["partitions"]}
    assert store.JOURNAL_LABEL in parts
    assert (parts[store.JOURNAL_LABEL]["offset"], parts[store.JOURNAL_LABEL]["bytes"]) == GAME[3:]


def broken_md5():
    t = bytearray(table_bytes(MICROPYTHON_TABLE))
    t[3 * 32 + 20] ^= 1  # a byte of the MD5 entry
    return bytes(t)


@pytest.mark.parametrize("table,says", [
    (table_bytes(MICROPYTHON_TABLE + [("vfs", 1, 0x81, 0x200000, 0x200000)]),
     "overlaps the game partition"),
    (table_bytes(MICROPYTHON_TABLE + [("game", 1, 6, 0x380000, 0x10000)]),
     "already has a partition 'game'"),
    (broken_md5(), "MD5 does not match"),
    (b"\xff" * TABLE_BYTES, "no partition table"),
    (table_bytes([("p%d" % k, 1, 6, 0x400000 + k * 0x1000, 0x1000) for k in range(94)]),
     "no room for another entry"),
])
def test_a_table_that_cannot_take_the_game_partition_is_refused(tmp_path, table, says):
    with pytest.raises(partitions.TableError, match=says):
        partitions.with_game(image(tmp_path, table), ESP32_BOOTLOADER_AT)


def test_an_image_too_short_for_a_table_is_refused():
    with pytest.raises(partitions.TableError, match="too short"):
        partitions.with_game(b"\xe9" + bytes(2000), ESP32_BOOTLOADER_AT)


def test_a_2mb_module_has_no_room_for_the_game_and_a_file_system(tmp_path):
    _, game = partitions.with_game(image(tmp_path), ESP32_BOOTLOADER_AT)
    why = partitions.room_problem(game, 2 << 20)
    assert why and "2048 KB" in why and "4096 KB" in why


def test_flash_refuses_a_foreign_image_before_looking_for_the_board(tmp_path):
    from host_tools import flash as fl
    path = esp_image(tmp_path / "fw.bin", 0, table_bytes(MICROPYTHON_TABLE + [
        ("vfs", 1, 0x81, 0x200000, 0x200000)]))
    with pytest.raises(fl.FlashError, match="overlaps"):
        fl.flash(path, port="/dev/ttyUSB97", say=lambda s: None)


# `agentboard flash --romfs` (docs/romfs.md): MicroPython's esp32 port mounts the data
# partition labelled "romfs" at /rom (its partitions-4MiB-romfs.csv: subtype 0x8f); agentboard
# puts a 256 KB one right after the game's journal, where the file system began
ROMFS = ("romfs", 1, 0x8F, 0x300000, 0x40000)


def test_the_romfs_partition_follows_the_game_and_leaves_768_kb_of_file_system(tmp_path):
    old = image(tmp_path)
    new, parts = partitions.with_partitions(old, ESP32_BOOTLOADER_AT, romfs=True)
    at = TABLE_AT - ESP32_BOOTLOADER_AT
    assert new[at:at + TABLE_BYTES] == table_bytes(MICROPYTHON_TABLE + [GAME, ROMFS])
    assert new[:at] == old[:at] and new[at + TABLE_BYTES:] == old[at + TABLE_BYTES:]
    assert [(p.label, p.offset, p.size) for p in parts] == [GAME[:1] + GAME[3:],
                                                             ROMFS[:1] + ROMFS[3:]]
    # 4 MB: 0x340000-0x400000 (768 KB) is left to the file system, which no longer holds
    # the code; 8 and 16 MB modules keep several MB
    for mb in (4, 8, 16):
        assert partitions.room_problem(parts, mb << 20) is None
    why = partitions.room_problem(parts, 2 << 20)
    assert "2048 KB" in why and "romfs partition" in why and "768 KB file system" in why
    # flashing again changes nothing; a table flashed without it gains it
    assert partitions.with_partitions(new, ESP32_BOOTLOADER_AT, romfs=True)[0] == new
    plain = partitions.with_game(old, ESP32_BOOTLOADER_AT)[0]
    assert partitions.with_partitions(plain, ESP32_BOOTLOADER_AT, romfs=True)[0] == new


def test_a_romfs_partition_elsewhere_is_refused(tmp_path):
    # MicroPython's own ROMFS table: 128 KB at 0x1E0000, the application shortened to make room
    romfs_table = [("nvs", 1, 2, 0x9000, 0x6000), ("phy_init", 1, 1, 0xF000, 0x1000),
                   ("factory", 0, 0, 0x10000, 0x1D0000), ("romfs", 1, 0x8F, 0x1E0000, 0x20000)]
    with pytest.raises(partitions.TableError, match="already has a partition 'romfs'"):
        partitions.with_partitions(image(tmp_path, table_bytes(romfs_table)),
                                   ESP32_BOOTLOADER_AT, romfs=True)
