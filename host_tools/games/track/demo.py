"""python -m host_tools.games.track.demo [--players N] [--seed S] [--game G] [--board B]

The main job: a whole game on the simulated board (Agent DOG by default; DOG and DOG Royal on
the board their players need: dog-4 for 2-4 players, dog-6 for 5 and 6). Simulated players tap
cards on the NFC reader and move pieces by hand; the real firmware, running on the MicroPython
unix port against the simulated hardware, referees. Prints what the board says."""
import argparse
import sys
import time

from host_tools.games.track.players import Table, Players
from host_tools.sim.server import BOARDS, SimError, board_and_cards, demo_game
from shared_rules import variant
from shared_rules.describe import printed, words

# the board's events the demo prints (the others: boot, the setup, turns, resolved mismatches),
# the players' own acts at the margin, what the board says of them indented
SHOWN = ("card", "move", "effect", "draw", "jump", "round_end", "win", "pass", "reject",
         "mismatch")
ACTS = ("card", "pass")
INDENT = "       "


def describe(e):
    """A line for a board event (the console's), in the words of shared_rules/describe.py, or
    None for those the demo does not print."""
    kind = e.get("event")
    if kind not in SHOWN:
        return None
    return printed(kind, words(e), "" if kind in ACTS else INDENT)


def play(table, players, game, seed, after_turn=None):
    """A whole game on the table: begun, dealt, played by simulated hands to the win (the
    board's events are in table.events); after_turn() is called after each turn. Returns the
    number of turns."""
    table.new_game(players, game=None if game == variant.DEFAULT else game)
    hands = Players(table, seed)
    hands.deal()
    turns = 0
    while True:
        evs = hands.turn()
        turns += 1
        if after_turn is not None:
            after_turn()
        kinds = [e.get("event") for e in evs]
        if "win" in kinds:
            return turns
        if "round_end" in kinds:
            hands.deal()


DEFAULT_PLAYERS = 4


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.games.track.demo",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, choices=(2, 3, 4, 5, 6),
                    help="(default: %d, or the most the board seats)" % DEFAULT_PLAYERS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=variant.names(),
                    help="(default: the board's first game, or %s)" % variant.DEFAULT)
    ap.add_argument("--board", choices=BOARDS,
                    help="the board variant (default: the one the game's players need)")
    args = ap.parse_args(argv)
    args.game = demo_game(args.game, args.board)
    if args.players is None:
        seated = [n for n, b in variant.boards(args.game).items() if b == args.board]
        args.players = DEFAULT_PLAYERS if args.board is None or DEFAULT_PLAYERS in seated \
            else max(seated or [DEFAULT_PLAYERS])
    try:
        board, _ = board_and_cards(args.board, args.game, args.players)
    except SimError as e:
        ap.error(str(e))
    game = variant.load(args.game, board)
    print("%s on the simulated %s board: %d players, seed %d. The real firmware "
          "referees; simulated hands play." % (game.title, board, args.players, args.seed))
    t0 = time.time()
    table = Table(seed=args.seed, board=board)
    shown = [0]

    def show():
        for e in table.events[shown[0]:]:
            line = describe(e)
            if line:
                print(line)
        shown[0] = len(table.events)

    try:
        turns = play(table, args.players, args.game, args.seed, show)
        rec = table.record()
        print("%d turns in %.1f s; the board's game record has %d turns, and after every turn "
              "its public view matched the players' own game." % (
                  turns, time.time() - t0, len(rec["turns"])))
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
