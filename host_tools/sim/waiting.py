"""Board time for simulated hands (host_tools/games/*/players.py): the board runs until it has
answered what a hand did (the console event the action brings), with a deadline, instead of a
fixed amount; the fixed waits that remain come from the firmware's own timing constants, read
from its source (firmware/ needs MicroPython's machine module to import), so they follow the
firmware when its scan period or debounce changes."""
import ast
import os

from hardware.design import data
from host_tools import paths

FIRMWARE = os.path.join(paths.CODE, "firmware")
UNTIL = "console"  # the `wait` stops at the firmware's next console line (docs/board-protocols.md)


def _tree(rel):
    with open(os.path.join(FIRMWARE, rel)) as f:
        return ast.parse(f.read())


def _value(node):
    # a literal, or const(literal) as MicroPython writes its constants
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "const":
        node = node.args[0]
    return ast.literal_eval(node)


def constant(rel, name):
    """The value of the module-level constant `name` of firmware/<rel>."""
    for node in _tree(rel).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name
                                                for t in node.targets):
            return _value(node.value)
    raise KeyError("no constant %s in firmware/%s" % (name, rel))


def default(rel, cls, arg):
    """The default of argument `arg` of class `cls`'s constructor in firmware/<rel>."""
    for node in _tree(rel).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "__init__":
                    a = fn.args
                    names = [x.arg for x in a.args][-len(a.defaults):] if a.defaults else []
                    if arg in names:
                        return _value(a.defaults[names.index(arg)])
    raise KeyError("no default %s of %s in firmware/%s" % (arg, cls, rel))


SCAN_MS = constant("loop.py", "SCAN_MS")  # the main loop's period
# a sensor's debounce (a piece put down by these players rests at once: on a board that reads
# ranks too, its reading holds still from the first scan)
STABLE_SCANS = default("hal/scanner.py", "Scanner", "stable")
MISS_LIMIT = default("hal/mfrc522.py", "CardReader", "miss_limit")  # empty polls: card gone
BUTTON_STABLE = default("hal/buttons.py", "Button", "stable")  # a button's debounce
# a piece put down is reported after STABLE_SCANS equal scans; one more for the scan under
# way when the hand acted and one for the loop to judge what the scan found
SETTLE_MS = (STABLE_SCANS + 2) * SCAN_MS
# a button let go is seen up after BUTTON_STABLE polls (one a scan), and the two scans more:
# the board must see the release before the button can be pressed again
RELEASE_MS = (BUTTON_STABLE + 2) * SCAN_MS


def most_readers():
    """The most card readers a board variant has (its pins.json: nfc.cs and nfc.more_cs)."""
    return max(1 + len(v.pins.get("nfc", {}).get("more_cs", ())) for v in data.variants())


# The readers' polls (firmware/hal/mfrc522.py, PollTurns): one reader a scan, in turn; a reader
# just polled rests a scan, and one whose card missed a poll comes again two scans later
ROUND_SCANS = max(most_readers(), 2)  # scans between two polls of a reader in turn
REPOLL_SCANS = 2  # scans between two polls of a reader whose card missed
# a card taken off the reader counts as gone after MISS_LIMIT empty polls: the first at its
# turn, the others two scans apart; one scan more for the look under way when the hand acted
# (a scan may run longer than its period while the LEDs are written), and the same two scans
# as a piece
CARD_GONE_MS = (ROUND_SCANS + (MISS_LIMIT - 1) * REPOLL_SCANS + 1) * SCAN_MS + 2 * SCAN_MS

# a card put on the reader is read at its reader's turn (a turn may wait a scan for another
# reader's second look); a second turn reads it again after a corrupted frame
CARD_READ_MS = 2 * (ROUND_SCANS + 1) * SCAN_MS


def run_until(request, ms, done):
    """Lets board time run for at most ms (request: the control channel's, or the players' ask
    that sends a request on it), stopping once
    done() (which reads the console) says the board answered; then the rest of the scan that
    wrote the answer runs, so every line of it is out. Returns (whether done() said so in
    time, the board ms that ran). A channel whose `wait` does not stop early (a virtual
    device's) runs the whole ms. An answer done() sees before any board time runs needs none."""
    if done():
        return True, 0  # answered already: no board time needed
    left = ms
    while left > 0:
        ans = request({"op": "wait", "ms": left, "until": UNTIL})
        if not ans.get("ok"):
            raise AssertionError("wait refused: %s" % ans)
        ran = max(ans.get("ms", left), 1)
        left -= ran
        if done():
            request({"op": "wait", "ms": SCAN_MS})
            done()  # read what the rest of the scan wrote: it is not the next action's answer
            return True, ms - max(left, 0) + SCAN_MS
    return done(), ms
