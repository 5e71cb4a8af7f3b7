# python -m shared_rules.avenue demo [SEED] [simple|advanced] [GREEN_SEATS] [BLUE_SEATS]
# plays one random Agent Avenue game and prints it (the same under micropython -m ...).
import sys


def main(argv):
    if not argv or argv[0] != "demo":
        sys.stderr.write("usage: python -m shared_rules.avenue demo [SEED] [simple|advanced] "
                         "[GREEN_SEATS] [BLUE_SEATS]\n")
        return 2
    from shared_rules.avenue import randgame
    seed = int(argv[1]) if len(argv) > 1 else 1
    mode = argv[2] if len(argv) > 2 else "advanced"
    seats = (int(argv[3]) if len(argv) > 3 else 1, int(argv[4]) if len(argv) > 4 else 1)
    randgame.demo(seed, mode, seats, sys.stdout)
    return 0


sys.exit(main(sys.argv[1:]))
