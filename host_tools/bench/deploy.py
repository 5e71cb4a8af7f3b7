"""Deploy times against a virtual device (host_tools.virtual): the whole firmware onto an empty
board and a redeploy after a one-file change with `agentboard deploy`, beside a plain
`mpremote fs cp -r` of the same tree, all in one run on the same machine."""
import os
import shutil
import subprocess
import tempfile
import time

from host_tools import deploy as dp
from host_tools.bench.common import BIN, figure
from host_tools.virtual.device import VirtualDevice

EDIT = ("firmware/games/track/view.mpy", b"\0")  # a one-file change: any byte more makes it differ
SOCKET_CLOSE_S = 0.3  # serial/urlhandler/protocol_socket.py sleeps this long in close()


def _edited(build):
    new = dict(build)
    new[EDIT[0]] = build[EDIT[0]] + EDIT[1]
    return dp.stamp(new)


def _tree(build, dst):
    for path, data in build.items():
        full = os.path.join(dst, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)


def _mpremote_cp(url, tree):
    tops = sorted(os.listdir(tree))
    t0 = time.time()
    subprocess.run([os.path.join(BIN, "mpremote"), "connect", url, "resume", "fs", "cp", "-r"]
                   + tops + [":."], cwd=tree, check=True, capture_output=True, timeout=600)
    return time.time() - t0


def _deploy(url, files, boot_check, cache=None):
    t0 = time.time()
    res = dp.deploy(url, log=lambda m: None, files=files, boot_check=boot_check, cache=cache)
    return time.time() - t0, res["copied"]


def unchanged_ratio():
    """(full deploy s, unchanged redeploy s), both as the command runs them with --no-reset:
    the full one onto an empty board with nothing compiled yet, the unchanged one right after
    it (compiled files come from the cache, the board's hashes all match)."""
    cache = tempfile.mkdtemp(prefix="agentboard-bench-mpy-")
    dev = VirtualDevice()
    try:
        full, _ = _deploy(dev.url, None, False, cache)
        again, copied = _deploy(dev.url, None, False, cache)
        assert copied == 0, "an unchanged redeploy copied %d files" % copied
    finally:
        dev.close()
        shutil.rmtree(cache, ignore_errors=True)
    return full, again


def report():
    build = dp.build()
    edited = _edited(build)
    tree = tempfile.mkdtemp(prefix="agentboard-bench-tree-")
    tree2 = tempfile.mkdtemp(prefix="agentboard-bench-tree-")
    try:
        _tree(build, tree)
        _tree(edited, tree2)
        size = sum(len(v) for v in build.values()) / 1024
        print("9. Deploy to a virtual device (MicroPython unix port on a pty behind a loopback "
              "socket; %d files, %.1f KB; target: redeploy under 1/10 of the full copy)"
              % (len(build), size))
        dev = VirtualDevice()
        try:
            full_cp = _mpremote_cp(dev.url, tree)
            again_cp = _mpremote_cp(dev.url, tree2)
        finally:
            dev.close()
        dev = VirtualDevice()
        try:
            t0 = time.time()
            dp.build()
            t_build = time.time() - t0
            full, n_full = _deploy(dev.url, build, True)
            re_nocheck, n_re = _deploy(dev.url, edited, False)
            dev.request({"op": "power_cut"})
            dev.request({"op": "power_on"})
            re_check, _ = _deploy(dev.url, build, True)
        finally:
            dev.close()
        print("   mpremote fs cp -r, empty board:                   %5.1f s" % full_cp)
        print("   mpremote fs cp -r again after a one-file change:  %5.1f s (it hashes each "
              "file on the board, one round trip per file)" % again_cp)
        print("   agentboard deploy, empty board (+ reset, boot):   %5.1f s (%d files)" % (
            full, n_full))
        print("   building the tree (mpy-cross, from the cache):    %5.1f s" % t_build)
        print("   agentboard deploy after a one-file change:        %5.1f s (%d files: the "
              "change and version.json; no reset)" % (re_nocheck, n_re))
        print("   the same with the reset and boot check:           %5.1f s" % re_check)
        whole = t_build + re_check
        figure("deploy.full", round(full, 1), "s")
        figure("deploy.redeploy_ratio", round(whole / full_cp, 3), "ratio", 0.1)
        print("   => redeploy as the command does it (compile, compare, copy, commit, reset, "
              "boot check): %.1f s = %.3f of the full mpremote copy" % (whole, whole / full_cp))
        full, again = unchanged_ratio()
        print("   agentboard deploy --no-reset, empty board, nothing compiled yet: %5.2f s" % full)
        print("   the same again, nothing changed (compiled files from the cache):  %5.2f s = "
              "%.3f of the full deploy (target: well under 0.05)" % (again, again / full))
        print("   (of which %.1f s is pyserial's fixed pause when it closes a socket:// port; "
              "without it %.3f: a USB serial port has no such pause)" % (
                  SOCKET_CLOSE_S, (again - SOCKET_CLOSE_S) / (full - SOCKET_CLOSE_S)))
    finally:
        shutil.rmtree(tree, ignore_errors=True)
        shutil.rmtree(tree2, ignore_errors=True)


if __name__ == "__main__":
    report()
