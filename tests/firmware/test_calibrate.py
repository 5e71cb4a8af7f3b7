# The console's `sensors` answer (firmware/calibrate.py sensor_parts): the whole JSON object a
# board's tools read, streamed in pieces none of which asks the heap for a large block. At the
# end of a long game the ESP32's heap is fragmented: on the 32-bit unix port, after a whole
# 4-player Agent DOG game, the answer's first piece of 1,680 bytes (every location in one
# string) needed 31 KB more heap than the game itself (docs/measuring.md).
import json
from array import array

import pytest

from firmware import calibrate
from firmware.hal.calibration import Calibration, RANKS as N_RANKS
from firmware.hal.scanner import NAMES, NO_BAND

# a piece of the answer: 16 array items of at most 11 characters each and their separators
LARGEST_PIECE = 16 * (11 + 2) + 16
KING_SWING = 11000
LEVELS = (1.0, 0.52, 0.25, 0.12)  # each rank's swing over the king's (magnets.json's spread)


class Scanner:
    def __init__(self, n, ranked):
        self.state = bytearray(k % len(NAMES) for k in range(n))
        self.raw = array("H", [30000 + k for k in range(n)])
        if ranked:
            self.band = bytearray(NO_BAND if k % 5 == 0 else k % N_RANKS for k in range(n))


class Board:
    def __init__(self, n, ranked):
        self.calib = Calibration(n)
        if ranked:
            self.calib.set_ranks(LEVELS, KING_SWING, KING_SWING)
        self.scanner = Scanner(n, ranked)
        self.locations = ["%d" % k for k in range(n - 16)] + [
            "%s:s%d" % (c, k) for c in ("red", "blue", "green", "yellow") for k in range(1, 5)]
        self.variant = {"ranked_pieces": ranked}
        self.calibrated = ranked


@pytest.mark.parametrize("n,ranked", [(96, False), (144, True)])
def test_the_sensors_answer_is_every_sensor_in_small_pieces(n, ranked):
    board = Board(n, ranked)
    parts = list(calibrate.sensor_parts(board))
    assert max(len(p) for p in parts) <= LARGEST_PIECE
    got = json.loads("".join(parts))
    c = board.calib
    assert got["loc"] == board.locations
    assert got["class"] == [NAMES[k] for k in board.scanner.state]
    assert got["raw"] == list(board.scanner.raw)
    for key in ("base", "up_on", "up_off", "dn_on", "dn_off"):
        assert got[key] == list(getattr(c, key)), key
    assert got["ranked_board"] is ranked and got["calibrated"] is ranked
    if ranked:
        # a king's reading where each sensor's was measured with the rank it kept
        assert got["up"] == [calibrate.calibration_ops.king_reading(c, i, True)
                             for i in range(n)]
        band = board.scanner.band
        assert got["rank"] == [None if band[i] == NO_BAND else calibrate.RANKS[band[i]]
                               for i in range(n)]
        assert got["up_edge"] == list(c.up_edge) and len(c.up_edge) == 3 * n
        assert got["ranks"]["names"] == list(calibrate.RANKS)
    else:
        assert got["up"] == list(c.up) and "rank" not in got
