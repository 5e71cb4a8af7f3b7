"""python -m host_tools.sim --headless [--seed N] [--flash DIR]

Starts the real firmware on the MicroPython unix port against the simulated hardware and takes
control requests as JSON lines on stdin, one answer per line on stdout
(docs/board-protocols.md, section 2)."""
import argparse
import sys

from host_tools.sim.server import Sim, serve_lines

GAME_BOARDS = {"agent-avenue": "agent-avenue"}  # games played on a board of their own


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--headless", action="store_true",
                    help="control channel on stdin/stdout (agentboard sim draws the board in a browser)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the simulated hardware")
    ap.add_argument("--flash", help="folder that keeps the device's files between runs")
    ap.add_argument("--board", help="board variant (hardware/variants/NAME; default: the "
                    "Agent DOG board, or the game's own board)")
    ap.add_argument("--game", help="the game to play (agent-avenue runs on its own board)")
    args = ap.parse_args(argv)
    board = args.board or GAME_BOARDS.get(args.game)
    sim = Sim(seed=args.seed, flash=args.flash, board=board, game=args.game)
    try:
        serve_lines(sim.request, sys.stdin.buffer, sys.stdout)
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
