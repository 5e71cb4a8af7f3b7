# The virtual device as MicroPython's ESP32 port built with ROMFS (MICROPY_VFS_ROM and
# MICROPY_VFS_ROM_IOCTL): `vfs.rom_ioctl` over the flash's "romfs" partition, and the image in it
# mounted at /rom at every start. Runs inside the device's MicroPython process (boot.py), before
# anything of the board's own flash is imported. The unix port has vfs.VfsRom but no rom_ioctl.
#
# What it follows, MicroPython 1.29:
# - ports/esp32/esp32_partition.c, mp_vfs_rom_ioctl: 1 (number of segments) answers 1 with a
#   data partition labelled "romfs", else 0; 2 (segment 0) answers that partition as an
#   esp32.Partition object, else -EINVAL; every other request -EINVAL. The object maps the
#   partition into memory (its buffer, read only) and is written through the block protocol:
#   ioctl 4 and 5 (block count, 4 KB blocks), ioctl 6 (erase a block), writeblocks with an
#   offset (program without erasing). mpremote's `romfs deploy` writes it so, as deploy does.
# - extmod/vfs.c, mp_vfs_mount_romfs_protected (called by py/runtime.c's mp_init): mounts
#   vfs.VfsRom(rom_ioctl(2, 0)) at /rom and appends "/rom" and "/rom/lib" to sys.path; a
#   partition that holds no whole image (VfsRom refuses it: ENODEV) is silently not mounted.
#
# The partition is the file partition-romfs.bin in the device's flash folder, with the SPI NOR
# flash's rules (host_tools/sim/nor_flash.py: erase to FF by 4 KB sector, programs clear bits),
# so it outlives a power cut as the chip's flash does. On the chip the mapping is flash, not
# heap; here it is a bytearray, kept equal to the file after every erase and write.
import sys

from host_tools.sim.nor_flash import NorFlash, SECTOR, PARTITION_FILE, IOCTL_BLOCK_ERASE

LABEL = "romfs"
MOUNT = "/rom"
EINVAL = 22  # py/mperrno.h
GET_NUMBER_OF_SEGMENTS = 1  # extmod/vfs.h, MP_VFS_ROM_IOCTL_*
GET_SEGMENT = 2


class RomPartition(bytearray):
    """The "romfs" partition: its bytes as the memory-mapped view (the buffer VfsRom reads),
    written through esp32.Partition's block protocol onto the NOR flash model."""

    def _attach(self, flash):
        self.flash = flash
        self._refresh(0, len(self))

    def _refresh(self, at, n):
        chunk = bytearray(min(n, SECTOR))
        end = at + n
        while at < end:
            k = min(SECTOR, end - at)
            view = memoryview(chunk)[:k]
            self.flash.readblocks(at // SECTOR, view, at % SECTOR)
            self[at:at + k] = view
            at += k

    def info(self):
        return (1, 0x8F, 0, len(self), LABEL, False)

    def readblocks(self, block, buf, off=0):
        self.flash.readblocks(block, buf, off)

    def writeblocks(self, block, buf, off=None):
        self.flash.writeblocks(block, buf, off)
        start = block * SECTOR + (off or 0)
        if off is None:  # whole blocks, erased first
            self._refresh(block * SECTOR, (len(buf) + SECTOR - 1) // SECTOR * SECTOR)
        else:
            self._refresh(start, len(buf))

    def ioctl(self, op, arg):
        answer = self.flash.ioctl(op, arg)
        if op == IOCTL_BLOCK_ERASE:
            self._refresh(arg * SECTOR, SECTOR)
        return answer


def _partition():
    import os
    path = PARTITION_FILE % LABEL
    try:
        nbytes = os.stat(path)[6]
    except OSError:
        return None  # a table without the romfs partition (flashed without --romfs)
    part = RomPartition(nbytes)
    part._attach(NorFlash(nbytes // SECTOR, path))
    return part


class _Vfs:
    """The vfs module of a ROMFS build: the unix port's own, and rom_ioctl."""

    def __init__(self, builtin, part):
        for name in dir(builtin):
            if not name.startswith("__"):
                setattr(self, name, getattr(builtin, name))
        self._part = part

    def rom_ioctl(self, op, *args):
        part = self._part
        if op == GET_NUMBER_OF_SEGMENTS:
            return 0 if part is None else 1
        if op == GET_SEGMENT and part is not None:
            return part
        return -EINVAL


def install():
    """`import vfs` gives the ROMFS build's module from now on; the image is mounted at /rom
    when the partition holds a whole one, as MicroPython does at start."""
    import vfs
    module = _Vfs(vfs, _partition())
    sys.modules["vfs"] = module
    try:
        vfs.mount(vfs.VfsRom(module.rom_ioctl(GET_SEGMENT, 0)), MOUNT)
    except Exception:  # noqa: BLE001 -- as mp_vfs_mount_romfs_protected: no image, no /rom
        return
    sys.path.append(MOUNT)
    sys.path.append(MOUNT + "/lib")
