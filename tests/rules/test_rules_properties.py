# Property tests over random positions and random games (CPython, in process; the parity
# suite replays seeded games on MicroPython).
import json

from hypothesis import given, settings, strategies as hs, HealthCheck

from shared_rules.protocol import Rules
from shared_rules import randgame
from rulebook import SEATS

RULES = Rules()
HOLES = {4, 7, 12, 20, 23, 28, 36, 39, 44, 52, 55, 60}
START = {"red": 0, "blue": 16, "green": 32, "yellow": 48}
CARDS = ["2", "3", "5", "6", "7", "8", "9", "10", "12", "1/11", "13", "swap", "copy", "partner"]
STEPS = {"2": [2], "3": [3], "5": [5], "6": [6], "7": [7], "8": [8], "9": [9], "10": [10],
         "12": [12], "1/11": [1, 11], "13": [13]}


@hs.composite
def positions(draw):
    players = draw(hs.sampled_from([2, 3, 4]))
    seats = SEATS[players]
    track = draw(hs.lists(hs.integers(0, 63), unique=True, min_size=0, max_size=4 * players))
    pieces = {}
    free = list(track)
    for c in seats:
        locs = []
        homes = draw(hs.lists(hs.integers(1, 4), unique=True, max_size=3))
        for k in homes:
            locs.append("h%d" % k)
        while len(locs) < 4:
            if free and draw(hs.booleans()):
                locs.append(free.pop())
            else:
                locs.append("start")
        pieces[c] = locs
    pos = {"players": players, "to_move": draw(hs.sampled_from(seats)), "pieces": pieces,
           "last_card": draw(hs.sampled_from([None, "5", "1/11", "13", "swap", "partner"]))}
    return pos


def ask(req):
    return json.loads(json.dumps(RULES.handle(req)))


def undercover_locations(pos):
    return sorted(loc for c in pos["pieces"] for loc in pos["pieces"][c]
                  if type(loc) is int and loc in HOLES)


def permute_hidden_colours(pos, rotate):
    """The same public position with the colours under undercover pieces rotated."""
    holes = undercover_locations(pos)
    owner = {}
    for c, locs in pos["pieces"].items():
        for loc in locs:
            if type(loc) is int and loc in HOLES:
                owner[loc] = c
    colours = [owner[h] for h in holes]
    k = rotate % max(1, len(colours))
    colours = colours[k:] + colours[:k]
    new = json.loads(json.dumps(pos))
    for c in new["pieces"]:
        new["pieces"][c] = [loc for loc in new["pieces"][c] if not (type(loc) is int and loc in HOLES)]
    for h, c in zip(holes, colours):
        new["pieces"][c].append(h)
    for c in new["pieces"]:
        new["pieces"][c] += ["start"] * (4 - len(new["pieces"][c]))
        if len(new["pieces"][c]) > 4:
            return None  # this colour would have more than 4 pieces: not the same game
    return new


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(positions(), hs.sampled_from(CARDS))
def test_every_listed_move_applies_and_keeps_the_position_sound(pos, card):
    ans = ask({"op": "legal", "position": pos, "card": card})
    if not ans["ok"]:
        assert ans["error"] in ("game_over",), ans
        return
    for mv in ans["moves"][:40]:
        res = ask({"op": "apply", "position": pos, "move": mv})
        assert res["ok"], (mv, res)
        new = res["position"]
        seen = set()
        for c, locs in new["pieces"].items():
            assert len(locs) == 4
            for loc in locs:
                key = loc if type(loc) is int else (c, loc)
                if loc != "start":
                    assert key not in seen, "two pieces on %s" % (loc,)
                    seen.add(key)
        for ev in res["events"]:
            if ev["type"] == "flip":
                assert ev["undercover"] == (ev["at"] in HOLES)
        # the new position is one the protocol accepts again (or a finished game)
        again = ask({"op": "hints", "position": new, "card": "5"})
        assert again["ok"] or again["error"] == "game_over", again


def _distance(frm, to, colour):
    # steps along the track from frm to to, or to home space hK through colour's start
    if type(to) is int:
        if type(frm) is int:
            return (to - frm) % 64
        return None
    c, h = to.split(":")
    k = int(h[1:])
    if type(frm) is int:
        return (START[c] - frm) % 64 + k
    return k - int(frm.split(":")[1][1:])


@SETTINGS
@given(positions(), hs.sampled_from(sorted(STEPS)))
def test_number_cards_move_exactly_their_count(pos, card):
    ans = ask({"op": "legal", "position": pos, "card": card})
    if not ans["ok"]:
        return
    for mv in ans["moves"]:
        frm, to = mv["path"][0]
        if frm == "%s:start" % pos["to_move"] or (type(frm) is str and frm.endswith(":start")):
            assert card in ("1/11", "13") and type(to) is int and to in START.values()
            continue
        assert _distance(frm, to, None) in STEPS[card], mv


@SETTINGS
@given(positions(), hs.sampled_from(CARDS), hs.integers(1, 5))
def test_legal_and_hints_do_not_depend_on_hidden_colours(pos, card, rotate):
    other = permute_hidden_colours(pos, rotate)
    if other is None:
        return
    for op in ("legal", "hints"):
        a = ask({"op": op, "position": pos, "card": card})
        b = ask({"op": op, "position": other, "card": card})
        if a.get("error") == "game_over" or b.get("error") == "game_over":
            continue  # which colour is home can differ only if a reveal already happened
        assert a == b, (op, pos, other)


@SETTINGS
@given(positions(), hs.sampled_from(CARDS))
def test_hints_are_the_moves_seen_from_the_board(pos, card):
    legal = ask({"op": "legal", "position": pos, "card": card})
    hints = ask({"op": "hints", "position": pos, "card": card})
    if not legal["ok"]:
        assert hints == legal
        return
    if card in STEPS or (card == "copy" and pos["last_card"] in STEPS):
        expected = {}
        for mv in legal["moves"]:
            frm, to = mv["path"][0]
            expected.setdefault(str(frm), set()).add(json.dumps(to))
        got = {k: {json.dumps(t) for t in v} for k, v in hints["targets"].items()}
        assert got == expected
    assert bool(legal["moves"]) == bool(hints["movable"])


def test_random_games_end_with_a_winner():
    for players in (2, 3, 4):
        for seed in range(1, 9):
            st, turns = randgame.play(seed, players, max_turns=20000)
            assert st.winners(), "seed %d, %d players: no winner in %d turns" % (
                seed, players, turns)
