# Stand-in for `esp32` in the heap measurement (host_tools/bench/mp_game_heap.py): the "game"
# partition that `agentboard flash` adds, so the firmware keeps its game in the journal
# (firmware/flashlog.py) as on a flashed board. On an ESP32 Partition's reads and writes go
# into the caller's buffer and take no heap; so here, after the module's one scratch page,
# nothing is allocated per call. The flash is the file partition-game.bin in the folder, in
# the simulator's format (host_tools/sim/nor_flash.py: each byte inverted, so that a new
# sparse file reads as erased). The chip's rules and times are the simulator's business: this
# flash is only right for what the journal writes (erased bytes, or zeros over a length).
import os

SECTOR = 4096
FILE = "partition-game.bin"
_scratch = bytearray(256)  # inverted bytes on their way to the file


def _invert(buf, n):
    for i in range(n):
        buf[i] ^= 0xFF


class Partition:
    TYPE_APP = 0
    TYPE_DATA = 1

    def __init__(self, nbytes):
        self.blocks = nbytes // SECTOR
        self.f = open(FILE, "r+b")

    @staticmethod
    def find(type=TYPE_APP, subtype=0xFF, label=None):
        if type != Partition.TYPE_DATA or label != "game":
            return []
        try:
            nbytes = os.stat(FILE)[6]
        except OSError:
            return []
        return [Partition(nbytes)]

    def readblocks(self, b, buf, off=0):
        f = self.f
        f.seek(b * SECTOR + off)
        n = f.readinto(buf)
        _invert(buf, n)

    def writeblocks(self, b, buf, off=0):
        f = self.f
        f.seek(b * SECTOR + off)
        s = _scratch
        i = 0
        while i < len(buf):
            n = min(len(s), len(buf) - i)
            for k in range(n):
                s[k] = buf[i + k] ^ 0xFF
            f.write(s, n)  # MicroPython's stream write takes a length
            i += n

    def ioctl(self, op, arg=0):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return SECTOR
        if op == 6:  # erase a sector: inverted 0xFF is 0
            f = self.f
            f.seek(arg * SECTOR)
            s = _scratch
            for k in range(len(s)):
                s[k] = 0
            for _ in range(SECTOR // len(s)):
                f.write(s)
            return 0
        return 0
