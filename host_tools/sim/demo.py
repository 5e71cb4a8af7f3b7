"""python -m host_tools.sim.demo [--players N] [--seed S] [--game G] [--board B]

The main job: a whole game on the simulated board (Agent DOG by default; DOG and DOG Royal on
the board their players need: dog-4 for 2-4 players, dog-6 for 5 and 6). Simulated players tap
cards on the NFC reader and move pieces by hand; the real firmware, running on the MicroPython
unix port against the simulated hardware, referees. Prints what the board says."""
import argparse
import sys
import time

from host_tools.sim.players import Table, Players
from host_tools.sim.server import BOARDS, SimError, board_and_cards
from shared_rules import variant
from shared_rules.describe import move_text, event_text


# the console's effect kinds are the rules core's events under other names
EFFECT_TYPES = {"knock_out": "capture", "flip": "flip", "meeting": "meeting",
                "reveal": "reveal", "out": "out"}
INDENT = "       "


def describe(e):
    """A line for a board event (the console's), or None for those the demo does not print."""
    ev = e.get("event")
    if ev == "card":
        return "%-6s taps %s" % (e["seat"], e["card"])
    if ev == "move":
        return INDENT + "board accepts: " + move_text(e["card"], e["move"]).split(": ", 1)[1]
    if ev == "effect":
        if e["kind"] == "meetings":
            return INDENT + "meetings at %s: the mover chooses the order" % e["points"]
        rules_event = dict(e, type=EFFECT_TYPES[e["kind"]])
        return INDENT + event_text(rules_event)
    if ev in ("draw", "jump", "round_end", "win"):
        text = event_text(dict(e, type=ev))
        return text if text[0] in "-=" else INDENT + text
    if ev == "pass":
        return "%-6s holds back: passes" % e["seat"]
    if ev == "reject":
        return INDENT + "board rejects: %s" % e["reason"]
    if ev == "mismatch":
        return INDENT + "board shows a mismatch at %s" % ", ".join(e["locations"])
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim.demo",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5, 6))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=variant.names(), default=variant.DEFAULT)
    ap.add_argument("--board", choices=BOARDS,
                    help="the board variant (default: the one the game's players need)")
    args = ap.parse_args(argv)
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
        table.new_game(args.players, game=None if args.game == variant.DEFAULT else args.game)
        players = Players(table, args.seed)
        players.deal()
        turns = 0
        while True:
            evs = players.turn()
            turns += 1
            show()
            kinds = [e.get("event") for e in evs]
            if "win" in kinds:
                break
            if "round_end" in kinds:
                players.deal()
        rec = table.record()
        print("%d turns in %.1f s; the board's game record has %d turns, and after every turn "
              "its public view matched the players' own game." % (
                  turns, time.time() - t0, len(rec["turns"])))
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
