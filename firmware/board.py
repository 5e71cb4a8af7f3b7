# The board as wired: reads the pin map, sensor map and LED map (hardware/*.json, deployed to
# the device's config folder) and builds the drivers on real `machine` pins (board_setup.py,
# run once at power-up: its code is not kept in the heap). Nothing else in the firmware knows a
# GPIO number. The board variant (config/variant.json: its layout, whether its pieces carry
# ranks) is `variant`; a config without one is the Agent DOG board (None).
from array import array

from firmware import ondemand

# the type checker's alone (pyright reads any TYPE_CHECKING as true): board_setup.py builds
# the parts, so the class says what they are; on a board the block is never run
TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware.hal.scanner import Scanner
    from firmware.hal.mfrc522 import MFRC522, CardReader
    from firmware.hal.leds import Strip
    from firmware.hal.buttons import Button
    from firmware.hal.buzzer import Buzzer
    from firmware.hal.calibration import Calibration

# the module that builds the board at power-up (firmware/ondemand.py)
SETUP = "firmware.board_setup"


class Names:
    """The names of a map's sensors or LEDs ("12", "red:h2", "seat:blue") packed into one
    string, read like the list of strings it replaces (len, [i], iteration, index, in). A
    hundred names as separate strings take 32 bytes each on an ESP32 (object and text), kept
    for as long as the board runs; packed, about 3. A name is made when it is read, which
    only commands and set-up do."""

    def __init__(self, items, key=None):
        """items: the names, or (key given) the map's entries that hold each under `key`;
        read twice, so no list of the names is made first. Names are ASCII."""
        n = len(items)
        # where each name starts in text, then where one more would: the name i is
        # text[starts[i]:starts[i + 1] - 1]
        self.starts = array("H", bytes(2 * (n + 1)))
        at = 1
        for i in range(n):
            self.starts[i] = at
            at += len(items[i] if key is None else items[i][key]) + 1
        self.starts[n] = at
        text = bytearray(b"\n" * at)
        for i in range(n):
            text[self.starts[i]:self.starts[i + 1] - 1] = (
                items[i] if key is None else items[i][key]).encode()
        self.text = text.decode()

    def __len__(self):
        return len(self.starts) - 1

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        return self.text[self.starts[i]:self.starts[i + 1] - 1]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def _find(self, name):
        if type(name) is not str or "\n" in name:
            return -1
        return self.text.find("\n" + name + "\n")

    def __contains__(self, name):
        return self._find(name) >= 0

    def index(self, name):
        at = self._find(name) + 1  # where the name starts
        if at <= 0:
            raise ValueError("%r is not named in this map" % (name,))
        lo = 0
        hi = len(self) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.starts[mid] < at:
                lo = mid + 1
            else:
                hi = mid
        return lo


class NameIndex:
    """name -> its place in a Names, read like the dict it replaces (index[name], in)."""

    def __init__(self, names):
        self.names = names

    def __getitem__(self, name):
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(name)

    def __contains__(self, name):
        return name in self.names

    def __len__(self):
        return len(self.names)


class Board:
    # what board_setup.build makes (annotations only: no code, no heap on a board)
    locations: "Names"
    index: "NameIndex"
    led_names: "Names"
    data_dir: str
    variant: dict
    calib_path: str
    calib: "Calibration"
    calib_error: "str | None"
    calibrated: bool
    scanner: "Scanner"
    nfc: "MFRC522"
    cards: "CardReader"
    readers: list
    reader_names: list
    leds: "Strip"
    confirm: "Button"
    back: "Button"
    buzzer: "Buzzer"

    def __init__(self, config_dir="config", data_dir="."):
        ondemand.call(SETUP, "build", self, config_dir, data_dir)

    def release_names(self):
        """Once the view has its index tables, the LED names are not needed."""
        self.led_names = Names([])

    def led_index(self, name):
        return self.led_names.index(name)

    def save_calibration(self):
        self.calib.save(self.calib_path)
        self.calibrated = True
