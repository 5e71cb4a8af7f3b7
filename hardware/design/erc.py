"""The electrical rules check: SKiDL's ERC on each board, plus one rule of this design.

SKiDL checks every pin (unconnected pins, pin-type conflicts such as two outputs on a net,
nets without a driver, power pins without a supply). This design's rule: every net is built
for one function (a GPIO role, a supply, a sensor output), so a pin that joins two of them,
as a pin map giving one GPIO two jobs would, is an error. A board passes with no errors and no
warnings: pins meant to stay open are marked no-connect in circuit.py."""
import logging

from hardware.design.skidl_quiet import erc_logger

ERROR = "error"
WARNING = "warning"


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.found = []

    def emit(self, record):
        severity = ERROR if record.levelno >= logging.ERROR else WARNING
        self.found.append((severity, record.getMessage().strip()))


def joined_functions(board):
    """Errors for nets that SKiDL will merge although each was made for its own function."""
    out = []
    seen = set()
    for net in board.circuit.nets:
        group = net.nets
        key = frozenset(id(n) for n in group)
        if key in seen:
            continue
        seen.add(key)
        functions = sorted({n.function for n in group if getattr(n, "function", None)})
        if len(functions) > 1:
            where = sorted({"%s pin %s (%s)" % (p.part.ref, p.num, p.name)
                            for n in group for p in n.pins
                            if len({getattr(m, "function", None) for m in p.nets}) > 1})
            out.append((ERROR, "%s: nets %s are joined at %s; one pin would be driven from "
                        "two nets" % (board.name, " and ".join(functions), ", ".join(where))))
    return out


class captured:
    """Collects a SKiDL logger's warnings and errors instead of printing them."""

    def __init__(self, logger):
        self.logger = logger
        self.collect = _Collect()
        self.streams = []

    def __enter__(self):
        self.streams = [h for h in self.logger.handlers if type(h) is logging.StreamHandler]
        for h in self.streams:
            self.logger.removeHandler(h)
        self.logger.addHandler(self.collect)
        return self.collect.found

    def __exit__(self, *exc):
        self.logger.removeHandler(self.collect)
        for h in self.streams:
            self.logger.addHandler(h)
        return False


def run_erc(board):
    """[(severity, message)] for one board; empty when it passes."""
    found = joined_functions(board)
    with captured(erc_logger) as skidl_found:
        board.circuit.ERC()
    found.extend((sev, "%s: %s" % (board.name, msg)) for sev, msg in skidl_found)
    return found
