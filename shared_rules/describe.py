# Events and moves in words for a person, for every game: what the page's "Board says" list,
# `agentboard monitor`, the demos and the replay tool print, and what the board's own phone
# view will show (this runs on MicroPython too). Each family of games has its part, found here
# by the game's name and imported only when first asked for (a board running Agent Avenue
# loads none of the track games' words): describe_track.py (Agent DOG, DOG, DOG Royal) and
# describe_avenue.py (Agent Avenue); describe_base.py holds what they share.
#
# A sentence is built from its event alone. An event names a hidden fact (an undercover
# piece's colour, a face-down card) only once the rules reveal it, so no sentence can.
from shared_rules.describe_base import where  # noqa: F401 - a location in words, for callers

_PARTS = {"agent-dog": "describe_track", "dog": "describe_track",
          "dog-royal": "describe_track", "agent-avenue": "describe_avenue"}
TRACK = "agent-dog"
AVENUE = "agent-avenue"
# what only the Agent Avenue board's events carry: a board event with one of these kinds or
# fields is that board's, whatever game the caller knows of
_AVENUE_KINDS = ("offer", "card_off", "seat", "forced", "taken", "tap", "discard", "play",
                 "recruit", "pawn", "market", "refill", "hand", "end")
_AVENUE_FIELDS = ("side", "face", "reader", "decisions", "winner")
# a printed game (the demos, the replay) sets the end of a round and of the game apart
_BANNERS = {"round_end": "-- %s --", "win": "== %s ==", "end": "== %s =="}
_loaded = {}


def part(game):
    """The words of a game's family (a module with console(ev) and view(v, actor))."""
    path = _PARTS.get(game, _PARTS[TRACK])
    mod = _loaded.get(path)
    if mod is None:
        mod = getattr(__import__("shared_rules." + path), path)
        _loaded[path] = mod
    return mod


def game_of(ev, game=None):
    """The game an event is said for: the one it names, else the caller's, else the family
    its kind and fields belong to."""
    named = ev.get("game")
    if named in _PARTS:
        return named
    if game in _PARTS:
        return game
    if ev.get("event", ev.get("type")) in _AVENUE_KINDS:
        return AVENUE
    for k in _AVENUE_FIELDS:
        if k in ev:
            return AVENUE
    return TRACK


def words(ev, game=None):
    """A board's console event ({"event": ...}) in words; a rules-core event ({"type": ...})
    too, or None for a track game's own move (see move_text). game: the game the board
    plays, if the caller knows it."""
    g = game_of(ev, game)
    if "event" not in ev and _PARTS[g] == _PARTS[TRACK]:
        return part(g).event_text(ev)
    return part(g).console(ev)


def view_words(view, actor=True):
    """The board's public view in a line of words (its status); with actor, also who acts."""
    return part(view.get("game") or TRACK).view(view, actor)


def move_text(card, move):
    """A track game's protocol MOVE after the seat's name: "plays a 5: 12 -> 17"."""
    return part(TRACK).move_text(card, move)


def event_text(ev):
    """A track game's rules-core event in words, or None for the card's own move."""
    return part(TRACK).event_text(ev)


def printed(kind, text, indent=""):
    """A line of a printed game: an event of this kind in words, indented, or set apart."""
    b = _BANNERS.get(kind)
    return b % text.rstrip(".") if b else indent + text
