# Runs on MicroPython (tests/firmware/test_memory.py): how many heap bytes the scan loop makes when
# nothing happens on the board. An ESP32 at 50 scans a second that made even 100 bytes a scan
# would fill a 100 KB heap with garbage every 20 s, and every collection that follows is a
# stall of the scan and a chance for long-lived objects to land between the holes.
#
# `micropython idle_alloc.py ROOT steps APP STEPS` in a folder with a board's config/ (as
# `agentboard deploy --board` writes it), cards.json and, on a ranked board, calib.json:
# host_tools/bench/stubs stand in for the pins and ADCs (an empty board, no card on the
# reader: the card-reader stand-in's timer always runs out) and boots APP (`dog`: the DOG
# boards' application, `avenue`: Agent Avenue's), the console reading this process's stdin;
# settles, then runs STEPS steps of the application loop (each polls a card reader in turn,
# every 10th redraws the blinking LEDs) and prints the bytes allocated (and kept), and the
# churn: all bytes allocated meanwhile, also those freed at once (a call's frame on the heap).
#
# `micropython idle_alloc.py ROOT card TRACE POLLS`: one card lying on the reader, polled
# POLLS times by the card reader driver over an SPI stand-in that replays the chip's answers
# of one read (TRACE: host_tools/bench/record_card.py's, recorded from the simulated chip);
# prints the bytes the polls after the first (which reads the card) allocated, and the churn.
import sys
sys.path.insert(0, sys.argv[1] + "/host_tools/bench/stubs")
sys.path.insert(1, sys.argv[1])
import gc
import json
import micropython

MODE = sys.argv[2]


def settle(app, start):
    n = start
    for _ in range(30):
        app.step(n)
        n += 1
    return n


def steps(kind, count):
    import machine
    from firmware.hal.calibration import MID
    machine.wire(MID)  # nothing on the board
    if kind == "avenue":
        from firmware.games.avenue.app import App
    else:
        from firmware.games.track.app import App
    app = App("config", ".", write=lambda line: None)  # the console reads stdin
    app.boot()
    n = settle(app, 0)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    total = micropython.mem_total()
    for _ in range(count):
        app.step(n)
        n += 1
    made = gc.mem_alloc() - before
    churn = micropython.mem_total() - total
    gc.enable()
    return made, churn


class ReplaySpi:
    """The MFRC522's answers of one recorded read, replayed in order (k: the next transfer)."""

    def __init__(self, trace):
        self.trace = trace
        self.k = 0

    def write(self, buf):
        self.k += 1

    def write_readinto(self, w, r):
        got = self.trace[self.k] if self.k < len(self.trace) else 0
        if type(got) is not int:
            for j in range(len(got)):
                r[j] = got[j]
        self.k += 1


class Pin:
    def value(self, v=None):
        return 1


def card(trace_file, polls):
    from firmware.hal.mfrc522 import MFRC522, CardReader, CARD
    with open(trace_file) as f:
        trace = json.load(f)
    for j in range(1, len(trace)):
        if type(trace[j]) is list:
            trace[j] = bytes(trace[j])
    spi = ReplaySpi(trace)
    reader = CardReader(MFRC522(spi, Pin(), Pin()))
    # as the application polls: the antenna switched on a scan before (arm), then the recorded
    # read (trace[0]: where it starts; init's transfers come first), then the antenna off
    reader.arm()
    spi.k = trace[0]
    if reader.poll() != CARD:
        raise SystemExit("the replayed read found no card")
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    total = micropython.mem_total()
    events = 0
    for _ in range(polls):
        reader.arm()
        spi.k = trace[0]
        events += reader.poll()
    made = gc.mem_alloc() - before
    churn = micropython.mem_total() - total
    gc.enable()
    if events:
        raise SystemExit("the card lying on the reader was reported again")
    return made, churn


made, churn = (steps if MODE == "steps" else card)(sys.argv[3], int(sys.argv[4]))
print(json.dumps({"allocated": made, "churn": churn}))
