# Stand-in for MicroPython's `esp32` on the simulated board: Partition, for the partitions a
# flashed device has beyond its file system. The simulated flash is the device process's
# folder; the "game" partition that `agentboard flash` adds to the partition table is the file
# partition-game.bin there (the simulator makes it with a new flash: host_tools/sim/server.py),
# with the SPI NOR flash's rules and datasheet times (hardware/design/flash.json) charged to the
# board clock. A flash without the file is a device flashed with MicroPython's own table.
import os

from host_tools.sim import world as _world
from host_tools.sim.nor_flash import NorFlash, SECTOR, PARTITION_FILE


def _spend(us):
    _world.current().advance_us(int(us))


class Partition(NorFlash):
    BOOT = 0
    RUNNING = 1
    TYPE_APP = 0
    TYPE_DATA = 1

    def __init__(self, label, path, nbytes):
        chip = _world.load_json("hardware/design/flash.json")["chip"]
        NorFlash.__init__(self, nbytes // SECTOR, path, _spend,
                          chip["erase_sector_ms"]["typ"] * 1000,
                          chip["program_page_ms"]["typ"] * 1000)
        self.label = label

    @staticmethod
    def find(type=TYPE_APP, subtype=0xFF, label=None):
        if type != Partition.TYPE_DATA or label is None:
            return []
        path = PARTITION_FILE % label
        try:
            nbytes = os.stat(path)[6]
        except OSError:
            return []
        return [Partition(label, path, nbytes)]

    def info(self):
        return (self.TYPE_DATA, 0x06, 0, self.n * SECTOR, self.label, False)
