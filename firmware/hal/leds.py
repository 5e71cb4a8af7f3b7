# WS2812B strip through `neopixel`: colours are set at full scale, a global brightness scales
# them, and a current limiter caps the estimated strip current (WLED's default budget is
# 850 mA). The limiter scales every LED by the same factor, so hues keep their balance, and
# only when the estimate is over budget: ordinary hint scenes (a few dozen LEDs) are far under
# it and never dim. show() sends nothing when nothing changed.
#
# The view clears the strip and sets a few dozen LEDs on every redraw (up to 5 times a
# second), so the work here follows the LEDs that are lit or changed, not the length of the
# strip: clear() zeroes only the lit LEDs, and show() rewrites only the LEDs set or cleared
# since the last show (all of them only when the limiter's factor changes).
from array import array


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
        # LEDs whose colour is not black (the first nlit), and LEDs set or cleared since the
        # last show() (the first ndirty): tables made once, since a list grown to the whole
        # strip when every LED changes would ask a fragmented heap for one large block
        self.lit = array("H", bytes(2 * self.n))
        self.nlit = 0
        self.is_lit = bytearray(self.n)
        self.dirty = array("H", bytes(2 * self.n))
        self.ndirty = 0
        self.is_dirty = bytearray(self.n)
        self.shown_k = -1                  # brightness * scale of the last show()
        self.total = 0                     # sum of every channel of `want`

    def set(self, i, r, g, b):
        w = self.want
        j = 3 * i
        self.total += r + g + b - w[j] - w[j + 1] - w[j + 2]
        w[j] = r
        w[j + 1] = g
        w[j + 2] = b
        if not self.is_dirty[i]:
            self.is_dirty[i] = 1
            self.dirty[self.ndirty] = i
            self.ndirty += 1
        if not self.is_lit[i] and (r or g or b):
            self.is_lit[i] = 1
            self.lit[self.nlit] = i
            self.nlit += 1

    def clear(self):
        w = self.want
        mark = self.is_dirty
        dirty = self.dirty
        lit = self.lit
        nd = self.ndirty
        for k in range(self.nlit):
            i = lit[k]
            j = 3 * i
            w[j] = 0
            w[j + 1] = 0
            w[j + 2] = 0
            self.is_lit[i] = 0
            if not mark[i]:
                mark[i] = 1
                dirty[nd] = i
                nd += 1
        self.ndirty = nd
        self.nlit = 0
        self.total = 0

    def current_ma(self, scale):
        """Estimated strip current at brightness * scale / 255 (WS2812B: each channel draws
        about ma_per_channel at full duty, plus idle_ma per LED for its controller)."""
        k = self.brightness * scale
        return self.total * k * self.ma_per_channel // (255 * 255 * 255) + \
            self.n * self.idle_ma

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
        if k != self.shown_k:
            self.shown_k = k
            for i in range(self.n):
                if not self.is_dirty[i]:
                    self.is_dirty[i] = 1
                    self.dirty[self.ndirty] = i
                    self.ndirty += 1
        buf = self.np.buf
        w = self.want
        o = self.order
        o0 = o[0]
        o1 = o[1]
        o2 = o[2]
        bpp = self.bpp
        changed = False
        dirty = self.dirty
        for d in range(self.ndirty):
            i = dirty[d]
            self.is_dirty[i] = 0
            j = 3 * i
            base = bpp * i
            r = w[j] * k // 65025
            g = w[j + 1] * k // 65025
            b = w[j + 2] * k // 65025
            if buf[base + o0] != r or buf[base + o1] != g or buf[base + o2] != b:
                buf[base + o0] = r
                buf[base + o1] = g
                buf[base + o2] = b
                changed = True
        self.ndirty = 0
        if changed:
            self.np.write()
        return est


class Frame:
    """An LED view's frame: a colour code per LED (`frame`, filled by each redraw), what the
    strip was last given (`shown`) and the codes' colours (`palette`). Redraws come after every
    settled board and five times a second for blinking, and most change nothing, so flush()
    hands the strip only the LEDs whose code changed: the common redraw is a few byte copies
    and one compare. Both families' views are Frames."""

    def __init__(self, strip, n, palette):
        self.strip = strip
        self.palette = palette
        self.frame = bytearray(n)   # colour code per LED, being drawn
        self.shown = bytearray(n)   # what the strip was last given
        self.blank = bytes(n)

    def flush(self):
        f = self.frame
        shown = self.shown
        s = self.strip
        if f != shown:
            pal = self.palette
            for i in range(len(f)):
                if f[i] != shown[i]:
                    r, g, b = pal[f[i]]
                    s.set(i, r, g, b)
            shown[:] = f
        s.show()
