# python -m shared_rules serve          the rules-core protocol on stdin/stdout
# python -m shared_rules demo [SEED] [PLAYERS] [GAME]   plays one random game and prints it
# (the same under micropython -m shared_rules ...)
import sys


def main(argv):
    cmd = argv[0] if argv else ""
    if cmd == "serve":
        from shared_rules.protocol import serve
        serve(sys.stdin, sys.stdout)
        return 0
    if cmd == "demo":
        from shared_rules import randgame
        seed = int(argv[1]) if len(argv) > 1 else 1
        players = int(argv[2]) if len(argv) > 2 else 4
        game = argv[3] if len(argv) > 3 else "agent-dog"
        randgame.demo(seed, players, sys.stdout, game)
        return 0
    sys.stderr.write("usage: python -m shared_rules serve | demo [SEED] [PLAYERS] [GAME]\n")
    return 2


sys.exit(main(sys.argv[1:]))
