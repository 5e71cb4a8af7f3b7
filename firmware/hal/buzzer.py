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


class Buzzer:
    def __init__(self, pwm, duty_u16=20000):
        self.pwm = pwm
        self.duty = duty_u16
        self.notes = ()
        self.at = 0
        self.left = 0
        pwm.duty_u16(0)

    def play(self, name):
        self.notes = PATTERNS[name]
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
                return
            f, ms = self.notes[self.at]
            self.left += ms
            if f:
                self.pwm.freq(f)
                self.pwm.duty_u16(self.duty)
            else:
                self.pwm.duty_u16(0)
