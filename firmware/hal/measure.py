# Calibration's measuring steps (the console's `calibrate` command, firmware/calibrate.py,
# and the bring-up tools): the empty board's baselines, the pieces' swings and, on a board
# whose pieces carry ranks, each rank's level. Apart from hal/calibration.py, which the board
# reads at every start, so a game never loads them.
from firmware.hal.calibration import NOMINAL_SWING, RANKS, RANK_PRESENT, MIN_LEVEL_RATIO


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
    upside-down level. On a ranked board any rank will do: the reading is sorted into its rank
    by the bands, and the king's swing on that sensor follows from the rank's level.
    Returns (upright sensors measured, upside-down sensors measured)."""
    sums = _sums(scanner, calib.n, scans)
    ups = 0
    downs = 0
    for i in range(calib.n):
        r = sums[i] // scans
        if not calib.fault_lo <= r <= calib.fault_hi:
            continue  # a fault is not a magnet
        b = calib.base[i]
        up_sw, dn_sw = calib.swing(i)
        edge_up = int((up_sw if calib.ranked else NOMINAL_SWING) * margin)
        edge_dn = int((dn_sw if calib.ranked else NOMINAL_SWING) * margin)
        if r > b + edge_up:
            if calib.ranked:
                r = b + int((r - b) / calib.levels[rank_of(calib, i, r, True)])
            calib.up[i] = min(65535, r)
            ups += 1
        elif r < b - edge_dn:
            if calib.ranked:
                r = b - int((b - r) / calib.levels[rank_of(calib, i, r, False)])
            calib.down[i] = max(0, r)
            downs += 1
    calib.update()
    scanner.use(calib)
    return ups, downs


def rank_of(calib, i, r, upright):
    """The rank whose band reading r of sensor i lies in (no hysteresis)."""
    e = 3 * i
    for k in range(RANKS - 1):
        if (r > calib.up_edge[e + k]) if upright else (r < calib.dn_edge[e + k]):
            return k
    return RANKS - 1


def measure_ranks(scanner, calib, rank_at, scans=16):
    """The ranks step: every piece stands on a sensor whose rank_at[i] says which rank it is
    (the start-area spots, king on s1 ... jester on s4; NO rank: 255). Averages `scans` scans;
    each rank's level is its mean swing over the king's, and each measured sensor gets the
    king's swing its reading implies. Returns the number of pieces read per rank; raises
    ValueError (changing nothing) when a rank is missing or the ranks are not told apart."""
    sums = _sums(scanner, calib.n, scans)
    tot_up = [0] * RANKS
    n_up = [0] * RANKS
    tot_dn = [0] * RANKS
    n_dn = [0] * RANKS
    seen = []
    for i in range(calib.n):
        k = rank_at[i]
        if k >= RANKS:
            continue
        r = sums[i] // scans
        d = r - calib.base[i]
        if not calib.fault_lo <= r <= calib.fault_hi or -RANK_PRESENT < d < RANK_PRESENT:
            continue
        seen.append((i, k, d))
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
    # each rank's mean swing, from whichever way up it was measured (both: the mean of both)
    swing = [0.0] * RANKS
    for k in range(RANKS):
        swing[k] = (tot_up[k] + tot_dn[k]) / count[k]
    levels = [swing[k] / swing[0] for k in range(RANKS)]
    for k in range(RANKS - 1):
        if levels[k] < levels[k + 1] * MIN_LEVEL_RATIO:
            raise ValueError("ranks %d and %d are not told apart (%.2f and %.2f of a king's "
                             "swing): are the pieces on their spots in rank order?" % (
                                 k + 1, k + 2, levels[k], levels[k + 1]))
    king_up = int(tot_up[0] / n_up[0]) if n_up[0] else int(swing[0])
    king_dn = int(tot_dn[0] / n_dn[0]) if n_dn[0] else int(swing[0])
    calib.set_ranks(levels, king_up, king_dn)
    for i, k, d in seen:
        if d > 0:
            calib.up[i] = min(65535, calib.base[i] + int(d / levels[k]))
        else:
            calib.down[i] = max(0, calib.base[i] + int(d / levels[k]))
    calib.update()
    scanner.use(calib)
    return count
