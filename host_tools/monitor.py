"""What `agentboard monitor` prints: the board's public view and then its events as they happen,
in words (shared_rules/describe.py, the words the page says them in), each line stamped with
the laptop's time and coloured by what it means when it goes to a terminal, plain when piped;
with --json, the board's own JSON lines for tools (keys sorted: the order the board happened to
write them in must not show)."""
import json
import os
import time

RESET = "\x1b[0m"
NO_COLOUR_ENV = "NO_COLOR"  # set and not empty: no colour (no-color.org); the time stays
DUMB_TERM = "dumb"  # TERM=dumb: a terminal that shows escape codes as they are
DIM = "2"  # the time stamp
# ANSI colours by what a line means at the table: refusals and faults red, a board that
# differs from the game yellow, what the players must carry out cyan, the end green, the
# players' own acts bold; everything else plain
COLOURS = {"reject": "31", "fault": "31;1", "mismatch": "33", "effect": "36", "draw": "36",
           "jump": "36", "recruit": "36", "pawn": "36", "hand": "36", "win": "32;1",
           "end": "32;1", "round_end": "32", "new_game": "1", "boot": "1", "resumed": "1",
           "card": "1", "move": "1", "play": "1", "pass": "1", "view": "1"}


class Printer:
    """Writes the monitor's lines to `out` (a text stream). json_lines: the board's JSON;
    tty: stamp and colour the lines (default: whether out is a terminal)."""

    def __init__(self, out, json_lines=False, tty=None, clock=time.localtime):
        self.out = out
        self.json = json_lines
        self.tty = (not json_lines) and (out.isatty() if tty is None else tty)
        self.colour = self.tty and not os.environ.get(NO_COLOUR_ENV) and \
            os.environ.get("TERM") != DUMB_TERM
        self.clock = clock
        self.game = None  # the game the board plays, once a view or an event names it

    def view(self, view):
        """The board's public view (the answer to `public`)."""
        if self.json:
            return self._write(json.dumps(view, sort_keys=True), None)
        from shared_rules.describe import view_words
        self.game = view.get("game") or self.game
        self._write("The game on the board: %s." % view_words(view), "view")

    def event(self, ev):
        """One of the board's events."""
        if self.json:
            return self._write(json.dumps(ev, sort_keys=True), None)
        from shared_rules.describe import game_of, words
        if ev.get("event") in ("boot", "new_game") and ev.get("game"):
            self.game = ev["game"]
        self._write(words(ev, self.game or game_of(ev)), ev.get("event"))

    def _write(self, text, kind):
        if self.tty:
            stamp = time.strftime("%H:%M:%S", self.clock())
            colour = COLOURS.get(kind)
            if not self.colour:
                text = "%s %s" % (stamp, text)
            else:
                if colour:
                    text = "\x1b[%sm%s%s" % (colour, text, RESET)
                text = "\x1b[%sm%s%s %s" % (DIM, stamp, RESET, text)
        self.out.write(text + "\n")
        self.out.flush()
