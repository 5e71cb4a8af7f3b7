# python -m shared_rules serve          the rules-core protocol on stdin/stdout
# python -m shared_rules demo [SEED] [PLAYERS] [GAME]   plays one random game and prints it
# (the same under micropython -m shared_rules ...)
import sys

USAGE = ("usage: python -m shared_rules serve | demo [SEED] [PLAYERS] [GAME]  (SEED a whole "
         "number; GAME %s)\n")
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C


def _quiet_stdout():
    # stdout's reader left (`... | head -1`): nothing more can be said there, and CPython
    # would complain while flushing it at exit; MicroPython has no dup2 and no such flush
    try:
        import os
        dup2 = getattr(os, "dup2")
        dup2(os.open("/dev/null", getattr(os, "O_WRONLY")), sys.stdout.fileno())
    except (AttributeError, OSError):
        pass


def _counts(game):
    """The player counts a track game is played by, as the command line gives them."""
    from shared_rules import variant
    return [str(n) for n in sorted(variant.boards(game))]


def _usage():
    """The usage line, its games from the registry: the default first, then the others
    grouped by the player counts they share ("dog or dog-royal (2 to 6)")."""
    from shared_rules import variant
    first = variant.DEFAULT
    c = _counts(first)
    said = ["%s (default, %s to %s players)" % (first, c[0], c[-1])]
    groups = []  # [(counts, [games])] in the registry's order
    for g in variant.names():
        if g != first:
            c = _counts(g)
            for counts, members in groups:
                if counts == c:
                    members.append(g)
                    break
            else:
                groups.append((c, [g]))
    for c, members in groups:
        said.append("%s (%s to %s)" % (" or ".join(members), c[0], c[-1]))
    return USAGE % ", ".join(said)


def _seed(text):
    digits = text[1:] if text[:1] == "-" else text
    return int(text) if digits.isdigit() and len(digits) <= 9 else None


def main(argv):
    cmd = argv[0] if argv else ""
    if cmd == "serve" and len(argv) == 1:
        from shared_rules.protocol import serve
        if not serve(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout):
            _quiet_stdout()
        return 0
    if cmd == "demo" and len(argv) <= 4:
        seed = _seed(argv[1]) if len(argv) > 1 else 1
        players = argv[2] if len(argv) > 2 else "4"
        from shared_rules import variant
        game = argv[3] if len(argv) > 3 else variant.DEFAULT
        if seed is not None and game in variant.names() and players in _counts(game):
            from shared_rules import demo
            try:
                demo.demo(seed, int(players), sys.stdout, game)
            except OSError:  # a closed pipe: the reader has what it wanted
                _quiet_stdout()
            return 0
    sys.stderr.write(_usage())
    return EXIT_USAGE


try:
    code = main(sys.argv[1:])
except KeyboardInterrupt:
    code = EXIT_INTERRUPTED
sys.exit(code)
