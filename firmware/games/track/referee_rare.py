# The track referee's rarely run steps (firmware/games/track/referee.py's Referee): the game
# saved on flash taken up again at power-up, a pass, an undo (the game rebuilt from its saved
# turns), and the console's public view and export (its set-up: setup.py). Imported for each
# call and dropped after it (firmware/ondemand.py): on MicroPython's stock ESP32 build their
# bytecode would otherwise take heap for the board's whole life. Each function takes the
# Referee.
from shared_rules.apply import apply as rules_apply
from shared_rules.errors import BadInput
from shared_rules.move import Move
from shared_rules.ranks import RANKS
from firmware import ondemand
from firmware.games.track import move_lights, referee as referee_mod
from firmware.store import Offsets, record_parts

# the reader of the saved moves: this module's alone, dropped with it where its call imported
# it (firmware/ondemand.py)
DROP_WITH = ("shared_rules.notation_parse",)
# A game begins through the referee module's new_game (referee_mod.new_game), the one the
# referee's own steps call: a test may begin its games at a position of its choosing there.


def pass_turn(ref):
    """Referee.pass_turn: the player to move passes (False: not now)."""
    if ref.phase not in ("await_card", "round_end") or ref.st is None:
        return False
    seat = ref._c(ref.st.to_move)
    new, events = rules_apply(ref.st, Move(-1, -1))
    turn = {"seat": seat, "move": {"pass": True}}
    ref.turns.append(ref.store.append(turn))
    ref.out({"event": "pass", "seat": seat})
    ref._announce(events)
    ref.cands = [(Move(-1, -1), new, events)]
    ref.saved = True
    ref._finish(ref.cands[0])
    return True


def export_parts(ref):
    """Referee.export_parts: the game record, piece by piece."""
    return record_parts(ref.store, ref.header, ref.turns)


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


def _stored_game(ref, header):
    """The game the stored header names: the referee's own when it is that game on this board
    (an undo, or a resume of the board's first game), so that the look-ups by name are not
    loaded into a heap a long game has filled; else looked up (BadInput, ValueError)."""
    name = header.get("game")
    layout = header.get("layout", ref.lay.name)
    game = ref.game
    if game is not None and name == game.name and layout == game.lay.name:
        return game
    return ondemand.call(referee_mod.LOOKUP, "load", name, layout)


def rebuild(ref, header, offsets):
    # imported here, not at the top: a board with no game stored (the resume at every power-up
    # asks) never loads the reader
    from shared_rules import notation_parse
    try:
        game = _stored_game(ref, header)
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
            mv = notation_parse.from_json(st, t["move"])
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
