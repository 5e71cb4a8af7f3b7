"""Replaying an Agent Avenue board's game record (docs/agent-avenue-board.md) through the rules
core: the record's header (mode, seats as side counts, the side that began, the first offer)
and the shape of its turns checked with the tests every record gets (host_tools/replay.py,
which reads the record), then every turn (the side that decided, the decision legal there,
nothing after the end) carried out before anything is printed; a record that fails prints
nothing but the one reason."""
from host_tools.replay import RecordError, show as _show, turn_list as _turn_list
from host_tools.replay import is_name as _name, is_whole as _whole
from shared_rules.errors import BadInput
from shared_rules.avenue import legality, randgame
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply

MODES = ("simple", "advanced")
SEATS = (1, 2)  # players on one side
MAX_TURNS = 5000  # whole random games take 10 to 60 decisions


def _start(rec, name):
    """(tables, the start position, the turns) of an Agent Avenue record, checked (the turns
    by their shape: the rules core steps them)."""
    from shared_rules.avenue import tables
    from shared_rules.avenue.state import new_game
    tb = tables.load()
    mode = rec.get("mode")
    if not _name(mode, MODES):
        raise RecordError("%s: mode must be simple or advanced, not %s" % (name, _show(mode)))
    seats = rec.get("seats")
    if type(seats) is not dict or sorted(seats) != sorted(tb.sides) or not all(
            _whole(seats[s], SEATS) for s in tb.sides):
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
    turns = _turn_list(rec, name, MAX_TURNS, ("side", "move"))
    for n, turn in enumerate(turns, 1):
        if not _name(turn["side"], tb.sides):
            raise RecordError("%s: turn %d: side must be %s, not %s" % (
                name, n, " or ".join(tb.sides), _show(turn["side"])))
    st = new_game(tb, mode == "advanced", (seats[tb.sides[0]], seats[tb.sides[1]]),
                  tb.side_index[active], offer, tb.nmarket - tb.offer_size if offer else 0)
    return tb, st, turns


def replay_record(rec, name="the record"):
    """Every line of the replay of an agent-avenue record (a dict), after its header was
    checked and all of its turns were carried out; RecordError names what is wrong."""
    tb, st, turns = _start(rec, name)
    lines = ["La Via delle Spie / Agent Avenue, %s mode, green %d / blue %d, %s begins" % (
        rec["mode"], rec["seats"]["green"], rec["seats"]["blue"], rec["active"])]
    for n, turn in enumerate(turns, 1):
        if st.winner >= 0:
            raise RecordError("%s: turn %d comes after the game ended" % (name, n))
        side = tb.sides[st.who_acts()]
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
