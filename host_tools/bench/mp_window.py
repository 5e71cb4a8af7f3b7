# Runs on MicroPython, imported by the bench's scripts that count the firmware while it runs on
# the simulated board (mp_latency.py, mp_avenue_board_latency.py): what callgrind counts of
# such a run is the firmware's work, not the simulator's that shares its process
# (docs/measuring.md, "The firmware on the simulated board").
#
# - The simulated hardware: every function and method of the stand-ins for `machine`,
#   `neopixel`, `time` and `esp32` (host_tools/sim/device) is wrapped so that its body, and the
#   simulator it calls (the supply model and the front end on every LED frame, the field on
#   every conversion, the flash model), runs inside the C function that map() calls a function
#   from (py/objmap.c's map_iternext, common.OUTSIDE_FN), on which callgrind toggles
#   collection: off on entering it, on again on leaving. The firmware's call up to the wrapper
#   is counted, as its call into a native driver would be on the ESP32. No firmware, rules or
#   simulator code calls map() (tests/host/bench/test_bench_window.py), so nothing else toggles.
# - The collector: counted() runs the repeated work after a collection with the automatic
#   collector off, so what it allocates can be reported; the memory manager's own work is
#   taken off the count from callgrind's profile (host_tools/bench/callgrind.py). The bench's
#   own work between the repeats (the state put back) is not counted either.
import gc
from array import array

STAND_INS = ("machine", "neopixel", "time", "esp32")
_BUFFERS = (bytearray, array)
_depth = [0]  # > 0 while the simulator runs: its own calls to a stand-in are not wrapped again
_outside_alloc = [0]  # bytes allocated where callgrind does not count (counted() takes them off)
_measuring = [False]  # inside counted()


def _closure_type():
    x = 0

    def inner():
        return x
    return type(inner)


_PYTHON = (type(lambda: 0), _closure_type())  # a Python function, and one with free names


def _apply(job):
    # (inside map: neither this nor what it allocates is the firmware's)
    fn, args, kw = job
    if not _measuring[0]:
        return fn(*args, **kw)  # (gc.mem_alloc walks the whole heap's table: only in counted)
    before = gc.mem_alloc()
    try:
        return fn(*args, **kw)
    finally:
        _outside_alloc[0] += gc.mem_alloc() - before


def outside(fn):
    """fn, run where callgrind does not count (inside map's C function)."""
    def call(*args, **kw):
        if _depth[0]:
            return fn(*args, **kw)
        _depth[0] += 1
        try:
            for r in map(_apply, ((fn, args, kw),)):
                return r
        finally:
            _depth[0] -= 1
    return call


def _raw(cls, name):
    """The class attribute as stored (a staticmethod stays one), from cls or its bases."""
    d = cls.__dict__
    if name in d:
        return d[name]
    for base in getattr(cls, "__bases__", ()):
        r = _raw(base, name)
        if r is not None:
            return r
    return None


def _wrap_class(cls):
    for name in dir(cls):
        fn = getattr(cls, name)
        if type(fn) not in _PYTHON:
            continue
        w = outside(fn)
        if type(_raw(cls, name)) is staticmethod:
            w = staticmethod(w)
        setattr(cls, name, w)


def exclude_hardware(modules=STAND_INS):
    """Wraps the stand-ins' functions and their own classes' methods, inherited ones too (esp32's
    Partition is the simulator's flash model). Call it before the firmware is imported: a name
    the firmware imports from a stand-in is bound then. Returns how many it wrapped."""
    n = 0
    for mod_name in modules:
        mod = __import__(mod_name)
        for name, value in list(mod.__dict__.items()):
            if type(value) in _PYTHON:
                setattr(mod, name, outside(value))
                n += 1
            elif type(value) is type and getattr(value, "__module__", None) == mod_name:
                _wrap_class(value)
                n += 1
    return n


def counted(fn, times, setup):
    """Runs setup() then fn(), `times` times, with no collection among them: the heap collected
    before (every run of a script, whatever its `times`, collects at the same point), the
    automatic collector off meanwhile. setup (the bench's own work: putting the state back)
    runs where callgrind does not count. Returns the bytes fn allocated, all runs together,
    less what the simulated hardware allocated meanwhile (the floats of its models)."""
    put_back = outside(setup)
    gc.collect()
    gc.disable()
    _measuring[0] = True
    try:
        total = 0
        for _ in range(times):
            put_back()
            before = gc.mem_alloc()
            hardware = _outside_alloc[0]
            fn()
            total += gc.mem_alloc() - before - (_outside_alloc[0] - hardware)
        return total
    finally:
        _measuring[0] = False
        gc.enable()


def state_of(obj):
    """A copy of obj's attributes for restore(): buffers (bytearray, array) by content, every
    other value as it is (ints, tuples, and objects the repeated work replaces, never changes
    in place)."""
    out = {}
    for k, v in obj.__dict__.items():
        out[k] = v[:] if type(v) in _BUFFERS else v
    return out


def restore(obj, state):
    now = obj.__dict__  # (MicroPython gives a copy of an instance's attributes: once)
    for k, v in state.items():
        cur = now.get(k)
        if type(v) in _BUFFERS and type(cur) is type(v) and len(cur) == len(v):
            cur[:] = v  # in place: other objects may hold the same buffer
        else:
            setattr(obj, k, v)
