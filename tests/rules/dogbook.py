# Helpers for the DOG (`game: "dog"`) and DOG Royal (`game: "dog-royal"`) scenario tests:
# positions written the way the protocol writes them (the DOG contract over the rules-core
# protocol) and small readers for answers. Nothing here knows a rule: every expected outcome in
# the tests is counted by hand from seed 001 and the contract, and written in the test.
import json

DOG4 = ("red", "blue", "green", "yellow")                     # clockwise on `dog-4`
DOG6 = ("red", "blue", "white", "green", "yellow", "black")   # clockwise on `dog-6`
# Default seats by player count (contract, "Boards"): 2 red green; 3 red blue green; 4 all of
# dog-4; 5 red blue white green yellow; 6 all of dog-6.
SEATS = {2: ["red", "green"], 3: ["red", "blue", "green"], 4: list(DOG4),
         5: ["red", "blue", "white", "green", "yellow"], 6: list(DOG6)}
RANKS = ("king", "knight", "citizen", "jester")               # list index = rank in dog-royal
MOVE_KEYS = {"card", "path", "swap", "rank", "jump"}


def rk(king="start", knight="start", citizen="start", jester="start"):
    """A dog-royal colour's four pieces in rank order (index 0 the king ... 3 the jester)."""
    return [king, knight, citizen, jester]


ALL_HOME = ["h1", "h2", "h3", "h4"]


def position(game="dog", players=4, to_move="red", layout=None, **fields):
    """A position of `game`. Colours of the seats not named get four pieces "start".

    In `dog` a shorter list is filled up with "start" (order means nothing there). In
    `dog-royal` a named colour must be given whole (use rk()), as order is rank."""
    obj = {"game": game, "players": players, "to_move": to_move, "pieces": {}}
    if layout is not None:
        obj["layout"] = layout
    for key in ("last_card", "cards_left", "out", "dealer", "seats"):
        if key in fields:
            obj[key] = fields.pop(key)
    for c in obj.get("seats", SEATS[players]):
        locs = list(fields.pop(c, []))
        if game == "dog-royal" and locs:
            assert len(locs) == 4, "write a dog-royal colour whole, in rank order: %s" % c
        obj["pieces"][c] = locs + ["start"] * (4 - len(locs))
    assert not fields, "unknown fields %s" % fields
    return obj


def royal(players=4, to_move="red", layout=None, **fields):
    return position("dog-royal", players, to_move, layout, **fields)


def legal(both, pos, card):
    ans = both.ask({"op": "legal", "position": pos, "card": card})
    assert ans["ok"], ans
    for m in ans["moves"]:
        assert m["card"] == card, m
        assert set(m) <= MOVE_KEYS, m
    return ans["moves"]


def outcome(m):
    """One move as a comparable tuple: (from, to), then ("rank", R) and ("jump", J) when the
    move carries them; a swap as ("swap", own, other). Every DOG move moves one piece in one
    segment, so a path of more than one segment is itself wrong."""
    if "swap" in m:
        assert "path" not in m, m
        return ("swap", m["swap"][0], m["swap"][1])
    assert len(m["path"]) == 1, m
    key = tuple(m["path"][0])
    if "rank" in m:
        key += ("rank", m["rank"])
    if "jump" in m:
        key += ("jump", m["jump"])
    return key


def outcomes(both, pos, card):
    """The set of outcomes `legal` lists (it may list one twice; it must list each once)."""
    return {outcome(m) for m in legal(both, pos, card)}


def apply(both, pos, move):
    return both.ask({"op": "apply", "position": pos, "move": move})


def applied(both, pos, move):
    ans = apply(both, pos, move)
    assert ans["ok"], ans
    return ans["position"], ans["events"]


def refused(both, pos, move, kind="illegal"):
    ans = apply(both, pos, move)
    assert ans["ok"] is False and ans["error"] == kind, ans
    return ans


def hints(both, pos, card):
    """`hints` as (movable sorted, {LOC: sorted targets}), numbers before named locations."""
    ans = both.ask({"op": "hints", "position": pos, "card": card})
    assert ans["ok"], ans
    key = lambda v: (type(v) is str, v)  # noqa: E731
    return (sorted(ans["movable"], key=key),
            {k: sorted(v, key=key) for k, v in ans["targets"].items()})


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def same_events(events, expected):
    """Events compared as a multiset (the contract fixes only the draw -> jump order)."""
    canon = lambda es: sorted(json.dumps(e, sort_keys=True) for e in es)  # noqa: E731
    assert canon(events) == canon(expected), events


def where(pos, colour):
    """A colour's pieces, sorted (in `dog` order means nothing)."""
    return sorted(pos["pieces"][colour], key=str)


def move(card, frm, to, **extra):
    m = {"card": card, "path": [[frm, to]]}
    m.update(extra)
    return m


def mv(frm, to, **extra):
    """An expected `move` event."""
    e = {"type": "move", "from": frm, "to": to}
    e.update(extra)
    return e


def cap(at, colour, **extra):
    """An expected `capture` event."""
    e = {"type": "capture", "at": at, "colour": colour}
    e.update(extra)
    return e


def steps(frm, counts, n=64):
    """(frm, frm + k) on a track of n spaces for each k in counts."""
    return {(frm, (frm + k) % n) for k in counts}
