# Runs on MicroPython from a device tree built with the simulator:
#   micropython mp_flash_save.py GAME PLAYERS SEED
# What saving a turn costs on the ESP32's flash, which the simulator does not charge: the
# referee saves every turn to game.log (firmware/store.py) before it acknowledges the move.
# Mounts littlefs (vfs.VfsLfs2, the file system MicroPython's ESP32 port formats its vfs
# partition with, same defaults) on a model of the module's SPI NOR flash
# (hardware/design/flash.json), saves every turn of a random whole game through the firmware's
# own Store, and prints as JSON what each save did to the flash: sector erases and page
# programs. The host turns them into milliseconds with the datasheet's times.
import sys
import json
import vfs
from firmware.store import Store, FORMAT
from shared_rules import randgame, notation

GAME = sys.argv[1]
PLAYERS = int(sys.argv[2])
SEED = int(sys.argv[3])
with open("hardware/design/flash.json") as f:
    FLASH = json.load(f)
SECTOR = FLASH["chip"]["sector_bytes"]
PAGE = FLASH["chip"]["page_bytes"]
ERASED = 0xFF
# MicroPython's block-device ioctls (extmod/vfs.h)
IOCTL_INIT, IOCTL_DEINIT, IOCTL_SYNC, IOCTL_BLOCK_COUNT, IOCTL_BLOCK_SIZE, IOCTL_BLOCK_ERASE = \
    1, 2, 3, 4, 5, 6


class NorFlash:
    """A flash partition as esp32.Partition presents it (MicroPython's extended block
    protocol): blocks are 4 KB sectors, erased whole to 0xFF; a program only clears bits and
    is sent page by page (a page program cannot cross a 256-byte page). Holds only the sectors
    written, so a 960 KB partition fits the unix port's heap."""

    def __init__(self, nblocks):
        self.n = nblocks
        self.sectors = {}
        self.erases = 0
        self.pages = 0
        self.bits_set = 0  # programs that would need a bit to go from 0 to 1: not possible

    def _sector(self, b):
        s = self.sectors.get(b)
        if s is None:
            s = self.sectors[b] = bytearray(bytes([ERASED]) * SECTOR)
        return s

    def readblocks(self, b, buf, off=0):
        s = self.sectors.get(b)
        if s is None:
            for i in range(len(buf)):
                buf[i] = ERASED
        else:
            buf[:] = s[off:off + len(buf)]

    def writeblocks(self, b, buf, off=None):
        if off is None:  # the simple protocol: whole blocks, erased first
            off = 0
            for k in range((len(buf) + SECTOR - 1) // SECTOR):
                self.ioctl(IOCTL_BLOCK_ERASE, b + k)
        s = self._sector(b)
        for i in range(len(buf)):
            if buf[i] & ~s[off + i] & 0xFF:
                self.bits_set += 1
            s[off + i] &= buf[i]
        self.pages += (off + len(buf) - 1) // PAGE - off // PAGE + 1

    def ioctl(self, op, arg):
        if op == IOCTL_BLOCK_COUNT:
            return self.n
        if op == IOCTL_BLOCK_SIZE:
            return SECTOR
        if op == IOCTL_BLOCK_ERASE:
            self.erases += 1
            self.sectors[arg] = bytearray(bytes([ERASED]) * SECTOR)
            return 0
        return 0  # init, deinit, sync: nothing to do


lfs = FLASH["littlefs"]
opts = {"readsize": lfs["readsize"], "progsize": lfs["progsize"], "lookahead": lfs["lookahead"]}
flash = NorFlash(FLASH["partition"]["bytes"] // SECTOR)
vfs.VfsLfs2.mkfs(flash, **opts)
vfs.mount(vfs.VfsLfs2(flash, **opts), "/flash")
store = Store("/flash")
store.new({"format": FORMAT, "game": GAME, "players": PLAYERS})
erases = []  # per save
pages = []
sizes = []


def save(before, seat, card, mv, events):
    lay = before.lay
    if card < 0:
        turn = {"seat": lay.colours[seat], "move": {"pass": True}}
    else:
        turn = {"seat": lay.colours[seat], "card": before.game.cards.names[card],
                "move": notation.to_json(before, mv)}
    e, p = flash.erases, flash.pages
    store.append(turn)
    erases.append(flash.erases - e)
    pages.append(flash.pages - p)
    sizes.append(len(json.dumps(turn)) + 1)


_, turns = randgame.play(SEED, PLAYERS, report=save, game=GAME)
print(json.dumps({"saves": turns, "erases": erases, "pages": pages,
                  "line_bytes": sum(sizes) // len(sizes), "bits_set": flash.bits_set}))
