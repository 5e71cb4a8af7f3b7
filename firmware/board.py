# The board as wired: reads the pin map, sensor map and LED map (hardware/*.json, deployed to
# the device's config folder) and builds the drivers on real `machine` pins. Nothing else in
# the firmware knows a GPIO number. The board variant (config/variant.json: its layout, whether
# its pieces carry ranks) is `variant`; a config without one is the Agent DOG board (None).
import json

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


def load_config(config_dir):
    out = {}
    for name in ("pins", "sensors", "leds"):
        with open(config_dir + "/" + name + ".json") as f:
            out[name] = json.load(f)
    return out


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
            "ranked_pieces": bool(info.get("ranked_pieces"))}


class Board:
    def __init__(self, config_dir="config", data_dir="."):
        cfg = load_config(config_dir)
        pins = cfg["pins"]
        sensors = cfg["sensors"]["sensors"]
        self.locations = [s["loc"] for s in sensors]
        self.index = {}
        for i in range(len(self.locations)):
            self.index[self.locations[i]] = i
        self.led_names = cfg["leds"]["leds"]
        self.data_dir = data_dir
        self.variant = load_variant(config_dir)
        mux = pins["mux"]
        nmux = len(mux["adc"])
        # mux m sits on ADC pin m % nmux in bank m // nmux (one bank when the map has none)
        bank_pins = mux.get("bank")
        nbank = len(bank_pins) if bank_pins else 1
        sensor_of = [-1] * (MUX_CHANNELS * nmux * nbank)
        for i in range(len(sensors)):
            m = sensors[i]["mux"]
            sensor_of[((m // nmux) * MUX_CHANNELS + sensors[i]["channel"]) * nmux
                      + m % nmux] = i
        banks = None
        if bank_pins:
            banks = [machine.Pin(g, machine.Pin.OUT, value=1) for g in bank_pins]  # all off
        select = [machine.Pin(g, machine.Pin.OUT, value=0) for g in mux["select"]]
        adcs = [machine.ADC(machine.Pin(g), atten=machine.ADC.ATTN_11DB) for g in mux["adc"]]
        self.calib_path = data_dir + "/" + CALIB_FILE
        self.calib_error = None
        try:
            calib = calibration.load(self.calib_path, len(sensors))
        except ValueError as e:
            self.calib_error = str(e)  # reported by the self-test; never silently replaced
            calib = None
        self.calibrated = calib is not None
        if calib is None:
            calib = calibration.Calibration(len(sensors))
        self.calib = calib
        self.scanner = Scanner(select, adcs, sensor_of, calib, banks=banks)
        nfc = pins["nfc"]
        spi = machine.SPI(nfc["spi"], baudrate=nfc["baudrate"], sck=machine.Pin(nfc["sck"]),
                          mosi=machine.Pin(nfc["mosi"]), miso=machine.Pin(nfc["miso"]))
        self.nfc = MFRC522(spi, machine.Pin(nfc["cs"], machine.Pin.OUT, value=1),
                           machine.Pin(nfc["rst"], machine.Pin.OUT, value=1))
        self.cards = CardReader(self.nfc)
        # further readers on the same bus (nfc.more_cs, named by nfc.readers): each MFRC522 is
        # set up after the last pulse of the shared reset line, which clears every chip
        self.readers = [self.cards]
        self.reader_names = nfc.get("readers", ["cards"])
        rst = self.nfc.rst
        for cs in nfc.get("more_cs", ()):
            self.readers.append(CardReader(MFRC522(spi, machine.Pin(cs, machine.Pin.OUT, value=1),
                                                   rst)))
        for r in self.readers[:-1]:
            r.chip.init()
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
        """Once Places and View have their index tables, the name lookups are not needed."""
        self.index = {}
        self.led_names = []

    def led_index(self, name):
        return self.led_names.index(name)

    def save_calibration(self):
        self.calib.save(self.calib_path)
        self.calibrated = True
