# The journal read back at power-up (firmware/flashlog.py's FlashLog.load): the game's records
# in order, where the next record goes, a torn record marked. Once a power-up: imported for
# the call and dropped after it (firmware/ondemand.py), so that on MicroPython's stock ESP32
# build its bytecode does not take heap for the board's whole life.
import struct
import json

from firmware.flashlog import HEAD, END, NEXT_SECTOR, CHUNK, _aligned
from firmware.records import Offsets, replay


def erased(log, at, end):
    buf = bytearray(CHUNK)
    while at < end:
        k = min(CHUNK, end - at)
        view = memoryview(buf)[:k]
        log._read(at, view)
        if bytes(view) != b"\xff" * k:
            return False
        at += k
    return True


def load(log):
    """(header, offsets of the turns in force), or (None, Offsets()) with no game; finds
    where the next record goes, marking a torn one."""
    log.pos = 0
    log.clean = 0
    h = log.head
    log._read(0, h)
    n, game, _ = struct.unpack("<HHI", h)
    if n == END or n == NEXT_SECTOR:
        return None, Offsets()
    log.game = game
    return replay(records(log))


def records(log):
    # yields (where, record) in order; leaves pos where the next record goes and clean
    # past it as far as the flash is known erased
    at = 0
    sector = log.sector
    while at < log.size:
        n, text = log._record(at)
        if n == NEXT_SECTOR:
            at = (at // sector + 1) * sector
            continue
        obj = None
        if text is not None:
            try:
                obj = json.loads(bytes(text))
            except ValueError:
                n = -1
        if obj is not None:
            yield at, obj
            at += _aligned(HEAD + n)
            continue
        if at % sector == 0:
            # at a sector's start anything but a record (erased-looking flash included:
            # its erase may have been cut short) is a sector to erase before use
            pass
        elif n == END and erased(log, at, (at // sector + 1) * sector):
            # the sector's erase was whole: a record went into it after it
            log.clean = (at // sector + 1) * sector
        else:  # torn, or not erased behind the last record: on at the next sector
            log._mark(at)
            at = (at // sector + 1) * sector
        break
    log.pos = at
    if log.clean < at:
        log.clean = at
