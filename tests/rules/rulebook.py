# Helpers for scenario tests: positions written the way the protocol writes them, and small
# readers for answers. Expected outcomes in tests are counted from the rule texts.

COLOURS = ("red", "blue", "green", "yellow")
SEATS = {2: ["red", "green"], 3: ["red", "blue", "green"], 4: list(COLOURS)}


def position(to_move="red", players=4, **pieces):
    """pieces: colour=[locations...]; missing pieces of a seat are filled with 'start'."""
    obj = {"players": players, "to_move": to_move, "pieces": {}}
    for c in SEATS[players]:
        locs = list(pieces.pop(c, []))
        obj["pieces"][c] = locs + ["start"] * (4 - len(locs))
    for key in ("last_card", "cards_left", "out", "dealer", "seats"):
        if key in pieces:
            obj[key] = pieces.pop(key)
    assert not pieces, "unknown fields %s" % pieces
    return obj


def home(colour, *ks):
    return ["%s:h%d" % (colour, k) if ":" not in colour else colour for k in ks]


def legal(both, pos, card):
    ans = both.ask({"op": "legal", "position": pos, "card": card})
    assert ans["ok"], ans
    return ans["moves"]


def paths(moves):
    """The set of paths (as tuples of (from, to)) of a list of moves."""
    out = set()
    for m in moves:
        if "path" in m:
            out.add(tuple(tuple(seg) for seg in m["path"]))
        else:
            out.add(("swap",) + tuple(sorted(m["swap"])))
    return out


def single(moves):
    """The (from, to) pairs of one-piece moves."""
    return {tuple(m["path"][0]) for m in moves}


def apply(both, pos, move):
    return both.ask({"op": "apply", "position": pos, "move": move})


def applied(both, pos, move):
    ans = apply(both, pos, move)
    assert ans["ok"], ans
    return ans["position"], ans["events"]


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def where(pos, colour):
    return sorted(pos["pieces"][colour], key=str)
