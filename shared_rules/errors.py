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
