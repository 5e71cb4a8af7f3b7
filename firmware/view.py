# What the LEDs show, from the referee's public state only (hints, the expected board, the seat
# to move); never from who hides under an undercover piece. The colours are the table in
# firmware/README.md.
from firmware.places import COUNTED
from firmware.hal.scanner import EMPTY, UP, DOWN

SEAT = {"red": (255, 0, 0), "blue": (0, 0, 255), "green": (0, 255, 0), "yellow": (255, 180, 0)}
MOVABLE = (0, 160, 255)      # cyan: a piece that may move with the card in play
TARGET = (0, 255, 0)         # green: where the lifted piece may go
KNOCK = (255, 0, 0)          # red: a target that knocks a piece out
HOME = (0, 0, 255)           # blue: a target in home
MEET = (255, 200, 0)         # amber: a target on a meeting point
PUT = (255, 255, 255)        # white: put a piece here
TAKE = (255, 0, 0)           # red: take the piece off here
TURN = (255, 0, 255)         # magenta: turn the piece over
FAULT = (255, 80, 0)         # orange: this sensor reads nonsense
ACCEPT = (0, 255, 0)         # green: the move is accepted
STEPS = (255, 200, 0)        # amber on the mover's start-area spots: Partner 4 steps left


class View:
    def __init__(self, strip, led_names, names, places, lay):
        """names: sensor index -> location name (the LED under it has the same name)."""
        self.strip = strip
        self.lay = lay
        self.places = places
        self.led_of_sensor = [led_names.index(names[i]) for i in range(places.n)]
        self.seat_led = {}
        for c in lay.colours:
            self.seat_led[c] = led_names.index("seat:" + c)

    def render(self, ref, blink_on):
        s = self.strip
        s.clear()
        st = ref.st
        if st is not None:
            seat = self.lay.colours[st.to_move]
            r, g, b = SEAT[seat]
            s.set(self.seat_led[seat], r, g, b)
            ph = ref.phase
            if ref.accepted_at >= 0 and ph == "await_effect":
                self._led(ref.accepted_at, ACCEPT)  # drawn first: work still to do wins
            if ph == "await_move":
                self._move(ref, blink_on)
            elif ph in ("setup", "await_effect", "mismatch"):
                for i in ref.diffs:
                    self._todo(ref, i, blink_on)
        s.show()

    def render_menu(self, seats):
        """The new-game menu: the seat LEDs of the game that holding confirm would start."""
        s = self.strip
        s.clear()
        for c in seats:
            r, g, b = SEAT[c]
            s.set(self.seat_led[c], r, g, b)
        s.show()

    def _led(self, sensor, rgb):
        self.strip.set(self.led_of_sensor[sensor], rgb[0], rgb[1], rgb[2])

    def _todo(self, ref, i, blink_on):
        e = ref.exp[i]
        now = ref.sensed[i]
        if now != EMPTY and now != UP and now != DOWN:
            if blink_on:
                self._led(i, FAULT)
        elif e == COUNTED:
            self._led(i, TURN if now == DOWN else (PUT if now == EMPTY else TAKE))
        elif e == EMPTY:
            self._led(i, TAKE)
        elif now == EMPTY:
            self._led(i, PUT)
        else:
            self._led(i, TURN)

    def _move(self, ref, blink_on):
        lay = self.lay
        places = self.places
        movable, targets = ref.hints()
        lifted = -1
        for frm in movable:
            if frm < lay.nboard:
                i = places.sensor[frm]
                if ref.sensed[i] == EMPTY and ref.touched[i]:
                    lifted = frm
                self._led(i, MOVABLE)
            else:
                for i in places.spots[frm - lay.nboard]:
                    if ref.sensed[i] != EMPTY:
                        self._led(i, MOVABLE)
        if lifted >= 0:
            for to in targets.get(lifted, ()):
                if to >= lay.nboard:
                    continue
                rgb = TARGET
                if lay.is_home(to):
                    rgb = HOME
                elif ref.pre_move.board[to]:
                    rgb = KNOCK
                elif lay.meeting[to]:
                    rgb = MEET
                self._led(places.sensor[to], rgb)
        left = ref.judge.left()
        if left:
            spots = places.spots[ref.st.plays(ref.st.to_move)]
            for j in range(min(left, len(spots))):
                self._led(spots[j], STEPS)
        if ref.bad and blink_on:
            for i in ref.bad:
                self._led(i, TAKE)

