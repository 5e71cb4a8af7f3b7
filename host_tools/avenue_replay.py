"""Replaying an Agent Avenue board's game record (docs/agent-avenue-board.md) through the rules
core: the header (mode, seats as side counts, the side that began, the first offer) and every
turn (the side that decided, the decision legal there, nothing after the end) are checked
before anything is printed; a record that fails prints nothing but the one reason.
`host_tools/replay.py` hands a record of game agent-avenue to this module."""
from shared_rules.errors import BadInput
from shared_rules.avenue import tables, legality, randgame
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import new_game, MARKET

MODES = ("simple", "advanced")
MAX_TURNS = 5000  # whole random games take 10 to 60 decisions


class RecordError(Exception):
    """What is wrong with a record, in one sentence."""


def _start(rec, name):
    tb = tables.load()
    mode = rec.get("mode")
    if mode not in MODES:
        raise RecordError("%s: mode must be simple or advanced, not %r" % (name, mode))
    seats = rec.get("seats")
    if type(seats) is not dict or sorted(seats) != sorted(tb.sides) or any(
            seats[s] not in (1, 2) for s in tb.sides):
        raise RecordError("%s: seats must give each side's players, {\"green\": 1|2, \"blue\": "
                          "1|2}, not %r" % (name, seats))
    if rec.get("players") != seats["green"] + seats["blue"]:
        raise RecordError("%s: players must be %d, the seats' sum, not %r" % (
            name, seats["green"] + seats["blue"], rec.get("players")))
    active = rec.get("active")
    if active not in tb.sides:
        raise RecordError("%s: active must be green or blue, not %r" % (name, active))
    offer = None
    if mode == "advanced":
        names = rec.get("offer")
        if type(names) is not list or len(names) != tb.offer_size or len(set(
                map(str, names))) != tb.offer_size or any(
                n not in tb.market_index for n in names):
            raise RecordError("%s: offer must list the first %d black-market cards, not %r" % (
                name, tb.offer_size, names))
        offer = [tb.market_index[n] for n in names]
    st = new_game(tb, mode == "advanced", (seats["green"], seats["blue"]),
                  tb.side_index[active], offer, tb.nmarket - tb.offer_size if offer else 0)
    return tb, st


def replay_record(rec, name="the record"):
    """Every line of the replay of an agent-avenue record (a dict), after all of it was
    checked."""
    tb, st = _start(rec, name)
    turns = rec.get("turns")
    if type(turns) is not list or len(turns) > MAX_TURNS:
        raise RecordError("%s: turns must be a list of at most %d decisions" % (name, MAX_TURNS))
    lines = ["La Via delle Spie / Agent Avenue, %s mode, green %d / blue %d, %s begins" % (
        rec["mode"], rec["seats"]["green"], rec["seats"]["blue"], rec["active"])]
    for n, turn in enumerate(turns, 1):
        if st.winner >= 0:
            raise RecordError("%s: turn %d comes after the game ended" % (name, n))
        if type(turn) is not dict or "side" not in turn or "move" not in turn:
            raise RecordError("%s: turn %d must be an object with side and move" % (name, n))
        side = tb.sides[st.pending[0] if st.phase == MARKET else st.active]
        if turn["side"] != side:
            raise RecordError("%s: turn %d is %s's, but %s decides there" % (
                name, n, turn["side"], side))
        try:
            mv = M.from_json(tb, st, turn["move"])
            legality.check(st, mv)
            after, events = apply(st, mv)
        except BadInput as e:
            raise RecordError("%s: turn %d is not legal there: %s" % (name, n, e.reason))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise RecordError("%s: turn %d: the decision cannot be read (%s: %s)" % (
                name, n, type(e).__name__, e))
        for line in randgame.describe(tb, st, mv, events):
            lines.append("%4d %s" % (n, line))
        st = after
    return lines
