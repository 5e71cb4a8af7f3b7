"""python -m host_tools.sim --headless [--seed N] [--flash DIR] [--game G] [--board B]

Starts the real firmware on the MicroPython unix port against the simulated hardware and takes
control requests as JSON lines on stdin, one answer per line on stdout
(docs/board-protocols.md, section 2)."""
import argparse
import sys

from host_tools.sim.server import BOARDS, Sim, SimError, serve_lines
from host_tools.sim import worlds
from shared_rules import variant



def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--headless", action="store_true",
                    help="control channel on stdin/stdout (agentboard sim draws the board in a browser)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the simulated hardware")
    ap.add_argument("--flash", help="folder that keeps the device's files between runs")
    ap.add_argument("--game", choices=variant.names() + sorted(worlds.GAME_BOARDS),
                    help="the game whose deck the simulator holds (default: the board's first)")
    ap.add_argument("--board", choices=BOARDS + sorted(worlds.GAME_BOARDS.values()),
                    help="the board variant (default: the game's smallest board, or the Agent "
                    "DOG board)")
    args = ap.parse_args(argv)
    try:
        sim = Sim(seed=args.seed, flash=args.flash, board=args.board, game=args.game)
    except SimError as e:
        ap.error(str(e))
    try:
        serve_lines(sim.request, sys.stdin.buffer, sys.stdout)
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
