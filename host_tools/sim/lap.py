# The gains lap of a ranked board's calibration (hardware/README.md, Calibrating a ranked
# board), planned for simulated hands: the host's simulator (host_tools/sim/server.py) and the
# MicroPython tests put the pieces down as it says. MicroPython-clean.
from shared_rules.ranks import RANKS  # red-1 ... red-4 (docs/board-protocols.md)


def rank_of_piece(name):
    """The rank printed on a piece of a ranked set ("red-1" is a king), public as the piece."""
    return RANKS[int(name.rsplit("-", 1)[1]) - 1]


def gains_rounds(locs, names):
    """The gains lap of a ranked board's calibration, as rounds of {location: piece}: every
    track space and home measured once, by whichever piece comes (its rank told to the step);
    in a round no two pieces stand side by side (a neighbour's field would be measured with
    the piece's); in the first rounds each colour's king stands on its own s2, s3, s4 in turn,
    so the ranks step after the lap divides each piece's reading there by its own sensor's."""
    kings = [n for n in names if n.endswith("-1")]
    others = [n for n in names if not n.endswith("-1")]
    rounds = [dict(("%s:s%d" % (k.rsplit("-", 1)[0], s), k) for k in kings)
              for s in (2, 3, 4)]
    spaced = sorted((loc for loc in locs if ":s" not in loc), key=_lap_order)
    r = 0
    while spaced:
        if r >= len(rounds):
            rounds.append({})
        free = others if r < 3 else names
        rounds[r].update(zip(spaced[:len(free)], free))
        spaced = spaced[len(free):]
        r += 1
    return rounds


def _lap_order(loc):
    """Every other location first (0, 2, 4 ... then 1, 3 ...; homes h1, h3 then h2, h4):
    consecutive ones in a round are never neighbours."""
    if ":" in loc:
        k = int(loc[-1])
        return (k % 2 == 0, 1, loc[:-1], k)
    return (int(loc) % 2 == 1, 0, "", int(loc))
