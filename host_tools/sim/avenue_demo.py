"""python -m host_tools.sim.avenue_demo [--mode simple|advanced] [--players 2|3|4] [--seed S]

A whole game of La Via delle Spie / Agent Avenue on the simulated Agent Avenue board: simulated
players put cards on the up, down and tap pads and move the pawns by hand; the real firmware,
on the MicroPython unix port against the simulated hardware, referees. Prints what the board
says (the face-down card appears only once it is recruited)."""
import argparse
import sys
import time

from host_tools.sim.avenue_players import Players, same_game

SEATS = {2: (1, 1), 3: (2, 1), 4: (2, 2)}
INDENT = "       "


def describe(e):
    """A line for a board event, or None for those the demo does not print."""
    ev = e.get("event")
    if ev == "turn":
        return "-- %s to play" % e["side"]
    if ev == "card":
        what = e["card"] if e["face"] == "up" else "a card"
        return "%-6s puts %s face %s (seat %d)" % (e["side"], what, e["face"], e["seat"])
    if ev == "discard":
        return "%-6s discards a card (seat %d)" % (e["side"], e["seat"])
    if ev == "recruit":
        return INDENT + "%s recruits %s (%d in play)" % (e["side"], e["agent"], e["count"])
    if ev == "pawn":
        return INDENT + "%s pawn %d -> %d (%+d)" % (e["side"], e["from"], e["to"], e["steps"])
    if ev == "market":
        return INDENT + "%s takes %s from the black market" % (e["side"], e["card"])
    if ev == "refill":
        return INDENT + "the offer is refilled with %s" % e["card"]
    if ev == "hand":
        return INDENT + "%s's %s goes to %s's hand" % (e["side"], e["agent"], e["to"])
    if ev == "reject":
        return INDENT + "board refuses (%s pad): %s" % (e["reader"], e["reason"])
    if ev == "mismatch" and e["locations"]:
        return INDENT + "board shows a mismatch at %s" % ", ".join(e["locations"])
    if ev == "end":
        return "== %s wins (%s%s) ==" % (e["winner"], e["reason"],
                                         ", tie rule" if e.get("tie") else "")
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim.avenue_demo",
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
