"""Replaying a game record (agentboard-record/1, docs/board-protocols.md) through the rules core.

A record is checked whole before anything is printed: its header against the rules core's
layout (player count, seats, dealer), the shape of every turn, then every turn through the
rules core (the seat to move, the move legal there, nothing after the win). A record that
fails any check prints nothing but the one reason."""
import json

from shared_rules import notation, variant
from shared_rules.apply import apply
from shared_rules.describe import move_text, event_text
from shared_rules.position import BadInput
from shared_rules.state import new_game

FORMAT = "agentboard-record/1"
# whole random games take 250 to 700 turns, and a record written with indent=1 takes ~140
# bytes a turn: a record beyond these is no game, and replaying it would only take long
MAX_TURNS = 10000
MAX_RECORD_BYTES = 4 * 1024 * 1024
SHOWN_CHARS = 40  # of a wrong value quoted in a reason


class RecordError(Exception):
    """What is wrong with a record, in one sentence."""


def _show(value):
    text = json.dumps(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def read(path):
    """The JSON value of the record file at path; RecordError says why there is none."""
    if not path:
        raise RecordError("the record's file name is empty: name a record written by "
                          "`agentboard export -o FILE`")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError("%s does not exist: name a record written by `agentboard export -o "
                          "FILE`" % path)
    except IsADirectoryError:
        raise RecordError("%s is a folder: name a record written by `agentboard export -o "
                          "FILE`" % path)
    except OSError as e:
        raise RecordError("cannot read %s: %s" % (path, e.strerror or e))
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("%s is larger than %d MB: not a game record" % (
            path, MAX_RECORD_BYTES >> 20))
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        raise RecordError("%s is not a game record: it is not text (UTF-8)" % path)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RecordError("%s is not a game record: its JSON nests too deeply" % path)
    except json.JSONDecodeError as e:
        raise RecordError("%s is not a game record: it is not JSON (%s at line %d, column %d)"
                          % (path, e.msg, e.lineno, e.colno))
    except ValueError as e:
        raise RecordError("%s is not a game record: it is not JSON (%s)" % (path, e))


RANKS = ("king", "knight", "citizen", "jester")


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
    if type(players) is not int or players not in counts:
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
    if type(players) is not int or players not in counts:
        raise RecordError("%s: players must be one of %s, not %s" % (
            name, ", ".join(str(n) for n in counts), _show(players)))
    seats = rec.get("seats")
    if type(seats) is not list or len(seats) != players:
        raise RecordError("%s: seats must list the %d colours in play, not %s" % (
            name, players, _show(seats)))
    for s in seats:
        if type(s) is not str or s not in lay.cidx:
            raise RecordError("%s: seats: %s is not a colour (colours: %s)" % (
                name, _show(s), ", ".join(lay.colours)))
        if seats.count(s) > 1:
            raise RecordError("%s: seats: %s is listed twice" % (name, s))
    dealer = rec.get("dealer")
    if type(dealer) is not str or dealer not in seats:
        raise RecordError("%s: the dealer must be one of the seats (%s), not %s" % (
            name, ", ".join(seats), _show(dealer)))
    return players, [lay.cidx[s] for s in seats], lay.cidx[dealer]


def _check_turns(rec, name, seats, cards):
    turns = rec.get("turns", [])
    if type(turns) is not list:
        raise RecordError("%s: turns must be a list, not %s" % (name, _show(turns)))
    if len(turns) > MAX_TURNS:
        raise RecordError("%s has %d turns, more than any game (%d): not a game record" % (
            name, len(turns), MAX_TURNS))
    for n, turn in enumerate(turns, 1):
        if type(turn) is not dict:
            raise RecordError("%s: turn %d must be an object with seat and move, not %s" % (
                name, n, _show(turn)))
        for field in ("seat", "move"):
            if field not in turn:
                raise RecordError("%s: turn %d has no %s" % (name, n, field))
        if turn["seat"] not in seats:
            raise RecordError("%s: turn %d: seat must be one of the seats (%s), not %s" % (
                name, n, ", ".join(seats), _show(turn.get("seat"))))
        if type(turn.get("move")) is not dict:
            raise RecordError("%s: turn %d: move must be a move object, not %s" % (
                name, n, _show(turn.get("move"))))
        if "card" in turn and turn["card"] not in cards.names:
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


def replay(path):
    """Every line of the replay of the record at path, after the whole record was checked;
    RecordError names what is wrong."""
    rec = read(path)
    if type(rec) is dict and rec.get("format") == FORMAT and rec.get("game") == "agent-avenue":
        from host_tools import avenue_replay  # a game of its own engine and record
        try:
            return avenue_replay.replay_record(rec, path)
        except avenue_replay.RecordError as e:
            raise RecordError(str(e))
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
                lines.append(("     " if text[0] in "-=" else "            ") + text)
    return lines
