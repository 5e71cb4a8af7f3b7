# The one error the rules core raises for bad input, with the protocol's error kind
# (bad_request, bad_position, illegal). Its own module so the device can apply moves without
# loading the position parser.


class BadInput(Exception):
    def __init__(self, kind, reason):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
