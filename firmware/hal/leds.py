# WS2812B strip through `neopixel`: colours are set at full scale, a global brightness scales
# them, and a current limiter caps the estimated strip current (WLED's default budget is
# 850 mA). The limiter scales every LED by the same factor, so hues keep their balance, and
# only when the estimate is over budget: ordinary hint scenes (a few dozen LEDs) are far under
# it and never dim. show() writes only the bytes that changed into the strip's buffer and
# sends nothing when nothing changed.


class Strip:
    def __init__(self, np, brightness=96, budget_ma=850, ma_per_channel=20, idle_ma=1):
        self.np = np
        self.n = len(np)
        self.want = bytearray(3 * self.n)  # r, g, b per LED at full scale
        self.order = np.ORDER  # position of r, g, b in the strip's bytes (GRB: 1, 0, 2)
        self.bpp = np.bpp
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.estimate_ma = 0
        self.scale = 255  # the limiter's factor (255 = no limiting)

    def set(self, i, r, g, b):
        w = self.want
        j = 3 * i
        w[j] = r
        w[j + 1] = g
        w[j + 2] = b

    def clear(self):
        w = self.want
        for j in range(len(w)):
            w[j] = 0

    def current_ma(self, scale):
        """Estimated strip current at brightness * scale / 255 (WS2812B: each channel draws
        about ma_per_channel at full duty, plus idle_ma per LED for its controller)."""
        total = 0
        for v in self.want:
            total += v
        k = self.brightness * scale
        return total * k * self.ma_per_channel // (255 * 255 * 255) + self.n * self.idle_ma

    def show(self):
        """Writes the colours; returns the estimated current in mA after limiting."""
        scale = 255
        est = self.current_ma(255)
        idle = self.n * self.idle_ma
        if est > self.budget_ma and est > idle:
            scale = 255 * (self.budget_ma - idle) // (est - idle)
            est = self.current_ma(scale)
        self.scale = scale
        self.estimate_ma = est
        k = self.brightness * scale
        buf = self.np.buf
        w = self.want
        o = self.order
        bpp = self.bpp
        dirty = False
        for i in range(self.n):
            j = 3 * i
            base = bpp * i
            for c in range(3):
                v = w[j + c] * k // 65025
                if buf[base + o[c]] != v:
                    buf[base + o[c]] = v
                    dirty = True
        if dirty:
            self.np.write()
        return est
