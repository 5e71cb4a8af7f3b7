# The analog front end, simulated: what happens to a hall sensor's output on its way to a
# number (hardware/design/analog.json for the design, host_tools/sim/data/physics.json for the
# datasheets' figures).
#
# - Ground: each sensor strip returns the LEDs' current to the main board. Where the sensors
#   share that ground (the design before issue 27), a sensor's ground rises with the current of
#   the LEDs beyond it on the strip and in the ribbon, and a DRV5055, ratiometric, puts out
#   that rise times (1 - its output's fraction of the supply): about half of it.
# - The node: a multiplexer's output, its ribbon and the ADC pin, with a pull-down. A channel a
#   sensor drives charges it through the on-resistance in tens of nanoseconds (and the
#   pull-down divides the reading a little); a channel nothing drives (a dead sensor, every
#   multiplexer off) leaves it holding the previous channel's voltage, which decays through the
#   pull-down. The ADC samples about 10 us after the call, so that decay is what it reads.
# - The ADC: Espressif's characteristic of ADC1 at 11 dB, reads 0 under about 0.14 V and bends
#   above about 2.45 V.
#
# Runs inside the MicroPython process with the firmware, on every conversion: the tables are
# built once here, a conversion costs a few float operations.
import math

OPEN = -1       # nothing drives the node: it decays through the pull-down
GROUNDED = -2   # an unused channel, tied to GND on its strip (hardware/design/circuit.py)
EVENTS = 64     # switch events kept for a node not read since; a scan makes up to 36
SETTLED = 40    # time constants after which a driven node is its source's voltage
CODES = 4095    # the 12-bit ADC's largest code
BLEND = 8       # points over the codes where ESP-IDF blends its line into its table
PF_US = 1e-6    # ohm x pF in microseconds


class Adc:
    """ESP32 ADC1 at 11 dB: an input voltage to its 12-bit code (physics.json adc)."""

    def __init__(self, spec):
        vref = spec["vref_mv"]
        mv_per_code = vref * spec["atten_scale"] / 4096.0 / 65536.0
        lo, hi = spec["lut_vref_mv"]
        w = (vref - lo) / float(hi - lo)
        table = [a + (b - a) * w for a, b in zip(spec["lut_low_mv"], spec["lut_high_mv"])]
        start = spec["lut_from_code"]
        step = spec["lut_step"]
        self.offset_mv = float(spec["offset_mv"])
        self.codes_per_mv = 1.0 / mv_per_code
        # breakpoints (mV, code): the line to the table's first code; over the table's first
        # step ESP-IDF blends the line into the table (BLEND points here); then the table
        self.code = [0] + [start + step * k // BLEND for k in range(BLEND)] + \
            [start + step * k for k in range(1, len(table))]
        self.mv = [self.offset_mv]
        for c in self.code[1:BLEND + 1]:
            d = (c - start) / float(step)
            line = self.offset_mv + c * mv_per_code
            self.mv.append(line * (1 - d) + (table[0] + (table[1] - table[0]) * d) * d)
        self.mv += table[1:]
        # the line in volts: a conversion on it costs two float operations
        self.offset_v = self.offset_mv / 1000.0
        self.codes_per_v = self.codes_per_mv * 1000.0
        self.knee_v = self.mv[1] / 1000.0

    def code_of(self, v):
        return self.u16(v) >> 4

    def _bent(self, mv):
        k = self._segment(mv)
        if k < 0:
            return CODES
        mvs = self.mv
        c = (mv - mvs[k - 1]) * (self.code[k] - self.code[k - 1])
        c = self.code[k - 1] + c / (mvs[k] - mvs[k - 1])
        return min(CODES, int(c + 0.5))

    def _segment(self, mv):
        """The breakpoint that ends the segment holding mv (-1: above the last)."""
        mvs = self.mv
        for k in range(2, len(mvs)):
            if mv < mvs[k]:
                return k
        return -1

    def u16(self, v):
        """What MicroPython's read_u16 returns for v volts at the pin (no noise): the 12-bit
        code scaled to 16 bits."""
        if v <= self.offset_v:
            return 0
        if v < self.knee_v:
            c = int((v - self.offset_v) * self.codes_per_v + 0.5)
        else:
            c = self._bent(v * 1000.0)
        return c << 4 | c >> 8


def bank_mask(bank_on):
    """The enabled banks as bits; -1 on a board without enable lines (E tied low: on)."""
    if not bank_on:
        return -1
    mask = 0
    for b in range(len(bank_on)):
        if bank_on[b]:
            mask |= 1 << b
    return mask


def ribbon_ohm(phys, design, conductors):
    return phys["awg28_ohm_per_m"] * design["harness"]["length_m"] / conductors


def trace_ohm(phys, design, width_mm):
    """One pitch of a strip's ground trace of that width."""
    strip = design["strip"]
    area = width_mm * 1e-3 * strip["copper_um"] * 1e-6
    return phys["copper_ohm_m"] * strip["pitch_mm"] * 1e-3 / area


class FrontEnd:
    """The ADC nodes and the strips' grounds of one simulated board (a World)."""

    def __init__(self, world, design):
        self.w = world
        self.design = design
        phys = world.phys["front_end"]
        self.adc = Adc(world.phys["adc"])
        self.sample_us = world.phys["adc_sample_after_us"]
        self.vcc = float(world.phys["vcc"])
        self.per_vcc = 1.0 / self.vcc
        self.nadc = world.nadc
        self.nbank = max(1, len(world.bank_on))
        n = len(world.locs)
        self._nodes(phys, design)
        # per node: its voltage nv at time nt, what drives it since (a sensor, OPEN,
        # GROUNDED), that sensor's voltage at the pin, and the switch events it has seen
        self.nv = [0.0] * self.nadc
        self.nt = [0] * self.nadc
        self.src = [OPEN] * self.nadc
        self.tgt = [0.0] * self.nadc
        self.seen = [0] * self.nadc
        self.last_tgt = [self.vcc / 2 * self.gain] * n  # each sensor's latest voltage at the pin
        self.ev_t = [0] * EVENTS
        self.ev_sel = [0] * EVENTS
        self.ev_bank = [0] * EVENTS
        self.ev_n = 0
        self.mask = bank_mask(world.bank_on)  # the enabled banks now
        self.shift = [0.0] * n  # each sensor's ground above the ADC's, from the LEDs' current
        self.shared = design["grounds"] == "shared"
        if self.shared:
            self._strips(phys, design)

    def _nodes(self, phys, design):
        w = self.w
        pd = float(design["adc_pull_down_ohm"])
        drive = phys["mux_on_ohm"] + phys["sensor_output_ohm"]
        self.gain = pd / (pd + drive)
        ribbon_pf = phys["ribbon_pf_per_m"] * design["harness"]["length_m"]
        # a multiplexer sits at (bank b, pin a) where the design places its strip: every
        # pin's in bank 0, a further bank's where the sensor map uses it
        self.fitted = [b == 0 or max(w.sensor_at[a + self.nadc * b]) >= 0
                       for b in range(self.nbank) for a in range(self.nadc)]
        self.pf = []
        self.tau_open = []
        self.tau_drive = []
        self.settle_us = []  # after this long a driven node is its source's voltage
        for a in range(self.nadc):
            muxes = len([b for b in range(self.nbank) if self.fitted[b * self.nadc + a]])
            pf = muxes * (phys["mux_com_pf"] + ribbon_pf) + phys["adc_pin_pf"]
            self.pf.append(pf)
            self.tau_open.append(pd * pf * PF_US)
            self.tau_drive.append(drive * pd / (drive + pd) * pf * PF_US)
            self.settle_us.append(SETTLED * self.tau_drive[-1])

    # -- grounds ------------------------------------------------------------------------
    def _strips(self, phys, design):
        """Where each sensor and LED sits on its strip's shared ground (shared design only)."""
        w = self.w
        h = design["harness"]
        self.ribbon = ribbon_ohm(phys, design, h["analog_ground_conductors"] +
                                 h["led_ground_conductors"])
        self.segment = trace_ohm(phys, design, design["strip"]["led_ground_mm"])
        led_at = {}
        for k in range(len(w.leds_map)):
            led_at[w.leds_map[k]] = k
        self.strip_leds = []     # per strip: its LEDs' chain indices in position order
        self.strip_sensors = []  # per strip: [(sensor, position)]
        for m in range(len(w.sensor_at)):
            on = [i for i in w.sensor_at[m] if i >= 0]
            leds = sorted([led_at[w.locs[i]] for i in on if w.locs[i] in led_at])
            pos = []
            for i in on:
                k = led_at.get(w.locs[i])
                pos.append((i, leds.index(k) if k is not None else len(leds)))
            self.strip_leds.append(leds)
            self.strip_sensors.append(pos)
        pw = w.pins["power"]
        self.ma_per_channel = pw["led_ma_per_channel"]
        self.idle_ma = pw["led_idle_ma"]
        self.leds([0] * 3 * len(w.leds_map), (0, 1, 2), 3)

    def leds(self, buf, order, bpp):
        """The LEDs now show buf (the strip's bytes): each sensor's ground, where shared."""
        if not self.shared:
            return
        for m in range(len(self.strip_leds)):
            amps = [self._led_amps(buf, bpp, k) for k in self.strip_leds[m]]
            up = self._ground_volts(amps)
            for i, p in self.strip_sensors[m]:
                self.shift[i] = up[min(p, len(up) - 1)] if up else 0.0

    def _led_amps(self, buf, bpp, k):
        if bpp * (k + 1) > len(buf):
            return 0.0  # beyond the chain the firmware writes: dark
        duty = (buf[bpp * k] + buf[bpp * k + 1] + buf[bpp * k + 2]) / 255.0
        return (self.idle_ma + duty * self.ma_per_channel) / 1000.0

    def _ground_volts(self, amps):
        """The ground at each position of a strip: the ribbon carries every LED's current,
        each pitch of trace the current of the LEDs beyond it."""
        beyond = sum(amps)
        v = self.ribbon * beyond
        out = []
        for a in amps:
            v += self.segment * beyond
            out.append(v)
            beyond -= a
        return out

    def at_pin(self, i, v):
        """Sensor i's output v (against its own ground) as it reaches the ADC pin: raised by
        its share of its ground's rise, divided by the pull-down against the on-resistance."""
        g = self.shift[i]
        if g:
            v += g * (1.0 - v * self.per_vcc)
        return v * self.gain

    # -- the node ---------------------------------------------------------------------------
    def banks(self, bank_on):
        """An enable line changed (switched() follows)."""
        self.mask = bank_mask(bank_on)

    def switched(self, t, select):
        """The select or enable lines changed at board time t."""
        k = self.ev_n % EVENTS
        self.ev_t[k] = t
        self.ev_sel[k] = select
        self.ev_bank[k] = self.mask
        self.ev_n += 1

    def source(self, a, select, mask):
        """What drives node a with those select lines and enabled banks (bank_mask)."""
        if mask < 0:
            b = 0
        elif mask == 0:
            return OPEN
        else:
            b = 0
            while not mask & 1 << b:
                b += 1
        m = a + self.nadc * b
        if not self.fitted[m]:
            return OPEN
        i = self.w.sensor_at[m][select]
        return GROUNDED if i < 0 else i

    def _replay(self, a, last):
        """Takes node a through the switch events it has not seen, up to (not through) the
        event numbered `last`: each starts a segment driven by what that event routed."""
        first = self.seen[a]
        if last - first > EVENTS - 1:
            first = last - EVENTS + 1  # older switches forgotten: the node kept its state
        while first < last:
            self._replay_one(a, first % EVENTS)
            first += 1

    def _replay_one(self, a, k):
        t = self.ev_t[k]
        self.nv[a] = self._volts_at(a, t)
        self.nt[a] = t
        s = self.source(a, self.ev_sel[k], self.ev_bank[k])
        self.src[a] = s
        self.tgt[a] = self.last_tgt[s] if s >= 0 else 0.0

    def _volts_at(self, a, t):
        dt = t - self.nt[a]
        if self.src[a] == OPEN:
            return self.nv[a] * math.exp(-dt / self.tau_open[a])
        if dt > self.settle_us[a]:
            return self.tgt[a]
        return self.tgt[a] + (self.nv[a] - self.tgt[a]) * math.exp(-dt / self.tau_drive[a])

    def read(self, a, t, s, v):
        """What MicroPython's read_u16 gives for node a sampled at board time t, driven since
        the last switch by s (a sensor whose output is v volts, OPEN or GROUNDED). Called on
        every conversion: the common case (one switch since the last read of this node, from
        a settled channel) takes no exp. Its frame, and those of what it calls, stay within
        MicroPython's 11 words (World.volts says why)."""
        if self.seen[a] != self.ev_n:
            self._switched_since(a)
        if s >= 0:
            v = self.at_pin(s, v) if self.shared else v * self.gain
            self.last_tgt[s] = v
            self.tgt[a] = v
        else:
            self.tgt[a] = 0.0
        self.src[a] = s
        if s < 0 or t - self.nt[a] <= self.settle_us[a]:
            v = self._volts_at(a, t)
        self.nv[a] = v
        self.nt[a] = t
        return self.adc.u16(v)

    def _switched_since(self, a):
        """Node a up to the last switch event, which it has not seen yet."""
        n = self.ev_n
        if n - self.seen[a] > 1:
            self._replay(a, n - 1)
        te = self.ev_t[(n - 1) % EVENTS]
        if self.src[a] >= 0 and te - self.nt[a] > self.settle_us[a]:
            self.nv[a] = self.tgt[a]
        else:
            self.nv[a] = self._volts_at(a, te)
        self.nt[a] = te
        self.seen[a] = n
