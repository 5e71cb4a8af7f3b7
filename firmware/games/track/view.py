# What the LEDs show: the model the referee publishes (games/track/move_lights.Shown: the
# lights of the card in play, the squares still to change, the seat to move), from public
# information only, never from who hides under an undercover piece. The colours are the table
# in firmware/README.md.
#
# A redraw builds a frame of colour codes (one byte per LED) and hands only the LEDs whose code
# changed to the strip (hal/leds.Frame).
from firmware.hal.leds import Frame
from firmware.games.track import move_lights, places
from firmware.mpconst import const

_OFF = const(0)
MOVABLE = const(1)  # cyan: a piece that may move with the card in play
TARGET = const(2)   # green: where the lifted piece may go
KNOCK = const(3)    # red: a target that knocks a piece out
HOME = const(4)     # blue: a target in home
MEET = const(5)     # amber: a target on a meeting point
PUT = const(6)      # white: put a piece here
TAKE = const(7)     # red: take the piece off here
TURN = const(8)     # magenta: turn the piece over
FAULT = const(9)    # orange: this sensor reads nonsense
ACCEPT = const(10)  # green: the move is accepted
STEPS = const(11)   # amber on the mover's start-area spots: Partner 4 steps left
EXCHANGE = const(12)  # lavender: lift this piece, the one that belongs here is elsewhere
                      # (after undo)
_SEAT0 = const(13)  # the seat colours follow, in the layout's colour order
PALETTE = [(0, 0, 0), (0, 160, 255), (0, 255, 0), (255, 0, 0), (0, 0, 255), (255, 200, 0),
           (255, 255, 255), (255, 0, 0), (255, 0, 255), (255, 80, 0), (0, 255, 0),
           (255, 200, 0), (150, 120, 255)]
SEAT = {"red": (255, 0, 0), "blue": (0, 0, 255), "green": (0, 255, 0), "yellow": (255, 180, 0),
        "white": (255, 255, 255), "black": (90, 0, 160)}  # black: an LED cannot be dark
TARGET_CODE = bytes([TARGET, KNOCK, HOME, MEET])  # by move_lights kind
assert (move_lights.TARGET, move_lights.KNOCK, move_lights.HOME, move_lights.MEET) == (0, 1, 2, 3)
TODO_CODE = {places.PUT: PUT, places.TAKE: TAKE, places.TURN: TURN, places.EXCHANGE: EXCHANGE,
             places.FAULT: FAULT}
_DARK = const(255)  # a code _pairs leaves unpainted
# the same while the blink is off: a sensor that reads nonsense blinks
TODO_CODE_OFF = {places.PUT: PUT, places.TAKE: TAKE, places.TURN: TURN,
                 places.EXCHANGE: EXCHANGE, places.FAULT: _DARK}


class View(Frame):
    def __init__(self, strip, led_names, names, places, lay):
        """names: sensor index -> location name (the LED under it has the same name)."""
        Frame.__init__(self, strip, len(led_names), PALETTE + [SEAT[c] for c in lay.colours])
        self.lay = lay
        self.places = places
        self.led_of_sensor = bytearray(places.n)  # filled in place: no list of n ints at boot
        for i in range(places.n):
            self.led_of_sensor[i] = led_names.index(names[i])
        self.seat_led = bytearray([led_names.index("seat:" + c) for c in lay.colours])

    # A redraw's methods keep their frames within MicroPython's 11 words (docs/measuring.md,
    # "Frames"): a bigger one is allocated on the heap at every call. Hence the loops below
    # over a range or with while: a for loop over the list itself holds four words more.
    def render(self, sh, blink_on):
        """Draws the referee's published model sh (firmware/games/track/move_lights.py Shown)."""
        f = self.frame
        f[:] = self.blank
        if sh.menu is not None:
            self._menu(sh)
        if sh.seat >= 0:
            if sh.draw < 0 or blink_on:  # the seat that must draw a card blinks
                f[self.seat_led[sh.seat]] = _SEAT0 + sh.seat
            if sh.draw >= 0 and sh.draw != sh.seat and blink_on:
                f[self.seat_led[sh.draw]] = _SEAT0 + sh.draw
        if sh.accepted >= 0:
            f[self.led_of_sensor[sh.accepted]] = ACCEPT  # first: work still to do wins
        # (each list only when it holds something: most are empty, and a call costs)
        los = self.led_of_sensor
        if sh.lights.movable:
            _paint(f, los, sh.lights.movable, MOVABLE)
        if sh.spots:
            _paint(f, los, sh.spots, MOVABLE)
        if sh.lights.targets:
            _pairs(f, los, sh.lights.targets, TARGET_CODE)
        if sh.steps:
            _paint(f, los, sh.steps, STEPS)
        if blink_on and sh.bad:
            _paint(f, los, sh.bad, TAKE)
        if sh.todo:
            _pairs(f, los, sh.todo, TODO_CODE if blink_on else TODO_CODE_OFF)
        self.flush()

    def _menu(self, sh):
        for c in sh.menu:
            self.frame[self.seat_led[c]] = _SEAT0 + c
        _paint(self.frame, self.led_of_sensor, sh.special, MEET)


def _pairs(f, los, pairs, codes):
    # the LEDs under pairs' sensors (los: the LED under each sensor), each in the colour
    # codes[its kind] (_DARK: left as it is), in frame f
    k = 0
    while k < len(pairs):
        c = codes[pairs[k][1]]
        if c != _DARK:
            f[los[pairs[k][0]]] = c
        k += 1


def _paint(f, los, sensors, code):
    # the LEDs under sensors (los: the LED under each sensor) in colour code, in frame f
    for k in range(len(sensors)):
        i = los[sensors[k]]
        f[i] = code
