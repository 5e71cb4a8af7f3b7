"""The card readers' physics, from readers.json: the field an RC522 module's antenna puts on a
sticker, how stickers lying on each other detune each other, and the field each sticker needs.
The simulator (host_tools/sim/nfc_chip.py) computes its readers with these functions, so this
module runs on MicroPython as well: math only at import time. `python -m hardware.design
readers` prints the figures hardware/README.md's Card readers section is computed from."""
import math

AGM_TOLERANCE = 1e-12
FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
UNIFORM_BYTE_SIGMA = 73.9   # one byte uniform over 0..255: sigma sqrt((256^2 - 1) / 12)
SIGMAS = 3                  # the weakest and the most sensitive sticker of a deck: 3 sigma
SEARCH_MM = 400.0           # farther than any board's readers lie from each other
BISECTIONS = 40
MID_PILE = 20               # a pile the report shows the middle of
PILE_BOARD = "agent-dog-4"  # whose pad the report's pile figures stand on (the DOG boards')


def ellip_ke(m):
    """The complete elliptic integrals K(m) and E(m) (parameter m = k^2), by the arithmetic-
    geometric mean (Abramowitz and Stegun 17.6): a few iterations to full precision."""
    a = 1.0
    b = math.sqrt(1.0 - m)
    s = m * 0.5
    w = 0.5
    while abs(a - b) > AGM_TOLERANCE * a:
        c = (a - b) * 0.5
        a, b = (a + b) * 0.5, math.sqrt(a * b)
        w *= 2
        s += w * c * c
    k = math.pi / (2 * a)
    return k, k * (1 - s)


def loop_hz(a, rho, z):
    """The axial field component of a circular loop of radius a carrying 1 A (lengths in mm,
    field in A/mm) at radius rho from its axis, height z over its plane."""
    sq = a * a + rho * rho + z * z
    alpha2 = sq - 2 * a * rho
    beta2 = sq + 2 * a * rho
    k, e = ellip_ke(1.0 - alpha2 / beta2)
    return ((a * a - rho * rho - z * z) * e + alpha2 * k) / (2 * math.pi * alpha2 *
                                                            math.sqrt(beta2))


class Field:
    """An RC522 module's field: a loop of its antenna's area, scaled to the reference field at
    the reference distance on its axis (readers.json field)."""

    def __init__(self, spec):
        f = spec["field"]
        w, h = f["antenna_mm"]
        self.a = math.sqrt(w * h / math.pi)
        self.scale = f["reference_a_per_m"] / loop_hz(self.a, 0.0,
                                                      f["reference_distance_mm"])

    def h(self, dx, dy, z):
        """The field through a sticker lying flat dx, dy off the antenna's centre, z above it
        (A/m, rms like the reference)."""
        return abs(self.scale * loop_hz(self.a, math.sqrt(dx * dx + dy * dy), z))


def stack_products(spec, n):
    """P[m]: what a sticker keeps of its field with m stickers lying on one side of it, one
    card pitch apart (readers.json sticker.stack_loss, the coupling of coaxial coils)."""
    s = spec["sticker"]
    a = s["diameter_mm"] / 2.0
    out = [1.0]
    for d in range(1, n + 1):
        gap = d * s["card_pitch_mm"]
        k = a ** 3 / (a * a + gap * gap) ** 1.5
        out.append(out[-1] * (1.0 - s["stack_loss"] * k))
    return out


def detune(products, i, n):
    """What the sticker i (0: the bottom) of a stack of n keeps of its field."""
    return products[i] * products[n - 1 - i]


def uid_gauss(uid):
    """A number of about unit spread fixed by a sticker's UID (its own tuning): four bytes of
    an FNV-1a hash, summed."""
    h = FNV_OFFSET
    for b in uid:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFF
    total = (h & 0xFF) + (h >> 8 & 0xFF) + (h >> 16 & 0xFF) + (h >> 24 & 0xFF)
    return (total - 510) / (2 * UNIFORM_BYTE_SIGMA)


def sticker_need(spec, uid):
    """The field (A/m) the sticker with this UID needs to power up."""
    s = spec["sticker"]
    return s["activation_a_per_m"] * (1.0 + s["activation_sigma"] * uid_gauss(uid))


# -- the figures of hardware/README.md (CPython) ------------------------------------------------

def load():
    import os
    from hardware.design import data
    return data.load_json(os.path.join(data.DESIGN_DIR, "readers.json"))


def _needs(spec):
    """(the most sensitive sticker's need, the nominal, the least sensitive's), A/m."""
    s = spec["sticker"]
    base = s["activation_a_per_m"]
    spread = SIGMAS * s["activation_sigma"]
    return base * (1 - spread), base, base * (1 + spread)


def _solve(fn, lo, hi):
    """x in [lo, hi] where fn turns from True to False (fn(lo) True, fn(hi) False)."""
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        if fn(mid):
            lo = mid
        else:
            hi = mid
    return lo


def reach_mm(spec, field, need):
    """How high over the antenna a lone sticker needing `need` still powers up, on its axis."""
    return _solve(lambda z: field.h(0, 0, z) >= need, 0.5, SEARCH_MM)


def pile_read(spec, field, depth, n, need):
    """Whether every sticker of a pile of n cards lying over the antenna powers up."""
    p = stack_products(spec, n)
    pitch = spec["sticker"]["card_pitch_mm"]
    return all(field.h(0, 0, depth + i * pitch) * detune(p, i, n) >= need for i in range(n))


def largest_pile(spec, field, depth, need, limit=200):
    n = 1
    while n < limit and pile_read(spec, field, depth, n + 1, need):
        n += 1
    return n


def pile_field(spec, field, layout, pad):
    """The strongest field any card of the discard pile gets from a pad's reader: its bottom
    card, put down as far towards the pad as the placement allows."""
    px, py = layout["pile_mm"]
    ax, ay = layout["pads_mm"][pad]
    d = math.sqrt((px - ax) ** 2 + (py - ay) ** 2) - 2 * spec["sticker"]["placement_mm"]
    return field.h(max(d, 0.0), 0, layout["antenna_depth_mm"])


def clear_mm(spec, field, depth, need):
    """How far from a pad's centre the field at the board's surface falls under `need`."""
    return _solve(lambda x: field.h(x, 0, depth) >= need, 0.0, SEARCH_MM)


def neighbour_ratio(spec, field, layout, pad, other):
    """Another pad's field at a card on this pad, as a fraction of this pad's own, the card
    put down as far towards the other pad as the placement allows."""
    ax, ay = layout["pads_mm"][pad]
    bx, by = layout["pads_mm"][other]
    gap = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    off = spec["sticker"]["placement_mm"]
    z = layout["antenna_depth_mm"]
    return field.h(gap - off, 0, z) / field.h(off, 0, z)


def _pads_table(spec, field):
    lo, nom, hi = _needs(spec)
    out = ["| board | pads | field at a card on a pad | discard pile | strongest field at a card "
           "of the pile | the most sensitive sticker needs |", "|---|---|---|---|---|---|"]
    for name in sorted(spec["layouts"]):
        lay = spec["layouts"][name]
        depth = lay["antenna_depth_mm"]
        pads = sorted(lay["pads_mm"])
        own = field.h(0, 0, depth)
        pile = max(pile_field(spec, field, lay, p) for p in pads)
        px, py = lay["pile_mm"]
        out.append("| %s | %s | %.1f A/m (%.0f mm over the antenna) | at (%d, %d) mm | %.2f A/m "
                   "(%.0f x less) | %.2f A/m |" % (
                       name, ", ".join(pads), own, depth, px, py, pile, lo / pile, lo))
    return out


def _sticker_lines(spec, field):
    lo, nom, hi = _needs(spec)
    depth = spec["layouts"][PILE_BOARD]["antenna_depth_mm"]
    s = spec["sticker"]
    return [
        "- A lone sticker powers up to %.0f mm above a module's antenna (%.0f mm for the most "
        "sensitive, %.0f mm for the least sensitive of a deck, +-%d sigma)."
        % (reach_mm(spec, field, nom), reach_mm(spec, field, lo), reach_mm(spec, field, hi),
           SIGMAS),
        "- A pile lying over a reader (%.0f mm under the bottom card, %.2f mm a card): every "
        "sticker of it powers up only up to %d cards (%d with the least sensitive stickers); in "
        "a pile of %d the middle card's sticker gets %.1f A/m. A DOG discard pile grows to most "
        "of the 110-card deck: a reader under it could read neither the card played on top nor "
        "an inventory of the pile, and from the second card on, two stickers in its field "
        "collide (\"two cards on the reader\")."
        % (depth, s["card_pitch_mm"], largest_pile(spec, field, depth, nom),
           largest_pile(spec, field, depth, hi), MID_PILE, _mid_pile(spec, field, depth,
                                                                      MID_PILE)),
        "- The field at the board's surface falls under the most sensitive sticker's %.2f A/m "
        "%.0f mm from a pad's centre: the discard pile's cards (put down within %d mm of its "
        "centre) must lie farther."
        % (lo, clear_mm(spec, field, depth, lo), s["placement_mm"]),
    ]


def _mid_pile(spec, field, depth, n):
    p = stack_products(spec, n)
    i = n // 2
    return field.h(0, 0, depth + i * spec["sticker"]["card_pitch_mm"]) * detune(p, i, n)


def _neighbour_lines(spec, field):
    out = []
    pause = spec["field"]["pause_fraction"]
    for name in sorted(spec["layouts"]):
        lay = spec["layouts"][name]
        pads = sorted(lay["pads_mm"])
        for p in pads:
            worst = max([(neighbour_ratio(spec, field, lay, p, o), o) for o in pads if o != p]
                        or [(0.0, None)])
            if worst[1] is not None:
                out.append("- %s, a card on the %s pad (up to %d mm off towards the %s pad): "
                           "were the %s reader's field on as well, it would be %.1f %% of its "
                           "own reader's there (above %.0f %% the sticker misses its reader's "
                           "pauses)." % (name, p, spec["sticker"]["placement_mm"], worst[1],
                                         worst[1], 100 * worst[0], 100 * pause))
    return out


def report(spec=None):
    """The Card readers figures of hardware/README.md, computed from readers.json."""
    spec = spec or load()
    field = Field(spec)
    lines = _pads_table(spec, field) + [""] + _sticker_lines(spec, field)
    lines += _neighbour_lines(spec, field)
    return "\n".join(lines) + "\n"
