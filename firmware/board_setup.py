# Board.__init__ (firmware/board.py): the hardware maps read and the drivers built on the
# board's pins, once at power-up. Imported for that and dropped after it (firmware/ondemand.py):
# on MicroPython's stock ESP32 build its bytecode would otherwise take heap for the board's
# whole life.
import json
from array import array

import machine
import neopixel

from firmware import board as board_mod
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


def sensor_map(sensors, nmux, nbank):
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


def build(board, config_dir, data_dir):
    """Board.__init__: the maps read, the drivers built on the board's pins."""
    # the maps one at a time, each parsed tree dropped before the next is read: together
    # they would be the largest thing the heap holds at boot
    pins = load_map(config_dir, "pins")
    mux = pins["mux"]
    nmux = len(mux["adc"])
    # mux m sits on ADC pin m % nmux in bank m // nmux (one bank when the map has none)
    bank_pins = mux.get("bank")
    sensors = load_map(config_dir, "sensors")["sensors"]
    board.locations = board_mod.Names(sensors, "loc")  # sensor index -> its location
    board.index = board_mod.NameIndex(board.locations)  # location -> sensor index
    sensor_of = sensor_map(sensors, nmux, len(bank_pins) if bank_pins else 1)
    n_sensors = len(sensors)
    del sensors
    board.led_names = board_mod.Names(load_map(config_dir, "leds")["leds"])
    board.data_dir = data_dir
    board.variant = load_variant(config_dir)
    banks = None
    if bank_pins:
        banks = [machine.Pin(g, machine.Pin.OUT, value=1) for g in bank_pins]  # all off
    select = [machine.Pin(g, machine.Pin.OUT, value=0) for g in mux["select"]]
    adcs = [machine.ADC(machine.Pin(g), atten=machine.ADC.ATTN_11DB) for g in mux["adc"]]
    board.calib_path = data_dir + "/" + CALIB_FILE
    load_calibration(board, n_sensors)
    board.scanner = Scanner(select, adcs, sensor_of, board.calib, banks=banks)
    open_readers(board, pins["nfc"])
    open_outputs(board, pins)


def load_calibration(board, n_sensors):
    board.calib_error = None
    try:
        calib = calibration.load(board.calib_path, n_sensors)
    except ValueError as e:
        board.calib_error = str(e)  # reported by the self-test; never silently replaced
        calib = None
    board.calibrated = calib is not None
    if calib is None:
        calib = calibration.Calibration(n_sensors)
    board.calib = calib


def open_readers(board, nfc):
    spi = machine.SPI(nfc["spi"], baudrate=nfc["baudrate"], sck=machine.Pin(nfc["sck"]),
                      mosi=machine.Pin(nfc["mosi"]), miso=machine.Pin(nfc["miso"]))
    # every reader's chip select high before the bus carries a byte (nfc.more_cs: further
    # readers on the same bus, named by nfc.readers): a select left floating would let a
    # module answer with the one addressed. One pulse of the shared reset restarts them all
    cs = [machine.Pin(g, machine.Pin.OUT, value=1)
          for g in [nfc["cs"]] + list(nfc.get("more_cs", ()))]
    rst = machine.Pin(nfc["rst"], machine.Pin.OUT, value=1)
    board.nfc = MFRC522(spi, cs[0], rst)
    board.cards = CardReader(board.nfc)
    board.readers = [board.cards]
    board.reader_names = nfc.get("readers", ["cards"])
    for pin in cs[1:]:
        board.readers.append(CardReader(MFRC522(spi, pin, rst, reset=False)))


def open_outputs(board, pins):
    # the LED strip, the two buttons and the buzzer
    led = pins["leds"]
    power = pins["power"]
    np = neopixel.NeoPixel(machine.Pin(led["pin"], machine.Pin.OUT), led["count"])
    board.leds = Strip(np, budget_ma=power["led_budget_ma"],
                       ma_per_channel=power["led_ma_per_channel"], idle_ma=power["led_idle_ma"])
    b = pins["buttons"]
    board.confirm = Button(machine.Pin(b["confirm"], machine.Pin.IN, machine.Pin.PULL_UP))
    board.back = Button(machine.Pin(b["back"], machine.Pin.IN, machine.Pin.PULL_UP))
    board.buzzer = Buzzer(machine.PWM(machine.Pin(pins["buzzer"]["pin"]), freq=1000,
                                      duty_u16=0))
