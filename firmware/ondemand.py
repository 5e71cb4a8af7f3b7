# Code a board runs rarely (its set-up at power-up, the console's rarer ops) is imported when it
# is needed and dropped again afterwards. On MicroPython's stock ESP32 build every .mpy file's
# bytecode is copied into the heap (it has no ROMFS to run it from flash), so a module kept
# imported holds its code in the heap for the board's whole life; one dropped gives it back.
# A module loaded this way keeps no state between calls (each call imports it afresh).
import gc
import sys

_MICROPYTHON = sys.implementation.name == "micropython"


def call(name, fn, *args):
    """The function `fn` of module `name` called with args. A module this call imports is
    dropped after it, whatever the call did, and with it the modules it names in DROP_WITH
    that the call imported (code only it runs, such as the reader of moves a resume uses);
    one already imported (a call within a call to the same module) is left to the call that
    imported it."""
    before = None if name in sys.modules else set(sys.modules)
    mod = __import__(name, None, None, (fn,))
    try:
        return getattr(mod, fn)(*args)
    finally:
        also = getattr(mod, "DROP_WITH", ())
        del mod
        if before is not None:
            for m in also:
                if m not in before:
                    _forget(m)
            drop(name)


def drop(name):
    """Forgets module `name` (and its parent package's name for it), so that its code is freed
    once nothing else refers to it; collected at once on a board, so that the next
    long-lived block does not land beyond the hole it leaves."""
    _forget(name)
    if _MICROPYTHON:
        gc.collect()


def _forget(name):
    if name not in sys.modules:
        return
    del sys.modules[name]
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    leaf = name[dot + 1:]
    if parent is not None and leaf in parent.__dict__:
        delattr(parent, leaf)
