# What the LEDs show, from the referee's public state only (the lights of the card in play, the
# squares still to change, the seat to move); never from who hides under an undercover piece.
# The colours are the table in firmware/README.md.
#
# A redraw builds a frame of colour codes (one byte per LED) and hands only the LEDs whose code
# changed to the strip: redraws come after every settled board and five times a second for
# blinking, and most change nothing, so the common redraw is a few byte copies and one compare.
from firmware.places import COUNTED
from firmware import move_lights
from firmware.hal.scanner import EMPTY, UP, DOWN

OFF = 0
MOVABLE = 1   # cyan: a piece that may move with the card in play
TARGET = 2    # green: where the lifted piece may go
KNOCK = 3     # red: a target that knocks a piece out
HOME = 4      # blue: a target in home
MEET = 5      # amber: a target on a meeting point
PUT = 6       # white: put a piece here
TAKE = 7      # red: take the piece off here
TURN = 8      # magenta: turn the piece over
FAULT = 9     # orange: this sensor reads nonsense
ACCEPT = 10   # green: the move is accepted
STEPS = 11    # amber on the mover's start-area spots: Partner 4 steps left
EXCHANGE = 12  # lavender: lift this piece, the one that belongs here is elsewhere (after undo)
SEAT0 = 13    # the seat colours follow, in the layout's colour order
PALETTE = [(0, 0, 0), (0, 160, 255), (0, 255, 0), (255, 0, 0), (0, 0, 255), (255, 200, 0),
           (255, 255, 255), (255, 0, 0), (255, 0, 255), (255, 80, 0), (0, 255, 0),
           (255, 200, 0), (150, 120, 255)]
SEAT = {"red": (255, 0, 0), "blue": (0, 0, 255), "green": (0, 255, 0), "yellow": (255, 180, 0)}
TARGET_CODE = bytes([TARGET, KNOCK, HOME, MEET])  # by move_lights kind
assert (move_lights.TARGET, move_lights.KNOCK, move_lights.HOME, move_lights.MEET) == (0, 1, 2, 3)


class View:
    def __init__(self, strip, led_names, names, places, lay):
        """names: sensor index -> location name (the LED under it has the same name)."""
        self.strip = strip
        self.lay = lay
        self.places = places
        self.palette = PALETTE + [SEAT[c] for c in lay.colours]
        self.led_of_sensor = bytearray([led_names.index(names[i]) for i in range(places.n)])
        self.seat_led = bytearray([led_names.index("seat:" + c) for c in lay.colours])
        n = len(led_names)
        self.frame = bytearray(n)   # colour code per LED, being drawn
        self.shown = bytearray(n)   # what the strip was last given
        self.blank = bytes(n)

    def render(self, ref, blink_on):
        f = self.frame
        f[:] = self.blank
        st = ref.st
        if st is not None:
            f[self.seat_led[st.to_move]] = SEAT0 + st.to_move
            ph = ref.phase
            if ref.accepted_at >= 0 and ph == "await_effect":
                f[self.led_of_sensor[ref.accepted_at]] = ACCEPT  # first: work still to do wins
            if ph == "await_move":
                self._move(ref, blink_on)
            elif ph in ("setup", "await_effect", "mismatch"):
                for i in ref.diffs:
                    self._todo(ref, i, blink_on)
        self._flush()

    def render_menu(self, seats):
        """The new-game menu: the seat LEDs of the game that holding confirm would start."""
        f = self.frame
        f[:] = self.blank
        for c in seats:
            k = self.lay.cidx[c]
            f[self.seat_led[k]] = SEAT0 + k
        self._flush()

    def _flush(self):
        f = self.frame
        shown = self.shown
        s = self.strip
        if f != shown:
            pal = self.palette
            for i in range(len(f)):
                if f[i] != shown[i]:
                    r, g, b = pal[f[i]]
                    s.set(i, r, g, b)
            shown[:] = f
        s.show()

    def _todo(self, ref, i, blink_on):
        e = ref.exp[i]
        now = ref.sensed[i]
        if now != EMPTY and now != UP and now != DOWN:
            code = FAULT if blink_on else OFF
        elif ref.recheck[i] and now == e:
            code = EXCHANGE
        elif e == COUNTED:
            code = TURN if now == DOWN else (PUT if now == EMPTY else TAKE)
        elif e == EMPTY:
            code = TAKE
        elif now == EMPTY:
            code = PUT
        else:
            code = TURN
        if code:
            self.frame[self.led_of_sensor[i]] = code

    def _move(self, ref, blink_on):
        f = self.frame
        los = self.led_of_sensor
        lit = ref.lights
        for i in lit.movable:
            f[los[i]] = MOVABLE
        if lit.areas:
            spots = self.places.spots
            sensed = ref.sensed
            for c in lit.areas:
                for i in spots[c]:
                    if sensed[i] != EMPTY:
                        f[los[i]] = MOVABLE
        for i, kind in lit.targets:
            f[los[i]] = TARGET_CODE[kind]
        left = ref.judge.left()
        if left:
            spots = self.places.spots[ref.st.plays(ref.st.to_move)]
            for j in range(min(left, len(spots))):
                f[los[spots[j]]] = STEPS
        if ref.bad and blink_on:
            for i in ref.bad:
                f[los[i]] = TAKE
