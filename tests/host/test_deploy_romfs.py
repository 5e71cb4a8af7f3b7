# `agentboard deploy` onto a board whose MicroPython has ROMFS (docs/romfs.md): the virtual
# device as MicroPython's ESP32 port built with ROMFS (host_tools/virtual/esp32_romfs.py: its
# vfs.rom_ioctl over a romfs partition with the NOR flash's rules, the image mounted at /rom at
# start), the unix port importing the firmware from that image through vfs.VfsRom. A stock
# board (no rom_ioctl) and a ROMFS build without the partition still get loose .mpy files.
import json
import os
import subprocess

import pytest

from conftest import ROOT
from test_deploy import AGENTBOARD, MPREMOTE, build_hashes, changed, flash_files, owned, \
    status, version_of
from host_tools import deploy as dp
from host_tools.sim.nor_flash import NorFlash, SECTOR, PARTITION_FILE, blank
from host_tools.virtual.device import VirtualDevice

pytestmark = pytest.mark.slow  # each test deploys to a virtual board

ROMFS_MAGIC = b"\xd2\xcd\x31"  # MicroPython extmod/vfs_rom.c: a ROMFS image's first bytes
PARTITION = 256 << 10  # hardware/design/flash.json: agentboard flash --romfs


def partition(dev):
    path = os.path.join(dev.flash, PARTITION_FILE % "romfs")
    n = os.path.getsize(path)
    buf = bytearray(n)
    NorFlash(n // SECTOR, path).readblocks(0, buf)
    return bytes(buf)


def mpremote(dev, code):
    out = subprocess.run([MPREMOTE, "connect", dev.url, "resume", "exec", code],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def reboot(dev):
    dev.request({"op": "power_cut"})
    dev.request({"op": "power_on"})


def boot(dev):
    """The build the board's application says it started after a reset (deploy's own wait)."""
    link = dp.Board(dev.url)
    try:
        link.start()
        link.reset()
        return dp.await_boot(link)
    finally:
        link.close()


@pytest.fixture(scope="module")
def build():
    return dp.build()


@pytest.fixture(scope="module")
def rom_board(build):
    dev = VirtualDevice(seed=3, romfs=True)
    code = subprocess.run([AGENTBOARD, "deploy", "--port", dev.url], capture_output=True,
                          text=True, cwd=ROOT, timeout=180)
    assert code.returncode == 0, code.stderr + code.stdout
    dev.deploy_output = code.stdout
    yield dev
    dev.close()


def test_a_romfs_board_runs_the_firmware_from_one_image(rom_board, build):
    out = rom_board.deploy_output
    assert "as one ROMFS image" in out.splitlines()[-1]
    # the file system holds main.py, version.json and config/ only: no loose code or data
    on_fs = owned(flash_files(rom_board))
    assert not [p for p in on_fs if p.split("/")[0] in ("firmware", "shared_rules")]
    assert on_fs["main.py"] == build_hashes(build)["main.py"]
    assert status(rom_board)["version"] == version_of(build)
    # the partition holds a ROMFS image (as mpremote's own reader sees it) ...
    part = partition(rom_board)
    assert part[:3] == ROMFS_MAGIC
    said = subprocess.run([MPREMOTE, "connect", rom_board.url, "resume", "romfs", "query"],
                          capture_output=True, text=True, timeout=60).stdout
    assert "ROMFS0 partition has size %d bytes" % PARTITION in said
    # ... and the application running on the board was imported from it, at /rom
    files = mpremote(rom_board, "import sys\nfor n in ('firmware.launch', 'shared_rules."
                     "apply', 'firmware.games.track.referee'):\n print(sys.modules[n]"
                     ".__file__)\nimport os\nprint(os.listdir('/rom'))").split()
    assert files[:3] == ["/rom/firmware/launch.mpy", "/rom/shared_rules/apply.mpy",
                         "/rom/firmware/games/track/referee.mpy"]
    listing = " ".join(files[3:])
    assert "'firmware'" in listing and "'shared_rules'" in listing
    reboot(rom_board)


def test_a_romfs_redeploy_with_nothing_new_writes_nothing(rom_board, build):
    before = partition(rom_board)
    logs = []
    res = dp.deploy(rom_board.url, log=logs.append, files=build)
    assert (res["copied"], res["removed"]) == (0, 0) and res["how"].startswith("one ROMFS")
    assert "the board already has build %s" % version_of(build) in logs
    assert not [m for m in logs if m.startswith("wrote image block")]
    assert partition(rom_board) == before


def test_a_cut_while_writing_the_image_leaves_no_half_image_and_deploy_mends_it(rom_board,
                                                                                build):
    new = changed(build, "firmware/games/track/view.mpy", b"\x00" * 64)

    def log(msg):  # the power goes after 10 blocks of the new image reached the flash
        if msg.startswith("wrote image block 10/"):
            rom_board.request({"op": "power_cut"})
    with pytest.raises(dp.DeployError):
        dp.deploy(rom_board.url, log=log, files=new)
    part = partition(rom_board)
    assert part[:3] != ROMFS_MAGIC  # the magic is written last: MicroPython mounts nothing
    rom_board.request({"op": "power_on"})
    # the board says what happened and what to do, and does not start half an application
    said = subprocess.run([MPREMOTE, "connect", rom_board.url, "resume", "exec",
                           "print(open('version.json').read())"], capture_output=True,
                          text=True, timeout=60)
    assert json.loads(said.stdout.strip().splitlines()[-1])["version"] == version_of(build)
    with pytest.raises(dp.AtRepl, match="ROMFS image is missing or not whole.*run "
                                         "`agentboard deploy` again"):
        boot(rom_board)
    # deploy again: the whole new image, and the board runs it
    res = dp.deploy(rom_board.url, log=lambda m: None, files=new)
    assert res["version"] == version_of(new) and res["how"].startswith("one ROMFS")
    assert status(rom_board)["version"] == version_of(new)
    res = dp.deploy(rom_board.url, log=lambda m: None, files=build)  # and back
    assert status(rom_board)["version"] == version_of(build)


def test_a_cut_moving_loose_files_into_an_image_boots_the_loose_build(build, tmp_path):
    dev = VirtualDevice(seed=4, romfs=True, flash=str(tmp_path / "flash"))
    try:
        res = dp.deploy(dev.url, log=lambda m: None, files=build, romfs=False)
        assert res["how"] == "loose .mpy files" and set(partition(dev)) == {0xFF}
        new = changed(build, "firmware/games/track/view.mpy", b"\x00" * 64)

        def log(msg):
            if msg.startswith("wrote image block 20/"):
                dev.request({"op": "power_cut"})
        with pytest.raises(dp.DeployError):
            dp.deploy(dev.url, log=log, files=new)
        dev.request({"op": "power_on"})
        assert status(dev)["version"] == version_of(build)  # the loose files, whole
        assert owned(flash_files(dev)) == build_hashes(build)
    finally:
        dev.close()


@pytest.mark.parametrize("romfs,says", [
    (False, "has no ROMFS (vfs.rom_ioctl), as the stock ESP32_GENERIC build"),
    ("no-partition", "has ROMFS but no romfs partition (`agentboard flash --romfs`"),
])
def test_a_board_without_romfs_gets_loose_mpy_files_and_is_told_so(build, romfs, says):
    dev = VirtualDevice(seed=5, romfs=romfs)
    try:
        logs = []
        res = dp.deploy(dev.url, log=logs.append, files=build)
        assert res["how"] == "loose .mpy files"
        assert [m for m in logs if says in m and m.endswith("deploying loose .mpy files")]
        assert owned(flash_files(dev)) == build_hashes(build)
        assert not os.path.exists(os.path.join(dev.flash, PARTITION_FILE % "romfs"))
    finally:
        dev.close()


def test_an_image_too_large_for_the_partition_is_refused_and_nothing_changes(build,
                                                                              tmp_path):
    flash = str(tmp_path / "flash")
    os.makedirs(flash)
    blank(os.path.join(flash, PARTITION_FILE % "romfs"), 64 << 10)  # a 64 KB partition
    dev = VirtualDevice(seed=6, romfs=True, flash=flash)
    try:
        before = flash_files(dev)
        with pytest.raises(dp.DeployError, match="holds 64 KB: nothing was written.*--romfs.*"
                                                 "--no-romfs"):
            dp.deploy(dev.url, log=lambda m: None, files=build)
        assert flash_files(dev) == before
    finally:
        dev.close()


def test_a_cut_in_the_commit_after_the_image_starts_the_image_whole(build, tmp_path,
                                                                     monkeypatch):
    # a loose board; the image is written and checked, its journal is on the board, and the
    # power goes before the journal is carried out: at the next start main.py (the loose
    # files' own) finishes the journal, which makes it a ROMFS board, and starts again from
    # the image, whose code comes before the loose files still on the flash
    dev = VirtualDevice(seed=7, romfs=True, flash=str(tmp_path / "flash"))
    try:
        dp.deploy(dev.url, log=lambda m: None, files=build, romfs=False)
        new = changed(build, "firmware/games/track/view.mpy", b"\x00" * 64)


        def cut():  # the journal is on the board's flash: the power goes before it is run
            dev.request({"op": "power_cut"})
            return "pass\n"
        monkeypatch.setattr(dp, "journal_code", cut)
        with pytest.raises(dp.LineLost):
            dp.deploy(dev.url, log=lambda m: None, files=new)
        monkeypatch.undo()
        dev.request({"op": "power_on"})  # the first start after the cut ...
        assert dev.wait_booted(dev.boots + 1)  # ... finishes the journal and starts again
        assert status(dev)["version"] == version_of(new)
        where = mpremote(dev, "import sys\nprint(sys.modules['firmware.games.track.view']"
                              ".__file__)").split()
        assert where == ["/rom/firmware/games/track/view.mpy"]
        # the loose files the image replaced are still there (their removal is the second
        # step, never reached); the next deploy removes them and writes no image again
        assert "firmware/games/track/view.mpy" in flash_files(dev)
        logs = []
        res = dp.deploy(dev.url, log=logs.append, files=new)
        assert res["copied"] == 0 and res["removed"] == len(
            [p for p in build if p.split("/")[0] in ("firmware", "shared_rules")])
        assert not [m for m in logs if m.startswith("wrote image block")]
        assert not [p for p in owned(flash_files(dev)) if p.startswith("firmware/")]
        assert status(dev)["version"] == version_of(new)
    finally:
        dev.close()


def test_an_image_that_does_not_read_back_is_refused_and_never_mounted(rom_board, build,
                                                                       monkeypatch):
    # a board whose flash does not keep one byte of block 5 as written: the hash on the board
    # finds it before the magic is written, so MicroPython mounts nothing half-good
    new = changed(build, "firmware/games/track/view.mpy", b"\x01" * 64)
    write = dp.romfs.write_code

    def damaged(image, block, k):
        at = 5 * block + 10
        return write(image[:at] + bytes([image[at] ^ 1]) + image[at + 1:], block, k)
    monkeypatch.setattr(dp.romfs, "write_code", damaged)
    logs = []
    with pytest.raises(dp.DeployError, match="does not read back.*hash differs.*left "
                                             "unmountable.*deploy again"):
        dp.deploy(rom_board.url, log=logs.append, files=new)
    monkeypatch.undo()
    assert partition(rom_board)[:3] != ROMFS_MAGIC
    # deploy reset the board: it refused to start half an image and said so
    assert [m for m in logs if "no application to start" in m]
    with pytest.raises(dp.AtRepl, match="ROMFS image is missing or not whole"):
        boot(rom_board)
    dp.deploy(rom_board.url, log=lambda m: None, files=build)
    assert status(rom_board)["version"] == version_of(build)
