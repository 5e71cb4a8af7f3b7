# What the Agent Avenue board's LEDs show, from public information only: where each pawn stands
# or must go, the seat to act, and which pad expects a card. A pad with a card shows the same
# colour whatever the card is, so the face-down card never reaches an LED. The colours are the
# table in firmware/games/avenue/README.md.
#
# A redraw fills a frame of colour codes (one byte per LED) and hands the strip only the LEDs
# whose code changed.
from firmware.games.avenue import referee as R

OFF = 0
GREEN = 1      # green's pawn stands here / must go here (blinking)
BLUE = 2       # blue's pawn
TAKE = 3       # red: take the pawn off here
FAULT = 4      # orange: this sensor reads nonsense
MARKET = 5     # dim amber: a black-market space (advanced)
WANT = 6       # white: put a card on this pad
FULL = 7       # cyan: a card lies on this pad
PICK = 8       # yellow: the other side takes one of these
DIM_GREEN = 9  # a team's other seat
DIM_BLUE = 10
PALETTE = ((0, 0, 0), (0, 255, 0), (0, 0, 255), (255, 0, 0), (255, 80, 0), (60, 40, 0),
           (255, 255, 255), (0, 160, 255), (255, 200, 0), (0, 40, 0), (0, 0, 40))
SIDE_CODE = (GREEN, BLUE)
SIDE_DIM = (DIM_GREEN, DIM_BLUE)
MENU_MODES = 2


class Lights:
    def __init__(self, strip, led_names, spaces):
        self.strip = strip
        self.space_led = bytearray([led_names.index(str(i)) for i in range(spaces)])
        self.seat_led = bytearray([led_names.index(n) for n in (
            "seat:green-0", "seat:green-1", "seat:blue-0", "seat:blue-1")])
        self.pad_led = bytearray([led_names.index("reader:" + n) for n in R.READERS])
        n = len(led_names)
        self.frame = bytearray(n)
        self.shown = bytearray(n)
        self.first = True

    def render(self, ref, blink_on, menu=None):
        f = self.frame
        for i in range(len(f)):
            f[i] = OFF
        if menu is not None:
            self._menu(menu)
        elif ref.st is not None:
            self._spaces(ref, blink_on)
            self._seats(ref)
            self._pads(ref, blink_on)
        self._flush()

    def _menu(self, choice):
        # the seats in play lit, the market corners when the choice is the advanced mode
        mode, seats = choice
        for side in range(2):
            for seat in range(seats[side]):
                self.frame[self.seat_led[side * 2 + seat]] = SIDE_CODE[side]
        if mode == "advanced":
            tb = R.tables.load()
            for i in range(len(self.space_led)):
                if tb.is_market[i]:
                    self.frame[self.space_led[i]] = MARKET

    def _spaces(self, ref, blink_on):
        st = ref.st
        tb = ref.tb
        f = self.frame
        led = self.space_led
        if st.advanced:
            for i in range(len(led)):
                if tb.is_market[i]:
                    f[led[i]] = MARKET
        for side in range(2):
            f[led[st.pawns[side]]] = SIDE_CODE[side]
        for i in ref.diff:
            w = ref._want(i)
            if ref.sensed[i] == R.SCANNER_FAULT:
                f[led[i]] = FAULT if blink_on else OFF
            elif w == 0:
                f[led[i]] = TAKE
            elif not blink_on:
                f[led[i]] = OFF  # a pawn must come here: its colour blinks

    def _seats(self, ref):
        st = ref.st
        if st.winner >= 0:
            for seat in range(st.seats[st.winner]):
                self.frame[self.seat_led[st.winner * 2 + seat]] = SIDE_CODE[st.winner]
            return
        side = st.pending[0] if st.phase == R.MARKET else st.active
        for seat in range(st.seats[side]):
            self.frame[self.seat_led[side * 2 + seat]] = (SIDE_CODE[side] if seat == ref.seat
                                                          else SIDE_DIM[side])

    def _pads(self, ref, blink_on):
        st = ref.st
        f = self.frame
        led = self.pad_led
        if ref.ready() and st.phase == R.PLAY:
            f[led[R.UP]] = FULL if ref.pad[R.UP] else WANT
            f[led[R.DOWN]] = FULL if ref.pad[R.DOWN] else WANT
        elif ref.ready() and st.phase == R.RECRUIT:
            for r in (R.UP, R.DOWN):
                if ref.wants_back(r):
                    f[led[r]] = WANT if blink_on else OFF  # its played card, back on it
                elif ref.pad[r]:
                    f[led[r]] = PICK
        if ref.tap_wants() is not None:
            f[led[R.TAP]] = WANT
        for r in (R.UP, R.DOWN, R.TAP):
            if ref.stale & (1 << r):
                f[led[r]] = TAKE if blink_on else OFF  # found at power-up: lift it first
        if ref.reject_left and ref.reject_reader >= 0:
            f[led[ref.reject_reader]] = TAKE if blink_on else OFF

    def _flush(self):
        f = self.frame
        shown = self.shown
        strip = self.strip
        changed = self.first
        for i in range(len(f)):
            if f[i] != shown[i] or self.first:
                c = PALETTE[f[i]]
                strip.set(i, c[0], c[1], c[2])
                shown[i] = f[i]
                changed = True
        self.first = False
        if changed:
            strip.show()
