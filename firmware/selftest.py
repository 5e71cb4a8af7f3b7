# Bring-up self-test (hardware/README.md, "Bring-up"): run it on a fresh board with
# `mpremote run firmware/selftest.py` or `import firmware.selftest` and read the report. It
# checks the card reader, reads every sensor on an empty board, and lights each LED colour.
import json
import time

from firmware.board import Board
from firmware.hal import calibration
from firmware.hal.scanner import NAMES


def run(config_dir="config", data_dir="."):
    board = Board(config_dir, data_dir)
    report = {"ok": True, "problems": []}

    def problem(what):
        report["ok"] = False
        report["problems"].append(what)

    readers = getattr(board, "readers", [board.cards])
    for j in range(len(readers)):
        v = readers[j].chip.version()
        if j == 0:
            report["nfc_version"] = "0x%02x" % v
        if v not in (0x91, 0x92):
            # a board with several readers names the one (its chip select differs)
            problem("card reader%s: VersionReg reads 0x%02x, an MFRC522 answers 0x91 or 0x92: "
                    "check SPI wiring (SCK, MOSI, MISO, CS) and 3.3 V" % (
                        "" if len(readers) == 1 else " " + board.reader_names[j], v))
    board.scanner.settle(8)
    mid = calibration.MID
    for i in range(board.scanner.n):
        r = board.scanner.raw[i]
        name = board.locations[i]
        st = NAMES[board.scanner.state[i]]
        if r < calibration.FAULT_LO:
            problem("%s reads %d (below 0.6 V): sensor unpowered, not connected, or its mux "
                    "channel open" % (name, r))
        elif r > calibration.FAULT_HI:
            problem("%s reads %d (above 2.8 V): output shorted to 3.3 V or wrong sensor" % (
                name, r))
        elif abs(r - mid) > calibration.NOMINAL_SWING // 2 and st == "empty":
            problem("%s idles at %d, far from VCC/2 (%d): check the sensor's supply" % (
                name, r, mid))
    report["occupied"] = [board.locations[i] for i in range(board.scanner.n)
                          if board.scanner.state[i] in (1, 2)]
    for colour in ((64, 0, 0), (0, 64, 0), (0, 0, 64), (0, 0, 0)):
        for i in range(board.leds.n):
            board.leds.put(colour, i)
        board.leds.show()
        time.sleep_ms(300)
    board.buzzer.play("accept")
    for _ in range(10):
        board.buzzer.tick(10)
        time.sleep_ms(10)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    run()
