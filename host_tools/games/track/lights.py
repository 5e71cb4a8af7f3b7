"""What each lit LED means, for the page to draw a shape and a legend beside the colour.

The firmware's palette (firmware/games/track/view.py, the table in firmware/README.md) gives one colour to
several meanings (red: a knock-out target, a piece to take off, a refused placement, the red
seat; amber: a meeting-point target, the Partner 4 steps, and close to the yellow seat), so a
colour alone does not say what to do. Where the LED is, the phase, and the placement the board
refused do: all public. The LED colours stay the firmware's; only the page's drawing changes."""
from firmware.games.track import view as fw

# meaning -> what it asks, in the legend's order
LEGEND = (
    ("seat", "seat LED: the seat to move (in the new-game menu: the seats of the game)"),
    ("movable", "cyan: a piece that may move with the card in play"),
    ("target", "green: where the lifted piece may go"),
    ("knock", "red: a target that knocks a piece out"),
    ("home", "blue: a target in home"),
    ("meet", "amber: a target on a meeting point"),
    ("steps", "amber on the start area: Partner 4 steps left"),
    ("accepted", "green: the move is accepted"),
    ("put", "white: put a piece here"),
    ("take", "red: take the piece off here"),
    ("turn", "magenta: turn the piece over"),
    ("exchange", "lavender: lift this piece, the one that belongs here is elsewhere"),
    ("put_back", "blinking red: refused, put the piece back"),
    ("fault", "blinking orange: the sensor here reads nonsense"),
)
MEANINGS = tuple(m for m, _ in LEGEND)

# palette codes that share a colour, told apart below
_BY_CODE = {fw.MOVABLE: "movable", fw.TARGET: "green", fw.ACCEPT: "green", fw.KNOCK: "red",
            fw.TAKE: "red", fw.HOME: "home", fw.MEET: "amber", fw.STEPS: "amber",
            fw.PUT: "put", fw.TURN: "turn", fw.FAULT: "fault", fw.EXCHANGE: "exchange"}


def _hue(rgb):
    # the strip holds colours scaled by brightness and the current limiter: compare hues
    top = max(rgb) or 1
    return [255.0 * v / top for v in rgb]


def _nearest(rgb):
    h = _hue(rgb)
    best, code = None, None
    for k in sorted(_BY_CODE):
        d = sum((a - b) ** 2 for a, b in zip(h, fw.PALETTE[k]))
        if best is None or d < best:
            best, code = d, k
    return _BY_CODE[code]


def meaning(loc, rgb, phase, refused=()):
    """What the LED at loc, lit rgb, asks for in this phase; None when it is off.
    refused: the locations of a placement the board refused and still waits to see undone."""
    if not rgb or not any(rgb):
        return None
    if loc.startswith("seat:"):
        return "seat"
    kind = _nearest(rgb)
    if kind == "green":
        return "target" if phase == "await_move" else "accepted"
    if kind == "red":
        if phase == "await_move":
            return "put_back" if loc in refused else "knock"
        return "take"
    if kind == "amber":
        return "steps" if ":s" in loc else "meet"
    return kind


def meanings(leds, phase, refused=(), blinking=()):
    """loc -> meaning for every lit LED (and the blinking ones caught dark: `blinking` maps
    loc -> meaning seen lately), keyed in sorted order."""
    out = {}
    for loc in sorted(leds):
        m = meaning(loc, leds[loc], phase, refused)
        if m is not None:
            out[loc] = m
    for loc in sorted(blinking):
        out.setdefault(loc, blinking[loc])
    for loc in sorted(refused):
        if phase == "await_move":
            out[loc] = "put_back"
    return dict(sorted(out.items()))
