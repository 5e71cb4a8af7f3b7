"""The ESP32's partition table inside MicroPython's merged image, and the partition agentboard
adds to it: `game`, where the firmware journals the game (firmware/flashlog.py).

The table's binary format is ESP-IDF's (components/partition_table/gen_esp32part.py): 32-byte
entries `<2sBBLL16sL` (magic AA 50, type, subtype, offset, size, label, flags), then an entry
of EB EB and 14 bytes FF holding the MD5 of the entries before it, then FF up to 0xC00 bytes.
The offsets and sizes are data: hardware/design/flash.json.
"""
import hashlib
import json
import os
import struct

from host_tools import paths

ENTRY = struct.Struct("<2sBBLL16sL")
MAGIC = b"\xaa\x50"
MD5_MAGIC = b"\xeb\xeb" + b"\xff" * 14
ERASED = 0xFF


class TableError(Exception):
    """The image's partition table cannot take the game partition; one sentence why."""


def design():
    with open(os.path.join(paths.HARDWARE, "design", "flash.json")) as f:
        return json.load(f)


class Partition:
    def __init__(self, label, type, subtype, offset, size, flags=0):
        self.label = label
        self.type = type
        self.subtype = subtype
        self.offset = offset
        self.size = size
        self.flags = flags

    def end(self):
        return self.offset + self.size

    def __repr__(self):
        return "%s at 0x%x, 0x%x bytes" % (self.label, self.offset, self.size)


def parse(table):
    """The partitions of a binary table, or TableError: no table, a broken one, a bad MD5."""
    parts = []
    md5 = hashlib.md5()
    for at in range(0, len(table) - ENTRY.size + 1, ENTRY.size):
        raw = table[at:at + ENTRY.size]
        if raw == bytes([ERASED]) * ENTRY.size:
            if not parts:
                break
            return parts
        if raw[:16] == MD5_MAGIC:
            if raw[16:] != md5.digest():
                raise TableError("the partition table's MD5 does not match its entries")
            continue
        magic, ptype, subtype, offset, size, label, flags = ENTRY.unpack(raw)
        if magic != MAGIC:
            break
        md5.update(raw)
        parts.append(Partition(label.rstrip(b"\x00").decode("ascii", "replace"), ptype,
                               subtype, offset, size, flags))
    raise TableError("no partition table where ESP-IDF puts it")


def encode(parts, length):
    out = b"".join(ENTRY.pack(MAGIC, p.type, p.subtype, p.offset, p.size,
                              p.label.encode("ascii"), p.flags) for p in parts)
    out += MD5_MAGIC + hashlib.md5(out).digest()
    if len(out) >= length:  # as ESP-IDF's gen_esp32part.py: an end marker must follow
        raise TableError("the partition table has no room for another entry")
    return out + bytes([ERASED]) * (length - len(out))


def _design_partition(p):
    return Partition(p["label"], p["type"], p["subtype"], p["offset"], p["bytes"])


def wanted(romfs=False):
    """The partitions agentboard adds to MicroPython's table (hardware/design/flash.json): the
    game's journal, and with romfs the "romfs" partition a build with ROMFS mounts at /rom."""
    d = design()
    out = [_design_partition([p for p in d["partitions"] if p["label"] != "vfs"][0])]
    if romfs:
        out.append(_design_partition(d["romfs"]))
    return out


def with_game(image, image_at):
    """(the merged image with the game partition in its table, the game partition): as
    with_partitions without ROMFS."""
    image, parts = with_partitions(image, image_at)
    return image, parts[0]


def with_partitions(image, image_at, romfs=False):
    """(the merged image with agentboard's partitions in its table, those partitions), the
    image unchanged where its table already has them where flash.json puts them; TableError
    when the table has no room for them there. image_at: where the image is written (the
    chip's bootloader offset). romfs: add the ROMFS partition too (wanted())."""
    d = design()
    at = d["table"]["offset"] - image_at
    length = d["table"]["bytes"]
    if at < 0 or len(image) < at + length:
        raise TableError("the image is too short to hold a partition table at 0x%x: use the "
                         "merged .bin of the ESP32_GENERIC download" % d["table"]["offset"])
    parts = parse(image[at:at + length])
    want = wanted(romfs)
    missing = [w for w in want if not _already_there(parts, w)]
    if not missing:
        return image, want
    table = encode(parts + missing, length)
    return image[:at] + table + image[at + length:], want


def _already_there(parts, want):
    """Whether the table's partitions hold `want` where flash.json puts it; TableError when
    one of them is in its way."""
    for p in parts:
        if p.label == want.label:
            if (p.offset, p.size) == (want.offset, want.size):
                return True
            raise TableError("the image's table already has a partition %r (%r), not where "
                             "agentboard keeps it" % (p.label, p))
        if p.offset < want.end() and want.offset < p.end():
            raise TableError("the image's partition %r overlaps the %s partition (0x%x-"
                             "0x%x): this is not MicroPython's ESP32_GENERIC table"
                             % (p, want.label, want.offset, want.end()))
    return False


def room_problem(parts, flash_bytes):
    """Why a chip with flash_bytes of flash cannot hold agentboard's partitions (wanted())
    and, after them, the file system MicroPython makes of the rest (at least flash.json's
    size: smaller with a ROMFS partition, which holds the code the file system held), or
    None."""
    if isinstance(parts, Partition):
        parts = [parts]
    d = design()
    fs = [p for p in d["partitions"] if p["label"] == "vfs"][0]["bytes"]
    if any(p.label == d["romfs"]["label"] for p in parts):
        fs = d["romfs"]["fs_min_bytes"]
    end = max(p.end() for p in parts)
    if end + fs > flash_bytes:
        return ("the board's flash (%d KB) is too small: agentboard needs %d KB (MicroPython, "
                "%s, a %d KB file system)"
                % (flash_bytes >> 10, (end + fs) >> 10,
                   " and ".join("the %s partition" % p.label for p in parts), fs >> 10))
    return None
