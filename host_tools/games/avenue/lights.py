"""What each lit LED of the Agent Avenue board means, for the page's marks and legend.

The colours are the firmware's (firmware/games/avenue/lights.py, the table in firmware/games/avenue/README.md);
the strip holds them scaled by brightness, so a colour is told by its hue among the few a place
can show. Whether a pawn's colour on a space means "it stands here" or "it must go here"
(blinking) is said by the public view's `expected` spaces, and which seat LED is the lit seat by
its `seat`: a blink caught dark, or a dim seat, reads the same."""
from firmware.games.avenue import lights as fw

# meaning -> what it asks, in the legend's order
LEGEND = (
    ("pawn", "green / blue on a space: that pawn stands here"),
    ("go", "green / blue, blinking: that pawn must go here"),
    ("leave", "red on a space: a pawn must leave it"),
    ("market", "dim amber: a black-market space (advanced mode)"),
    ("fault", "blinking orange: the sensor here reads nonsense"),
    ("acts", "seat LED: the seat that acts"),
    ("partner", "dim seat LED: the team's other seat"),
    ("want", "white pad: put a card here"),
    ("full", "cyan pad: a card lies here (the same for every card)"),
    ("pick", "yellow pads: the other side takes one of these"),
    ("refused", "blinking red pad: the card put there was refused"),
)
MEANINGS = tuple(m for m, _ in LEGEND)

# the colours each kind of place shows, palette code -> meaning
_SPACE = {fw.GREEN: "pawn", fw.BLUE: "pawn", fw.TAKE: "leave", fw.MARKET: "market",
          fw.FAULT: "fault"}
_PAD = {fw.WANT: "want", fw.FULL: "full", fw.PICK: "pick", fw.TAKE: "refused"}


def _hue(rgb):
    top = max(rgb) or 1
    return [255.0 * v / top for v in rgb]


def _nearest(rgb, table):
    h = _hue(rgb)
    best, found = None, None
    for code in sorted(table):
        target = _hue(fw.PALETTE[code])
        d = sum((a - b) ** 2 for a, b in zip(h, target))
        if best is None or d < best:
            best, found = d, table[code]
    return found


def meaning(loc, rgb, view):
    """What the LED at loc, lit rgb, asks for; None when it is off. view: the board's public
    view (None: no game)."""
    if not rgb or not any(rgb):
        return None
    if loc.startswith("seat:"):
        lit = view.get("seat", 0) if view else 0
        return "acts" if loc.endswith("-%d" % lit) or view is None else "partner"
    if loc.startswith("reader:"):
        return _nearest(rgb, _PAD)
    m = _nearest(rgb, _SPACE)
    if m == "pawn" and view and loc in view.get("expected", ()):
        return "go"
    return m


def meanings(leds, view, blinking=()):
    """loc -> meaning for every lit LED (and the blinking ones caught dark: `blinking` maps
    loc -> meaning seen lately), keyed in sorted order."""
    out = {}
    for loc in sorted(leds):
        m = meaning(loc, leds[loc], view)
        if m is not None:
            out[loc] = m
    for loc in sorted(blinking):
        out.setdefault(loc, blinking[loc])
    if view:
        # a space to change blinks: caught dark it still asks for its pawn, or to be left
        wanted = set(str(view["pawns"][s]) for s in sorted(view.get("pawns", {})))
        for loc in view.get("expected", ()):
            out.setdefault(loc, "go" if loc in wanted else "leave")
    return dict(sorted(out.items()))
