# LED strip (brightness, current limiter, changed-bytes writes), buttons and buzzer.
import json
import time

from simboard import fresh, check
from firmware.hal.buttons import PRESS, RELEASE, HOLD

SCRATCH = "/tmp"


def strip_ma(w, b):
    # the limiter's own model applied to what the strip really received
    total = 0
    for rgb in w.led_colours.values():
        total += rgb[0] + rgb[1] + rgb[2]
    p = w.pins["power"]
    return total * p["led_ma_per_channel"] // 255 + len(w.led_colours) * p["led_idle_ma"]


def test_colours_reach_the_strip_scaled_by_brightness():
    w, b = fresh(1)
    s = b.leds
    s.brightness = 128
    s.set(b.led_index("5"), 255, 0, 0)
    s.set(b.led_index("seat:blue"), 0, 0, 200)
    s.show()
    check(w.led_colours["5"] == [128, 0, 0], "space 5 shows %r" % (w.led_colours["5"],))
    check(w.led_colours["seat:blue"] == [0, 0, 100], "seat %r" % (w.led_colours["seat:blue"],))
    check(w.led_colours["6"] == [0, 0, 0], "space 6 lit")


def test_limiter_keeps_a_full_white_board_under_budget():
    w, b = fresh(2)
    s = b.leds
    s.brightness = 255
    for i in range(s.n):
        s.set(i, 255, 255, 255)
    est = s.show()
    budget = w.pins["power"]["led_budget_ma"]
    check(est <= budget, "estimate %d mA over %d" % (est, budget))
    check(strip_ma(w, b) <= budget, "strip draws %d mA" % strip_ma(w, b))
    check(strip_ma(w, b) > budget * 0.9, "over-dimmed to %d mA" % strip_ma(w, b))
    r, g, bl = w.led_colours["0"]
    check(r == g == bl, "hue changed: %r" % ([r, g, bl],))


def test_a_hint_scene_is_not_dimmed():
    w, b = fresh(3)
    s = b.leds
    for i in range(24):
        s.set(i, 0, 255, 0)
    s.set(30, 255, 160, 0)
    s.show()
    check(s.scale == 255, "limited to %d/255" % s.scale)
    want = 255 * s.brightness // 255
    check(w.led_colours["3"] == [0, want, 0], "hint shows %r" % (w.led_colours["3"],))


def test_show_writes_only_when_something_changed():
    w, b = fresh(4)
    s = b.leds
    s.set(7, 10, 20, 30)
    s.show()
    n = w.led_writes
    s.show()
    check(w.led_writes == n, "an unchanged frame was sent")
    s.set(7, 10, 20, 30)  # the same colour again
    s.show()
    check(w.led_writes == n, "the same colour again was sent")
    before = bytes(b.leds.np.buf)
    s.set(9, 0, 255, 0)
    s.show()
    after = bytes(b.leds.np.buf)
    diff = [j for j in range(len(before)) if before[j] != after[j]]
    check(diff and min(diff) >= 27 and max(diff) < 30, "bytes changed: %r" % (diff,))
    check(w.led_writes == n + 1, "the change was not sent")


def test_a_frames_codes_reach_the_strip_scaled_and_limited_and_only_changes_are_sent():
    # a view's Frame hands the strip the LEDs whose code changed, their bytes written at the
    # brightness and scale of the last show; a frame over budget rescales every LED, one back
    # under it too (the colours are the palette's, scaled as Strip.show's own model)
    from firmware.hal.leds import Frame
    w, b = fresh(5)
    s = b.leds
    s.brightness = 128
    palette = [(0, 0, 0), (255, 0, 0), (0, 200, 0), (255, 255, 255), (255, 0, 0)]
    fr = Frame(s, s.n, palette)
    fr.frame[b.led_index("5")] = 1
    fr.frame[b.led_index("seat:blue")] = 2
    fr.flush()
    check(w.led_colours["5"] == [128, 0, 0], "space 5 shows %r" % (w.led_colours["5"],))
    check(w.led_colours["seat:blue"] == [0, 100, 0], "seat %r" % (w.led_colours["seat:blue"],))
    n = w.led_writes
    fr.flush()
    check(w.led_writes == n, "an unchanged frame was sent")
    fr.frame[b.led_index("5")] = 4  # another code of the same colour (a knock-out's red)
    fr.flush()
    check(w.led_writes == n, "a code of the same colour was sent")
    fr.frame[b.led_index("5")] = 0  # at the same brightness and scale: only these two change
    fr.frame[b.led_index("7")] = 1
    fr.flush()
    check(w.led_writes == n + 1 and w.led_colours["7"] == [128, 0, 0] and
          w.led_colours["5"] == [0, 0, 0], "moved to 7: %d writes, 7 %r, 5 %r" % (
              w.led_writes - n, w.led_colours["7"], w.led_colours["5"]))
    s.brightness = 255
    for i in range(s.n):
        fr.frame[i] = 3
    fr.flush()
    budget = w.pins["power"]["led_budget_ma"]
    check(s.scale < 255 and strip_ma(w, b) <= budget, "white board: scale %d, %d mA" % (
        s.scale, strip_ma(w, b)))
    colours = set(tuple(rgb) for rgb in w.led_colours.values())
    check(len(colours) == 1 and len(set(colours.pop())) == 1, "not one grey: %r" % (colours,))
    for i in range(s.n):
        fr.frame[i] = 0
    fr.frame[b.led_index("6")] = 1
    fr.flush()
    check(s.scale == 255 and w.led_colours["6"] == [255, 0, 0], "back under budget: %d, %r" % (
        s.scale, w.led_colours["6"]))
    lit = [name for name in w.led_colours if w.led_colours[name] != [0, 0, 0]]
    check(lit == ["6"], "lit: %r" % (lit,))


def poll_for(button, ms, step=20):  # the loop polls once a scan, 20 ms apart
    out = []
    for _ in range(ms // step):
        ev = button.poll(time.ticks_ms())
        if ev:
            out.append(ev)
        time.sleep_ms(step)
    return out


def test_button_press_and_release_are_debounced():
    w, b = fresh(5)
    w.press("confirm", 150)
    check(poll_for(b.confirm, 400) == [PRESS, RELEASE], "press")
    w.press("confirm", 15)  # shorter than a poll's interval: read by one poll at the most
    check(poll_for(b.confirm, 200) == [], "bounce reported")


def test_the_longest_bounce_of_the_buttons_datasheet_is_never_a_press():
    # hardware/design/parts.json: the button's contacts bounce for bounce_ms at the most; the
    # polls that must agree on a press span more than that, so a bounce, wherever it falls
    # between polls, is never one
    with open("hardware/design/parts.json") as f:
        bounce = json.load(f)["components"]["button"]["bounce_ms"]
    w, b = fresh(5)
    check((b.confirm.stable - 1) * 20 > bounce, "%d polls 20 ms apart within a %d ms bounce" % (
        b.confirm.stable, bounce))
    for phase in range(0, 20, 3):
        time.sleep_ms(phase)
        w.press("confirm", bounce)
        check(poll_for(b.confirm, 100) == [], "a %d ms bounce at phase %d read" % (bounce, phase))
    w.press("confirm", 40)  # the shortest press that spans two polls
    check(poll_for(b.confirm, 200) == [PRESS, RELEASE], "a 40 ms press not read")


def test_holding_back_two_seconds_is_one_hold():
    w, b = fresh(6)
    w.press("back", 2500)
    got = poll_for(b.back, 3000)
    check(got == [PRESS, HOLD, RELEASE], "hold: %r" % (got,))


def test_buzzer_plays_a_pattern_without_blocking():
    w, b = fresh(7)
    b.buzzer.play("accept")
    check(w.buzzer[-1][1] == 1760 and w.buzzer[-1][2] > 0, "not sounding: %r" % (w.buzzer[-1],))
    for _ in range(10):
        b.buzzer.tick(10)
    check(w.buzzer[-1][2] == 0 and not b.buzzer.busy(), "still sounding: %r" % (w.buzzer[-1],))


def test_buzzer_fault_tone_is_not_cut_short():
    # the fault tone (330 Hz, 300 ms) sounds whole; an accept asked for meanwhile follows it
    w, b = fresh(7)
    b.buzzer.play("fault")
    b.buzzer.tick(100)
    b.buzzer.play("accept")
    check(w.buzzer[-1][1] == 330 and w.buzzer[-1][2] > 0, "fault cut short: %r" % (w.buzzer[-1],))
    for _ in range(20):
        b.buzzer.tick(10)
    check(w.buzzer[-1][1] == 1760 and w.buzzer[-1][2] > 0, "accept not after the fault: %r"
          % (w.buzzer[-1],))
    for _ in range(10):
        b.buzzer.tick(10)
    check(w.buzzer[-1][2] == 0 and not b.buzzer.busy(), "still sounding: %r" % (w.buzzer[-1],))
    # a second fault while the accept waits: the accept still follows, after both
    b.buzzer.play("fault")
    b.buzzer.play("accept")
    b.buzzer.play("fault")
    for _ in range(29):
        b.buzzer.tick(10)
    check(w.buzzer[-1][1] == 330, "the second fault cut short: %r" % (w.buzzer[-1],))
    for _ in range(2):
        b.buzzer.tick(10)
    check(w.buzzer[-1][1] == 1760 and w.buzzer[-1][2] > 0, "the waiting accept lost: %r"
          % (w.buzzer[-1],))
