# `micropython mp_rom_game.py IMAGE SEED PLAYERS`: runs the whole-game heap harness
# (mp_game_heap) imported from a ROMFS image mounted at /rom, the way MicroPython runs .mpy
# bytecode in place from a memory-mapped flash partition. The harness is always in the image
# (it measures, it is not firmware); the firmware is in it too or deployed as .mpy files.
# Here the image sits in the heap: the bench takes its size off the figure.
import sys
import vfs

with open(sys.argv[1], "rb") as f:
    vfs.mount(vfs.VfsRom(f.read()), "/rom")
sys.path.insert(0, "/rom")
import mp_game_heap  # noqa: E402,F401
