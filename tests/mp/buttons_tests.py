# The button driver on MicroPython: a press is timed from the finger going down, so the pass
# gesture of board-protocols.md (hold back for 2000 ms) works wherever the press falls
# between the firmware's polls (every 20 ms), and the debounce eats none of it.
from firmware.hal.buttons import Button, PRESS, RELEASE, HOLD
from simboard import check

POLL_MS = 20
HOLD_MS = 2000


class Finger:
    """A pin pulled up, read 0 while the finger is on the button between down and up (ms)."""

    def __init__(self, down, up, bounce=()):
        self.down = down
        self.up = up
        self.bounce = bounce  # times (ms) at which the contact reads open although pressed
        self.now = 0

    def value(self):
        pressed = self.down <= self.now < self.up and self.now not in self.bounce
        return 0 if pressed else 1


def events(finger, until, first_poll=0):
    """Polls every POLL_MS from first_poll; returns [(ms, event)]."""
    b = Button(finger, hold_ms=HOLD_MS)
    out = []
    t = first_poll
    while t <= until:
        finger.now = t
        ev = b.poll(t)
        if ev:
            out.append((t, ev))
        t += POLL_MS
    return out


def kinds(evs):
    return [e for _, e in evs]


def test_a_press_of_exactly_2000_ms_is_a_hold_wherever_it_falls_between_polls():
    for phase in range(POLL_MS):
        down = 1000 + phase
        evs = events(Finger(down, down + HOLD_MS), 4000)
        check(kinds(evs) == [PRESS, HOLD, RELEASE], "press at +%d ms: %r" % (phase, evs))


def test_a_press_of_1500_ms_is_no_hold():
    for phase in range(POLL_MS):
        down = 1000 + phase
        evs = events(Finger(down, down + 1500), 4000)
        check(kinds(evs) == [PRESS, RELEASE], "press at +%d ms: %r" % (phase, evs))


def test_a_long_press_holds_before_it_is_released():
    evs = events(Finger(1000, 5000), 6000)
    check(kinds(evs) == [PRESS, HOLD, RELEASE], repr(evs))
    hold_at = evs[1][0]
    # the hold comes 2000 ms after the finger went down, within the poll that brackets the
    # press (not 2000 ms after the debounce, which would be 40 ms later)
    check(3000 - POLL_MS <= hold_at <= 3000, "hold at %d ms" % hold_at)


def test_a_bounce_is_no_press():
    # one poll reading the contact closed (a bounce) is filtered out by the debounce
    evs = events(Finger(1000, 1001), 3000)
    check(evs == [], repr(evs))


def test_a_bounce_while_held_neither_releases_nor_restarts_the_hold():
    evs = events(Finger(1000, 4000, bounce=(1500, 2500)), 5000)
    check(kinds(evs) == [PRESS, HOLD, RELEASE], repr(evs))
    check(3000 - POLL_MS <= evs[1][0] <= 3000, "hold at %d ms" % evs[1][0])
