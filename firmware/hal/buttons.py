# A push button to ground with the pin's pull-up: reads 0 while pressed. Debounced by counting
# polls; reports a press, a release (with how long it was held), and a hold once it has been
# down for hold_ms (the pass gesture holds `back` for 2 s).

PRESS = 1
RELEASE = 2
HOLD = 3


class Button:
    def __init__(self, pin, stable=3, hold_ms=2000):
        self.pin = pin
        self.stable = stable
        self.hold_ms = hold_ms
        self.down = False
        self.count = 0
        self.held_ms = 0
        self.hold_sent = False

    def poll(self, dt_ms):
        """Call every dt_ms; returns PRESS, RELEASE, HOLD or 0."""
        raw = self.pin.value() == 0
        if self.down:
            self.held_ms += dt_ms
        if raw == self.down:
            self.count = 0
            if self.down and not self.hold_sent and self.held_ms >= self.hold_ms:
                self.hold_sent = True
                return HOLD
            return 0
        self.count += 1
        if self.count < self.stable:
            return 0
        self.count = 0
        self.down = raw
        if raw:
            self.held_ms = 0
            self.hold_sent = False
            return PRESS
        return RELEASE
