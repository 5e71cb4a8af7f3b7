# The application. Until the referee lands it is the board monitor: scans the sensors at 50
# scans per second, polls the card reader ten times a second and the buttons, and reports every
# change as one JSON line on the console. Those lines name locations and classes only.
import json
import time

from firmware.board import Board
from firmware.hal.scanner import NAMES
from firmware.hal.mfrc522 import CARD, REMOVED, TWO_CARDS
from firmware.hal.buttons import PRESS, RELEASE, HOLD

SCAN_MS = 20
NFC_EVERY = 5  # scans
BUTTON_EVENTS = {PRESS: "press", RELEASE: "release", HOLD: "hold"}


def _print(obj):
    print(json.dumps(obj))


def main(config_dir="config", data_dir=".", max_scans=-1, out=_print):
    """Runs the monitor; `out` receives each event object (the console by default)."""
    emit = out
    board = Board(config_dir, data_dir)
    sc = board.scanner
    emit({"event": "boot", "calibrated": board.calibrated, "nfc_version": board.nfc.version()})
    if board.calib_error:
        emit({"event": "fault", "what": "calibration", "reason": board.calib_error})
    scans = 0
    while max_scans < 0 or scans < max_scans:
        t0 = time.ticks_ms()
        n = sc.scan()
        for j in range(n):
            i = sc.changed[j]
            emit({"event": "sensor", "at": board.locations[i], "state": NAMES[sc.state[i]]})
        if scans % NFC_EVERY == 0:
            ev = board.cards.poll()
            if ev == CARD:
                emit({"event": "nfc", "uid": "".join(["%02x" % b for b in board.cards.uid])})
            elif ev == REMOVED:
                emit({"event": "nfc_off"})
            elif ev == TWO_CARDS:
                emit({"event": "reject", "reason": "two cards on the reader"})
        for name, button in (("confirm", board.confirm), ("back", board.back)):
            ev = button.poll(SCAN_MS)
            if ev:
                emit({"event": "button", "button": name, "action": BUTTON_EVENTS[ev]})
        board.buzzer.tick(SCAN_MS)
        scans += 1
        spent = time.ticks_diff(time.ticks_ms(), t0)
        if spent < SCAN_MS:
            time.sleep_ms(SCAN_MS - spent)
