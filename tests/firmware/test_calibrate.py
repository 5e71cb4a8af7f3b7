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


def measured(n, ranked):
    """A calibration whose every array holds a value of its own at each sensor (what the
    answer puts where is then seen), and on a ranked board readings measured with pieces of
    every rank, which the answer gives as a king's."""
    c = Calibration(n)
    if ranked:
        c.set_ranks(LEVELS, KING_SWING, KING_SWING)
    for k, key in enumerate(("base", "up", "down", "up_on", "up_off", "dn_on", "dn_off")):
        arr = getattr(c, key)
        for i in range(n):
            arr[i] = 1000 * (k + 1) + i
    if ranked:
        for i in range(n):
            c.up_rank[i] = i % N_RANKS
            c.down_rank[i] = (i + 1) % N_RANKS
        for k in range(len(c.up_edge)):
            c.up_edge[k] = 20000 + k
            c.dn_edge[k] = 40000 + k
    return c


class Board:
    def __init__(self, n, ranked):
        self.calib = measured(n, ranked)
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
        for key, upright in (("up", True), ("down", False)):
            kings = [calibrate.calibration_ops.king_reading(c, i, upright) for i in range(n)]
            assert len(set(kings)) > n // 2  # each sensor's own, not one value
            assert got[key] == kings, key
        band = board.scanner.band
        assert got["rank"] == [None if band[i] == NO_BAND else calibrate.RANKS[band[i]]
                               for i in range(n)]
        assert len(c.up_edge) == len(c.dn_edge) == 3 * n
        assert got["up_edge"] == list(c.up_edge) and got["dn_edge"] == list(c.dn_edge)
        assert got["ranks"]["names"] == list(calibrate.RANKS)
    else:
        assert got["up"] == list(c.up) and got["down"] == list(c.down) and "rank" not in got
