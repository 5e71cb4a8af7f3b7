# The Agent Avenue game on flash and as the exported record (docs/agent-avenue-board.md, "The
# game record"). game.log (firmware/store.py) holds the header, then one line per decision
# ({"side", "move": the rules protocol's move}) and, in an advanced game whose offer was tapped
# in, one {"offer": [...]} line before the first decision.
import json

from shared_rules.avenue import legality
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import new_game
from shared_rules.avenue.tables import NONE
from firmware.records import FORMAT

GAME = "agent-avenue"


def header(tb, mode, seats, active):
    return {"format": FORMAT, "game": GAME, "layout": GAME, "mode": mode,
            "players": seats[0] + seats[1],
            "seats": {tb.sides[0]: seats[0], tb.sides[1]: seats[1]},
            "active": tb.sides[active]}


def start(tb, h):
    """The opening position of header h, its offer still unknown (advanced)."""
    seats = h["seats"]
    return new_game(tb, h["mode"] == "advanced", (seats[tb.sides[0]], seats[tb.sides[1]]),
                    tb.side_index[h["active"]], [NONE] * tb.offer_size, 0)


def set_offer(tb, st, offer):
    for i in range(tb.offer_size):
        st.offer[i] = offer[i]
    st.market_deck = tb.nmarket - tb.offer_size


def replay(tb, store, h, offsets):
    """(the position after every saved line, decisions replayed, whether the offer is known,
    the last decision's line or None): each line read back from flash and carried out by the
    rules core."""
    st = start(tb, h)
    offer = False
    n = 0
    last = None
    for at in offsets:  # in order: no line looked up by its index
        line = store.turn(at)
        if "offer" in line:
            set_offer(tb, st, [tb.market_index[c] for c in line["offer"]])
            offer = True
            continue
        mv = M.from_json(tb, st, line["move"])
        legality.check(st, mv)
        st = apply(st, mv)[0]
        n += 1
        last = line
    return st, n, offer, last


def export_parts(store, h, offsets):
    """The game record piece by piece: a long game is never held whole in memory."""
    offer = None
    yield '{"format": "%s", "game": "%s", "layout": "%s", "mode": %s, "players": %d, ' \
          '"seats": %s, "active": %s' % (FORMAT, GAME, GAME, json.dumps(h["mode"]),
                                         h["players"], json.dumps(h["seats"]),
                                         json.dumps(h["active"]))
    first = True
    for at in offsets:
        line = store.turn(at)
        if "offer" in line:
            offer = line["offer"]
            continue
        if first:
            yield ', "offer": %s, "turns": [' % json.dumps(offer)
            first = False
        else:
            yield ", "
        line.pop("pad", None)  # the referee's padding and the stickers (referee.py), not
        line.pop("uids", None)  # the game's
        yield json.dumps(line)
    if first:
        yield ', "offer": %s, "turns": [' % json.dumps(offer)
    yield "]}"
