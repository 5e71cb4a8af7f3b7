# Stand-in for MicroPython's `neopixel`: the same buffer layout (GRB for bpp=3), and write()
# hands the bytes to the simulated strip, which keeps the colours the LEDs now show.
from host_tools.sim import world as _world


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for j in range(self.bpp):
            self.buf[off + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        _world.current().led_write(self.buf, self.ORDER, self.bpp)
