"""python -m host_tools.sim --headless [--seed N] [--flash DIR]

Starts the real firmware on the MicroPython unix port against the simulated hardware and takes
control requests as JSON lines on stdin, one answer per line on stdout
(../shared/contracts/board-protocols.md, section 2)."""
import argparse
import json
import sys

from host_tools.sim.server import Sim


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--headless", action="store_true",
                    help="control channel on stdin/stdout (the browser view comes later)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the simulated hardware")
    ap.add_argument("--flash", help="folder that keeps the device's files between runs")
    args = ap.parse_args(argv)
    sim = Sim(seed=args.seed, flash=args.flash)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError:
                ans = {"ok": False, "error": "bad_request", "reason": "not a JSON line"}
            else:
                ans = sim.request(req)
            sys.stdout.write(json.dumps(ans) + "\n")
            sys.stdout.flush()
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
