# Stand-in for MicroPython's `machine` on the ESP32, backed by the simulated board. Put this
# folder first on sys.path and the unmodified firmware drives simulated pins, ADC, SPI and PWM.
from host_tools.sim import world as _world


def freq(hz=None):
    w = _world.current()
    if hz is None:
        return w.cpu_hz
    if hz not in (80000000, 160000000, 240000000):
        raise ValueError("ESP32 CPU frequency must be 80, 160 or 240 MHz")
    w.cpu_hz = hz


def idle():
    _world.current().advance_us(100)


def reset():
    raise SystemExit("machine.reset()")


def unique_id():
    return b"\x24\x0a\xc4\x00\x00\x01"


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 2
    PULL_DOWN = 1
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self._v = 0
        if value is not None:
            self.value(value)

    def init(self, mode=-1, pull=-1, value=None):
        self.__init__(self.id, mode, pull, value)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return self._v
            return _world.current().pin_in(self.id)
        self._v = 1 if v else 0
        _world.current().pin_out(self.id, self._v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_12BIT = 3

    def __init__(self, pin, atten=None):
        self.gpio = pin.id if isinstance(pin, Pin) else pin
        if self.gpio not in (32, 33, 34, 35, 36, 37, 38, 39):
            raise ValueError("ADC1 is GPIO32-39 (ADC2 stops working with Wi-Fi)")
        self._atten = ADC.ATTN_0DB if atten is None else atten

    def atten(self, a):
        self._atten = a

    def width(self, w):
        pass

    def read_u16(self):
        return _world.current().adc_u16(self.gpio)

    def read(self):
        return self.read_u16() >> 4


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate

    def init(self, baudrate=1000000, **kw):
        self.baudrate = baudrate

    def deinit(self):
        pass

    def _byte(self, b):
        w = _world.current()
        w.advance_us(8000000 // self.baudrate + 1)
        return w.nfc.xfer(b)

    def write(self, buf):
        for b in buf:
            self._byte(b)

    def read(self, n, write=0):
        return bytes([self._byte(write) for _ in range(n)])

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._byte(write)

    def write_readinto(self, wbuf, rbuf):
        for i in range(len(wbuf)):
            rbuf[i] = self._byte(wbuf[i])


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.gpio = pin.id if isinstance(pin, Pin) else pin
        self._freq = freq
        self._duty = duty_u16
        self._log()

    def _log(self):
        w = _world.current()
        w.buzzer.append((w.clock_us, self._freq, self._duty))
        if len(w.buzzer) > 64:
            del w.buzzer[:32]  # a bounded log: a long game must not fill the device's heap

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self._log()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self._log()

    def deinit(self):
        self._duty = 0
        self._log()
