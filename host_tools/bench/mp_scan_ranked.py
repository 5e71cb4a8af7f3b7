# Runs on MicroPython: `micropython mp_scan_ranked.py SCANS [stubs|moving]`. Full scans of the
# 6-seat DOG board (144 sensors on nine 74HC4067 in two banks on six ADC pins; ranked pieces)
# with stub pins and ADCs, as mp_scan.py does for the Agent DOG board. The sensor map is
# hardware/variants/dog-6/sensors.json's shape: muxes 0-5 (bank 0) the track, 6-8 (bank 1) the
# homes and start areas. Default: an empty board (every sensor on the fast path); `moving`:
# every 5 scans every sensor's piece is lifted or put down, with the ranks in turn (the slow
# path, class and rank read and reported for all 144: far more than a move ever changes);
# `stubs`: only the 36 pin writes and 144 reads per scan, so their own cost can be taken out.
import sys
import micropython
from firmware.hal.scanner import Scanner
from firmware.hal.calibration import Calibration, MID

N = 144
NADC = 6
LEVELS = (1.0, 0.52, 0.25, 0.12)  # hardware/design/magnets.json, as a king's fraction
KING = 11000  # a king's swing in read_u16 counts (0.52 V)


class Pin:
    def value(self, v):
        pass


class Adc:
    def __init__(self):
        self.level = MID

    def read_u16(self):
        return self.level


scans = int(sys.argv[1])
mode = sys.argv[2] if len(sys.argv) > 2 else "empty"
pins = [Pin() for _ in range(4)]
banks = [Pin(), Pin()]
adcs = [Adc() for _ in range(NADC)]
sensor_of = [-1] * (2 * 16 * NADC)
for i in range(N):
    m = i // 16
    sensor_of[((m // NADC) * 16 + i % 16) * NADC + m % NADC] = i


def stubs_only(k):
    reads = [a.read_u16 for a in adcs]
    for _ in range(k):
        for b in range(2):
            banks[b].value(0)
            for ch in range(16):
                pins[ch & 3].value(ch)
                for m in range(NADC if b == 0 else 3):
                    reads[m]()
            banks[b].value(1)
    return 0


def scanning(k):
    cal = Calibration(N)
    cal.set_ranks(LEVELS, KING, KING)
    sc = Scanner(pins, adcs, sensor_of, cal, banks=banks)
    sc.settle(8)  # every sensor in its steady class
    steps = []
    for v in LEVELS:
        steps += [MID + int(KING * v), MID]  # a piece of that rank, then none
    before = micropython.mem_total()
    for j in range(k):
        if mode == "moving" and j % 5 == 0:
            for a in adcs:
                a.level = steps[(j // 5) % len(steps)]
        sc.scan()
    return micropython.mem_total() - before


print(stubs_only(scans) if mode == "stubs" else scanning(scans))
