"""Replaying a track game's record (agentboard-record/1, docs/board-protocols.md): its header
checked against the rules core's layout (game, player count, seats, dealer, a ranked game's
first pieces), the shape of every turn, then every turn through the rules core (the seat to
move, the move legal there, nothing after the win). host_tools/replay.py reads the record and
holds it to the tests every record gets (is_whole, is_name, turn_list)."""
from host_tools.replay import FORMAT, RecordError, show as _show, turn_list as _turn_list
from host_tools.replay import is_name as _name, is_whole as _whole
from shared_rules import notation, variant
from shared_rules.apply import apply
from shared_rules.describe import move_text, event_text, printed
from shared_rules.position import BadInput
from shared_rules.ranks import RANKS
from shared_rules.state import new_game

# whole random games take 250 to 700 turns: a record with more is no game
MAX_TURNS = 10000


def _game(rec, name):
    """The rules variant a record was played in: its game (default Agent DOG, as records
    written before games were named) on its board, checked."""
    if type(rec) is not dict or rec.get("format") != FORMAT:
        raise RecordError("%s is not an agentboard game record (format %s)" % (name, FORMAT))
    game = rec.get("game", variant.DEFAULT)
    if type(game) is not str or game not in variant.names():
        raise RecordError("%s: game must be one of %s, not %s" % (
            name, ", ".join(variant.names()), _show(game)))
    counts = sorted(variant.boards(game))
    players = rec.get("players")
    if not _whole(players, counts):
        raise RecordError("%s: players must be one of %s, not %s" % (
            name, ", ".join(str(n) for n in counts), _show(players)))
    board = rec.get("layout", variant.board_for(game, players))
    if board != variant.board_for(game, players):
        raise RecordError("%s: %s with %d players is played on %s, not %s" % (
            name, game, players, variant.board_for(game, players), _show(board)))
    return variant.load(game, board)


def _first(rec, name, g, seats):
    """A ranked game's starting pieces ({colour index: rank index}), or None."""
    if not g.ranked:
        return None
    first = rec.get("first")
    if type(first) is not dict or sorted(first) != sorted(g.lay.colours[c] for c in seats) \
            or any(first[c] not in RANKS for c in first):
        raise RecordError("%s: first must name the rank each seat started with (%s), not %s"
                          % (name, ", ".join(RANKS), _show(first)))
    return dict((g.lay.cidx[c], RANKS.index(first[c])) for c in first)


def _header(rec, name, lay):
    """(players, seat colour indexes, dealer index) of a record, checked."""
    counts = sorted(lay.default_seats)
    players = rec.get("players")
    if not _whole(players, counts):
        raise RecordError("%s: players must be one of %s, not %s" % (
            name, ", ".join(str(n) for n in counts), _show(players)))
    seats = rec.get("seats")
    if type(seats) is not list or len(seats) != players:
        raise RecordError("%s: seats must list the %d colours in play, not %s" % (
            name, players, _show(seats)))
    for s in seats:
        if not _name(s, lay.cidx):
            raise RecordError("%s: seats: %s is not a colour (colours: %s)" % (
                name, _show(s), ", ".join(lay.colours)))
        if seats.count(s) > 1:
            raise RecordError("%s: seats: %s is listed twice" % (name, s))
    dealer = rec.get("dealer")
    if not _name(dealer, seats):
        raise RecordError("%s: the dealer must be one of the seats (%s), not %s" % (
            name, ", ".join(seats), _show(dealer)))
    return players, [lay.cidx[s] for s in seats], lay.cidx[dealer]


def _check_turns(rec, name, seats, cards):
    turns = _turn_list(rec, name, MAX_TURNS, ("seat", "move"))
    for n, turn in enumerate(turns, 1):
        if not _name(turn["seat"], seats):
            raise RecordError("%s: turn %d: seat must be one of the seats (%s), not %s" % (
                name, n, ", ".join(seats), _show(turn["seat"])))
        if "card" in turn and not _name(turn["card"], cards.names):
            raise RecordError("%s: turn %d: card %s is not a card" % (
                name, n, _show(turn["card"])))
    return turns


def turns(rec, name="the record"):
    """The record's start position, then (number, turn, position after, events) per turn,
    each checked by the rules core. RecordError names what is wrong."""
    steps = _steps(rec, name)
    yield next(steps)
    for n, turn, _, _, after, events in steps:
        yield n, turn, after, events


def _steps(rec, name):
    # as turns(), with the position before each turn and the move as the rules core read it
    g = _game(rec, name)
    lay = g.lay
    players, seats, dealer = _header(rec, name, lay)
    records = _check_turns(rec, name, rec["seats"], g.cards)
    st = new_game(g, players, seats, dealer, _first(rec, name, g, seats))
    yield st
    for n, turn in enumerate(records, 1):
        if st.winners():
            raise RecordError("%s: turn %d comes after the game was won" % (name, n))
        if turn["seat"] != lay.colours[st.to_move]:
            raise RecordError("%s: turn %d is %s's, but %s is to move there" % (
                name, n, turn["seat"], lay.colours[st.to_move]))
        try:
            mv = notation.from_json(st, turn["move"])
            after, events = apply(st, mv)
        except BadInput as e:
            raise RecordError("%s: turn %d is not legal there: %s" % (name, n, e.reason))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise RecordError("%s: turn %d: the move cannot be read (%s: %s)" % (
                name, n, type(e).__name__, e))
        yield n, turn, st, mv, after, events
        st = after


def replay_record(rec, path="the record"):
    """Every line of the replay of a track game's record (a dict), after the whole record was
    checked; RecordError names what is wrong."""
    steps = _steps(rec, path)
    start = next(steps)
    lines = ["%s, %d players (%s), %s deals" % (start.game.title, rec["players"],
                                                ", ".join(rec["seats"]), rec["dealer"])]
    for n, turn, before, mv, _, events in steps:
        card = before.game.cards.names[mv.card] if mv.card >= 0 else None
        lines.append("%4d %-6s %s" % (n, turn["seat"], move_text(card, notation.to_json(
            before, mv))))
        for ev in events:
            text = event_text(ev)
            if text is not None:
                lines.append(printed(ev["type"], text, "            "))
    return lines
