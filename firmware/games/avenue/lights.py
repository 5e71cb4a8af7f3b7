# What the Agent Avenue board's LEDs show, drawn from the view its referee publishes
# (shown.py: public information only): where each pawn stands or must go, the seat to act, and
# which pad expects a card. A pad with a card shows the same colour whatever the card is, so
# the face-down card never reaches an LED. The colours are the table in
# firmware/games/avenue/README.md.
#
# A redraw fills a frame of colour codes (one byte per LED) and hands the strip only the LEDs
# whose code changed (hal/leds.Frame).
from firmware.hal.leds import Frame
from firmware.games.avenue import referee as R
from firmware.games.avenue import shown as S
from firmware.mpconst import const

_OFF = const(0)
GREEN = const(1)      # green's pawn stands here / must go here (blinking)
BLUE = const(2)       # blue's pawn
TAKE = const(3)       # red: take the pawn off here
FAULT = const(4)      # orange: this sensor reads nonsense
MARKET = const(5)     # dim amber: a black-market space (advanced)
WANT = const(6)       # white: put a card on this pad
FULL = const(7)       # cyan: a card lies on this pad
PICK = const(8)       # yellow: the other side takes one of these
DIM_GREEN = const(9)  # a team's other seat
_DIM_BLUE = const(10)
PALETTE = ((0, 0, 0), (0, 255, 0), (0, 0, 255), (255, 0, 0), (255, 80, 0), (60, 40, 0),
           (255, 255, 255), (0, 160, 255), (255, 200, 0), (0, 40, 0), (0, 0, 40))
SIDE_CODE = (GREEN, BLUE)
SIDE_DIM = (DIM_GREEN, _DIM_BLUE)
_MENU_MODES = const(2)


# the colour of a pad's mark (shown.py), lit and in a blink's dark half
PAD_ON = (_OFF, WANT, FULL, PICK, WANT, TAKE)
PAD_BLINK_OFF = (_OFF, WANT, FULL, PICK, _OFF, _OFF)


class Lights(Frame):
    def __init__(self, strip, led_names, spaces):
        Frame.__init__(self, strip, len(led_names), PALETTE)
        self.space_led = bytearray([led_names.index(str(i)) for i in range(spaces)])
        self.seat_led = bytearray([led_names.index(n) for n in (
            "seat:green-0", "seat:green-1", "seat:blue-0", "seat:blue-1")])
        self.pad_led = bytearray([led_names.index("reader:" + n) for n in R.READERS])

    def render(self, sh, blink_on):
        """Draws the published view sh (shown.py)."""
        self.frame[:] = self.blank
        if sh.menu is not None:
            self._menu(sh.menu)
        elif sh.playing:
            self._spaces(sh, blink_on)
            self._seats(sh)
            self._pads(sh, blink_on)
        self.flush()

    # A redraw's methods keep their frames within MicroPython's 11 words (docs/measuring.md,
    # "Frames"): a bigger one is allocated on the heap at every call. Their while loops go
    # the last LED first (every LED is set once: the order does not matter), as a for loop
    # holds two words more.
    def _menu(self, choice):
        # the seats in play lit, the market corners when the choice is the advanced mode
        mode, seats = choice
        self._side_seats(0, seats[0])
        self._side_seats(1, seats[1])
        if mode == "advanced":
            self._market()

    def _side_seats(self, side, n):
        for seat in range(n):
            self.frame[self.seat_led[side * 2 + seat]] = SIDE_CODE[side]

    def _market(self):
        tb = R.tables.load()
        for i in range(len(self.space_led)):
            if tb.is_market[i]:
                self.frame[self.space_led[i]] = MARKET

    def _spaces(self, sh, blink_on):
        if sh.advanced:
            self._market()
        for side in range(2):
            self.frame[self.space_led[sh.pawns[side]]] = SIDE_CODE[side]
        self._marks(sh.spaces, blink_on)

    def _marks(self, marks, blink_on):
        # what each space's mark (shown.py) makes of its LED
        f = self.frame
        led = self.space_led
        i = len(led)
        while i:
            i -= 1
            m = marks[i]
            if m == S.SPACE_FAULT:
                f[led[i]] = FAULT if blink_on else _OFF
            elif m == S.SPACE_TAKE:
                f[led[i]] = TAKE
            elif m == S.SPACE_COME and not blink_on:
                f[led[i]] = _OFF  # a pawn must come here: its colour blinks

    def _seats(self, sh):
        side = sh.seat_side
        seat = sh.seat_count
        while seat:
            seat -= 1
            lit = sh.seat_lit == S.ALL_SEATS or seat == sh.seat_lit
            self.frame[self.seat_led[side * 2 + seat]] = (SIDE_CODE[side] if lit
                                                          else SIDE_DIM[side])

    def _pads(self, sh, blink_on):
        colour = PAD_ON if blink_on else PAD_BLINK_OFF
        marks = sh.pads
        r = len(marks)
        while r:
            r -= 1
            self.frame[self.pad_led[r]] = colour[marks[r]]
