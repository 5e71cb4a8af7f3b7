"""python -m host_tools.sim.demo [--players N] [--seed S]

The main job: a whole game of Agent DOG on the simulated board. Four (or two, three) simulated
players tap cards on the NFC reader and move pieces by hand; the real firmware, running on the
MicroPython unix port against the simulated hardware, referees. Prints what the board says."""
import argparse
import sys
import time

from host_tools.sim.players import Table, Players


def describe(e):
    ev = e.get("event")
    if ev == "card":
        return "%-6s taps %s" % (e["seat"], e["card"])
    if ev == "move":
        m = e["move"]
        if "swap" in m:
            return "       board accepts: swap %s <-> %s" % tuple(m["swap"])
        return "       board accepts: " + ", ".join("%s -> %s" % (a, b) for a, b in m["path"])
    if ev == "effect":
        k = e["kind"]
        if k == "knock_out":
            return "       knock-out at %s: back to %s" % (e["at"], e["to"])
        if k == "flip":
            return "       the piece on %s %s" % (
                e["at"], "goes undercover (upside down)" if e["undercover"]
                else "comes up (upright)")
        if k == "meeting":
            return "       meeting at %s: pull %s -> %s" % (e["point"], e["from"], e["to"])
        if k == "meetings":
            return "       meetings at %s: the mover chooses the order" % e["points"]
        if k == "reveal":
            return "       reveal on %s: %s, %s -> %s" % (e["at"], e["colour"], e["outcome"],
                                                       e["to"])
        if k == "out":
            return "       %s is out of the round (%s)" % (e["seat"], e["reason"])
    if ev == "pass":
        return "%-6s holds back: passes" % e["seat"]
    if ev == "reject":
        return "       board rejects: %s" % e["reason"]
    if ev == "mismatch":
        return "       board shows a mismatch at %s" % ", ".join(e["locations"])
    if ev == "round_end":
        return "-- round over; %s deals --" % e["dealer"]
    if ev == "win":
        return "== %s win ==" % " and ".join(e["seats"])
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.sim.demo",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print("Agent DOG on the simulated board: %d players, seed %d. The real firmware "
          "referees; simulated hands play." % (args.players, args.seed))
    t0 = time.time()
    table = Table(seed=args.seed)
    shown = [0]

    def show():
        for e in table.events[shown[0]:]:
            line = describe(e)
            if line:
                print(line)
        shown[0] = len(table.events)

    try:
        table.new_game(args.players)
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
