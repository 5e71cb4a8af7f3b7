"""`make bench`: every benchmark section; prints figures, never passes or fails."""
import shutil
import sys
import tempfile

from host_tools.bench import rules, avenue, avenue_board, hardware, deploy, lights, sensing, \
    frames
from host_tools.bench.common import build_device_tree, write_figures


def main():
    if not shutil.which("valgrind"):
        sys.exit("bench: valgrind is not installed (Debian package 'valgrind'); `make bench` "
                 "installs it")
    dst = tempfile.mkdtemp(prefix="agentboard-bench-")
    try:
        build_device_tree(dst)
        rules.report(dst)
        print()
        avenue.report(dst)
        print()
        hardware.report(dst)
        print()
        hardware.referee_report()
        print()
        deploy.report()
        print()
        lights.report(dst)
        print()
        frames.report()
        print()
        sensing.report(dst)
        print()
        avenue_board.report()
        print()
        print("The headline figures of this run: %s" % write_figures())
    finally:
        shutil.rmtree(dst, ignore_errors=True)


main()
