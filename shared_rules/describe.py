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

from shared_rules import games

# a printed game (the demos, the replay) sets the end of a round and of the game apart
_BANNERS = {"round_end": "-- %s --", "win": "== %s ==", "end": "== %s =="}
_loaded = {}


def part(game):
    """The words of a game's family (a module with console(ev) and view(v, actor)): the
    registry names it; an unknown game is said as the default game's family."""
    if game not in games.names():
        game = games.default()
    path = games.part(games.family(game), "words")
    mod = _loaded.get(path)
    if mod is None:
        mod = games.importing(path)
        _loaded[path] = mod
    return mod


def _by_kind(ev):
    """The first game of a family whose board alone has events of this kind or with one of
    these fields (the registry's event_kinds, event_fields), or None."""
    kind = ev.get("event", ev.get("type"))
    for fam in games.families():
        if kind in games.family_value(fam, "event_kinds", ()) or [
                k for k in games.family_value(fam, "event_fields", ()) if k in ev]:
            return games.of_family(fam)[0]
    return None


def game_of(ev, game=None):
    """The game an event is said for: the one it names, else the caller's, else the family
    its kind and fields belong to, else the default game."""
    names = games.names()
    named = ev.get("game")
    if named in names:
        return named
    if game in names:
        return game
    return _by_kind(ev) or games.default()


def words(ev, game=None):
    """A board's console event ({"event": ...}) in words; a rules-core event ({"type": ...})
    too, or None for a track game's own move (see move_text). game: the game the board
    plays, if the caller knows it."""
    said = part(game_of(ev, game))
    if "event" not in ev and hasattr(said, "event_text"):  # the rules core's own events
        return said.event_text(ev)
    return said.console(ev)


def view_words(view, actor=True):
    """The board's public view in a line of words (its status); with actor, also who acts."""
    return part(view.get("game") or games.default()).view(view, actor)


def move_text(card, move):
    """A track game's protocol MOVE after the seat's name: "plays a 5: 12 -> 17"."""
    return part(games.default()).move_text(card, move)


def event_text(ev):
    """A track game's rules-core event in words, or None for the card's own move."""
    return part(games.default()).event_text(ev)


def printed(kind, text, indent=""):
    """A line of a printed game: an event of this kind in words, indented, or set apart."""
    b = _BANNERS.get(kind)
    return b % text.rstrip(".") if b else indent + text
