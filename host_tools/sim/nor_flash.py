# A partition of the ESP32 module's SPI NOR flash as MicroPython's esp32.Partition presents it
# (the extended block protocol: readblocks/writeblocks with an offset, ioctl 6 to erase), with
# the chip's rules (hardware/design/flash.json): a 4 KB sector is erased whole to 0xFF, a
# program only clears bits (a program that would set one is counted: the chip cannot), and a
# program goes page by page, a page never crossing a 256-byte boundary.
#
# Runs on MicroPython (the simulator's esp32 stand-in, make bench, tests/mp) and CPython. It
# counts erases and page programs, charges their time through `spend(us)` when given one, and
# can lose power at a chosen point: after `cut_after` more programmed bytes, or in the middle of
# the next erase, it raises PowerCut with the flash left as the chip would leave it.
ERASED = 0xFF
SECTOR = 4096
PAGE = 256
# MicroPython's block-device ioctls (extmod/vfs.h)
IOCTL_BLOCK_COUNT = 4
IOCTL_BLOCK_SIZE = 5
IOCTL_BLOCK_ERASE = 6
NO_CUT = -1
# the simulated flash (a folder) holds each partition beside the file system as this file
PARTITION_FILE = "partition-%s.bin"


class PowerCut(Exception):
    """The power went while the flash was being written."""


class NorFlash:
    """`blocks` sectors held in RAM (only the sectors ever written), or in `path`, a file
    that outlives the process as the chip's flash outlives a power cut. The file holds each
    byte inverted, so that a new one, all zeros and sparse (blank()), reads as erased flash.
    erase_us and page_us: the datasheet's times, charged through spend."""

    def __init__(self, blocks, path=None, spend=None, erase_us=0, page_us=0):
        self.n = blocks
        self.path = path
        self.spend = spend
        self.erase_us = erase_us
        self.page_us = page_us
        self.sectors = {}
        self.erases = 0
        self.pages = 0
        self.bits_set = 0
        self.cut_after = NO_CUT  # programmed bytes until the power goes; NO_CUT: never
        self.cut_erase = False   # the power goes in the middle of the next erase

    # -- the bytes -------------------------------------------------------------------------
    def _read(self, at, n):
        if self.path is None:
            s = self.sectors.get(at // SECTOR)
            off = at % SECTOR
            return bytes([ERASED]) * n if s is None else bytes(s[off:off + n])
        with open(self.path, "rb") as f:
            f.seek(at)
            raw = f.read(n)
        return bytes([ERASED ^ b for b in raw]) + bytes([ERASED]) * (n - len(raw))

    def _write(self, at, data):
        if self.path is None:
            b = at // SECTOR
            s = self.sectors.get(b)
            if s is None:
                s = self.sectors[b] = bytearray(bytes([ERASED]) * SECTOR)
            off = at % SECTOR
            s[off:off + len(data)] = data
        else:
            with open(self.path, "r+b") as f:
                f.seek(at)
                f.write(bytes([ERASED ^ b for b in data]))

    def _check(self, b, off, n):
        if not (0 <= b < self.n and 0 <= off and off + n <= (self.n - b) * SECTOR):
            raise OSError(22)  # EINVAL, as esp_partition_read/write outside the partition

    # -- esp32.Partition's block protocol ---------------------------------------------------
    def readblocks(self, b, buf, off=0):
        self._check(b, off, len(buf))
        buf[:] = self._read(b * SECTOR + off, len(buf))

    def writeblocks(self, b, buf, off=None):
        if off is None:  # the simple protocol: whole blocks, erased first
            for k in range((len(buf) + SECTOR - 1) // SECTOR):
                self.ioctl(IOCTL_BLOCK_ERASE, b + k)
            off = 0
        self._check(b, off, len(buf))
        at = b * SECTOR + off
        end = at + len(buf)
        i = 0
        while at < end:  # page by page, as the chip is programmed
            n = min(PAGE - at % PAGE, end - at)
            old = self._read(at, n)
            new = bytearray(n)
            for k in range(n):
                v = buf[i + k]
                if v & ~old[k] & 0xFF:
                    self.bits_set += 1
                new[k] = v & old[k]
            cut = self.cut_after
            if cut != NO_CUT and cut < n:
                self._write(at, bytes(new[:cut]))  # the bytes programmed before the power went
                self.cut_after = NO_CUT
                raise PowerCut("power cut while programming 0x%x" % (at + cut))
            if cut != NO_CUT:
                self.cut_after = cut - n
            self._write(at, bytes(new))
            self.pages += 1
            if self.spend is not None:
                self.spend(self.page_us)
            at += n
            i += n

    def ioctl(self, op, arg=0):
        if op == IOCTL_BLOCK_COUNT:
            return self.n
        if op == IOCTL_BLOCK_SIZE:
            return SECTOR
        if op == IOCTL_BLOCK_ERASE:
            self._check(arg, 0, SECTOR)
            if self.cut_erase:
                # an erase cut short leaves the sector neither old nor erased: half of it
                # still holds what it held, the rest reads erased
                self.cut_erase = False
                self._write(arg * SECTOR + SECTOR // 2, bytes([ERASED]) * (SECTOR // 2))
                raise PowerCut("power cut while erasing sector %d" % arg)
            self._write(arg * SECTOR, bytes([ERASED]) * SECTOR)
            self.erases += 1
            if self.spend is not None:
                self.spend(self.erase_us)
            return 0
        return 0  # init, deinit, sync: nothing to do


def blank(path, nbytes):
    """A new partition file for NorFlash(path=...): erased flash, taking no disk space."""
    with open(path, "wb") as f:
        if nbytes:
            f.seek(nbytes - 1)
            f.write(b"\x00")
