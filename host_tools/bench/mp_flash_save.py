# Runs on MicroPython from a device tree built with the simulator:
#   micropython mp_flash_save.py GAME PLAYERS SEED
# What saving a turn costs on the ESP32's flash, which the move waits for (the referee saves
# every turn before it acknowledges the move). Plays a random whole game and saves every turn
# twice, each time on a model of the module's SPI NOR flash (host_tools/sim/nor_flash.py,
# hardware/design/flash.json):
#   littlefs: game.log through firmware/store.py's Store, on vfs.VfsLfs2 mounted as
#     MicroPython's ESP32 port mounts its vfs partition (same defaults, same size);
#   journal: firmware/flashlog.py on the "game" partition, its next sector erased ahead
#     (ready()) between saves, as the application does while the board stands still.
# Prints as JSON what each save did to the flash: sector erases and page programs (and the
# journal's erases done ahead, outside the saves). The host turns them into milliseconds.
import sys
import json
import vfs
from firmware.gamelog import Store
from firmware.store import FORMAT
from firmware.flashlog import FlashLog
from host_tools.sim.nor_flash import NorFlash, SECTOR
from shared_rules import randgame, notation

GAME = sys.argv[1]
PLAYERS = int(sys.argv[2])
SEED = int(sys.argv[3])
with open("hardware/design/flash.json") as f:
    FLASH = json.load(f)
PARTS = dict((p["label"], p) for p in FLASH["partitions"])

lfs = FLASH["littlefs"]
opts = {"readsize": lfs["readsize"], "progsize": lfs["progsize"], "lookahead": lfs["lookahead"]}
lfs_flash = NorFlash(PARTS["vfs"]["bytes"] // SECTOR)
vfs.VfsLfs2.mkfs(lfs_flash, **opts)
vfs.mount(vfs.VfsLfs2(lfs_flash, **opts), "/flash")
journal_flash = NorFlash(PARTS["game"]["bytes"] // SECTOR)
stores = {"littlefs": (Store("/flash"), lfs_flash), "journal": (FlashLog(journal_flash),
                                                                journal_flash)}
got = {}
for name in stores:
    got[name] = {"erases": [], "pages": [], "ahead": 0}
header = {"format": FORMAT, "game": GAME, "players": PLAYERS}
for store, _ in stores.values():
    store.new(header)
sizes = []


def save(before, seat, card, mv, events):
    lay = before.lay
    if card < 0:
        turn = {"seat": lay.colours[seat], "move": {"pass": True}}
    else:
        turn = {"seat": lay.colours[seat], "card": before.game.cards.names[card],
                "move": notation.to_json(before, mv)}
    for name, (store, flash) in stores.items():
        g = got[name]
        e = flash.erases
        store.ready()
        g["ahead"] += flash.erases - e
        e, p = flash.erases, flash.pages
        store.append(turn)
        g["erases"].append(flash.erases - e)
        g["pages"].append(flash.pages - p)
    sizes.append(len(json.dumps(turn)) + 1)


_, turns = randgame.play(SEED, PLAYERS, report=save, game=GAME)
_, kept = stores["journal"][0].load()  # the journal reads back every save
print(json.dumps({"saves": turns, "line_bytes": sum(sizes) // len(sizes),
                  "bits_set": lfs_flash.bits_set + journal_flash.bits_set,
                  "journal_bytes": stores["journal"][0].pos, "read_back": len(kept),
                  "stores": got}))
