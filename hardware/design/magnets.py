"""Ranks told apart by magnet size: the field each rank's magnet puts on a sensor, how far apart
the ranks' readings lie, and how that gap compares with the noise of one reading and with the
spread of real pieces (python -m hardware.design ranks). Figures come from magnets.json."""
import math
import os

from hardware.design import data

MAGNETS_FILE = os.path.join(data.DESIGN_DIR, "magnets.json")
UNIFORM_SIGMA = 1 / math.sqrt(3)  # a uniform spread of +-w has sigma w / sqrt(3)
STEP_MM = 0.001  # for numeric derivatives of the field


def table():
    return data.load_json(MAGNETS_FILE)


def field_mt(spec, magnet, z_mm, br_mt=None):
    """On-axis field (mT) of a magnet name of magnets.json at z_mm from its face."""
    m = spec["magnets"][magnet]
    return rod_field_mt(m["d_mm"], m["l_mm"], z_mm, br_mt or spec["material"]["br_mt"])


def rod_field_mt(d_mm, l_mm, z_mm, br_mt):
    r = d_mm / 2
    far = z_mm + l_mm
    return br_mt / 2 * (far / math.hypot(r, far) - z_mm / math.hypot(r, z_mm))


def sensor_distance_mm(spec):
    g = spec["geometry"]
    return g["gap_mm"] + g["hall_depth_mm"]


def lateral_drop(z_mm, l_mm, offset_mm):
    """Fraction of the on-axis field lost when the piece stands offset_mm off the sensor's
    axis, the magnet taken as a dipole at its centre (Bz ~ (2 z^2 - r^2) / (z^2 + r^2)^(5/2))."""
    zc = z_mm + l_mm / 2
    on = 2 * zc ** 2 / zc ** 5
    off = (2 * zc ** 2 - offset_mm ** 2) / (zc ** 2 + offset_mm ** 2) ** 2.5
    return 1 - off / on


def spread_sigma(spec, magnet, per_sensor_gain=True):
    """Relative sigma of a piece's reading around its rank's level: magnet material, diameter,
    seat depth and placement; without a measured per-sensor gain, the sensor's sensitivity too."""
    m = spec["magnets"][magnet]
    z = sensor_distance_mm(spec)
    s = spec["spread"]
    b = field_mt(spec, magnet, z)
    parts = [spec["material"]["br_tolerance"] * UNIFORM_SIGMA]
    dd = rod_field_mt(m["d_mm"] + STEP_MM, m["l_mm"], z, spec["material"]["br_mt"]) - b
    parts.append(abs(dd / STEP_MM / b) * s["diameter_mm"] * UNIFORM_SIGMA)
    dz = field_mt(spec, magnet, z + STEP_MM) - b
    parts.append(abs(dz / STEP_MM / b) * s["seat_mm"] * UNIFORM_SIGMA)
    # a one-sided uniform loss from 0 to its most: sigma = most / sqrt(12)
    parts.append(lateral_drop(z, m["l_mm"], s["lateral_mm"]) / math.sqrt(12))
    if not per_sensor_gain:
        parts.append(spec["sensor"]["sensitivity_tolerance"] * UNIFORM_SIGMA)
    return math.sqrt(sum(p * p for p in parts))


def noise_mv(spec):
    """Sigma of one reading's electrical noise: the sensor's and the ESP32 ADC's."""
    return math.hypot(spec["sensor"]["noise_mv_rms"], spec["adc"]["noise_mv_rms"])


def ranks(spec=None):
    """Per rank: magnet, field (mT), swing (mV), and its level relative to the king's."""
    spec = spec or table()
    z = sensor_distance_mm(spec)
    sens = spec["sensor"]["sensitivity_mv_per_mt"]
    out = []
    for rank in spec["ranks"]:
        magnet = spec["rank_magnets"][rank]
        b = field_mt(spec, magnet, z)
        out.append({"rank": rank, "magnet": magnet, "field_mt": b, "swing_mv": b * sens})
    for r in out:
        r["level"] = r["field_mt"] / out[0]["field_mt"]
    return out


def margins(spec=None):
    """Per neighbouring pair of ranks: the gap between their readings, the band edge between
    them (at the geometric mean, as the firmware's calibration puts it), and how many sigmas
    of reading noise and of piece spread separate each from that edge (the smaller side)."""
    spec = spec or table()
    rs = ranks(spec)
    noise = noise_mv(spec)
    out = []
    for hi, lo in zip(rs, rs[1:]):
        edge = math.sqrt(hi["swing_mv"] * lo["swing_mv"])
        half_log = math.log(hi["swing_mv"] / lo["swing_mv"]) / 2
        row = {"pair": "%s/%s" % (hi["rank"], lo["rank"]),
               "gap_mv": hi["swing_mv"] - lo["swing_mv"], "edge_mv": edge,
               "gap_noise_sigma": (hi["swing_mv"] - lo["swing_mv"]) / noise,
               "edge_noise_sigma": min(hi["swing_mv"] - edge, edge - lo["swing_mv"]) / noise}
        for key, gain in (("spread_sigma", True), ("spread_sigma_nominal_gain", False)):
            worst = max(spread_sigma(spec, hi["magnet"], gain),
                        spread_sigma(spec, lo["magnet"], gain))
            row[key] = half_log / worst
        out.append(row)
    jester = rs[-1]
    out.append({"pair": "%s/empty" % jester["rank"], "gap_mv": jester["swing_mv"],
                "edge_mv": jester["swing_mv"] / 2,
                "gap_noise_sigma": jester["swing_mv"] / noise,
                "edge_noise_sigma": jester["swing_mv"] / 2 / noise})
    return out


def report(spec=None):
    spec = spec or table()
    z = sensor_distance_mm(spec)
    lines = ["Ranks by magnet size: N45 rods, %.1f mm from magnet face to Hall element, "
             "DRV5055A3 at %.0f mV/mT; one reading's noise %.1f mV rms (sensor %.2f, ESP32 ADC "
             "%.1f)" % (z, spec["sensor"]["sensitivity_mv_per_mt"], noise_mv(spec),
                        spec["sensor"]["noise_mv_rms"], spec["adc"]["noise_mv_rms"]),
             "%-8s %-10s %8s %9s %7s %12s" % ("rank", "magnet", "field mT", "swing mV",
                                               "level", "spread sigma")]
    for r in ranks(spec):
        lines.append("%-8s %-10s %8.1f %9.0f %7.3f %11.1f%%" % (
            r["rank"], r["magnet"], r["field_mt"], r["swing_mv"], r["level"],
            100 * spread_sigma(spec, r["magnet"])))
    lines.append("%-16s %7s %8s %12s %12s %14s %14s" % (
        "neighbours", "gap mV", "edge mV", "gap/noise", "edge/noise", "edge/spread",
        "(no gain cal.)"))
    for m in margins(spec):
        lines.append("%-16s %7.0f %8.0f %11.0f%s %11.0f%s %13s %14s" % (
            m["pair"], m["gap_mv"], m["edge_mv"], m["gap_noise_sigma"], "s",
            m["edge_noise_sigma"], "s",
            "%.1fs" % m["spread_sigma"] if "spread_sigma" in m else "-",
            "%.1fs" % m["spread_sigma_nominal_gain"] if "spread_sigma" in m else "-"))
    return "\n".join(lines) + "\n"
