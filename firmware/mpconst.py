# const() for the firmware's numbers (micropython-lib's idiom). MicroPython's compiler folds
# `NAME = const(number)` into every use of NAME in its module (a constant in the bytecode, not a
# look-up in the module's dict), and keeps a name that starts with "_" out of the dict altogether:
# each such name saves its dict entry and interned name on the heap and a global load per use.
# A name another module imports stays public (`NAME = const(n)`): folded here, a dict entry still.
# The compiler does this without the import; the import is for CPython (the host tools and tests
# run firmware modules) and the type checker, where const(n) is n.
try:
    from micropython import const
except ImportError:  # CPython
    def const(__expr):  # positional only (the __ prefix), as micropython.const is
        return __expr
