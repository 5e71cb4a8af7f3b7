# Stand-in for `time` in the whole-game heap runs (host_tools/bench/mp_game_heap.py, which puts
# it in sys.modules as "time" before the firmware is loaded): the unix port's clock, with every
# sleep the firmware asks for added to it at once instead of waited. The harness runs the
# board's scans back to back, not 20 ms apart as the loop paces them on a board, so each card
# reader poll waited out its field's reset for real (firmware/hal/mfrc522.py RF_RESET_US,
# 5.1 ms): 160 of the 165 s a 6-player DOG Royal game took. What the heap holds does not
# depend on the waiting; the times the firmware reads still add up as on a board.
import time as _time

_ahead_us = [0]  # the sleeps so far: the clock runs this far ahead of the port's


def ticks_us():
    return _time.ticks_add(_time.ticks_us(), _ahead_us[0])


def ticks_ms():
    return _time.ticks_add(_time.ticks_ms(), _ahead_us[0] // 1000)


ticks_add = _time.ticks_add
ticks_diff = _time.ticks_diff


def sleep_us(us):
    _ahead_us[0] += us


def sleep_ms(ms):
    _ahead_us[0] += ms * 1000
