"""Which twin draws which board: the DOG boards' (host_tools/web/twin.py) unless the board is
one a game has of its own (host_tools/sim/worlds.py's GAME_BOARDS) with a twin here."""
from host_tools.sim import worlds
from host_tools.web import twin
from shared_rules import variant

# board -> (module, class): boards with a page of their own
TWINS = {"agent-avenue": ("host_tools.web.avenue_twin", "AvenueTwin")}
BOARDS = twin.BOARDS + sorted(b for b in set(worlds.GAME_BOARDS.values()) if b in TWINS)
GAMES = variant.names() + sorted(g for g in worlds.GAME_BOARDS if worlds.GAME_BOARDS[g] in TWINS)


def board_for(game):
    """The board a game is drawn on when none is named: its own, or its 4-seat board."""
    if game in worlds.GAME_BOARDS:
        return worlds.GAME_BOARDS[game]
    return variant.board_for(game, 4)


def twin_class(board):
    found = TWINS.get(board)
    if found is None:
        return twin.Twin
    mod = __import__(found[0], fromlist=[found[1]])
    return getattr(mod, found[1])


def make(board=twin.BOARD, game=None, **kw):
    """The twin of a board (seed, flash, speed as the twins take them). A game that is not
    played on the board is a TwinError saying so."""
    if game in worlds.GAME_BOARDS and board != worlds.GAME_BOARDS[game]:
        raise twin.TwinError("%s is not played on %s; it is played on %s" % (
            game, board, worlds.GAME_BOARDS[game]))
    if board in TWINS and game is not None and game not in worlds.GAME_BOARDS:
        raise twin.TwinError("%s is not played on %s; it plays %s" % (
            game, board, ", ".join(g for g in sorted(worlds.GAME_BOARDS)
                                   if worlds.GAME_BOARDS[g] == board)))
    return twin_class(board)(board=board, game=game, **kw)
