# Per-sensor calibration: the empty-board baseline and, where measured, the readings with a
# piece upright and upside down; thresholds with hysteresis follow from them. Stored on flash as
# JSON, written atomically (temporary file, then rename) so a power cut keeps the old file.
#
# Boards whose pieces carry ranks (magnets of four sizes, hardware/README.md, Ranks) add each
# rank's level: its swing as a fraction of the king's, measured on the start-area spots. Each
# sensor's bands follow from its own king swing: what a piece of a known rank read there,
# divided by that rank's level (a sensor 0.5 mm low, or less sensitive, reads every rank
# weaker alike), else the board's mean. A rank's band edge lies at the geometric mean of two
# neighbouring levels, and a reading leaves a band only past its edge by 1/_RANK_HYST of the
# edge's swing. A file without ranks: an unranked board.
from array import array

from firmware import ondemand
from firmware.mpconst import const

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
RANKS = const(4)
_RANK_HYST = const(10)  # a rank is left only past its band's edge by 1/10 of the edge's swing
# (integer arithmetic: the scanner computes these while it scans, and a float is an object)
# a start-area spot holds a piece for the ranks step when it reads this far from its baseline
# (the smallest rank, a jester, swings about 52 mV, at the least about 30 mV: hardware/README.md,
# Ranks; one reading's noise is about 4 mV rms, and the step averages 16 scans)
RANK_PRESENT = swing_to_u16(0.02)
# how far two conversions of one sensor a moment apart may differ and still read a sensor
# that holds still: one reading's noise is about 4 mV rms (hardware/design/magnets.json: the
# ADC's 4.0 and the sensor's 0.35), so a difference of two is about 5.7 mV rms, and 25 mV is
# over 4 of those (a still sensor passes all but about one pair in 10^5, and then only waits a
# scan). A noise burst's readings scatter over the whole range and pass about one pair in 50
STILL = swing_to_u16(0.025)
# how far the readings of one sensor two scans apart (each the mean of three conversions) may
# differ for a piece that rests: a mean's noise is a reading's over sqrt(3), their difference's
# 3.3 mV rms, and 14 mV is over 4 of those. A piece a hand lowers onto a ranked board moves its
# reading by more between scans except where its field is flattest (hal/scanner.py)
SETTLED = swing_to_u16(0.014)
MIN_LEVEL_RATIO = 1.3  # neighbouring ranks closer than this cannot be told apart reliably
# the module of the thresholds' arithmetic, the measuring steps' changes and the stored form:
# run at power-up and while calibrating only, imported for each call and dropped after it
OPS = "firmware.hal.calibration_ops"


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

    def rank_lo(self, i, upright, k):
        """The lowest reading for which sensor i keeps rank k (upright or upside down): its
        band's lower edge less 1/_RANK_HYST of that edge's swing. Two calls, not one returning a
        pair: the scanner calls them while it scans, where a tuple would be allocated."""
        b = self.base[i]
        if upright:
            if k < RANKS - 1:
                e = self.up_edge[3 * i + k] - b
                return b + e - e // _RANK_HYST
            return 0
        if k > 0:
            e = b - self.dn_edge[3 * i + k - 1]
            return max(0, b - e - e // _RANK_HYST)
        return 0

    def rank_hi(self, i, upright, k):
        """The highest reading for which sensor i keeps rank k (see rank_lo)."""
        b = self.base[i]
        if upright:
            if k > 0:
                e = self.up_edge[3 * i + k - 1] - b
                return min(65535, b + e + e // _RANK_HYST)
            return 65535
        if k < RANKS - 1:
            e = b - self.dn_edge[3 * i + k]
            return b - e + e // _RANK_HYST
        return 65535

    # what runs at power-up and while calibrating only (OPS's functions, described there): the
    # scan loop reads the thresholds and rank_lo / rank_hi, the rest of its code is not kept
    def set_ranks(self, *args):
        ondemand.call(OPS, "set_ranks", self, *args)

    def king_swing(self, i):
        return ondemand.call(OPS, "king_swing", self, i)

    def king_reading(self, *args):
        return ondemand.call(OPS, "king_reading", self, *args)

    def swing(self, i):
        return ondemand.call(OPS, "swing", self, i)

    def update(self):
        ondemand.call(OPS, "update", self)

    def set_baseline(self, *args):
        return ondemand.call(OPS, "set_baseline", self, *args)

    def set_piece(self, *args):
        ondemand.call(OPS, "set_piece", self, *args)

    def weak(self, *args):
        return ondemand.call(OPS, "weak", self, *args)

    def to_json(self):
        return ondemand.call(OPS, "to_json", self)

    def save(self, path):
        ondemand.call(OPS, "save", self, path)


def from_json(obj, n):
    """A Calibration from its stored form; ValueError says what is wrong with it."""
    return ondemand.call(OPS, "from_json", obj, n)


def load(path, n):
    """The stored calibration, or None when there is none yet. Raises ValueError if broken."""
    return ondemand.call(OPS, "load", path, n)
