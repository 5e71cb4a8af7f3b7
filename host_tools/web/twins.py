"""Which twin draws which board: the registry of games (shared_rules/games.py) names each
family's twin; a board is drawn by the twin of the family played on it (the track games' twin,
host_tools/games/track/twin.py, for their boards)."""
from host_tools.sim import worlds
from host_tools.web import twin
from shared_rules import games, variant

OWN = worlds.GAME_BOARDS  # {game: board}: games played on a board of their own
# the boards the games played on shared boards are played on, then the games' own boards
BOARDS = sorted(set(b for g in variant.names() for b in variant.boards(g).values())) + \
    sorted(set(OWN.values()))
GAMES = variant.names() + sorted(OWN)


def board_for(game):
    """The board a game is drawn on when none is named: its own, or its 4-seat board."""
    if game in OWN:
        return OWN[game]
    return variant.board_for(game, 4)


BOARD = board_for(games.default())  # the board `agentboard sim` draws unless told another


def twin_class(board):
    return games.attribute(games.part(games.board_family(board), "twin"))


def make(board=BOARD, game=None, **kw):
    """The twin of a board (seed, flash, speed as the twins take them). A game that is not
    played on the board is a TwinError saying so."""
    if game in OWN and board != OWN[game]:
        raise twin.TwinError("%s is not played on %s; it is played on %s" % (
            game, board, OWN[game]))
    if board in OWN.values() and game is not None and game not in OWN:
        raise twin.TwinError("%s is not played on %s; it plays %s" % (
            game, board, ", ".join(g for g in sorted(OWN) if OWN[g] == board)))
    return twin_class(board)(board=board, game=game, **kw)
