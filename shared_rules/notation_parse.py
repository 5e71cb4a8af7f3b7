# Moves in the protocol's JSON form read into the compact Move (notation.py writes them). Kept
# apart from the writer because a board writes a move at every turn but reads moves only when
# it replays its journal at power-up or answers the console: there the reader is imported for
# the call and dropped after it (firmware/ondemand.py), so its code holds no heap in play.
from shared_rules import movegen
from shared_rules.apply import illegal
from shared_rules.move import Move
from shared_rules.cards import STEPS, SWAP, SPLIT, MAGNET, SWAP_OWN
from shared_rules.errors import BadInput, shown, stray_key

PASS = -1  # the card and the action of a pass
# the fields `legal` writes for each kind of move (notation.to_json), and so all that `apply`
# takes; the first two (the first of a pass) are required, a third may be left out (_only)
PASS_FIELDS = ("pass",)
SWAP_FIELDS = ("card", "swap")
STEP_FIELDS = ("card", "path")
ENTRY_FIELDS = ("card", "path", "rank")  # a ranked game names the piece that comes into play
JUMP_FIELDS = ("card", "path", "jump")  # a piece of a rank that may jump on
ORDERED_FIELDS = ("card", "path", "meet")  # a split that fires several meeting points


def bad_request(reason):
    return BadInput("bad_request", reason)


def card_index(cards, name):
    k = cards.index.get(name, -1) if type(name) is str else -1
    if k < 0:
        raise bad_request("unknown card %s; cards are %s" % (shown(name), ", ".join(cards.names)))
    return k


def from_json(st, obj):
    """Parse a protocol MOVE for the position st. Raises BadInput: bad_request for a field of
    the wrong shape, illegal for a move `legal` would not list as given (_only)."""
    game = st.game
    cards = game.cards
    lay = st.lay
    if type(obj) is not dict:
        raise bad_request("move must be a JSON object")
    if "pass" in obj:
        if obj["pass"] is not True:
            raise bad_request("'pass' is true when given: a pass is {\"pass\": true}")
        _only(st, obj, PASS_FIELDS, PASS)
        return Move(-1, PASS)
    if "card" not in obj:
        raise bad_request("move is missing the field 'card' (or 'pass': true)")
    k = card_index(cards, obj["card"])
    meet = _meet(lay, obj.get("meet"))
    e = movegen.effective(st, k)
    if e < 0:
        from shared_rules.explain import NOTHING_TO_COPY
        raise illegal(NOTHING_TO_COPY)
    act = cards.action[e]
    if act == SWAP or act == SWAP_OWN:
        return _swap(st, obj, k, act, meet)
    path = obj.get("path")
    if type(path) is not list or not path:
        raise bad_request("move is missing its 'path' of [from, to] segments")
    for seg in path:
        if type(seg) is not list or len(seg) != 2:
            raise bad_request("each path segment is [from, to]")
        for v in seg:
            if lay.parse_loc(v) < 0:
                raise bad_request("%s is not a location" % shown(v))
    if act == STEPS or act == MAGNET:
        if len(path) != 1:
            raise illegal("%s moves one piece: the path has one segment" % cards.names[e])
        src = lay.parse_loc(path[0][0])
        if src >= lay.nboard:
            p = _from_start_area(st, src, obj.get("rank"))
            fields = ENTRY_FIELDS if game.ranked else STEP_FIELDS
        else:
            p = _piece_at(st, path[0][0])
            fields = JUMP_FIELDS if game.jumps[p % lay.ppc] else STEP_FIELDS
        dest = lay.parse_loc(path[0][1]) + _jump(st, obj)
        _only(st, obj, fields, act)
        return Move(k, act, p, dest, meet)
    code, work = _split_code(st, e, path)
    fields = STEP_FIELDS
    # legal lists `meet` only where the mover orders several meetings
    if "meet" in obj and len(game.orders(work, code, cards.steps[e][0])) > 1:
        fields = ORDERED_FIELDS
    _only(st, obj, fields, act)
    return Move(k, SPLIT, code, 0, meet)


def _swap(st, obj, k, act, meet):
    pair = obj.get("swap")
    if type(pair) is not list or len(pair) != 2:
        raise bad_request("a swap names two holes: \"swap\": [a, b]" if act == SWAP else
                          "a swap names your piece, then the other: \"swap\": [own, other]")
    a = _piece_at(st, pair[0])
    b = _piece_at(st, pair[1])
    _only(st, obj, SWAP_FIELDS, act)
    return Move(k, act, a, b, meet)


def _only(st, obj, fields, act):
    # a move names only what `legal` would write for it: a field it cannot have (a jump in a
    # game without jumps, a rank on a piece already in play, a swap with a numbered card, an
    # order of meetings where at most one fires, another game's field) makes it a move that
    # is not in the list, so it is refused rather than ignored. The fields but a third are
    # required and were found, so a stray key shows in the count of keys: no loop here, as
    # a function with one keeps its frame on MicroPython's heap, and every move of a game
    # replayed from flash comes through here.
    n = len(fields)
    if n > 2 and fields[2] not in obj:
        n -= 1
    if len(obj) != n:
        from shared_rules.explain import no_field  # the reasons: loaded when needed
        raise illegal(no_field(st, stray_key(obj, fields), act))


def _meet(lay, meet):
    if meet is None:
        return None
    if type(meet) is not list:
        raise bad_request("'meet' lists meeting points in the order they are carried out")
    for m in meet:
        if type(m) is not int or not 0 <= m < lay.n or not lay.meeting[m]:
            raise bad_request("'meet': %s is not a meeting point" % shown(m))
    return meet


def _jump(st, obj):
    # a citizen's jump on from a special space (DOG Royal), packed into the destination; the
    # value is checked in every game (a board without special spaces has no jump target),
    # whether the move may jump at all is _only's question
    if "jump" not in obj:
        return 0
    j = obj["jump"]
    if type(j) is not int or not 0 <= j < st.lay.n or not st.lay.special[j]:
        raise bad_request("'jump': %s is not a special space" % shown(j))
    return movegen.JUMP * (j + 1)


def _piece_at(st, value):
    loc = st.lay.parse_loc(value)
    if loc < 0:
        raise bad_request("%s is not a location" % shown(value))
    p = st.at(loc)
    if p < 0:
        raise illegal("there is no piece on %s" % (value,))
    return p


def _from_start_area(st, loc, rank):
    lay = st.lay
    game = st.game
    c = loc - lay.nboard
    waiting = [p for p in range(c * lay.ppc, (c + 1) * lay.ppc) if st.pos[p] == loc]
    if not waiting:
        raise illegal("%s has no piece in its start area" % lay.colours[c])
    if not game.ranked or (rank is None and len(waiting) == 1):
        return waiting[0]
    if rank is None:
        raise bad_request("say which piece comes into play: 'rank' is one of %s" % ", ".join(
            [game.rank_name(p) for p in waiting]))
    for p in waiting:
        if game.rank_name(p) == rank:
            return p
    raise illegal("%s's %s is not in its start area (waiting: %s)" % (
        lay.colours[c], shown(rank), ", ".join([game.rank_name(p) for p in waiting])))


def _split_code(st, e, path):
    # turn [from, to] segments into single steps, checking each with the same rule as the
    # move generator; at the own start space a segment that ends in home turns into home.
    # Returns the packed steps and the position standing after them.
    from shared_rules import split  # (loaded with the first split: movegen.moves says why)
    lay = st.lay
    total = st.game.cards.steps[e][0]
    work = st.copy()
    sp = split.Split(st, st.plays(st.to_move))
    code = 0
    n = 0
    for seg in path:
        p = _piece_at(work, seg[0])
        if p not in sp.movable:
            from shared_rules.explain import PARTNER_PIECES
            raise illegal(PARTNER_PIECES)
        goal = lay.parse_loc(seg[1])
        if goal == work.pos[p]:
            raise illegal("a path segment must move its piece")
        why, code, n, _ = split.segment(work, sp, p, goal, code, n, total)
        if why == split.TOO_MANY:
            raise illegal("partner: %d steps in all, no more" % total)
        if why == split.BLOCKED:
            raise illegal("partner: the piece on %s cannot step on (a piece on its own start "
                          "space or in a home cannot be passed; home is entered through the "
                          "own start space, not from it)" % lay.loc_json(work.pos[p]))
    if n != total:
        raise illegal("partner: all %d steps must be used (this path uses %d)" % (total, n))
    return code, work
