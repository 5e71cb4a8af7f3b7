"""The values the `agentboard` command takes, each checked where argparse reads it: a bad one
is refused in one sentence that says what would do, before anything is opened or written."""
import argparse
import math
import os

MAX_TCP_PORT = 65535
MAX_POLL_S = 60.0


def tcp_port(text):
    n = whole_number(text)
    if not 0 <= n <= MAX_TCP_PORT:
        raise argparse.ArgumentTypeError("%s is not a TCP port: give 0 (any free port) to %d"
                                         % (text, MAX_TCP_PORT))
    return n


def baud(text):
    from host_tools.flash import MIN_BAUD, MAX_BAUD
    n = whole_number(text)
    if not MIN_BAUD <= n <= MAX_BAUD:
        raise argparse.ArgumentTypeError("%s baud is out of range: give %d to %d (460800 suits "
                                         "most boards)" % (text, MIN_BAUD, MAX_BAUD))
    return n


def positive(text):
    n = whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError("%s is not a positive number" % text)
    return n


def not_negative(text):
    n = whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError("%s is negative" % text)
    return n


def seconds(text):
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of seconds" % text)
    if not (math.isfinite(x) and 0 < x <= MAX_POLL_S):
        raise argparse.ArgumentTypeError("%s s is out of range: give more than 0 and at most "
                                         "%g" % (text, MAX_POLL_S))
    return x


def whole_number(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)


def folder(text):
    """A folder that keeps a simulated device's files: an existing folder, or one that can
    be made (it is made when the device starts)."""
    if not text:
        raise argparse.ArgumentTypeError("the folder name is empty")
    if os.path.exists(text):
        if not os.path.isdir(text):
            raise argparse.ArgumentTypeError("%s is a file, not a folder: name a folder for the "
                                             "device's files (a new one is made)" % text)
        if not os.access(text, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError("cannot write in %s: name a folder of yours" % text)
        return text
    _writable_parent(text, "the folder")
    return text


def output_file(text):
    """A file to write: not a folder, in a folder that exists and can be written."""
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a folder: name the file to write" % text)
    if os.path.exists(text) and not os.access(text, os.W_OK):
        raise argparse.ArgumentTypeError("cannot write %s: it is read-only" % text)
    parent = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError("the folder of %s does not exist: make it first" % text)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError("cannot write in the folder of %s" % text)
    return text


def _writable_parent(path, what):
    up = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(up):
        up = os.path.dirname(up)
    if not os.path.isdir(up):
        raise argparse.ArgumentTypeError("%s is a file, so %s %s cannot be made there" % (
            up, what, path))
    if not os.access(up, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError("cannot write in %s, so %s %s cannot be made there"
                                         % (up, what, path))


def card_kind(text):
    from host_tools.enrol import card_kinds
    kinds = card_kinds()
    if text not in kinds:
        raise argparse.ArgumentTypeError("unknown card kind %r; kinds are %s" % (
            text, ", ".join(kinds)))
    return text
