# Runs on MicroPython in the simulator: records the bytes an MFRC522 returns during one
# read_uid of an NTAG213 (for mp_card.py), and the board time that read takes; then the board
# time of one poll as the application makes it (its antenna switched on a scan before, by
# PollTurns) with a card, and without, and of a poll with no arming (it waits for the tags).
import sys
import json
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import time
from host_tools.games.track.world import TrackWorld
from firmware.board import Board
from firmware.hal.mfrc522 import TAG_POWER_UP_US

SCAN_MS = 20
UID = "04a1b2c3d4e5f6"

w = TrackWorld(1)
b = Board("hardware", "/tmp")
w.card(UID)
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


def timed(fn):
    t0 = time.ticks_us()
    fn()
    return time.ticks_diff(time.ticks_us(), t0)


b.cards.arm()
time.sleep_us(TAG_POWER_UP_US)
spi.write = write
spi.write_readinto = write_readinto
t0 = time.ticks_us()
st = b.nfc.read_uid(bytearray(10))
n = b.nfc.uid_len
dt = time.ticks_diff(time.ticks_us(), t0)
spi.write = real_write
spi.write_readinto = real_wr
b.nfc.antenna(False)


def armed_poll():
    b.cards.arm()
    time.sleep_ms(SCAN_MS)  # the scan between arming and polling
    return timed(b.cards.poll)


w.card_off()
w.card(UID)
card_poll = armed_poll()
w.card_off()
empty_poll = armed_poll()
w.card(UID)
time.sleep_ms(SCAN_MS)
cold_poll = timed(b.cards.poll)
print(json.dumps({"trace": [1] + log, "status": st, "n": n, "board_us": dt,
                  "poll_us": card_poll, "empty_us": empty_poll, "cold_us": cold_poll,
                  "spi_calls": len(log)}))
