"""Replaying an Agent Avenue board's game record (docs/agent-avenue-board.md) through the rules
core: every turn (the side that decided, the decision legal there, nothing after the end) is
carried out before anything is printed; a record that fails prints nothing but the one reason.
`host_tools/replay.py` checks the record's header (mode, seats as side counts, the side that
began, the first offer) and the shape of its turns with the checks DOG records get, then hands
the start position and the turns to this module."""
from shared_rules.errors import BadInput
from shared_rules.avenue import legality, randgame
from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply


class RecordError(Exception):
    """What is wrong with a record, in one sentence."""


def replay_record(tb, st, rec, turns, name="the record"):
    """Every line of the replay of an agent-avenue record (a dict) from the start position st,
    after all of its turns were carried out."""
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
