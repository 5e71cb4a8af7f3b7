# Calibration's measuring steps (the console's `calibrate` command, firmware/calibrate.py,
# and the bring-up tools): the empty board's baselines, the pieces' swings and, on a board
# whose pieces carry ranks, each rank's level. Apart from hal/calibration.py, which the board
# reads at every start, so a game never loads them.
from firmware.hal.calibration import NOMINAL_SWING, RANKS, RANK_PRESENT, MIN_LEVEL_RATIO
from firmware.mpconst import const

# The ranks step's crosstalk (a variant's rank_crosstalk, hardware/design/magnets.py
# spot_crosstalk): in these parts of a neighbour's own swing, so the correction stays in
# integers (a float is an object on the heap)
CROSSTALK_SCALE = const(10000)
# each round of the correction shrinks its error by the crosstalk's share of a reading (a few
# per cent): three leave under a millionth of a swing
_CROSSTALK_ROUNDS = const(3)


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


class MissingPieces(ValueError):
    """The sensors where a person said a piece stands and none reads (their indices)."""

    def __init__(self, sensors):
        # super(): MicroPython's built-in exceptions have no __init__ to call by name
        super().__init__("no piece read on %d sensors" % len(sensors))
        self.sensors = sensors


def measure_pieces(scanner, calib, scans=8, margin=0.3, rank_at=None):
    """Averages `scans` scans and records, for every sensor that a piece now clearly moves off
    its baseline (past `margin` of the nominal swing), the reading as its upright or
    upside-down level. On a ranked board any rank will do: the reading is sorted into its rank
    by the bands and kept with it, and the king's swing on that sensor follows from the rank's
    level. rank_at: per sensor the rank a person put there (NO rank: 255): only those sensors
    are measured, each with that rank whatever the bands say (a sensor far from the board's
    mean gain would be sorted into the wrong rank); MissingPieces (nothing changed) if one of
    them reads no piece. Returns (upright sensors measured, upside-down sensors measured)."""
    sums = _sums(scanner, calib.n, scans)
    found = []
    missing = []
    for i in range(calib.n):
        r = sums[i] // scans
        p = _piece(calib, i, r, margin, rank_at)
        if p is not None:
            found.append((i, r, p))
        elif rank_at is not None and rank_at[i] < RANKS:
            missing.append(i)
    if missing:
        raise MissingPieces(missing)
    ups = 0
    for i, r, p in found:
        if p[0]:
            calib.up[i] = r
            calib.up_rank[i] = p[1]
            ups += 1
        else:
            calib.down[i] = r
            calib.down_rank[i] = p[1]
    calib.update()
    scanner.use(calib)
    return ups, len(found) - ups


def _piece(calib, i, r, margin, rank_at):
    """(upright, rank) of the piece reading r on sensor i, or None: none there (or a fault)."""
    if not calib.fault_lo <= r <= calib.fault_hi:
        return None  # a fault is not a magnet
    d = r - calib.base[i]
    if rank_at is not None:
        if rank_at[i] >= RANKS or -RANK_PRESENT < d < RANK_PRESENT:
            return None
        return d > 0, rank_at[i]
    if calib.ranked:
        up_sw, dn_sw = calib.swing(i)
        edge = int((up_sw if d > 0 else dn_sw) * margin)
    else:
        edge = int(NOMINAL_SWING * margin)
    if -edge <= d <= edge:
        return None
    return d > 0, rank_of(calib, i, r, d > 0) if calib.ranked else 0


def rank_of(calib, i, r, upright):
    """The rank whose band reading r of sensor i lies in (no hysteresis)."""
    e = 3 * i
    for k in range(RANKS - 1):
        if (r > calib.up_edge[e + k]) if upright else (r < calib.dn_edge[e + k]):
            return k
    return RANKS - 1


def measure_ranks(scanner, calib, rank_at, scans=16, spots=None, crosstalk=None):
    """The ranks step: every piece stands on a sensor whose rank_at[i] says which rank it is
    (the start-area spots, king on s1 ... jester on s4; NO rank: 255). Averages `scans` scans;
    each rank's level is its swing over the king's (see _levels), and each measured sensor
    keeps its reading with its rank. spots, crosstalk: each colour's start-area sensors in rank
    order, and what its pieces put on each other's sensors (see _own): the readings are
    corrected for it. Returns the number of pieces read per rank; raises ValueError (changing
    nothing) when a rank is missing or the ranks are not told apart."""
    seen = _seen(calib, rank_at, _sums(scanner, calib.n, scans), scans)
    if crosstalk is not None:
        seen = _own(seen, spots, crosstalk)
    tot_up = [0] * RANKS
    n_up = [0] * RANKS
    tot_dn = [0] * RANKS
    n_dn = [0] * RANKS
    for i, k, d in seen:
        if d > 0:
            tot_up[k] += d
            n_up[k] += 1
        else:
            tot_dn[k] -= d
            n_dn[k] += 1
    count = [n_up[k] + n_dn[k] for k in range(RANKS)]
    if 0 in count:
        raise ValueError("no piece read for rank %d: put each colour's pieces on its start "
                         "area, king on s1, knight s2, citizen s3, jester s4" % (
                             count.index(0) + 1))
    levels = _levels(calib, seen, tot_up, tot_dn, count)
    for k in range(RANKS - 1):
        if levels[k] < levels[k + 1] * MIN_LEVEL_RATIO:
            raise ValueError("ranks %d and %d are not told apart (%.2f and %.2f of a king's "
                             "swing): are the pieces on their spots in rank order?" % (
                                 k + 1, k + 2, levels[k], levels[k + 1]))
    kings = (tot_up[0] + tot_dn[0]) // count[0]
    king_up = tot_up[0] // n_up[0] if n_up[0] else kings
    king_dn = tot_dn[0] // n_dn[0] if n_dn[0] else kings
    calib.set_ranks(levels, king_up, king_dn)
    for i, k, d in seen:
        if d > 0:
            calib.up[i] = calib.base[i] + d
            calib.up_rank[i] = k
        else:
            calib.down[i] = calib.base[i] + d
            calib.down_rank[i] = k
    calib.update()
    scanner.use(calib)
    return count


def _seen(calib, rank_at, sums, scans):
    """[(sensor, rank, swing)] of every piece read where rank_at expects one."""
    seen = []
    for i in range(calib.n):
        k = rank_at[i]
        if k >= RANKS:
            continue
        r = sums[i] // scans
        d = r - calib.base[i]
        if calib.fault_lo <= r <= calib.fault_hi and not -RANK_PRESENT < d < RANK_PRESENT:
            seen.append((i, k, d))
    return seen


def _own(seen, spots, crosstalk):
    """seen with each swing its piece's own: a start-area spot's sensor reads its piece and
    the field its colour's other pieces, a spot or two away, put there (off its axis a magnet's
    field turns back: the neighbours take a few per cent from an upright piece's reading, a
    fifth of a jester's). crosstalk[RANKS * k + j]: the part (in CROSSTALK_SCALE) of rank j's
    own swing that its piece puts on rank k's spot; spots: per colour its RANKS sensors in
    rank order (-1: none). Reading = own + sum of crosstalk * neighbour's own, solved by
    fixed-point rounds from own = reading."""
    read = {}
    for i, k, d in seen:
        read[i] = d
    own = read
    for _ in range(_CROSSTALK_ROUNDS):
        nxt = {}
        for group in spots:
            for k in range(RANKS):
                i = group[k]
                if i in read:
                    nxt[i] = read[i] - _cross(group, k, own, crosstalk) // CROSSTALK_SCALE
        own = nxt
    return [(i, k, own.get(i, d)) for i, k, d in seen]


def _cross(group, k, own, crosstalk):
    """What the other pieces of a colour put on rank k's spot, in CROSSTALK_SCALE parts."""
    x = 0
    for j in range(RANKS):
        m = group[j]
        if j != k and m in own:
            x += crosstalk[RANKS * k + j] * own[m]
    return x


def _levels(calib, seen, tot_up, tot_dn, count):
    """Each rank's swing as a fraction of the king's. Where the sensor under a piece holds a
    king's reading of its own (measured before with a king: rank 0), the piece's reading over
    it: the same sensor's gain and height on both sides. Else (no rank measured so) the rank's
    mean swing over the kings': those stand on other sensors, whose gains differ."""
    own = [0.0] * RANKS
    n_own = [0] * RANKS
    for i, k, d in seen:
        up = d > 0
        ref = calib.up[i] - calib.base[i] if up else calib.base[i] - calib.down[i]
        measured = calib.up[i] if up else calib.down[i]
        if k and measured and ref > 0 and not (calib.up_rank[i] if up else calib.down_rank[i]):
            own[k] += (d if up else -d) / ref
            n_own[k] += 1
    swing = [(tot_up[k] + tot_dn[k]) / count[k] for k in range(RANKS)]
    return [own[k] / n_own[k] if n_own[k] else swing[k] / swing[0] for k in range(RANKS)]
