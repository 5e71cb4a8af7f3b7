"""The pieces' magnets over the sensors (python -m hardware.design ranks): the field each magnet
puts on a Hall element on and off its axis (host_tools/sim/magnetics.py, the model the simulator
uses too), the readings at the edges of the tolerance box (piece, sensor height, placement),
whether they stay inside what the sensor, the ESP32's ADC and the firmware's fault window take,
and how far the ranks' readings stay from their band edges. Figures come from magnets.json."""
import math
import os

from hardware.design import coords, data
from host_tools.sim.magnetics import bz_mt, stack_mm
from firmware.hal import calibration, measure

MAGNETS_FILE = os.path.join(data.DESIGN_DIR, "magnets.json")
WAYS = ("upright", "upside_down")
NEIGHBOURS = 2  # the rank tables' box: kings on a sensor's two nearest locations (crosstalk_mt)
REACH_FROM_MM = 200.0  # the reach's search starts this far out, where every magnet is silent
REACH_STEP_MM = 1.0
DISTANCE_ROUND_MM = 0.01  # neighbour distances to this: the ring's sensors share one set


def table():
    return data.load_json(MAGNETS_FILE)


def u16_volts(u16):
    """The volts at the ADC pin a reading stands for, as the firmware converts it."""
    return calibration.u16_to_volts(u16)


def u16_swing_volts(u16):
    """A difference of readings as a difference of volts at the ADC pin."""
    return calibration.u16_to_volts(u16) - calibration.ADC_OFFSET_V


# -- geometry ---------------------------------------------------------------------------------
def board(spec, name):
    """A board's magnet entry with its stacks: the common ones, its own where it has them."""
    b = dict(spec["boards"][name])
    stacks = dict(spec["stacks"])
    stacks.update(b.get("stacks", {}))
    b["stacks"] = stacks
    return b


def kinds(spec, name):
    """The kinds of location a board has."""
    return list(board(spec, name)["locations"])


def distance_mm(spec, name, kind):
    """From the magnet's face to the Hall element, at the design's heights."""
    return stack_mm(spec, name, kind)


def lateral_mm(spec, name):
    """How far off its sensor's axis a piece's magnet may stand on that board: the centring
    overlay's pocket and registration, or a person's eye where there is none."""
    p = spec["placement"]
    if board(spec, name)["centring"]:
        return p["pocket_mm"] + p["sensor_mm"]
    return p["free_mm"]


def field_mt(spec, magnet, z_mm, rho_mm=0.0, br_mt=None, d_extra_mm=0.0):
    """Axial field (mT) of a magnet of magnets.json at z_mm below its face, rho_mm off its
    axis."""
    m = spec["magnets"][magnet]
    return bz_mt(br_mt or spec["material"]["br_mt"], (m["d_mm"] + d_extra_mm) / 2, m["l_mm"],
                 z_mm, rho_mm)


def rod_field_mt(d_mm, l_mm, z_mm, br_mt):
    """On-axis field of a cylinder magnet (the closed form's special case)."""
    return bz_mt(br_mt, d_mm / 2, l_mm, z_mm, 0.0)


def piece_magnets(spec, name):
    """[(label, magnet)] of a board's pieces: its ranks', or its one magnet."""
    pieces = board(spec, name)["pieces"]
    if pieces == "ranks":
        return [(r, spec["rank_magnets"][r]) for r in spec["ranks"]]
    return [("piece", pieces)]


def field_box(spec, name, magnet, kind, lateral=None, height=None):
    """(weakest, nominal, strongest) field (mT) of a magnet on a kind of location: Br,
    diameter and seat depth at their tolerances' ends, the sensor `height` mm low or high (the
    data's tolerance by default), the piece `lateral` mm off the axis at its weakest (the
    board's limit by default)."""
    h = spec["sensor"]["height_tolerance_mm"] if height is None else height
    low = piece_box(spec, name, magnet, kind, h, lateral)[0]
    high = piece_box(spec, name, magnet, kind, -h, lateral)[1]
    return low, field_mt(spec, magnet, distance_mm(spec, name, kind)), high


def piece_box(spec, name, magnet, kind, low_mm, lateral=None):
    """(weakest, strongest) field (mT) of a magnet on a sensor low_mm below its design height
    (negative: above): the pieces' tolerances at their ends, the weakest `lateral` mm off the
    axis (the board's limit by default), the strongest on it."""
    z = distance_mm(spec, name, kind) + low_mm
    br = spec["material"]["br_mt"]
    tol = spec["material"]["br_tolerance"]
    sp = spec["spread"]
    rho = lateral_mm(spec, name) if lateral is None else lateral
    return (field_mt(spec, magnet, z + sp["seat_mm"], rho, br * (1 - tol), -sp["diameter_mm"]),
            field_mt(spec, magnet, z - sp["seat_mm"], 0.0, br * (1 + tol), sp["diameter_mm"]))


# -- what a sensor reads ----------------------------------------------------------------------
def reading_box(spec, low_mt, high_mt, way):
    """(lowest, highest) reading (V) of a piece standing `way` whose field lies between low_mt
    and high_mt: the sensor's sensitivity and quiescent error at their ends."""
    s = spec["sensor"]
    mid = s["vcc"] / 2
    q = s["quiescent_error_mv"] / 1000.0
    sens = s["sensitivity_mv_per_mt"] / 1000.0
    t = s["sensitivity_tolerance"]
    weak = sens * (1 - t) * low_mt
    strong = sens * (1 + t) * high_mt
    if way == "upright":
        return mid - q + weak, mid + q + strong
    return mid - q - strong, mid + q - weak


def limits(spec):
    """The windows a reading must stay in (V), and the field the sensor reads linearly."""
    s = spec["sensor"]
    return {"fault": (u16_volts(calibration.FAULT_LO), u16_volts(calibration.FAULT_HI)),
            "adc": (s["down_limit_v"], s["upright_limit_v"]),
            "sensor_mt": s["linear_range_mt"],
            "detect_v": u16_swing_volts(calibration.NOMINAL_SWING) * calibration.ON}


def board_rows(spec, name):
    """Per location kind, piece and way up: the field box and the readings' box, and what
    each breaks (an empty list: nothing)."""
    lim = limits(spec)
    ranked = board(spec, name)["pieces"] == "ranks"
    mid = spec["sensor"]["vcc"] / 2
    out = []
    for kind in kinds(spec, name):
        holds = board(spec, name)["stacks"][kind].get("holds", WAYS)
        for label, magnet in piece_magnets(spec, name):
            low, nominal, high = field_box(spec, name, magnet, kind)
            for way in WAYS:
                lo, hi = reading_box(spec, low, high, way)
                row = {"kind": kind, "piece": label, "magnet": magnet, "way": way,
                       "low_mt": low, "nominal_mt": nominal, "high_mt": high, "lo_v": lo,
                       "hi_v": hi, "problems": []}
                _judge(row, lim, way in holds, ranked, mid)
                out.append(row)
    return out


def _judge(row, lim, in_play, ranked, mid):
    p = row["problems"]
    if row["lo_v"] < lim["fault"][0] or row["hi_v"] > lim["fault"][1]:
        p.append("outside the firmware's fault window %.1f-%.1f V" % lim["fault"])
    if row["high_mt"] > lim["sensor_mt"]:
        p.append("past the sensor's linear range (%d mT)" % lim["sensor_mt"])
    if in_play and (row["lo_v"] < lim["adc"][0] or row["hi_v"] > lim["adc"][1]):
        p.append("outside the ADC's linear range %.2f-%.2f V" % lim["adc"])
    if not ranked:
        # an uncalibrated board counts from VCC/2: the weakest piece must pass its threshold
        weakest = row["lo_v"] - mid if row["way"] == "upright" else mid - row["hi_v"]
        if weakest < lim["detect_v"]:
            p.append("weaker than the uncalibrated threshold (%.0f mV)" % (
                1000 * lim["detect_v"]))


def problems(spec, name):
    return ["%s %s %s: %s" % (r["kind"], r["piece"], r["way"], "; ".join(r["problems"]))
            for r in board_rows(spec, name) if r["problems"]]


# -- ranks ------------------------------------------------------------------------------------
RANKED_BOARD = "dog-6"  # dog-4 and dog-6 share their pieces and stacks


def ranks(spec=None, name=RANKED_BOARD):
    """Per rank: magnet, field (mT) on the axis of a space's sensor, swing (mV), and its level
    relative to the king's."""
    spec = spec or table()
    z = distance_mm(spec, name, "space")
    sens = spec["sensor"]["sensitivity_mv_per_mt"]
    out = []
    for rank in spec["ranks"]:
        magnet = spec["rank_magnets"][rank]
        b = field_mt(spec, magnet, z)
        out.append({"rank": rank, "magnet": magnet, "field_mt": b, "swing_mv": b * sens})
    for r in out:
        r["level"] = r["field_mt"] / out[0]["field_mt"]
    return out


def reach_mm(spec):
    """How far the strongest piece magnet of any board reaches: the distance beyond which its
    field at the sensor (its board's nearest stack) stays under magnets.json's crosstalk
    noise_fraction of one reading's noise, for good."""
    floor = (spec["crosstalk"]["noise_fraction"] * noise_mv(spec)
             / spec["sensor"]["sensitivity_mv_per_mt"])
    far = 0.0
    for name in spec["boards"]:
        z = min(distance_mm(spec, name, k) for k in kinds(spec, name))
        for _, magnet in piece_magnets(spec, name):
            r = REACH_FROM_MM
            while r > 0 and abs(field_mt(spec, magnet, z, r)) < floor:
                r -= REACH_STEP_MM
            far = max(far, r + REACH_STEP_MM)
    return far


def reach_problems(spec):
    """The crosstalk's within_mm against the magnets' reach: a list of what is wrong."""
    within = spec["crosstalk"]["within_mm"]
    far = reach_mm(spec)
    if within < far:
        return ["crosstalk within_mm %.0f leaves out fields above %g of the noise out to "
                "%.0f mm" % (within, spec["crosstalk"]["noise_fraction"], far)]
    return []


_NEAR = {}  # (variant, within_mm) -> the distinct sets of a sensor's neighbour distances


def neighbour_sets(name, within_mm):
    """The distinct sets of centre distances (mm) from a sensor to its neighbours closer
    than within_mm, over every sensor of the variant's coords.json (the ring's spaces share
    one set, so the worst case is sought over a few)."""
    key = (name, within_mm)
    if key not in _NEAR:
        near = coords.neighbours(coords.load(name), within_mm)
        sets = set()
        for others in near.values():
            sets.add(tuple(sorted(round(d / DISTANCE_ROUND_MM) * DISTANCE_ROUND_MM
                                  for _, d in others)))
        _NEAR[key] = sorted(sets)
    return _NEAR[key]


def crosstalk_mt(spec, name=RANKED_BOARD, low_mm=0.0):
    """(most lost, most gained) mT: over every sensor of the board's coords.json, a king
    upright on each of its NEIGHBOURS nearest locations, anywhere within its lateral limit off
    its own sensor; the sensor low_mm below its design height. An upright disc's field turns
    back off its axis and takes from the reading; a long rod's near pole can add to it."""
    z = distance_mm(spec, name, "space") + low_mm
    lat = lateral_mm(spec, name)
    king = spec["rank_magnets"][spec["ranks"][0]]
    lost = gained = 0.0
    for dists in neighbour_sets(name, spec["crosstalk"]["within_mm"]):
        down = up = 0.0
        for d in dists[:NEIGHBOURS]:
            fields = [field_mt(spec, king, z, r) for r in (d - lat, d, d + lat)]
            down += min(0.0, min(fields))
            up += max(0.0, max(fields))
        lost = min(lost, down)
        gained = max(gained, up)
    return lost, gained


SPOT = "%s:s%d"  # a colour's start-area spot K (coords.json, the maps)
WHY_SPOT_CROSSTALK = (
    "the calibration's ranks step (firmware/hal/measure.py) reads each colour's pieces on its "
    "start-area spots side by side, and each sensor reads its neighbours' fields too (off its "
    "axis a magnet's field turns back): the king, knight and citizen take %.0f %% from the "
    "jester's reading. Row k, column j (ranks in rank order): the part, in %d, of rank j's "
    "own swing that its piece puts on rank k's spot, from the rank magnets "
    "(hardware/design/magnets.json) at the start-area stack and the spots' distances in "
    "coords.json; the step takes it off. Written by `python -m hardware.design ranks "
    "--readme`")


def spot_crosstalk(spec, name):
    """The ranks step's crosstalk on a board (variant.json rank_crosstalk): RANKS x RANKS
    whole numbers, row k column j the part (in measure.CROSSTALK_SCALE) of rank j's own swing
    on its spot that reaches rank k's spot of the same colour, at the start-area stack and
    coords.json's distances (the mean over the colours, whose spots are laid out alike)."""
    pos = coords.positions(coords.load(name))
    z = distance_mm(spec, name, "start_area")
    mags = [spec["rank_magnets"][r] for r in spec["ranks"]]
    n = len(mags)
    on_axis = [field_mt(spec, m, z) for m in mags]
    colours = sorted(loc[:-3] for loc in pos if loc.endswith(SPOT % ("", 1)))
    total = [0.0] * (n * n)
    for c in colours:
        at = [pos[SPOT % (c, k + 1)] for k in range(n)]
        for k in range(n):
            for j in range(n):
                if j != k:
                    d = coords.distance(at[k], at[j])
                    total[n * k + j] += field_mt(spec, mags[j], z, d) / on_axis[j]
    return [int(round(v / len(colours) * measure.CROSSTALK_SCALE)) for v in total]


def ranked_boards(spec):
    """The boards whose pieces carry the rank magnets."""
    return [name for name in spec["boards"] if spec["boards"][name]["pieces"] == "ranks"]


def spot_loss(spec, name, crosstalk):
    """The share of the weakest rank's reading on its spot its colour's other pieces take."""
    z = distance_mm(spec, name, "start_area")
    fields = [field_mt(spec, spec["rank_magnets"][r], z) for r in spec["ranks"]]
    n = len(fields)
    return -sum(crosstalk[n * (n - 1) + j] * fields[j] for j in range(n)) / (
        fields[-1] * measure.CROSSTALK_SCALE)


def with_spot_crosstalk(info, spec, name):
    """A variant.json's content with its rank_crosstalk as computed now (after why_ranked)."""
    c = spot_crosstalk(spec, name)
    why = WHY_SPOT_CROSSTALK % (100.0 * spot_loss(spec, name, c), measure.CROSSTALK_SCALE)
    out = {}
    for key in info:
        if key not in ("rank_crosstalk", "why_rank_crosstalk"):
            out[key] = info[key]
        if key == "why_ranked":
            out["rank_crosstalk"] = c
            out["why_rank_crosstalk"] = why
    return out


def rank_reads(spec, name=RANKED_BOARD, own_gain=True, lateral=None, height=None,
               crosstalk=None):
    """Per rank, the (lowest, highest) reading as a fraction of the king's swing the sensor's
    calibration expects, over the tolerance box: the piece and the sensor height at their
    ends, the piece up to `lateral` mm off the axis, the neighbours' crosstalk. own_gain: the
    sensor's gain measured by a king standing on it (anywhere in the box, the sensor's own
    height), else the board's mean king and the sensor's sensitivity tolerance. lateral,
    height, crosstalk (mT lost, as crosstalk_mt's first): the box's edges other than the
    design's."""
    spec = spec or table()
    levels = [r["level"] for r in ranks(spec, name)]
    king = spec["rank_magnets"][spec["ranks"][0]]
    t = spec["sensor"]["sensitivity_tolerance"]
    k_nom = ranks(spec, name)[0]["field_mt"]
    out = []
    for k, rank in enumerate(spec["ranks"]):
        magnet = spec["rank_magnets"][rank]
        lo = hi = None
        for h in _heights(spec, height):
            b_lo, b_hi = piece_box(spec, name, magnet, "space", h, lateral)
            lost, gained = crosstalk_mt(spec, name, h) if crosstalk is None else (crosstalk, 0)
            b_lo += lost
            b_hi += gained
            if own_gain:
                k_lo, k_hi = piece_box(spec, name, king, "space", h, lateral)
                pair = (b_lo / k_hi, b_hi / k_lo)
            else:
                pair = (b_lo * (1 - t) / k_nom, b_hi * (1 + t) / k_nom)
            lo = pair[0] if lo is None else min(lo, pair[0])
            hi = pair[1] if hi is None else max(hi, pair[1])
        out.append({"rank": rank, "level": levels[k], "lo": lo, "hi": hi})
    return out


def _heights(spec, height):
    h = spec["sensor"]["height_tolerance_mm"] if height is None else height
    return (-h, h) if h else (0.0,)


def rank_margins(spec=None, name=RANKED_BOARD, **box):
    """Per neighbouring pair of ranks (and the smallest rank and an empty location): the edge
    between them (the geometric mean of their levels, as the firmware's calibration puts
    it; half the smallest level for empty) and how far, on a log scale, the higher rank's
    lowest and the lower rank's highest reading stay from it (the smaller; below 0: a misread
    rank). box: rank_reads' own_gain, lateral, height, crosstalk."""
    reads = rank_reads(spec, name, **box)
    out = []
    for hi, lo in zip(reads, reads[1:]):
        edge = math.sqrt(hi["level"] * lo["level"])
        out.append({"pair": "%s/%s" % (hi["rank"], lo["rank"]), "edge": edge,
                    "margin": min(_log_ratio(hi["lo"], edge), _log_ratio(edge, lo["hi"]))})
    last = reads[-1]
    edge = last["level"] / 2
    out.append({"pair": "%s/empty" % last["rank"], "edge": edge,
                "margin": _log_ratio(last["lo"], edge)})
    return out


def _log_ratio(a, b):
    """log(a / b); -inf where crosstalk has pulled a reading to zero or past it."""
    return math.log(a / b) if a > 0 and b > 0 else -math.inf


def noise_mv(spec):
    """Sigma of one reading's electrical noise: the sensor's and the ESP32 ADC's."""
    return math.hypot(spec["sensor"]["noise_mv_rms"], spec["adc"]["noise_mv_rms"])


def noise_margins(spec=None, name=RANKED_BOARD):
    """Per neighbouring pair: the gap between their nominal readings and the edge's distance
    from the nearer one, in sigmas of one reading's noise."""
    spec = spec or table()
    rs = ranks(spec, name)
    noise = noise_mv(spec)
    out = []
    for hi, lo in zip(rs, rs[1:]):
        edge = math.sqrt(hi["swing_mv"] * lo["swing_mv"])
        out.append({"pair": "%s/%s" % (hi["rank"], lo["rank"]), "edge_mv": edge,
                    "gap_mv": hi["swing_mv"] - lo["swing_mv"],
                    "edge_noise_sigma": min(hi["swing_mv"] - edge, edge - lo["swing_mv"]) / noise})
    last = rs[-1]
    out.append({"pair": "%s/empty" % last["rank"], "edge_mv": last["swing_mv"] / 2,
                "gap_mv": last["swing_mv"], "edge_noise_sigma": last["swing_mv"] / 2 / noise})
    return out


# -- the README's tables and the `ranks` report -----------------------------------------------
KIND_NAMES = {"space": "spaces", "home": "homes", "start_area": "start-area spots",
              "hole": "holes"}
README_BLOCKS = ("magnets", "ranks")


def _kind_groups(spec, name):
    """The board's location kinds, those at the same stack together: [(label, kind)]."""
    groups = []
    for kind in kinds(spec, name):
        z = distance_mm(spec, name, kind)
        for g in groups:
            if g[2] == z:
                g[0].append(KIND_NAMES[kind])
                break
        else:
            groups.append([[KIND_NAMES[kind]], kind, z])
    return [(", ".join(g[0]), g[1]) for g in groups]


def _boards_alike(spec):
    """Board names, those with the same magnets and stacks together: [(label, name)]."""
    seen = []
    for name in spec["boards"]:
        key = (repr(board(spec, name)), )
        for s in seen:
            if s[2] == key:
                s[0].append(name)
                break
        else:
            seen.append([[name], name, key])
    return [(", ".join(s[0]), s[1]) for s in seen]


def magnets_block(spec=None):
    """hardware/README.md's table of every board's magnets over its sensors (Markdown)."""
    spec = spec or table()
    lines = ["| board | locations | piece | magnet (N45) | field: nominal (weakest-strongest) "
             "| upright reads | upside down reads | verdict |", "|---|---|---|---|---|---|---|---|"]
    for label, name in _boards_alike(spec):
        rows = board_rows(spec, name)
        for kinds_label, kind in _kind_groups(spec, name):
            for piece, magnet in piece_magnets(spec, name):
                up, dn = [r for r in rows if r["kind"] == kind and r["piece"] == piece]
                m = spec["magnets"][magnet]
                verdict = "; ".join(up["problems"] + dn["problems"]) or "inside every window"
                lines.append("| %s | %s | %s | %g x %g mm | %.1f mT (%.1f-%.1f) | %.2f-%.2f V | "
                             "%.2f-%.2f V | %s |" % (
                                 label, kinds_label, piece, m["d_mm"], m["l_mm"],
                                 up["nominal_mt"], up["low_mt"], up["high_mt"], up["lo_v"],
                                 up["hi_v"], dn["lo_v"], dn["hi_v"], verdict))
    return "\n".join(lines) + "\n"


def ranks_block(spec=None):
    """hardware/README.md's rank table and margins (Markdown)."""
    spec = spec or table()
    reads = rank_reads(spec)
    lines = ["| rank | magnet (N45) | field at the sensor | swing at 15 mV/mT | a king's | "
             "reads, over the box | ", "|---|---|---|---|---|---|"]
    for r, rd in zip(ranks(spec), reads):
        m = spec["magnets"][r["magnet"]]
        lines.append("| %s | %g x %g mm | %.1f mT | %.0f mV | %.3f | %.3f-%.3f |" % (
            r["rank"], m["d_mm"], m["l_mm"], r["field_mt"], r["swing_mv"], r["level"],
            rd["lo"], rd["hi"]))
    free = spec["placement"]["free_mm"]
    cases = (rank_margins(spec), rank_margins(spec, own_gain=False),
             rank_margins(spec, lateral=free))
    noise = noise_margins(spec)
    lines += ["", "| neighbours | edge (a king's) | edge / noise | margin: this design | "
              "the board's mean gain | no centring (%g mm off) |" % free,
              "|---|---|---|---|---|---|"]
    for j in range(len(noise)):
        lines.append("| %s | %.3f (%.0f mV) | %.0f s | %s | %s | %s |" % (
            noise[j]["pair"].replace("/", " / "), cases[0][j]["edge"], noise[j]["edge_mv"],
            noise[j]["edge_noise_sigma"], _pct(cases[0][j]["margin"]),
            _pct(cases[1][j]["margin"]), _pct(cases[2][j]["margin"])))
    return "\n".join(lines) + "\n"


def _pct(log_margin):
    """A log margin as the percentage a reading may still move: '+12 %', or 'MISREAD -5 %'."""
    pct = 100 * (math.exp(log_margin) - 1)
    return ("%+.0f %%" % pct) if log_margin > 0 else ("MISREAD %+.0f %%" % pct)


def report(spec=None):
    """What `python -m hardware.design ranks` prints: both README tables and any problems."""
    spec = spec or table()
    out = ["Magnets over the sensors (tolerance box: Br, diameter and seat at their ends, the "
           "sensor %.1f mm high or low, the piece up to the board's lateral limit off the axis; "
           "%.1f mm with the centring overlay, %.1f mm without)" % (
               spec["sensor"]["height_tolerance_mm"],
               spec["placement"]["pocket_mm"] + spec["placement"]["sensor_mm"],
               spec["placement"]["free_mm"]), "", magnets_block(spec),
           "Ranks (DOG Royal), each sensor's gain measured by a king:", "", ranks_block(spec)]
    for name in spec["boards"]:
        for p in problems(spec, name):
            out.append("PROBLEM %s: %s" % (name, p))
    for p in reach_problems(spec):
        out.append("PROBLEM crosstalk: %s" % p)
    return "\n".join(out) + "\n"


def readme_markers(block):
    """The markers round a generated block of hardware/README.md."""
    return ("<!-- %s: generated by `python -m hardware.design ranks --readme`; do not edit -->"
            % block, "<!-- end of %s -->" % block)


def readme_block(block, spec=None):
    return {"magnets": magnets_block, "ranks": ranks_block}[block](spec)


def update_readme(text, spec=None):
    """hardware/README.md's text with every generated block as computed now; ValueError if a
    block's markers are missing."""
    for block in README_BLOCKS:
        begin, end = readme_markers(block)
        if begin not in text or end not in text:
            raise ValueError("hardware/README.md has no markers for the %s table" % block)
        start = text.index(begin) + len(begin) + 1
        text = text[:start] + readme_block(block, spec) + text[text.index(end):]
    return text
