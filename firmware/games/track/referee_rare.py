# The track referee's rarely run steps (firmware/games/track/referee.py's Referee): its set-up,
# a new game, the game saved on flash taken up again at power-up, an undo (the game rebuilt from
# its saved turns), and the console's public view. Imported for each call and dropped after it
# (firmware/ondemand.py): on MicroPython's stock ESP32 build their bytecode would otherwise
# take heap for the board's whole life. Each function takes the Referee.
from shared_rules import variant, notation
from shared_rules.apply import apply as rules_apply
from shared_rules.errors import BadInput
from shared_rules.ranks import RANKS
from firmware.games.track import move_lights, referee as referee_mod
from firmware.games.track.move_lights import Shown
from firmware.games.track.places import NO_BAND
from firmware.store import FORMAT, Offsets

# A game begins through the referee module's new_game (referee_mod.new_game), the one the
# referee's own steps call: a test may begin its games at a position of its choosing there.


def resume_from_flash(ref):
    header, offsets = ref.store.load()
    if header is None:
        return False
    if not rebuild(ref, header, offsets):
        return False
    if offsets.lift:
        # an undo's exchange the power cut came before: its squares are still to be lifted
        for loc in offsets.lift:
            ref.recheck[ref.places.sensor[loc]] = 1
    ref.out({"event": "resumed", "turns": len(ref.turns), "to_move": ref._c(ref.st.to_move)})
    if not ref.turns:  # cut off before the first move: the setup goes on
        ref._set_phase("setup")
        ref._refresh()
    else:
        ref._after_turn_phase()
    return True


def rebuild(ref, header, offsets):
    try:
        game = variant.load(header.get("game", variant.DEFAULT),
                            header.get("layout", ref.lay.name))
        if game.lay.name != ref.lay.name:
            raise ValueError("the stored game is played on %s, this board is %s" % (
                game.lay.name, ref.lay.name))
        lay = game.lay
        seats = [lay.cidx[c] for c in header["seats"]]
        first = header.get("first")
        if first is not None:
            first = dict((lay.cidx[c], RANKS.index(first[c])) for c in first)
        st = referee_mod.new_game(game, header["players"], seats, lay.cidx[header["dealer"]],
                                  first)
        done = Offsets()
        for at in offsets:
            t = ref.store.turn(at)
            mv = notation.from_json(st, t["move"])
            st, _ = rules_apply(st, mv)
            done.append(at)
    except (KeyError, ValueError, BadInput) as e:
        ref.out({"event": "fault", "what": "game.log", "reason": "stored game unreadable: %s"
                 % (getattr(e, "reason", None) or e)})
        return False
    ref.game = game
    ref.cards = game.cards
    header["game"] = game.name  # a log written before games were named is Agent DOG's
    header["layout"] = lay.name
    ref.header = header
    ref.turns = done
    ref.st = st
    return True


def undo(ref):
    if ref.st is None or not ref.turns or ref.phase not in (
            "await_card", "round_end", "mismatch", "game_over") or not ref.store.whole():
        return False
    ref.turns.pop()
    was = ref.st
    rebuild(ref, ref.header, ref.turns)
    lift = []
    for loc in range(ref.lay.nboard):
        if was.board[loc] and ref.st.board[loc] and was.board[loc] != ref.st.board[loc]:
            ref.recheck[ref.places.sensor[loc]] = 1
            lift.append(loc)
    # the squares to lift are saved with the undo: a power cut before the players
    # exchanged the pieces back must not forget that they have to
    ref.store.append({"undo": True, "lift": lift} if lift else {"undo": True})
    ref.out({"event": "undo", "turns": len(ref.turns)})
    ref.card = -1
    ref.judge = None
    ref.lights = move_lights.NONE
    ref.resume = "await_card"
    ref._set_phase("await_card")
    ref._refresh()
    return True


def public_view(ref):
    st = ref.st
    lay = ref.lay
    # filled by location and by seat, never piece by piece: the order the keys go in is
    # the order they come out (see console.py)
    board = {}
    ranks = {} if st.game.ranked else None  # ranks are printed on the pieces: public
    for loc in range(lay.nboard):
        q = st.board[loc]
        if q:
            key = str(lay.loc_json(loc))
            board[key] = "undercover" if st.undercover(q - 1) else \
                ref._c(lay.piece_colour[q - 1])
            if ranks is not None:
                ranks[key] = RANKS[lay.piece_slot[q - 1]]
    areas = {}
    for c in st.seats:
        n = 0
        for p in lay.pieces_of(c):
            n += st.pos[p] >= lay.nboard
        areas[ref._c(c)] = n
    view = {"game": st.game.name, "layout": lay.name,
            "to_move": ref._c(st.to_move), "dealer": ref._c(st.dealer),
            "players": st.players, "phase": ref.phase,
            "last_card": ref.cards.names[st.last_card] if st.last_card >= 0 else None,
            "out": [ref._c(c) for c in st.seats if (st.out >> c) & 1],
            "cards_left": dict((ref._c(c), st.cards[c]) for c in st.seats),
            "board": board, "start_areas": areas,
            "expected": ref._names(ref.diffs) if ref.phase in (
                "setup", "await_effect", "mismatch", "await_move") else [],
            "card": ref.cards.names[ref.card] if ref.card >= 0 else None,
            "steps_left": ref.judge.left() if ref.phase == "await_move" else None}
    if ranks is not None:
        view["ranks"] = ranks
    return view


def init(ref, places, store, cardmap, out, game):
    """Referee.__init__ (its arguments described there)."""
    ref.game = game or variant.load(variant.DEFAULT)
    ref.lay = ref.game.lay
    ref._last_mismatch = []
    ref.ambiguous = False
    ref.move_json = None
    ref.cards = ref.game.cards
    ref.places = places
    ref.store = store
    ref.cardmap = cardmap
    ref.out = out
    n = places.n
    ref.sensed = bytearray(n)
    ref.bands = bytearray(bytes([NO_BAND]) * n)  # the rank band each sensor reads
    ref.exp = bytearray(n)
    ref.exp_bands = bytearray(bytes([NO_BAND]) * n)
    ref.counts = bytearray(ref.lay.ncol)
    ref.touched = bytearray(n)
    ref.untouched = bytes(n)  # copied over touched and recheck to clear them at C speed
    # the sensed classes when touched was last cleared (the card played, a Partner 4
    # segment done): a square empty then and empty again is as if never touched
    ref.move_start = bytearray(n)
    # squares whose piece must be lifted before the board counts as right: after an undo,
    # where another piece belongs than the one standing there (the sensors cannot see
    # two pieces swapped back, only that both squares were lifted)
    ref.recheck = bytearray(n)
    ref.st = None
    ref.header = None
    ref.turns = Offsets()  # where each turn in force starts in the game log
    ref.phase = "idle"
    ref.resume = "await_card"
    ref.card = -1
    ref.judge = None
    ref.cands = []
    ref.saved = False
    ref.diffs = []
    ref.bad = []
    ref.pre_move = None
    ref.lights = move_lights.NONE  # what the LEDs show for the card in play
    ref.accepted_at = -1  # sensor to flash after an accepted move
    ref.rejected = False
    ref.drawing = -1  # the seat told to draw a card (DOG Royal's special spaces)
    # scans left before a piece standing on a space its move passes is refused there
    # (0: none waiting); transit_scans is the app's to set: it knows its scan period
    ref.transit_scans = 1
    ref.transit_left = 0
    ref.shown = Shown()


def start(ref, players, seats, dealer, game):
    """Referee.start: a new game (described there)."""
    if game is not None:
        ref.game = game
        ref.cards = game.cards
    lay = ref.lay
    seat_idx = None if seats is None else [lay.cidx[c] for c in seats]
    d = None if dealer is None else lay.cidx[dealer]
    st = referee_mod.new_game(ref.game, players, seat_idx, d)
    ref.header = {"format": FORMAT, "game": ref.game.name, "layout": lay.name,
                  "players": players, "seats": [lay.colours[c] for c in st.seats],
                  "dealer": ref._c(st.dealer)}
    ref.recheck[:] = ref.untouched
    if not ref.game.ranked:
        ref.store.new(ref.header)  # a ranked game's once the starting pieces are read
    ref.st = st
    ref.turns = Offsets()
    ref._set_phase("setup")
    # one event for a game begun from the console or the board's menu alike
    ref.out({"event": "new_game", "game": ref.game.name, "layout": lay.name,
             "players": players, "seats": ref.header["seats"],
             "dealer": ref.header["dealer"]})
    ref._refresh()
