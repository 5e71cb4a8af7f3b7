# Per-sensor calibration: the empty-board baseline and, where measured, the readings with a
# piece upright and upside down; thresholds with hysteresis follow from them. Stored on flash as
# JSON, written atomically (temporary file, then rename) so a power cut keeps the old file.
from array import array
import json
import os

FORMAT = "agentboard-calibration/1"
ON = 0.5    # a class is entered past half of the measured swing ...
OFF = 0.3   # ... and left only when back under 30 % of it (hysteresis)


def volts_to_u16(v, full_scale=3.1):
    return int(v / full_scale * 65535)


# Nominal figures (hardware/README.md): DRV5055A3 at 15 mV/mT, about 30 mT from a piece, so a
# swing of about 0.45 V; the sensor cannot put out less than about 0.2 V or more than
# VCC - 0.2 V, and the 100 kOhm pull-down reads a disconnected sensor as 0 V.
NOMINAL_SWING = volts_to_u16(0.45)
FAULT_LO = volts_to_u16(0.6)
FAULT_HI = volts_to_u16(2.8)
MID = volts_to_u16(1.65)


class Calibration:
    def __init__(self, n):
        self.n = n
        self.base = array("H", [MID] * n)
        self.up = array("H", [0] * n)    # 0: not measured
        self.down = array("H", [0] * n)
        self.fault_lo = FAULT_LO
        self.fault_hi = FAULT_HI
        self.up_on = array("H", [0] * n)
        self.up_off = array("H", [0] * n)
        self.dn_on = array("H", [0] * n)
        self.dn_off = array("H", [0] * n)
        self.update()

    def swing(self, i):
        """(up swing, down swing) of sensor i: measured, or nominal where not measured."""
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

    def set_piece(self, i, up_reading, down_reading):
        self.up[i] = up_reading
        self.down[i] = down_reading
        self.update()

    def weak(self, fraction=0.4):
        """Sensors whose measured swing is under `fraction` of the nominal one: a weak magnet,
        a sensor mounted too far away, or a wrong sensor grade."""
        out = []
        for i in range(self.n):
            if self.up[i] or self.down[i]:
                up, dn = self.swing(i)
                if min(up, dn) < NOMINAL_SWING * fraction:
                    out.append(i)
        return out

    def to_json(self):
        return {"format": FORMAT, "n": self.n, "base": list(self.base), "up": list(self.up),
                "down": list(self.down), "fault_lo": self.fault_lo, "fault_hi": self.fault_hi}

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
    c.update()
    return c


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


def _sums(scanner, n, scans):
    """Every sensor's readings over `scans` scans, added up."""
    sums = [0] * n
    for _ in range(scans):
        scanner.scan()
        raw = scanner.raw
        for i in range(n):
            sums[i] += raw[i]
    return sums


def measure_baseline(scanner, calib, scans=16):
    """Averages `scans` scans of an empty board into the baseline. Returns the sensors that
    read out of range (a dead or disconnected sensor), whose baseline is left as it was."""
    sums = _sums(scanner, calib.n, scans)
    bad = calib.set_baseline(sums, scans)
    scanner.use(calib)
    return bad


def measure_pieces(scanner, calib, scans=8, margin=0.3):
    """Averages `scans` scans and records, for every sensor that a piece now clearly moves off
    its baseline (past `margin` of the nominal swing), the reading as its upright or
    upside-down level. Returns (upright sensors measured, upside-down sensors measured)."""
    sums = _sums(scanner, calib.n, scans)
    ups = 0
    downs = 0
    edge = int(NOMINAL_SWING * margin)
    for i in range(calib.n):
        r = sums[i] // scans
        if not calib.fault_lo <= r <= calib.fault_hi:
            continue  # a fault is not a magnet
        if r > calib.base[i] + edge:
            calib.up[i] = r
            ups += 1
        elif r < calib.base[i] - edge:
            calib.down[i] = r
            downs += 1
    calib.update()
    scanner.use(calib)
    return ups, downs
