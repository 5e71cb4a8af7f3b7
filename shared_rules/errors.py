# The one error the rules core raises for bad input, with the protocol's error kind
# (bad_request, bad_position, illegal). Its own module so the device can apply moves without
# loading the position parser.


class BadInput(Exception):
    def __init__(self, kind, reason):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def shown(value):
    """A request's value as a reason quotes it: repr, but with an object's keys in sorted
    order. MicroPython keeps a dict's keys in the order of its hash table, CPython in the order
    they were written, so a plain %r of a JSON object would read differently on each
    interpreter. Nesting is at most jsonline.MAX_DEPTH deep, so the recursion is short."""
    if type(value) is dict:
        return "{" + ", ".join(["%r: %s" % (k, shown(value[k])) for k in sorted(value)]) + "}"
    if type(value) is list:
        return "[" + ", ".join([shown(v) for v in value]) + "]"
    return repr(value)


def stray_key(obj, fields, more=()):
    """The first key of the object obj that is in neither fields nor more, or None. First in
    sorted order, so that a reason naming it reads the same on both interpreters (MicroPython
    walks a dict in hash order); sorted only when there is one."""
    for key in obj:
        if key not in fields and key not in more:
            return min([k for k in obj if k not in fields and k not in more])
    return None
