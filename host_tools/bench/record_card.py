# Runs on MicroPython in the simulator: records the bytes an MFRC522 returns during one
# read_uid of an NTAG213 (for mp_card.py), and the board time that read takes.
import sys
import json
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import time
from host_tools.sim.world import World
from firmware.board import Board

w = World(1)
b = Board("hardware", "/tmp")
w.card("04a1b2c3d4e5f6")
spi = b.nfc.spi
log = []
real_write = spi.write
real_wr = spi.write_readinto


def write(buf):
    log.append(0)
    real_write(buf)


def write_readinto(wb, rb):
    real_wr(wb, rb)
    log.append(list(bytes(rb)))


spi.write = write
spi.write_readinto = write_readinto
t0 = time.ticks_us()
st = b.nfc.read_uid(bytearray(10))
n = b.nfc.uid_len
dt = time.ticks_diff(time.ticks_us(), t0)
t0 = time.ticks_us()
b.nfc.read_uid(bytearray(10))  # with the tag halted: WUPA wakes it again
w.card_off()
t1 = time.ticks_us()
b.nfc.read_uid(bytearray(10))
empty = time.ticks_diff(time.ticks_us(), t1)
print(json.dumps({"trace": [1] + log, "status": st, "n": n, "board_us": dt, "empty_us": empty,
                  "spi_calls": len(log)}))
