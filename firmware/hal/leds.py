# WS2812B strip through `neopixel`: colours are set at full scale, a global brightness scales
# them, and a current limiter caps the estimated strip current (WLED's default budget is
# 850 mA). The limiter scales every LED by the same factor, so hues keep their balance, and
# only when the estimate is over budget: ordinary hint scenes (a few dozen LEDs) are far under
# it and never dim. show() sends nothing when nothing changed.
#
# A view hands the strip only the LEDs whose colour changed (Frame below) on every redraw (up
# to 5 times a second), so the work here follows the LEDs changed, not the length of the strip:
# each LED set has its bytes written into the strip's buffer at once, at the last show's
# brightness and scale (`level`), and show() sends the buffer when a byte went in; only a new
# brightness or limiter factor rewrites every LED.
#
# The methods called per LED or per redraw keep their frames within MicroPython's 11 words
# (docs/measuring.md, "Frames"): a bigger one is allocated on the heap at every call.


class Strip:
    def __init__(self, np, brightness=96, budget_ma=850, ma_per_channel=20, idle_ma=1):
        self.np = np
        self.n = len(np)
        self.bpp = np.bpp
        # r, g, b per LED at full scale, laid out as the strip's own bytes (order: the position
        # of r, g and b among an LED's bytes; GRB: 1, 0, 2), so that show() scales byte for
        # byte without looking the order up. They are an LED's first three bytes (an RGBW
        # strip's white comes last, and is never lit).
        self.want = bytearray(self.bpp * self.n)
        self.order = np.ORDER
        if 3 in self.order[:3]:
            raise ValueError("a strip with white before its colours: ORDER %r" % (np.ORDER,))
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.estimate_ma = 0
        self.scale = 255  # the limiter's factor (255 = no limiting)
        self.shown_k = -1  # brightness * scale of the last show()
        # each full-scale byte at that brightness * scale: a look-up per byte written, not a
        # multiplication and a division
        self.level = bytearray(256)
        self.written = False  # whether a byte went into the strip's buffer since the last show
        self.total = 0  # sum of every channel of `want`

    def set(self, i, r, g, b):
        self.put((r, g, b), i)

    def put(self, rgb, i):
        """LED i wants colour rgb (r, g, b at full scale). (A Frame writes its LEDs the same
        way without a call each: Frame._flush_loop.)"""
        w = self.want
        j = self.bpp * i
        o = self.order
        # (assigned, not +=: an attribute's += holds two more values on the stack)
        self.total = self.total + rgb[0] + rgb[1] + rgb[2] - w[j] - w[j + 1] - w[j + 2]
        for k in range(3):
            if w[j + o[k]] != rgb[k]:  # (the same colour again sends nothing)
                w[j + o[k]] = rgb[k]
                self.np.buf[j + o[k]] = self.level[rgb[k]]
                self.written = True

    def current_ma(self, scale):
        """Estimated strip current at brightness * scale / 255 (WS2812B: each channel draws
        about ma_per_channel at full duty, plus idle_ma per LED for its controller)."""
        k = self.brightness * scale
        return self.total * k * self.ma_per_channel // (255 * 255 * 255) + \
            self.n * self.idle_ma

    def show(self):
        """Sends the colours, when a byte changed; returns the estimated current in mA after
        limiting."""
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
            self._rewrite(k)
        if self.written:
            self.written = False
            self.np.write()
        return est

    def _rewrite(self, k):
        # a new brightness or limiter factor k: every LED's bytes at it
        level = self.level
        for v in range(256):
            level[v] = v * k // 65025
        w = self.want
        buf = self.np.buf
        for p in range(len(w)):
            if buf[p] != level[w[p]]:
                buf[p] = level[w[p]]
                self.written = True


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
        self._flushes = self._flush_loop()

    def flush(self):
        """The LEDs whose code changed, in their colours, to the strip, then the strip shown."""
        next(self._flushes)

    # A generator, so that its frame (the strip's buffers held as locals: too many for
    # MicroPython's C stack, an ordinary call would put it on the heap every time) is made
    # once; each pass allocates nothing. Strip.put written out per changed LED: a call per
    # LED, with its attribute look-ups, cost as much as the look for changes over the frame.
    # (Should the new total change the strip's brightness * scale, show() rewrites every LED
    # at the new one.)
    def _flush_loop(self):
        i = j = c = t = 0  # first: one-byte opcodes reach locals 0-15
        sent = False
        f = self.frame
        shown = self.shown
        palette = self.palette
        strip = self.strip
        w = strip.want
        buf = strip.np.buf
        level = strip.level
        bpp = strip.bpp
        o0, o1, o2 = strip.order[0], strip.order[1], strip.order[2]
        while True:
            if f != shown:
                t = strip.total
                sent = False
                for i in range(len(f)):
                    if f[i] != shown[i]:
                        c = palette[f[i]]
                        j = bpp * i
                        if w[j + o0] == c[0] and w[j + o1] == c[1] and w[j + o2] == c[2]:
                            continue  # another code of the same colour: nothing to send
                        t += c[0] + c[1] + c[2] - w[j] - w[j + 1] - w[j + 2]
                        w[j + o0] = c[0]
                        w[j + o1] = c[1]
                        w[j + o2] = c[2]
                        buf[j + o0] = level[c[0]]
                        buf[j + o1] = level[c[1]]
                        buf[j + o2] = level[c[2]]
                        sent = True
                strip.total = t
                if sent:
                    strip.written = True
                shown[:] = f
            strip.show()
            yield
