# Stand-in for `time` on the simulated board: the board clock, which moves only when the device
# spends time (sleeps, conversions, bus transfers), so runs repeat exactly for a seed.
from host_tools.sim import world as _world


def ticks_us():
    return _world.current().clock_us


def ticks_ms():
    return _world.current().clock_us // 1000


def ticks_cpu():
    return _world.current().clock_us


def ticks_diff(a, b):
    return a - b


def ticks_add(t, d):
    return t + d


def sleep_us(us):
    _world.current().advance_us(int(us))


def sleep_ms(ms):
    _world.current().advance_us(int(ms) * 1000)


def sleep(s):
    _world.current().advance_us(int(s * 1000000))


def time():
    return _world.current().clock_us // 1000000


def time_ns():
    return _world.current().clock_us * 1000
