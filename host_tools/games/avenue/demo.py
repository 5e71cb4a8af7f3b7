"""python -m host_tools.games.avenue.demo [--mode simple|advanced] [--players 2|3|4] [--seed S]

A whole game of La Via delle Spie / Agent Avenue on the simulated Agent Avenue board: simulated
players put cards on the up, down and tap pads and move the pawns by hand; the real firmware,
on the MicroPython unix port against the simulated hardware, referees. Prints what the board
says (the face-down card appears only once it is recruited)."""
import argparse
import sys
import time

from host_tools.games.avenue.players import GAME, Players, same_game
from shared_rules.describe import printed, words

SEATS = {2: (1, 1), 3: (2, 1), 4: (2, 2)}
# the board's events the demo prints (the others: boot, the setup, taps, the seats, the draws),
# the turn and the players' own acts at the margin, what the board says of them indented
SHOWN = ("turn", "card", "discard", "recruit", "pawn", "market", "refill", "hand", "reject",
         "mismatch", "end")
ACTS = ("turn", "card", "discard")
INDENT = "       "


def describe(e):
    """A line for a board event, in the words of shared_rules/describe.py, or None for those
    the demo does not print (a mismatch while the hands move the pawns is put right at once)."""
    kind = e.get("event")
    if kind not in SHOWN or (kind == "mismatch" and not e["locations"]):
        return None
    return printed(kind, words(e, GAME), "" if kind in ACTS else INDENT)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.games.avenue.demo",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="advanced", choices=("simple", "advanced"))
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print("Agent Avenue on the simulated board: %s mode, %d players, seed %d. The real firmware "
          "referees; simulated hands play." % (args.mode, args.players, args.seed))
    t0 = time.time()
    p = Players(args.seed, args.mode, SEATS[args.players])
    shown = [0]

    def check(players):
        wrong = same_game(players, players.view())
        for e in players.lines[shown[0]:]:
            line = describe(e)
            if line:
                print(line)
        shown[0] = len(players.lines)
        if wrong:
            raise SystemExit("the board and the players disagree: " + "; ".join(wrong))

    try:
        p.play_to_end(check)
        p.drain()
        check(p)
        rec = p.console({"op": "export"})["record"]
        print("%d decisions in %.1f s; the board's record has %d, and after every decision its "
              "public view matched the players' own game." % (p.decisions, time.time() - t0,
                                                             len(rec["turns"])))
    finally:
        p.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
