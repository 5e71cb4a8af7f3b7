# Minimal stand-ins for a heap measurement of the firmware alone (host_tools/bench/
# mp_game_heap.py): no physical model; the ADC returns readings from one array that the
# measuring script sets. Keeps next to nothing alive, unlike the simulator.
# wire() sizes and fills the tables below from the board's maps.
from array import array

READINGS = array("H")   # sensor index -> ADC reading (u16)
SENSOR_AT = bytearray()  # mux * 16 + channel -> sensor index (255: none)
ADC_PINS = {}            # ADC pin -> its index m; mux m sits on ADC m % NADC
BANKS = {}               # bank enable pin (active low) -> its bank; mux m is in bank m // NADC
NADC = [1]
state = [0, 0]  # the select lines' value, the bank enabled


def wire(level=0):
    """Wires the tables as the board's maps in config/ say (as `agentboard deploy --board`
    writes them): the select and bank lines, the ADC pins, which sensor each multiplexer
    channel reads; every sensor reads `level`. A measuring script calls it first, before the
    firmware is loaded, so the maps it parses leave no holes among the firmware's objects."""
    import json
    global SENSOR_AT, READINGS
    with open("config/pins.json") as f:
        mux = json.load(f)["mux"]
    for b in range(len(mux["select"])):
        SELECT[mux["select"][b]] = b
    for m in range(len(mux["adc"])):
        ADC_PINS[mux["adc"][m]] = m
    banks = mux.get("bank") or ()
    for k in range(len(banks)):
        BANKS[banks[k]] = k
    NADC[0] = len(mux["adc"])
    with open("config/sensors.json") as f:
        sensors = json.load(f)["sensors"]
    SENSOR_AT = bytearray(b"\xff" * (16 * len(mux["adc"]) * max(1, len(banks))))
    READINGS = array("H", [level] * len(sensors))
    for i in range(len(sensors)):
        SENSOR_AT[sensors[i]["mux"] * 16 + sensors[i]["channel"]] = i


def freq(hz=None):
    return 240000000


class Pin:
    IN = 1
    OUT = 3
    PULL_UP = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def value(self, v=None):
        if v is None:
            return 1  # buttons up
        b = SELECT.get(self.id)
        if b is not None:
            state[0] = (state[0] | (1 << b)) if v else (state[0] & ~(1 << b))
        elif not v and self.id in BANKS:
            state[1] = BANKS[self.id]
        return None


SELECT = {}


class ADC:
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        self.m = ADC_PINS[pin.id]

    def read_u16(self):
        i = SENSOR_AT[(state[1] * NADC[0] + self.m) * 16 + state[0]]
        return READINGS[i] if i != 255 else 0


class SPI:
    def __init__(self, *a, **kw):
        pass

    def write(self, buf):
        pass

    def write_readinto(self, w, r):
        for j in range(len(r)):
            r[j] = 0x31 if w[0] == (0x04 << 1) | 0x80 else 0  # ComIrqReg: timer ran out


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        pass

    def freq(self, f=None):
        pass

    def duty_u16(self, d=None):
        pass
