# Runs on MicroPython: `micropython mp_scan.py SCANS [stubs]`. Full 96-location scans of an
# empty board on the scanner, with stub pins and ADCs (one-line Python methods; the ADC stub
# returns the mid-scale reading of an empty space). `stubs` runs only the 16 select writes and
# 96 reads per scan, so their own cost can be taken out of the figure.
import sys
import micropython
from firmware.hal.scanner import Scanner
from firmware.hal.calibration import Calibration, MID


class Pin:
    def value(self, v):
        pass


class Adc:
    def read_u16(self):
        return MID


scans = int(sys.argv[1])
pins = [Pin() for _ in range(4)]
adcs = [Adc() for _ in range(6)]


def stubs_only(k):
    reads = [a.read_u16 for a in adcs]
    for _ in range(k):
        for ch in range(16):
            pins[ch & 3].value(ch)
            for m in range(6):
                reads[m]()
    return 0


def scanning(k):
    sc = Scanner(pins, adcs, list(range(96)), Calibration(96))
    sc.settle(8)  # every sensor in its steady class
    before = micropython.mem_total()
    for _ in range(k):
        sc.scan()
    return micropython.mem_total() - before


print(stubs_only(scans) if len(sys.argv) > 2 else scanning(scans))
