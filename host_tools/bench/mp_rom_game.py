# Runs the whole-game heap harness (mp_game_heap) with the firmware and rules core imported
# from a ROMFS image (app.romfs) mounted at /rom, the way an ESP32 firmware built with ROMFS
# runs .mpy bytecode in place from flash. Here the image sits in the heap: the bench takes its
# size off the figure.
import sys
import vfs

with open("app.romfs", "rb") as f:
    vfs.mount(vfs.VfsRom(f.read()), "/rom")
sys.path.insert(0, "/rom")
import mp_game_heap  # noqa: E402,F401
