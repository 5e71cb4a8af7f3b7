"""Replaying a game record (agentboard-record/1, docs/board-protocols.md) through the rules core.

A record is checked whole before anything is printed: its header against the rules core's
layout (player count, seats, dealer), the shape of every turn, then every turn through the
rules core (the seat to move, the move legal there, nothing after the win). A record that
fails any check prints nothing but the one reason.

Records of every game are checked here by the same few tests (_whole, _name, _turn_list), so
an Agent Avenue record (docs/agent-avenue-board.md) is held to what a DOG record is: a number
is a whole number by its JSON type (2.0 and true are not 2 and 1, though Python holds them
equal) and a name is a string. host_tools/games/avenue/replay.py then steps its turns."""
import json

from firmware.records import FORMAT
from shared_rules import games, notation, variant
from shared_rules.apply import apply
from shared_rules.describe import move_text, event_text, printed
from shared_rules.position import BadInput
from shared_rules.ranks import RANKS
from shared_rules.state import new_game

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


def _whole(value, allowed):
    """Whether value is one of the whole numbers allowed: a JSON 2.0 or true is not, though
    Python holds 2.0 == 2 and True == 1."""
    return type(value) is int and value in allowed


def _name(value, allowed):
    """Whether value is one of the names allowed (a list in a record is no name: looking it
    up in a dict would fail)."""
    return type(value) is str and value in allowed


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


def _turn_list(rec, name, most, fields):
    """The record's turns, each an object with the fields, checked; most: the longest game."""
    turns = rec.get("turns", [])
    if type(turns) is not list:
        raise RecordError("%s: turns must be a list, not %s" % (name, _show(turns)))
    if len(turns) > most:
        raise RecordError("%s has %d turns, more than any game (%d): not a game record" % (
            name, len(turns), most))
    for n, turn in enumerate(turns, 1):
        if type(turn) is not dict:
            raise RecordError("%s: turn %d must be an object with %s, not %s" % (
                name, n, " and ".join(fields), _show(turn)))
        for field in fields:
            if field not in turn:
                raise RecordError("%s: turn %d has no %s" % (name, n, field))
        if type(turn["move"]) is not dict:
            raise RecordError("%s: turn %d: move must be a move object, not %s" % (
                name, n, _show(turn["move"])))
    return turns


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


AVENUE_MODES = ("simple", "advanced")
AVENUE_SEATS = (1, 2)  # players on one side
AVENUE_MAX_TURNS = 5000  # whole random games take 10 to 60 decisions


def _avenue(rec, name):
    """(tables, the start position, the turns) of an Agent Avenue record, checked (the turns
    by their shape: the rules core steps them)."""
    from shared_rules.avenue import tables
    from shared_rules.avenue.state import new_game
    tb = tables.load()
    mode = rec.get("mode")
    if not _name(mode, AVENUE_MODES):
        raise RecordError("%s: mode must be simple or advanced, not %s" % (name, _show(mode)))
    seats = rec.get("seats")
    if type(seats) is not dict or sorted(seats) != sorted(tb.sides) or not all(
            _whole(seats[s], AVENUE_SEATS) for s in tb.sides):
        raise RecordError("%s: seats must give each side's players, {\"green\": 1|2, \"blue\": "
                          "1|2}, not %s" % (name, _show(seats)))
    total = sum(seats[s] for s in tb.sides)
    if not _whole(rec.get("players"), (total,)):
        raise RecordError("%s: players must be %d, the seats' sum, not %s" % (
            name, total, _show(rec.get("players"))))
    active = rec.get("active")
    if not _name(active, tb.sides):
        raise RecordError("%s: active must be %s, not %s" % (
            name, " or ".join(tb.sides), _show(active)))
    offer = None
    if mode == "advanced":
        names = rec.get("offer")
        if type(names) is not list or len(names) != tb.offer_size or not all(
                _name(n, tb.market_index) for n in names) or len(set(names)) != tb.offer_size:
            raise RecordError("%s: offer must list the first %d black-market cards, not %s" % (
                name, tb.offer_size, _show(names)))
        offer = [tb.market_index[n] for n in names]
    turns = _turn_list(rec, name, AVENUE_MAX_TURNS, ("side", "move"))
    for n, turn in enumerate(turns, 1):
        if not _name(turn["side"], tb.sides):
            raise RecordError("%s: turn %d: side must be %s, not %s" % (
                name, n, " or ".join(tb.sides), _show(turn["side"])))
    st = new_game(tb, mode == "advanced", (seats[tb.sides[0]], seats[tb.sides[1]]),
                  tb.side_index[active], offer, tb.nmarket - tb.offer_size if offer else 0)
    return tb, st, turns


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


def _own_replay(rec):
    """The module that steps the record's game when its family has one other than this
    (the registry of games names it), or None: the track games are replayed here."""
    if type(rec) is not dict or rec.get("format") != FORMAT:
        return None
    game = rec.get("game")
    if type(game) is not str or game not in games.names():
        return None
    found = games.part(games.family(game), "replay")
    return found if found != __name__ else None


def replay(path):
    """Every line of the replay of the record at path, after the whole record was checked;
    RecordError names what is wrong."""
    rec = read(path)
    own = _own_replay(rec)
    if own is not None:  # a game of its own engine and record (Agent Avenue's)
        avenue_replay = games.importing(own)
        tb, st, turns = _avenue(rec, path)
        try:
            return avenue_replay.replay_record(tb, st, rec, turns, path)
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
                lines.append(printed(ev["type"], text, "            "))
    return lines
