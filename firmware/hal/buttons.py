# A push button to ground with the pin's pull-up: reads 0 while pressed. Debounced by counting
# polls; reports a press, a release, and a hold once it has been down for hold_ms (the pass
# gesture holds `back` for 2 s).
#
# Time is counted the way a person counts it, from the finger going down to the finger coming
# up, not from the moment the debounce was satisfied. Polls only bracket those moments: the
# press began after the last poll that read the button up, and it lasts at least until the
# first poll that reads it up again. Timing from the one to the other makes a press of exactly
# hold_ms a hold wherever it falls between polls; the debounce's polls do not eat into it.
import time

from firmware.mpconst import const

PRESS = const(1)
RELEASE = const(2)
HOLD = const(3)


class Button:
    # stable: polls in a row that must agree. Two, 20 ms apart at the loop's rate: the B3F's
    # contacts bounce for 5 ms at the most (hardware/design/parts.json), so a bounce is read by
    # one poll at the most and a press counts 20 to 40 ms after the finger went down
    def __init__(self, pin, stable=2, hold_ms=2000):
        self.pin = pin
        self.stable = max(2, stable)  # a hold seen on the releasing poll needs a poll of its own
        self.hold_ms = hold_ms
        self.down = False
        self.count = 0
        self.last_poll = None  # ticks_ms of the previous poll
        self.mark = 0          # the last poll before the level started to change
        self.edge = 0          # the press began after this poll
        self.held_ms = 0       # how long the button has been (or was) down
        self.hold_sent = False

    def poll(self, now=None):
        """Call once per scan (now: time.ticks_ms()); returns PRESS, RELEASE, HOLD or 0."""
        if now is None:
            now = time.ticks_ms()
        before = now if self.last_poll is None else self.last_poll
        self.last_poll = now
        raw = self.pin.value() == 0
        ev = 0
        if self.down and self.count == 0:
            # still down, or read up for the first time: it was down until at least now
            self.held_ms = time.ticks_diff(now, self.edge)
            if not self.hold_sent and self.held_ms >= self.hold_ms:
                self.hold_sent = True
                ev = HOLD
        if raw == self.down:
            self.count = 0
            return ev
        if self.count == 0:
            self.mark = before
        self.count += 1
        if self.count < self.stable:
            return ev
        self.count = 0
        self.down = raw
        if raw:
            self.edge = self.mark
            self.hold_sent = False
            self.held_ms = time.ticks_diff(now, self.edge)
            return PRESS
        return RELEASE
