# Runs on MicroPython from a device tree built with the simulator: `micropython mp_sim_scan.py
# SCANS`. The simulated hardware's own work for SCANS full scans of the Agent DOG board, made
# as the firmware's scan makes them (hal/scanner.py: 16 select settings in Gray-code order, one
# select line written per step, the six ADC pins read at each), four pieces moved off their
# starts first so that fields and crosstalk are in the readings: what every scan of a simulated
# board costs a test, not what the firmware costs on the device.
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
from host_tools.games.track.world import TrackWorld
from firmware.hal.scanner import CHANNELS, GRAY, GRAY_BIT

MOVED = 4

w = TrackWorld(1)
adcs = sorted(w.adc_mux)
lines = sorted(w.select_bits, key=lambda g: w.select_bits[g])
taken = [loc for loc in w.locs if w.on[w._loc(loc)] is not None][:MOVED]
free = [loc for loc in w.locs if w.on[w._loc(loc)] is None][:MOVED]
for k in range(MOVED):
    w.place(w.lift(taken[k]), free[k], upside_down=k % 2 == 1)
for _ in range(int(sys.argv[1])):
    for k in range(CHANNELS):
        b = GRAY_BIT[k]
        w.pin_out(lines[b], (GRAY[k] >> b) & 1)
        for gpio in adcs:
            w.adc_u16(gpio)
print(w.adc_reads)
