# Helpers for MicroPython-side tests: a fresh simulated world and the firmware's Board on it.
import json
import time

from host_tools.games.track.world import TrackWorld
from firmware.board import Board
from firmware.hal.scanner import NAMES

MAGNETS = "hardware/design/magnets.json"
SCAN_MS = 20  # 50 scans per second, the firmware's rate


def fresh(seed=1, data_dir="/tmp"):
    w = TrackWorld(seed)
    b = Board(config_dir="hardware", data_dir=data_dir)
    return w, b


def scan_for(board, ms, log=None):
    """Scans at the firmware's rate for `ms` of board time; returns [(location, class)]."""
    seen = [] if log is None else log
    end = time.ticks_add(time.ticks_ms(), ms)
    sc = board.scanner
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        t0 = time.ticks_ms()
        n = sc.scan()
        for j in range(n):
            i = sc.changed[j]
            seen.append((board.locations[i], NAMES[sc.state[i]]))
        spent = time.ticks_diff(time.ticks_ms(), t0)
        if spent < SCAN_MS:
            time.sleep_ms(SCAN_MS - spent)
    return seen


def state_of(board, loc):
    return NAMES[board.scanner.state[board.index[loc]]]


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def first_rank_design():
    """magnets.json as the first design had it for the DOG boards: rods of 4 x 6, 3 x 4, 2 x 4
    and 1.5 x 3 mm 2 mm above the piece's bottom (the common stack), and no centring
    overlay."""
    with open(MAGNETS) as f:
        spec = json.load(f)
    for rank, d, l in (("king", 4.0, 6.0), ("knight", 3.0, 4.0), ("citizen", 2.0, 4.0),
                       ("jester", 1.5, 3.0)):
        spec["magnets"]["old-" + rank] = {"d_mm": d, "l_mm": l}
        spec["rank_magnets"][rank] = "old-" + rank
    for name in ("dog-4", "dog-6"):
        spec["boards"][name]["centring"] = False
        spec["boards"][name].pop("stacks", None)
    return spec
