# The board as wired: reads the pin map, sensor map and LED map (hardware/*.json, deployed to
# the device's config folder) and builds the drivers on real `machine` pins. Nothing else in
# the firmware knows a GPIO number. The board variant (config/variant.json: its layout, whether
# its pieces carry ranks) is `variant`; a config without one is the Agent DOG board (None).
import json
from array import array

import machine
import neopixel

from firmware.hal import calibration
from firmware.hal.scanner import Scanner
from firmware.hal.mfrc522 import MFRC522, CardReader
from firmware.hal.leds import Strip
from firmware.hal.buttons import Button
from firmware.hal.buzzer import Buzzer

CALIB_FILE = "calib.json"
VARIANT_FILE = "variant.json"
MUX_CHANNELS = 16


def load_map(config_dir, name):
    """One of the hardware maps (pins, sensors, leds) as parsed JSON."""
    with open(config_dir + "/" + name + ".json") as f:
        return json.load(f)


def load_variant(config_dir):
    """What the deployed variant.json says about the board (a dict), or None without one."""
    try:
        f = open(config_dir + "/" + VARIANT_FILE)
    except OSError:
        return None
    with f:
        info = json.load(f)
    # only what the firmware uses: the kit and the reasons stay on the laptop
    return {"name": info.get("name"), "layout": info.get("layout"),
            "ranked_pieces": bool(info.get("ranked_pieces")),
            "rank_crosstalk": info.get("rank_crosstalk")}


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


def _sensor_map(sensors, nmux, nbank):
    """The sensor index wired to each (bank * 16 + channel) * nmux + ADC pin, -1 for none, as
    the scanner takes it (an array, not a list of ints: no block of 4 bytes per channel asked
    for at boot)."""
    sensor_of = array("h", bytes(2 * MUX_CHANNELS * nmux * nbank))
    for k in range(len(sensor_of)):
        sensor_of[k] = -1
    for i in range(len(sensors)):
        m = sensors[i]["mux"]
        sensor_of[((m // nmux) * MUX_CHANNELS + sensors[i]["channel"]) * nmux + m % nmux] = i
    return sensor_of


class Board:
    def __init__(self, config_dir="config", data_dir="."):
        # the maps one at a time, each parsed tree dropped before the next is read: together
        # they would be the largest thing the heap holds at boot
        pins = load_map(config_dir, "pins")
        mux = pins["mux"]
        nmux = len(mux["adc"])
        # mux m sits on ADC pin m % nmux in bank m // nmux (one bank when the map has none)
        bank_pins = mux.get("bank")
        sensors = load_map(config_dir, "sensors")["sensors"]
        self.locations = Names(sensors, "loc")  # sensor index -> its location
        self.index = NameIndex(self.locations)  # location -> sensor index
        sensor_of = _sensor_map(sensors, nmux, len(bank_pins) if bank_pins else 1)
        n_sensors = len(sensors)
        del sensors
        self.led_names = Names(load_map(config_dir, "leds")["leds"])
        self.data_dir = data_dir
        self.variant = load_variant(config_dir)
        banks = None
        if bank_pins:
            banks = [machine.Pin(g, machine.Pin.OUT, value=1) for g in bank_pins]  # all off
        select = [machine.Pin(g, machine.Pin.OUT, value=0) for g in mux["select"]]
        adcs = [machine.ADC(machine.Pin(g), atten=machine.ADC.ATTN_11DB) for g in mux["adc"]]
        self.calib_path = data_dir + "/" + CALIB_FILE
        self._load_calibration(n_sensors)
        self.scanner = Scanner(select, adcs, sensor_of, self.calib, banks=banks)
        self._open_readers(pins["nfc"])
        self._open_outputs(pins)

    def _load_calibration(self, n_sensors):
        self.calib_error = None
        try:
            calib = calibration.load(self.calib_path, n_sensors)
        except ValueError as e:
            self.calib_error = str(e)  # reported by the self-test; never silently replaced
            calib = None
        self.calibrated = calib is not None
        if calib is None:
            calib = calibration.Calibration(n_sensors)
        self.calib = calib

    def _open_readers(self, nfc):
        spi = machine.SPI(nfc["spi"], baudrate=nfc["baudrate"], sck=machine.Pin(nfc["sck"]),
                          mosi=machine.Pin(nfc["mosi"]), miso=machine.Pin(nfc["miso"]))
        # every reader's chip select high before the bus carries a byte (nfc.more_cs: further
        # readers on the same bus, named by nfc.readers): a select left floating would let a
        # module answer with the one addressed. One pulse of the shared reset restarts them all
        cs = [machine.Pin(g, machine.Pin.OUT, value=1)
              for g in [nfc["cs"]] + list(nfc.get("more_cs", ()))]
        rst = machine.Pin(nfc["rst"], machine.Pin.OUT, value=1)
        self.nfc = MFRC522(spi, cs[0], rst)
        self.cards = CardReader(self.nfc)
        self.readers = [self.cards]
        self.reader_names = nfc.get("readers", ["cards"])
        for pin in cs[1:]:
            self.readers.append(CardReader(MFRC522(spi, pin, rst, reset=False)))

    def _open_outputs(self, pins):
        # the LED strip, the two buttons and the buzzer
        led = pins["leds"]
        power = pins["power"]
        np = neopixel.NeoPixel(machine.Pin(led["pin"], machine.Pin.OUT), led["count"])
        self.leds = Strip(np, budget_ma=power["led_budget_ma"],
                          ma_per_channel=power["led_ma_per_channel"], idle_ma=power["led_idle_ma"])
        b = pins["buttons"]
        self.confirm = Button(machine.Pin(b["confirm"], machine.Pin.IN, machine.Pin.PULL_UP))
        self.back = Button(machine.Pin(b["back"], machine.Pin.IN, machine.Pin.PULL_UP))
        self.buzzer = Buzzer(machine.PWM(machine.Pin(pins["buzzer"]["pin"]), freq=1000,
                                         duty_u16=0))

    def release_names(self):
        """Once the view has its index tables, the LED names are not needed."""
        self.led_names = Names([])

    def led_index(self, name):
        return self.led_names.index(name)

    def save_calibration(self):
        self.calib.save(self.calib_path)
        self.calibrated = True
