# The field of a piece's magnet at a Hall element, on and off its axis: a uniformly,
# axially magnetised cylinder (an NdFeB disc or rod) is, for the field outside it, a solenoid
# of surface current Br / mu0 per unit length. Derby and Olbert (Am. J. Phys. 78, 229 (2010),
# "Cylindrical magnets and ideal solenoids") give that solenoid's field in closed form through
# Bulirsch's generalised complete elliptic integral cel(kc, p, c, s), computed by an AGM-like
# iteration that converges quadratically (R. Bulirsch, Numer. Math. 13, 305 (1969)).
#
# Runs on MicroPython (the simulated world calls it next to the firmware) and on CPython
# (hardware/design/magnets.py): math.sqrt only, no scipy. The world calls it once per
# placement, never per ADC conversion.
import gc
import math
import sys
from array import array

from hardware.design import coords
from shared_rules.rng import Rng

HALF_PI = math.pi / 2
CEL_TOL = 1e-9  # relative: far below any tolerance of a magnet or a board


def cel(kc, p, c, s):
    """Bulirsch's complete elliptic integral: the integral over phi from 0 to pi/2 of
    (c cos^2 + s sin^2) / ((cos^2 + p sin^2) sqrt(cos^2 + kc^2 sin^2)). kc != 0. The
    algorithm as Derby and Olbert print it (their appendix), step for step."""
    k = abs(kc)
    em = 1.0
    cc = c
    if p > 0:
        pp = math.sqrt(p)
        ss = s / pp
    else:
        f = kc * kc
        q = (1.0 - f) * (s - c * p)
        g = 1.0 - p
        f = f - p
        pp = math.sqrt(f / g)
        cc = (c - s) / g
        ss = -q / (g * g * pp) + cc * pp
    f = cc
    cc = cc + ss / pp
    g = k / pp
    ss = 2.0 * (ss + f * g)
    pp = g + pp
    g = em
    em = k + em
    kk = k
    while abs(g - k) > g * CEL_TOL:
        k = 2.0 * math.sqrt(kk)
        kk = k * em
        f = cc
        cc = cc + ss / pp
        g = kk / pp
        ss = 2.0 * (ss + f * g)
        pp = g + pp
        g = em
        em = k + em
    return HALF_PI * (ss + cc * em) / (em * (em + pp))


def bz_mt(br_mt, radius_mm, length_mm, z_mm, rho_mm):
    """The axial field (mT) of a cylinder magnet (remanence br_mt, axially magnetised) at a
    point z_mm beyond its near face along the axis and rho_mm off the axis; positive along its
    magnetisation. On the axis this is Br/2 ((z+L)/sqrt(R^2+(z+L)^2) - z/sqrt(R^2+z^2))."""
    a = radius_mm
    b = length_mm / 2.0
    zc = z_mm + b  # from the magnet's centre
    rho = abs(rho_mm)
    gamma = (a - rho) / (a + rho)
    total = 0.0
    for zz, sign in ((zc + b, 1.0), (zc - b, -1.0)):
        far = math.sqrt(zz * zz + (a + rho) * (a + rho))
        kc = math.sqrt(zz * zz + (a - rho) * (a - rho)) / far
        if kc == 0.0:
            kc = 1e-12  # on the rim of a face: the field's integrable edge, not a pole
        total += sign * (zz / far) * cel(kc, gamma * gamma, 1.0, gamma)
    return br_mt / math.pi * a / (a + rho) * total


def profile(br_mt, radius_mm, length_mm, z_mm, step_mm, points):
    """Bz (mT) at lateral offsets 0, step, 2 step, ... (points values): a table to
    interpolate instead of the elliptic integrals."""
    return [bz_mt(br_mt, radius_mm, length_mm, z_mm, j * step_mm) for j in range(points)]


def lookup(table, step_mm, x_mm):
    """Linear interpolation in a profile; beyond its end, its last value."""
    t = abs(x_mm) / step_mm
    j = int(t)
    if j >= len(table) - 1:
        return table[-1]
    f = t - j
    return table[j] + (table[j + 1] - table[j]) * f


# -- a board's pieces over its sensors --------------------------------------------------------
UNIT = 1000000  # resolution of a uniform draw from the world's Rng
ON_MICROPYTHON = sys.implementation.name == "micropython"


def uniform(rng, lo, hi):
    return lo + (hi - lo) * rng.below(UNIT + 1) / UNIT


class Neighbours:
    """Every sensor's neighbours within the crosstalk's reach: sensor i's are idx[k] at mm[k]
    mm for k in range(start[i], start[i + 1]). Three flat arrays: on the device's heap a list
    per sensor (as coords.neighbours builds, by name) kept among the garbage of working them
    out leaves the heap in fragments too small for the firmware's imports."""

    def __init__(self, positions, within_mm):
        """positions: each sensor's (x, y) mm, in the board's sensor order (coords.json's).
        Two passes over the pairs in reach, the arrays made once at their size between them:
        arrays grown pair by pair would leave their old copies as holes among what the world
        keeps. A sensor's neighbours come in index order."""
        n = len(positions)
        count = bytearray(n)  # a sensor has far fewer than 256 neighbours within reach
        for i, j, d in _pairs_in_reach(positions, within_mm):
            count[i] += 1
            count[j] += 1
        self.start = array("H", [0] * (n + 1))
        for i in range(n):
            self.start[i + 1] = self.start[i] + count[i]
        self.idx = array("H", [0] * self.start[n])
        self.mm = array("f", [0.0] * self.start[n])
        at = array("H", self.start)  # where each sensor's next neighbour goes
        for i, j, d in _pairs_in_reach(positions, within_mm):
            self._put(at, i, j, d)
            self._put(at, j, i, d)
        for i in range(n):
            self._in_index_order(self.start[i], self.start[i + 1])

    def _put(self, at, i, j, d):
        self.idx[at[i]] = j
        self.mm[at[i]] = d
        at[i] += 1

    def _in_index_order(self, lo, hi):
        # an insertion sort of one sensor's few neighbours, in place
        idx, mm = self.idx, self.mm
        for k in range(lo + 1, hi):
            j, d = idx[k], mm[k]
            m = k
            while m > lo and idx[m - 1] > j:
                idx[m], mm[m] = idx[m - 1], mm[m - 1]
                m -= 1
            idx[m], mm[m] = j, d

    def of(self, i):
        return range(self.start[i], self.start[i + 1])

    def holds(self, i, j):
        """Whether sensor j is one of sensor i's neighbours."""
        for k in self.of(i):
            if self.idx[k] == j:
                return True
        return False


# a pair further apart than the reach along x alone (plus this much, for the rounding of the
# distance's square root) cannot be within it
REACH_SLACK_MM = 0.001


def _pairs_in_reach(positions, within_mm):
    """(i, j, their distance) for each pair i < j of positions closer than within_mm: a sweep
    along x over the positions sorted by it, the distance worked out only for pairs near in
    both x and y (the board's 144 sensors: some 1,500 distances, not 41,000)."""
    order = sorted(range(len(positions)), key=lambda k: positions[k][0])
    reach = within_mm + REACH_SLACK_MM
    for a in range(len(order)):
        i = order[a]
        p = positions[i]
        for b in range(a + 1, len(order)):
            j = order[b]
            q = positions[j]
            if q[0] - p[0] > reach:
                break
            if abs(q[1] - p[1]) <= reach:
                d = coords.distance(p, q)
                if d < within_mm:
                    yield (i, j, d) if i < j else (j, i, d)


def sensor_neighbours(table, locs, within_mm):
    """The Neighbours (by sensor index) of a board's sensors, from the variant's coords table
    (the distances coords.neighbours gives), worked out once when the world is made (at every
    boot of a simulated device). A location the coordinates lack: ValueError."""
    pos = coords.positions(table)
    for loc in locs:
        if loc not in pos:
            raise ValueError("no coordinates for sensor location %r" % (loc,))
    near = Neighbours([pos[loc] for loc in locs], within_mm)
    if ON_MICROPYTHON:
        # the distances' float garbage has filled the heap and left
        # the allocator high in it; collected now, what the world keeps next packs in low
        gc.collect()
    return near


class Piece:
    """One piece's magnet as made (its own Br, diameter and seat depth) and where it stands."""

    def __init__(self, br, radius, length, seat, polarity):
        self.br = br
        self.radius = radius
        self.length = length
        self.seat = seat
        self.polarity = 1 if polarity > 0 else -1  # 1: south pole down when upright; -1: north
        self.at = -1
        self.sign = 1  # its field's sign at the sensor now (polarity, upside down)
        # how far its magnet's axis stands off the Hall element now, and how far above its
        # place a hand holds it, kept in place: a float object made at each placement, among
        # the field's working garbage, would scatter over the device's heap
        self._rho = array("d", [0.0, 0.0])
        self.placed = 0  # how many times a hand has put it down

    @property
    def rho(self):
        return self._rho[0]

    @rho.setter
    def rho(self, mm):
        self._rho[0] = mm

    @property
    def above(self):
        return self._rho[1]

    @above.setter
    def above(self, mm):
        self._rho[1] = mm

    def bz(self, z_mm, rho_mm):
        return self.sign * bz_mt(self.br, self.radius, self.length,
                                 z_mm + self.seat + self._rho[1], rho_mm)


def disc(rng, radius):
    """A point drawn evenly over a disc of that radius: (x, y) mm."""
    r = radius * math.sqrt(uniform(rng, 0.0, 1.0))
    a = uniform(rng, 0.0, 2 * math.pi)
    return r * math.cos(a), r * math.sin(a)


def stack_mm(spec, board, kind):
    """From a piece's magnet face to the Hall element at the design's heights."""
    st = dict(spec["stacks"][kind])
    st.update(spec["boards"][board].get("stacks", {}).get(kind, {}))
    return st["board_mm"] + st.get("spacer_mm", 0.0) + st["base_mm"] + spec["hall_depth_mm"]


class BoardField:
    """The field at every sensor from the pieces on a board: each sensor's own piece (own)
    and its neighbours' (cross), worked out whenever a piece is put down, turned or lifted, so
    that an ADC conversion adds two numbers. Every figure comes from magnets.json (spec): each
    sensor's height error and, with the centring overlay, its pocket's fixed offset are drawn
    once from the world's rng, each piece's magnet as made (Br, diameter, seat depth) too;
    where a hand puts a piece down is drawn per placement from the seed, the piece and how
    many times it was put down, so the host's copy of the world and the device's agree."""

    def __init__(self, spec, board, kinds, near, rng, seed, magnets, polarity=None):
        """kinds: each sensor's kind of location (space, hole, home, start_area); near: the
        sensors' Neighbours within the reach of magnets.json's crosstalk (sensor_neighbours); magnets: {piece: magnet name of spec}; polarity:
        {piece: -1} for a piece whose north pole is down when it stands upright (default:
        south, +1)."""
        b = spec["boards"][board]
        p = spec["placement"]
        self.seed = seed
        self.pocket = p["pocket_mm"] if b["centring"] else p["free_mm"]
        reg = p["sensor_mm"] if b["centring"] else 0.0
        self.limit = self.pocket + reg  # how far off its sensor's axis a piece may stand
        self.capture = p["capture_mm"] if b["centring"] else p["free_mm"]
        self.height_tol = spec["sensor"]["height_tolerance_mm"]
        self.z0 = [stack_mm(spec, board, k) for k in kinds]
        self.depth = [uniform(rng, -self.height_tol, self.height_tol) for _ in kinds]
        self.reg = [disc(rng, reg) for _ in kinds]
        self.near = near
        # doubles in place, as the given fields: no float object kept per sensor on the heap
        self.own = array("d", [0.0] * len(kinds))
        self.cross = array("d", [0.0] * len(kinds))
        self.given = array("d", [0.0] * len(near.idx))  # near's k-th pair: the field given
        self.order = sorted(magnets)  # MicroPython's dicts keep no order: draws go by name
        self.pieces = {}
        for name in self.order:
            self.pieces[name] = self._make(spec, magnets[name], rng,
                                           (polarity or {}).get(name, 1.0))

    def _make(self, spec, magnet, rng, polarity):
        m = spec["magnets"][magnet]
        mat = spec["material"]
        sp = spec["spread"]
        br = mat["br_mt"] * (1 + uniform(rng, -mat["br_tolerance"], mat["br_tolerance"]))
        d = m["d_mm"] + uniform(rng, -sp["diameter_mm"], sp["diameter_mm"])
        seat = uniform(rng, -sp["seat_mm"], sp["seat_mm"])
        return Piece(br, d / 2, m["l_mm"], seat, polarity)

    def put(self, name, i, upside_down, hand=False, off_mm=None):
        """Piece `name` now stands on sensor i (-1: in a hand), upside down or not. hand: a
        hand put it down (a new place in its pocket); else it was turned over or passes over
        (a slide) where it was. off_mm: its magnet's axis that far off the Hall element."""
        p = self.pieces[name]
        self._take(p)
        p.at = i
        p.sign = -p.polarity if upside_down else p.polarity
        p.above = 0.0
        if i < 0:
            return
        if off_mm is not None:
            p.rho = off_mm
        elif hand:
            p.placed += 1
            p.rho = self._offset(name, p.placed, i)
        self._give(p)

    def recall(self, name, i, upside_down, placed):
        """A piece standing where a snapshot had it, put down `placed` times so far."""
        p = self.pieces[name]
        p.placed = placed
        p.rho = self._offset(name, placed, i) if i >= 0 else 0.0
        self.put(name, i, upside_down)

    def _offset(self, name, count, i):
        r = Rng(self.seed * 7919 + self.order.index(name) * 104729 + count * 1299709)
        r.below(2)  # the first draw after seeding follows the seed too closely
        x, y = disc(r, self.pocket)
        sx, sy = self.reg[i]
        return math.sqrt((x + sx) * (x + sx) + (y + sy) * (y + sy))

    def _take(self, p):
        if p.at < 0:
            return
        self.own[p.at] = 0.0
        near = self.near
        for k in near.of(p.at):
            self.cross[near.idx[k]] -= self.given[k]
            self.given[k] = 0.0

    def _give(self, p):
        i = p.at
        self.own[i] = p.bz(self.z0[i] + self.depth[i], p.rho)
        near = self.near
        for k in near.of(i):
            j = near.idx[k]
            f = p.bz(self.z0[j] + self.depth[j], near.mm[k])
            self.cross[j] += f
            self.given[k] = f

    def hold(self, i, mm):
        """The piece on sensor i is held mm above its place (0: it rests there)."""
        for name in self.order:
            p = self.pieces[name]
            if p.at == i:
                self._take(p)
                p.above = mm
                self._give(p)

    def set_depth(self, i, mm):
        """Sensor i sits mm below its design height (negative: above)."""
        self.depth[i] = mm
        for name in self.order:
            p = self.pieces[name]
            if p.at >= 0 and (p.at == i or self.near.holds(p.at, i)):
                self._take(p)
                self._give(p)
