# Piezo buzzer on a PWM pin: named patterns of (frequency Hz, ms) notes, played without
# blocking: tick(dt_ms) from the main loop advances the pattern. A frequency of 0 is a rest.

PATTERNS = {
    "accept": ((1760, 60),),
    "reject": ((220, 120), (0, 40), (220, 120)),
    "effect": ((1320, 50), (0, 30), (1320, 50)),
    "turn": ((880, 40),),
    "win": ((1047, 120), (1319, 120), (1568, 120), (2093, 300)),
    "fault": ((330, 300),),
}
FAULT = PATTERNS["fault"]


class Buzzer:
    def __init__(self, pwm, duty_u16=20000):
        self.pwm = pwm
        self.duty = duty_u16
        self.notes = ()
        self.after = ()  # the pattern asked for while a fault sounded: it follows the fault
        self.at = 0
        self.left = 0
        pwm.duty_u16(0)

    def play(self, name):
        notes = PATTERNS[name]
        if self.notes is FAULT and notes is not FAULT and self.busy():
            # a fault is heard whole: what comes while it sounds (the accept of the move
            # whose save the flash refused, a win) follows it, the latest asked for
            self.after = notes
            return
        if notes is not FAULT:
            self.after = ()  # (a fault again: what waited for the first still follows)
        self._start(notes)

    def _start(self, notes):
        self.notes = notes
        self.at = -1
        self.left = 0
        self.tick(0)

    def busy(self):
        return self.at >= 0 and self.at < len(self.notes)

    def tick(self, dt_ms):
        if not self.notes or self.at >= len(self.notes):
            return
        self.left -= dt_ms
        while self.left <= 0:
            self.at += 1
            if self.at >= len(self.notes):
                self.pwm.duty_u16(0)
                if self.after:
                    after = self.after
                    self.after = ()
                    self._start(after)
                return
            f, ms = self.notes[self.at]
            self.left += ms
            if f:
                self.pwm.freq(f)
                self.pwm.duty_u16(self.duty)
            else:
                self.pwm.duty_u16(0)
