# The next segment of a split card (the Partner 4): where a piece may be put down after some
# single steps, such that the rest of the card can still be played, and which pieces may be.
# What the referee's judge lights and accepts while a Partner 4 is played piece by piece
# (firmware/games/track/move_lights.py through shared_rules/hints.py). Its own module, so a
# board whose game has no split card never loads it nor split.py (movegen.moves says why).
from shared_rules import split


def segment_ends(st, sp, p, left, visit):
    """The split card's next segment for piece p (st stands some steps into the card, sp holds
    its fixed facts): visit(location) for every space p may be put down on after 1..left single
    steps from where it stands, such that the steps still left after it can be played. These
    are exactly the placements a referee following the card step by step accepts. Wherever the
    piece may turn into home, the walk forks into the home and along the track. A visit that
    returns True stops the walk, and segment_ends returns True. The steps are taken in st and
    taken back before it returns."""
    if split.dest(st, sp, p, 1) >= 0 and _step_on(st, sp, p, left, 1, visit):
        return True
    return _step_on(st, sp, p, left, 0, visit)


def _step_on(st, sp, p, steps, o, visit):
    # one step of p (o=1: into home), a visit if the card can be finished from there, then on
    d = split.dest(st, sp, p, o)
    if d < 0:
        return False
    frm = st.pos[p]
    q = split.step(st, p, d)
    stop = split.completable(st, sp, steps - 1) and visit(d)
    if not stop and steps > 1:
        stop = segment_ends(st, sp, p, steps - 1, visit)
    split.unstep(st, p, frm, d, q)
    return stop


def segment_movable(st, sp, left):
    """The pieces (locations) that may be put down somewhere by the next segment of a split
    card with `left` steps to go (see segment_ends). Pieces are asked by where they stand, and
    only movable ones, so nothing depends on which colour hides under an undercover piece."""
    out = []
    lay = st.lay
    for loc in range(lay.nboard):
        q = st.board[loc]
        if q and (q - 1) in sp.movable and _can_end(st, sp, q - 1, left):
            out.append(loc)
    return out


def _stop(d):
    return True


def _can_end(st, sp, p, left):
    return segment_ends(st, sp, p, left, _stop)


def segment_hints(st, sp, left):
    """(movable, targets) of the next segment of a split card with `left` steps to go."""
    movable = segment_movable(st, sp, left)
    targets = {}
    for loc in movable:
        ends = []

        def add(d):
            if d not in ends:
                ends.append(d)

        segment_ends(st, sp, st.at(loc), left, add)
        targets[loc] = ends
    return movable, targets
