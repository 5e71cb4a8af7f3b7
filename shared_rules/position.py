# The protocol's POSITION (JSON value) to and from a State, with every check that makes a
# position one that can exist. Errors are raised as BadInput with the protocol's error kind.
from shared_rules.state import State
from shared_rules.errors import BadInput, shown
from shared_rules import variant


def bad(reason):
    return BadInput("bad_position", reason)


def _colour(lay, name, what):
    c = lay.cidx.get(name, -1) if type(name) is str else -1
    if c < 0:
        raise bad("%s: %s is not a colour" % (what, shown(name)))
    return c


def _seat(st, name, what):
    c = _colour(st.lay, name, what)
    if c not in st.seats:
        raise bad("%s: %s is not a seat in play" % (what, name))
    return c


def game_of(obj):
    """The variant a POSITION is played in: its `game` (default Agent DOG) on its `layout`
    (default: the game's board for its number of players)."""
    name = obj.get("game", variant.DEFAULT)
    if type(name) is not str or name not in variant.names():
        raise BadInput("bad_request", "unknown game %s; track games are %s" % (
            shown(name), ", ".join(variant.names())))
    players = obj["players"]
    if type(players) is not int or variant.board_for(name, players) is None:
        raise bad("players must be one of %s" % sorted(variant.boards(name)))
    board = obj.get("layout")
    if board is not None and type(board) is not str:
        raise bad("layout must be the name of a board")
    game = variant.load(name, board or variant.board_for(name, players))
    if players not in game.lay.default_seats:
        raise bad("%s seats %s players, not %d" % (game.lay.name, " or ".join(
            [str(n) for n in sorted(game.lay.default_seats)]), players))
    return game


def parse(obj, game=None):
    """The State of a POSITION, in the game it names (or in `game`, a variant)."""
    if type(obj) is not dict:
        raise BadInput("bad_request", "position must be a JSON object")
    for field in ("players", "to_move", "pieces"):
        if field not in obj:
            raise BadInput("bad_request", "position is missing the field '%s'" % field)
    if game is None:
        game = game_of(obj)
    lay = game.lay
    cards = game.cards
    st = State(game)
    players = obj["players"]
    st.players = players
    seats = obj.get("seats")
    if seats is None:
        st.seats = list(lay.default_seats[players])
    else:
        if type(seats) is not list or len(seats) != players:
            raise bad("seats must list %d colours" % players)
        chosen = [_colour(lay, s, "seats") for s in seats]
        for c in chosen:
            if chosen.count(c) > 1:
                raise bad("seats: %s is listed twice" % lay.colours[c])
        st.seats = sorted(chosen)  # clockwise order is the layout's colour order
    st.to_move = _seat(st, obj["to_move"], "to_move")
    dealer = obj.get("dealer")
    st.dealer = st.to_move if dealer is None else _seat(st, dealer, "dealer")
    _parse_pieces(st, obj["pieces"])
    last = obj.get("last_card")
    if last is not None:
        k = cards.index.get(last, -1) if type(last) is str else -1
        if k < 0:
            raise bad("last_card: %s is not a card" % shown(last))
        if cards.names[k] == "copy":
            raise bad("last_card is never 'copy': a copy records the card it copied")
        st.last_card = k
    left = obj.get("cards_left")
    most = game.max_hand
    for c in st.seats:
        st.cards[c] = game.hand
    if left is not None:
        if type(left) is not dict:
            raise bad("cards_left must be an object")
        for name in sorted(left):  # sorted: the first bad entry is the same on both interpreters
            c = _seat(st, name, "cards_left")
            v = left[name]
            if type(v) is not int or not 0 <= v <= most:
                raise bad("cards_left of %s must be a whole number from 0 to %d" % (name, most))
            st.cards[c] = v
    out = obj.get("out", [])
    if type(out) is not list:
        raise bad("out must be a list of seats")
    for name in out:
        st.out |= 1 << _seat(st, name, "out")
    if not st.in_round(st.to_move):
        raise bad("to_move %s is out of the round or holds no cards" % lay.colours[st.to_move])
    return st


def _parse_pieces(st, pieces):
    lay = st.lay
    if type(pieces) is not dict:
        raise bad("pieces must be an object of colour: [4 locations]")
    # in sorted order: MicroPython walks a dict's keys in the order of its hash table, so the
    # first bad entry, which the reason names, would differ between the interpreters
    for name in sorted(pieces):
        c = _colour(lay, name, "pieces")
        locs = pieces[name]
        if type(locs) is not list or len(locs) != lay.ppc:
            raise bad("%s must have exactly %d pieces" % (name, lay.ppc))
        if c not in st.seats:
            for v in locs:
                if v != "start":
                    raise bad("%s is not a seat: its pieces must all be in 'start'" % name)
            continue
        for i in range(lay.ppc):
            loc = lay.piece_loc(c, locs[i])
            if loc < 0:
                raise bad("%s piece %s: no such location" % (name, shown(locs[i])))
            if loc < lay.nboard and st.board[loc]:
                raise bad("two pieces on %s" % lay.loc_json(loc))
            st.put(c * lay.ppc + i, loc)
    for c in st.seats:
        if lay.colours[c] not in pieces:
            raise bad("pieces of seat %s are missing" % lay.colours[c])


def dump(st, named=False):
    """The POSITION of st; named: with its game and layout (a request that named them)."""
    lay = st.lay
    cards = st.game.cards
    pieces = {}
    left = {}
    for c in st.seats:
        base = c * lay.ppc
        pieces[lay.colours[c]] = [lay.piece_json(st.pos[p]) for p in range(base, base + lay.ppc)]
        left[lay.colours[c]] = st.cards[c]
    out = {
        "players": st.players,
        "seats": [lay.colours[c] for c in st.seats],
        "to_move": lay.colours[st.to_move],
        "dealer": lay.colours[st.dealer],
        "pieces": pieces,
        "last_card": cards.names[st.last_card] if st.last_card >= 0 else None,
        "cards_left": left,
        "out": [lay.colours[c] for c in st.seats if (st.out >> c) & 1],
    }
    if named:
        out["game"] = st.game.name
        out["layout"] = lay.name
    return out
