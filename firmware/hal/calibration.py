# Per-sensor calibration: the empty-board baseline and, where measured, the readings with a
# piece upright and upside down; thresholds with hysteresis follow from them. Stored on flash as
# JSON, written atomically (temporary file, then rename) so a power cut keeps the old file.
#
# Boards whose pieces carry ranks (magnets of four sizes, hardware/README.md, Ranks) add each
# rank's level: its swing as a fraction of the king's, measured on the start-area spots. Each
# sensor's bands follow from its own king swing: what a piece of a known rank read there,
# divided by that rank's level (a sensor 0.5 mm low, or less sensitive, reads every rank
# weaker alike), else the board's mean. A rank's band edge lies at the geometric mean of two
# neighbouring levels, and a reading leaves a band only past its edge by 1/RANK_HYST of the
# edge's swing. A file without ranks: an unranked board.
from array import array
import json
import os
import math

FORMAT = "agentboard-calibration/1"
ON = 0.5    # a class is entered past half of the measured swing ...
OFF = 0.3   # ... and left only when back under 30 % of it (hysteresis)


# The ESP32's ADC1 at 11 dB as Espressif characterises it (ESP-IDF esp_adc_cal, at the median
# Vref of 1.1 V): code 0 at 0.142 V, then about 0.806 mV a code, straight up to about 2.45 V
# (the simulator has the whole curve: host_tools/sim/data/physics.json). read_u16 gives the
# 12-bit code scaled to 16 bits. Chips' Vref spreads 1.0-1.2 V: calibration measures each
# board, these figures only start an uncalibrated one off.
ADC_OFFSET_V = 0.142
ADC_CODE_V = 1.1 * 196602 / 4096 / 65536
U16_PER_CODE = 65535 / 4095


def swing_to_u16(dv):
    """A difference of dv volts at the pin as a difference of readings."""
    return int(dv / ADC_CODE_V * U16_PER_CODE)


def volts_to_u16(v):
    """The reading of v volts at the pin (0 below the ADC's offset)."""
    return swing_to_u16(max(0.0, v - ADC_OFFSET_V))


def u16_to_volts(u16):
    return u16 / U16_PER_CODE * ADC_CODE_V + ADC_OFFSET_V


# Nominal figures (hardware/README.md): DRV5055A3 at 15 mV/mT, about 30 mT from a piece, so a
# swing of about 0.45 V; the sensor cannot put out less than about 0.2 V or more than
# VCC - 0.2 V, and a disconnected sensor's channel decays to 0 V through the pull-down. The
# pull-down (10 kohm) against the multiplexer's on-resistance and the sensor's output passes
# 97.6 % of a sensor's output to the ADC pin (hardware/design/analog.json).
FRONT_END_GAIN = 0.976
NOMINAL_SWING = swing_to_u16(0.45 * FRONT_END_GAIN)
FAULT_LO = volts_to_u16(0.6)
FAULT_HI = volts_to_u16(2.8)
MID = volts_to_u16(1.65 * FRONT_END_GAIN)
RANKS = 4
RANK_HYST = 10  # a rank is left only past its band's edge by 1/10 of the edge's swing
# (integer arithmetic: the scanner computes these while it scans, and a float is an object)
# a start-area spot holds a piece for the ranks step when it reads this far from its baseline
# (the smallest rank, a jester, swings about 52 mV, at the least about 30 mV: hardware/README.md,
# Ranks; one reading's noise is about 4 mV rms, and the step averages 16 scans)
RANK_PRESENT = swing_to_u16(0.02)
MIN_LEVEL_RATIO = 1.3  # neighbouring ranks closer than this cannot be told apart reliably


def readings(n):
    """n readings, all 0. Made from bytes: `array("H", [0] * n)` would first build a list of n
    ints, a block of 4n bytes on an ESP32 (8n on the 64-bit unix port), at boot, when such
    blocks are the hardest for a fragmented heap to give."""
    return array("H", bytes(2 * n))


class Calibration:
    def __init__(self, n):
        self.n = n
        self.base = readings(n)
        for i in range(n):
            self.base[i] = MID
        self.up = readings(n)    # 0: not measured
        self.down = readings(n)
        # on a ranked board, the rank of the piece each reading was measured with (0: a king's,
        # or the king's level it implies, as files before these fields hold)
        self.up_rank = bytearray(n)
        self.down_rank = bytearray(n)
        self.fault_lo = FAULT_LO
        self.fault_hi = FAULT_HI
        self.up_on = readings(n)
        self.up_off = readings(n)
        self.dn_on = readings(n)
        self.dn_off = readings(n)
        self.ranked = False
        self.levels = None   # per rank, its swing as a fraction of the king's
        self.king_up = 0     # the board's mean king swing, where a sensor has none measured
        self.king_down = 0
        self.up_edge = array("H")   # per sensor 3 readings: king|knight, knight|citizen, ...
        self.dn_edge = array("H")
        self.update()

    def set_ranks(self, levels, king_up, king_down):
        """Makes this a ranked calibration (levels: 4 fractions of the king's swing, falling)."""
        self.ranked = True
        self.levels = [float(v) for v in levels]
        self.king_up = int(king_up)
        self.king_down = int(king_down)
        if len(self.up_edge) != 3 * self.n:
            self.up_edge = readings(3 * self.n)
            self.dn_edge = readings(3 * self.n)
        self.update()

    def king_swing(self, i):
        """(up, down) swing a king gives on sensor i: measured (one way up measured gives the
        other through the board's mean ratio of the two), or the board's mean."""
        b = self.base[i]
        up = self._king(self.up[i] - b, self.up_rank[i]) if self.up[i] else 0
        dn = self._king(b - self.down[i], self.down_rank[i]) if self.down[i] else 0
        if not up:
            up = dn * self.king_up // max(1, self.king_down) if dn else self.king_up
        if not dn:
            dn = up * self.king_down // max(1, self.king_up) if up else self.king_down
        return max(up, 1), max(dn, 1)

    def _king(self, swing, rank):
        return int(swing / self.levels[rank]) if rank else swing

    def king_reading(self, i, upright):
        """What a king reads on sensor i as measured (0: not measured that way up)."""
        if not (self.up[i] if upright else self.down[i]):
            return 0
        up, dn = self.king_swing(i)
        b = self.base[i]
        return min(65535, b + up) if upright else max(1, b - dn)

    def swing(self, i):
        """(up swing, down swing) of sensor i: measured, or nominal where not measured (on a
        ranked board: the weakest rank's, so every rank is a piece)."""
        if self.ranked:
            up, dn = self.king_swing(i)
            low = self.levels[RANKS - 1]
            return int(up * low), int(dn * low)
        b = self.base[i]
        up = self.up[i] - b if self.up[i] else NOMINAL_SWING
        dn = b - self.down[i] if self.down[i] else NOMINAL_SWING
        return up, dn

    def update(self):
        for i in range(self.n):
            b = self.base[i]
            up, dn = self.swing(i)
            up = max(up, 1)
            dn = max(dn, 1)
            self.up_on[i] = min(65535, b + int(up * ON))
            self.up_off[i] = min(65535, b + int(up * OFF))
            self.dn_on[i] = max(0, b - int(dn * ON))
            self.dn_off[i] = max(0, b - int(dn * OFF))
        if self.ranked:
            lv = self.levels
            mids = [math.sqrt(lv[j] * lv[j + 1]) for j in range(RANKS - 1)]
            for i in range(self.n):
                b = self.base[i]
                up, dn = self.king_swing(i)
                for j in range(RANKS - 1):
                    self.up_edge[3 * i + j] = min(65535, b + int(up * mids[j]))
                    self.dn_edge[3 * i + j] = max(0, b - int(dn * mids[j]))

    def rank_lo(self, i, upright, k):
        """The lowest reading for which sensor i keeps rank k (upright or upside down): its
        band's lower edge less 1/RANK_HYST of that edge's swing. Two calls, not one returning a
        pair: the scanner calls them while it scans, where a tuple would be allocated."""
        b = self.base[i]
        if upright:
            if k < RANKS - 1:
                e = self.up_edge[3 * i + k] - b
                return b + e - e // RANK_HYST
            return 0
        if k > 0:
            e = b - self.dn_edge[3 * i + k - 1]
            return max(0, b - e - e // RANK_HYST)
        return 0

    def rank_hi(self, i, upright, k):
        """The highest reading for which sensor i keeps rank k (see rank_lo)."""
        b = self.base[i]
        if upright:
            if k > 0:
                e = self.up_edge[3 * i + k - 1] - b
                return min(65535, b + e + e // RANK_HYST)
            return 65535
        if k < RANKS - 1:
            e = b - self.dn_edge[3 * i + k]
            return b - e + e // RANK_HYST
        return 65535

    def set_baseline(self, sums, count):
        """Takes the averages as baselines; a sensor whose average lies outside what a working
        sensor puts out keeps its old baseline. Returns those sensors' indices."""
        bad = []
        for i in range(self.n):
            avg = sums[i] // count
            if self.fault_lo <= avg <= self.fault_hi:
                self.base[i] = avg
            else:
                bad.append(i)
        self.update()
        return bad

    def set_piece(self, i, up_reading, down_reading, up_rank=0, down_rank=0):
        """Sensor i's readings with a piece upright and upside down (0: not measured), each
        of a piece of that rank (ranked boards; 0 the king)."""
        self.up[i] = up_reading
        self.down[i] = down_reading
        self.up_rank[i] = up_rank
        self.down_rank[i] = down_rank
        self.update()

    def weak(self, fraction=0.4):
        """Sensors whose measured swing is under `fraction` of the nominal one: a weak magnet,
        a sensor mounted too far away, or a wrong sensor grade."""
        out = []
        for i in range(self.n):
            if self.up[i] or self.down[i]:
                if self.ranked:
                    up, dn = self.king_swing(i)
                    nominal = min(self.king_up, self.king_down)
                else:
                    up, dn = self.swing(i)
                    nominal = NOMINAL_SWING
                if min(up, dn) < nominal * fraction:
                    out.append(i)
        return out

    def to_json(self):
        out = {"format": FORMAT, "n": self.n, "base": list(self.base), "up": list(self.up),
               "down": list(self.down), "fault_lo": self.fault_lo, "fault_hi": self.fault_hi}
        if self.ranked:
            out["ranks"] = {"levels": self.levels, "king_up": self.king_up,
                            "king_down": self.king_down}
        if any(self.up_rank) or any(self.down_rank):
            out["up_rank"] = list(self.up_rank)
            out["down_rank"] = list(self.down_rank)
        return out

    def save(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.to_json(), f)
        os.rename(tmp, path)


def from_json(obj, n):
    """A Calibration from its stored form; ValueError says what is wrong with it."""
    if type(obj) is not dict or obj.get("format") != FORMAT:
        raise ValueError("not an agentboard calibration file")
    if obj.get("n") != n:
        raise ValueError("calibration is for %r sensors, this board has %d" % (obj.get("n"), n))
    c = Calibration(n)
    for key in ("base", "up", "down"):
        vals = obj.get(key)
        if type(vals) is not list or len(vals) != n:
            raise ValueError("calibration field '%s' must list %d readings" % (key, n))
        arr = getattr(c, key)
        for i in range(n):
            v = vals[i]
            if type(v) is not int or not 0 <= v <= 65535:
                raise ValueError("calibration %s[%d] = %r is not a reading" % (key, i, v))
            arr[i] = v
    for key in ("fault_lo", "fault_hi"):
        v = obj.get(key)
        if type(v) is not int or not 0 <= v <= 65535:
            raise ValueError("calibration field '%s' is not a reading" % key)
        setattr(c, key, v)
    for key in ("up_rank", "down_rank"):
        vals = obj.get(key)
        if vals is None:
            continue  # every reading a king's (or files from before these fields)
        if type(vals) is not list or len(vals) != n or any(
                type(v) is not int or not 0 <= v < RANKS for v in vals):
            raise ValueError("calibration field '%s' must list %d ranks (0-%d)" % (
                key, n, RANKS - 1))
        getattr(c, key)[:] = bytes(vals)
    ranks = obj.get("ranks")
    if ranks is not None:
        levels, king_up, king_down = _ranks(ranks)
        c.set_ranks(levels, king_up, king_down)
    c.update()
    return c


def _ranks(ranks):
    """(levels, king_up, king_down) from a stored `ranks` field; ValueError if it is wrong."""
    if type(ranks) is not dict:
        raise ValueError("calibration field 'ranks' must be an object")
    levels = ranks.get("levels")
    if type(levels) is not list or len(levels) != RANKS or any(
            type(v) not in (int, float) or not 0 < v <= 1 for v in levels):
        raise ValueError("calibration ranks.levels must list %d fractions of the king's swing"
                         % RANKS)
    for j in range(RANKS - 1):
        if levels[j] < levels[j + 1] * MIN_LEVEL_RATIO:
            raise ValueError("calibration ranks.levels must fall by %.1f times from rank to "
                             "rank" % MIN_LEVEL_RATIO)
    swings = []
    for key in ("king_up", "king_down"):
        v = ranks.get(key)
        if type(v) is not int or not 0 < v <= 65535:
            raise ValueError("calibration ranks.%s is not a swing" % key)
        swings.append(v)
    return levels, swings[0], swings[1]


def load(path, n):
    """The stored calibration, or None when there is none yet. Raises ValueError if broken."""
    try:
        f = open(path)
    except OSError:
        return None
    with f:
        try:
            obj = json.load(f)
        except ValueError:
            raise ValueError("calibration file %s is not JSON" % path)
    return from_json(obj, n)
