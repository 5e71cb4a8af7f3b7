# Runs on MicroPython: `micropython mp_card.py READS`. Reads a card's UID READS times with the
# MFRC522 driver over an SPI stand-in that replays the chip's answers recorded from the
# simulator (so the chip model's own work is not counted, only the driver's and a list index).
import sys
import json
from firmware.hal.mfrc522 import MFRC522

trace = json.load(open("card_trace.json"))
for j in range(1, len(trace)):
    if type(trace[j]) is list:
        trace[j] = bytes(trace[j])


class Spi:
    def __init__(self):
        self.k = 0

    def write(self, buf):
        self.k += 1

    def write_readinto(self, w, r):
        got = trace[self.k] if self.k < len(trace) else 0
        if type(got) is int:  # reads made by init(), before the recorded read starts
            got = bytes(len(r))
        for j in range(len(got)):
            r[j] = got[j]
        self.k += 1


class Pin:
    def value(self, v=None):
        return 1


reads = int(sys.argv[1])
spi = Spi()
chip = MFRC522(spi, Pin(), Pin())
uid = bytearray(10)
ok = 0
for _ in range(reads):
    spi.k = trace[0]  # trace[0]: where one read_uid starts
    st = chip.read_uid(uid)
    n = chip.uid_len
    ok += st == 0 and n == 7
print(ok)
