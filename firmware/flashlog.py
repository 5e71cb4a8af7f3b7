# The game on a flash partition of its own ("game", written by `agentboard flash`), as a
# journal: the same records as game.log (firmware/store.py), appended straight to the flash
# through esp32.Partition's block interface instead of through littlefs, which erases a 4 KB
# sector on every append (make bench, section 6). Here a save only programs pages: the sector
# a record goes into was erased ahead of it, while the board stood still (ready()).
#
# On flash, from the partition's first byte, each record is
#   length (2 bytes) | game number (2) | CRC-32 of the four bytes before and the text (4) | text
# starting on a 4-byte boundary, never across a sector's end. The first record is the game's
# header. Length 0xFFFF (erased flash) ends the journal; length 0 says "the rest of this sector
# is unused, go on at the next one". A record whose CRC fails was cut short by a power cut:
# loading ends before it, marks it with length 0 (programming only clears bits, so 0 can be
# written over anything), and the next record goes into the next sector. A new game erases the
# first sector and writes its header with the next game number; a record of another game number
# is never read as this game's, so the sectors after the current end need no erasing until the
# game reaches them.
import struct
import json
from binascii import crc32

from firmware import ondemand
from firmware.mpconst import const
from firmware.records import ENOSPC

# the module that reads the journal back at power-up (FlashLog.load)
LOAD = "firmware.flashlog_load"
HEAD = const(8)            # length, game number, CRC
_ALIGN = const(4)
END = const(0xFFFF)        # an erased length: nothing more
NEXT_SECTOR = const(0)     # the rest of this sector is unused
_GAME_MAX = const(0xFFFE)  # game numbers wrap before 0xFFFF, which reads like erased flash
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)
CHUNK = const(256)         # bytes read at a time when checking that flash is erased
READY_ROOM = const(1024)   # erased bytes ahead of the writer below which ready() erases: ~12 saves


def _aligned(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


class FlashLog:
    """The Store interface (new, append, load, turn, ready) over a block device with
    esp32.Partition's extended protocol."""

    def __init__(self, part):
        self.part = part
        self.sector = part.ioctl(_IOCTL_BLOCK_SIZE, 0)
        self.size = part.ioctl(_IOCTL_BLOCK_COUNT, 0) * self.sector
        self.head = bytearray(HEAD)
        self.pos = -1       # where the next record goes; -1: not loaded yet
        self.clean = 0      # the flash from pos up to here is known erased
        self.game = 0

    # -- reading ---------------------------------------------------------------------------
    def _read(self, at, buf):
        self.part.readblocks(at // self.sector, buf, at % self.sector)

    def _record(self, at):
        """(length, text) of a whole record of this game at `at`, length END or NEXT_SECTOR
        with text None, or (-1, None) for anything else: torn, foreign, of another game."""
        room = self.sector - at % self.sector
        if room < HEAD:  # no record fits here: the writer went on at the next sector
            return NEXT_SECTOR, None
        h = self.head
        self._read(at, h)
        n, game, crc = struct.unpack("<HHI", h)
        if n == END or n == NEXT_SECTOR:
            return n, None
        if HEAD + n > room or game != self.game:
            return -1, None
        text = bytearray(n)
        self._read(at + HEAD, text)
        if crc32(text, crc32(memoryview(h)[:4])) != crc:
            return -1, None
        return n, text

    def load(self):
        """(header, offsets of the turns in force), or (None, Offsets()) with no game; finds
        where the next record goes, marking a torn one. Once a power-up: its code is in
        LOAD, imported for the call and dropped after it (firmware/ondemand.py)."""
        return ondemand.call(LOAD, "load", self)

    def _mark(self, at):
        self.part.writeblocks(at // self.sector, b"\x00\x00", at % self.sector)

    def turn(self, at):
        n, text = self._record(at)
        if text is None:
            raise ValueError("no record at %d" % at)
        return json.loads(bytes(text))

    # -- writing ---------------------------------------------------------------------------
    def _erase_to(self, end):
        # erases the sectors from clean up to end
        while self.clean < end:
            self.part.ioctl(_IOCTL_BLOCK_ERASE, self.clean // self.sector)
            self.clean += self.sector

    def due(self):
        """Whether ready() has a sector to erase: the erased room ahead of the writer runs
        short."""
        return 0 <= self.pos and self.clean - self.pos < READY_ROOM and self.clean < self.size

    def ready(self):
        """Erases the next sector once the erased room ahead of the writer runs short: called
        while the board stands still, so that a save never waits for an erase. An erase
        stalls the processor (45 ms), so it happens once per sector filled (about every 50
        saves), not whenever the board is still."""
        if self.due():
            self._erase_to(self.clean + self.sector)

    def new(self, header):
        prev = self.game
        if self.pos < 0:
            self.load()
            prev = self.game
        self.game = prev % _GAME_MAX + 1
        # the old game is ended before its first sector is erased: an erase cut short could
        # leave its header readable over part of its turns
        self._mark(0)
        self.pos = 0
        self.clean = 0
        self._put(json.dumps(header))

    def append(self, obj):
        """Saves one record; returns where it starts."""
        if self.pos < 0:
            self.load()
        return self._put(json.dumps(obj))

    def _put(self, text):
        data = text.encode()
        n = len(data)
        size = _aligned(HEAD + n)
        sector = self.sector
        if n >= END or size > sector:
            raise ValueError("a record of %d bytes does not fit a sector" % n)
        at = self.pos
        nxt = (at // sector + 1) * sector
        if nxt + sector > self.size:
            # full once the writer is in the last sector, whatever this record's length: a
            # refusal that hung on the length would tell of what the record holds (Agent
            # Avenue saves a face-down card's name before the rules reveal it)
            raise OSError(ENOSPC)
        if at % sector + size > sector:  # into the next sector, erased before it is named
            self._erase_to(nxt + sector)
            if at % sector:
                self._mark(at)
            at = nxt
        self._erase_to((at // sector + 1) * sector)
        rec = bytearray(HEAD + n)
        struct.pack_into("<HH", rec, 0, n, self.game)
        rec[HEAD:] = data
        struct.pack_into("<I", rec, 4, crc32(data, crc32(memoryview(rec)[:4])))
        self.part.writeblocks(at // sector, rec, at % sector)
        self.pos = at + size
        return at
