"""A variant's build sheet (python -m hardware.design sheet VARIANT): what the maker needs from
the data beside the template. The cables: each strip's sensors, how far apart they lie, how
many separate groups they form (a group far from the others is a satellite board on a cable)
and the ribbon from the main board, all from coords.json. The acceptance limits of the bench
test of each strip: what a sensor must read empty and with the reference piece on a gauge as
thick as the board, from the firmware's calibration constants, magnets.json and mechanics.json.
hardware/BUILD.md carries each variant's sheet; a test keeps it equal to what this computes."""
import re

from hardware.design import coords, coords_make, magnets
from host_tools.sim.magnetics import bz_mt

GROUP_LINK_MM = 60.0    # traces on one board join sensors this far apart; farther, a cable
SLACK_MM = 50.0         # on every ribbon, to lift the game board off and route round corners
RIBBON_STEP_MM = 50.0   # ribbons are cut to the next 50 mm
REFERENCE_KIND = "space"  # a strip is tested with the reference piece on a space's stack
KIT_SIZE = re.compile(r"([\d.]+)\s*mm\s*x\s*([\d.]+)\s*mm")


def groups(points):
    """The points split into groups: two points closer than GROUP_LINK_MM share a group."""
    left = list(points)
    out = []
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            near = [p for p in left if any(coords.distance(p, q) < GROUP_LINK_MM for q in group)]
            grew = bool(near)
            for p in near:
                left.remove(p)
            group += near
        out.append(group)
    return out


def span(points):
    return max([coords.distance(p, q) for p in points for q in points] or [0.0])


def ribbon_mm(main, points):
    """Along the carrier's axes (x, then y) to the strip's nearest location, plus slack, cut to
    the next RIBBON_STEP_MM."""
    run = min(abs(p[0] - main[0]) + abs(p[1] - main[1]) for p in points) + SLACK_MM
    return RIBBON_STEP_MM * -(-run // RIBBON_STEP_MM)


def cables(variant, table):
    """[(strip, locations, groups, span mm, ribbon mm)] per strip of the variant."""
    sens = coords.positions(table)
    leds = coords.positions(table, "leds")
    main = table["main_board"]
    rows = []
    for strip in variant.strips:
        names = [loc for _, loc in strip.sensors] or [name for _, name in strip.leds]
        pts = [sens[n] if n in sens else leds[n] for n in names]
        rows.append((strip.name, len(names), len(groups(pts)), span(pts), ribbon_mm(main, pts)))
    return rows


def reference_magnet(variant, spec):
    """(what, d_mm, l_mm) of the piece a strip is tested with: the variant kit's first magnet,
    by its magnets.json name where the kit gives one, else by the sizes its part number
    states. None when the kit names no magnet."""
    for item in variant.config.get("kit", []):
        if not item["item"].startswith("Magnet"):
            continue
        if "magnet" in item:
            m = spec["magnets"][item["magnet"]]
            return item["item"], m["d_mm"], m["l_mm"]
        size = KIT_SIZE.search(item["part_number"])
        if size:
            return item["item"], float(size.group(1)), float(size.group(2))
    return None


def acceptance(variant, spec=None, mech=None):
    """The limits of a strip's bench test with the reference piece upright (its magnet's south
    pole down) on a space's stack (magnets.json): absolute (sensitivity and remanence
    tolerances, the gauge's thickness, the centring by eye) and relative to the strip's median
    (the same piece on every sensor: only the sensor and the placement vary)."""
    spec = spec or magnets.table()
    mech = mech or coords_make.mechanics()
    ref = reference_magnet(variant, spec)
    if ref is None:
        return None
    what, d, l = ref
    z = magnets.distance_mm(spec, variant.name, REFERENCE_KIND)
    br = spec["material"]["br_mt"]
    sens = spec["sensor"]["sensitivity_mv_per_mt"]
    acc = mech["acceptance"]

    def field(dz, rho=0.0):
        return bz_mt(br, d / 2, l, z + dz, rho)
    nominal = field(0.0) * sens
    far = field(acc["gauge_mm"]) / field(0.0)
    near = field(-acc["gauge_mm"]) / field(0.0)
    off = field(0.0, acc["centring_mm"]) / field(0.0)
    tol = spec["sensor"]["sensitivity_tolerance"]
    btol = spec["material"]["br_tolerance"]
    return {"piece": what, "d_mm": d, "l_mm": l, "z_mm": z, "nominal_mv": nominal,
            "min_mv": nominal * (1 - tol) * (1 - btol) * far * off,
            "max_mv": nominal * (1 + tol) * (1 + btol) * near,
            "strip_low": (1 - tol) / (1 + tol) * far / near * off,
            "strip_high": (1 + tol) / (1 - tol) * near / far / off}


def empty_window():
    """(lowest, highest) volts an empty sensor may read: the self-test's 'idles far from VCC/2'
    limit (firmware/selftest.py: half the nominal swing either side of mid)."""
    from firmware.hal import calibration as cal
    mid = magnets.u16_volts(cal.MID)
    half = magnets.u16_swing_volts(cal.NOMINAL_SWING) / 2
    fault = (magnets.u16_volts(cal.FAULT_LO), magnets.u16_volts(cal.FAULT_HI))
    return mid - half, mid + half, fault


def render_cables(variant, table):
    out = ["| strip | locations | groups | span | ribbon from the main board |",
           "|---|---|---|---|---|"]
    for name, n, g, sp, rib in cables(variant, table):
        out.append("| %s | %d | %d | %.0f mm | %.0f mm |" % (name, n, g, sp, rib))
    return out


def render_acceptance(variant, spec=None):
    spec = spec or magnets.table()
    acc = acceptance(variant, spec)
    limit = spec["sensor"]["upright_limit_v"]
    lo, hi, fault = empty_window()
    out = ["- empty: every sensor reads %.2f-%.2f V (the self-test's limit; outside %.1f-%.1f V "
           "the firmware calls it a fault)" % (lo, hi, fault[0], fault[1])]
    if acc is None:
        return out + ["- no magnet in the variant's kit: no reference piece to test with"]
    mid = (lo + hi) / 2
    out += ["- reference piece: one carrying the kit's \"%s\" (%g mm x %g mm N45, south pole "
            "down), %.1f mm from its face to the Hall element: nominal swing %.0f mV" % (
                acc["piece"], acc["d_mm"], acc["l_mm"], acc["z_mm"], acc["nominal_mv"]),
            "- upright: the reading rises %.0f-%.0f mV above the empty one (%.2f-%.2f V from "
            "%.2f V); a magnet with its north pole down (an Agent DOG piece on its head, the "
            "blue pawn) makes it fall as far" % (acc["min_mv"], acc["max_mv"],
                                                       mid + acc["min_mv"] / 1000,
                                                       mid + acc["max_mv"] / 1000, mid),
            "- along one strip: each sensor's swing within %.0f-%.0f %% of the strip's median"
            % (100 * acc["strip_low"], 100 * acc["strip_high"])]
    if mid + acc["max_mv"] / 1000 > limit:
        out.append("- **the design fails here**: a sensitive sensor reads %.2f V upright, past "
                   "the ESP32 ADC's linear limit of %.2f V (magnets.json)" % (
                       mid + acc["max_mv"] / 1000, limit))
    return out


def registration_mm(mech=None):
    """How far a sensor may sit from its location's printed centre once assembled: the sum of
    mechanics.json's registration errors, each a worst case."""
    errors = (mech or coords_make.mechanics())["registration_error_mm"]
    return sum(v for k, v in errors.items() if not k.startswith("why"))


def render(variant):
    table = coords.read(variant.maps_dir + "/coords.json")
    lines = ["Layout: %d sensors, %d LEDs on a %g x %g mm sheet; the nearest two sensors %.1f mm "
             "apart; a sensor within %.1f mm of its location's printed centre once assembled "
             "(mechanics.json registration_error_mm)%s." % (
                 len(table["sensors"]), len(table["leds"]), table["sheet"][0],
                 table["sheet"][1], coords.pitch(table), registration_mm(),
                 "; the coordinates are the ASSUMED default" if "assumption" in table else ""),
             "", "Cables (coords.json; a group is a board of its own, joined to the strip's other "
             "groups by a cable):", ""] + render_cables(variant, table) + [
        "", "Acceptance of each strip on the bench:", ""] + render_acceptance(variant)
    return "\n".join(lines) + "\n"


def markers(variant):
    return ("<!-- build-sheet %s: generated by `python -m hardware.design sheet %s --doc`; "
            "do not edit -->" % (variant, variant), "<!-- end of build-sheet %s -->" % variant)

