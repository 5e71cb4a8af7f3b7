"""Replaying a game record (agentboard-record/1, docs/board-protocols.md) through the rules core.

A record is checked whole before anything is printed: its header, the shape of every turn,
then every turn through the rules core (the side or seat to move, the move legal there,
nothing after the end). A record that fails any check prints nothing but the one reason.

This is the part every game shares: reading the file, the record's format and game, and the
few tests every record is held to (is_whole, is_name, turn_list): a number is a whole number by
its JSON type (2.0 and true are not 2 and 1, though Python holds them equal) and a name is a
string. The family of the record's game (the registry's "replay" of each family,
shared_rules/data/games.json; host_tools/games/<family>/replay.py) checks its header and
steps its turns: its replay_record(rec, name) answers the lines printed."""
import json

from firmware.records import FORMAT
from shared_rules import games

# a record written with indent=1 takes ~140 bytes a turn, and whole random games take at most
# a few thousand turns: a record beyond this is no game, and replaying it would only take long
MAX_RECORD_BYTES = 4 * 1024 * 1024
SHOWN_CHARS = 40  # of a wrong value quoted in a reason


class RecordError(Exception):
    """What is wrong with a record, in one sentence."""


def show(value):
    text = json.dumps(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def is_whole(value, allowed):
    """Whether value is one of the whole numbers allowed: a JSON 2.0 or true is not, though
    Python holds 2.0 == 2 and True == 1."""
    return type(value) is int and value in allowed


def is_name(value, allowed):
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


def turn_list(rec, name, most, fields):
    """The record's turns, each an object with the fields, checked; most: the longest game."""
    turns = rec.get("turns", [])
    if type(turns) is not list:
        raise RecordError("%s: turns must be a list, not %s" % (name, show(turns)))
    if len(turns) > most:
        raise RecordError("%s has %d turns, more than any game (%d): not a game record" % (
            name, len(turns), most))
    for n, turn in enumerate(turns, 1):
        if type(turn) is not dict:
            raise RecordError("%s: turn %d must be an object with %s, not %s" % (
                name, n, " and ".join(fields), show(turn)))
        for field in fields:
            if field not in turn:
                raise RecordError("%s: turn %d has no %s" % (name, n, field))
        if type(turn["move"]) is not dict:
            raise RecordError("%s: turn %d: move must be a move object, not %s" % (
                name, n, show(turn["move"])))
    return turns


def _family_replay(rec):
    """The module that checks and steps the record's game: its family's (the registry names
    it); the default game's for a record that names no game or one that is none (which says
    what is wrong with it)."""
    game = games.default()
    if type(rec) is dict and rec.get("format") == FORMAT:
        named = rec.get("game")
        if type(named) is str and named in games.names():
            game = named
    return games.importing(games.part(games.family(game), "replay"))


def replay(path):
    """Every line of the replay of the record at path, after the whole record was checked;
    RecordError names what is wrong."""
    rec = read(path)
    return _family_replay(rec).replay_record(rec, path)
