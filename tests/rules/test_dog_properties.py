# Properties of DOG and DOG Royal over random positions and random games (CPython, in process;
# test_parity.py replays seeded games of every game and player count on MicroPython).
# Expectations come from the rulebook's rules (docs/dog-rules.md), checked independently of
# the move generator: distances counted along the board, blockers and ranks looked up in the
# position itself.
import json

from hypothesis import given, settings, strategies as hs, HealthCheck

from shared_rules.protocol import Rules
from shared_rules import randgame, cards as cards_mod

RULES = Rules()
SEATS = {2: ["red", "green"], 3: ["red", "blue", "green"], 4: ["red", "blue", "green", "yellow"],
         5: ["red", "blue", "white", "green", "yellow"],
         6: ["red", "blue", "white", "green", "yellow", "black"]}
TRACK = {2: 64, 3: 64, 4: 64, 5: 96, 6: 96}
STARTS = {4: {"red": 0, "blue": 16, "green": 32, "yellow": 48},
          6: {"red": 0, "blue": 16, "white": 32, "green": 48, "yellow": 64, "black": 80}}
RANKS = ["king", "knight", "citizen", "jester"]
CARDS = ["2", "3", "4", "5", "6", "8", "9", "10", "12", "1-7", "1/11", "13", "swap", "magnet",
         "copy"]
COUNTS = {"2": [2], "3": [3], "4": [4], "5": [5], "6": [6], "8": [8], "9": [9], "10": [10],
          "12": [12], "1-7": [1, 2, 3, 4, 5, 6, 7], "1/11": [1, 11], "13": [13]}
GREEN = ("4", "10")


def starts(players):
    return STARTS[4 if players <= 4 else 6]


@hs.composite
def positions(draw):
    game = draw(hs.sampled_from(["dog", "dog-royal"]))
    players = draw(hs.sampled_from([2, 3, 4, 5, 6]))
    seats = SEATS[players]
    n = TRACK[players]
    track = draw(hs.lists(hs.integers(0, n - 1), unique=True, max_size=3 * players))
    pieces = {}
    free = list(track)
    for c in seats:
        locs = []
        homes = draw(hs.lists(hs.integers(1, 4), unique=True, max_size=2))
        for k in homes:
            locs.append("h%d" % k)
        while len(locs) < 4:
            if free and draw(hs.booleans()):
                locs.append(free.pop())
            else:
                locs.append("start")
        # the order is the rank in dog-royal: shuffle which piece is where
        order = draw(hs.permutations(locs))
        pieces[c] = list(order)
    return {"game": game, "players": players, "to_move": draw(hs.sampled_from(seats)),
            "pieces": pieces, "last_card": draw(hs.sampled_from([None, "5", "4", "1-7", "10"]))}


def ask(req):
    return json.loads(json.dumps(RULES.handle(req)))


def owner(pos, loc):
    """(colour, index in its list) of the piece on a board location, or None."""
    for c, locs in pos["pieces"].items():
        for i, here in enumerate(locs):
            if here == loc:
                return c, i
    return None


SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(positions(), hs.sampled_from(CARDS))
def test_every_listed_move_applies_keeps_ranks_in_order_and_takes_no_king_wrongly(pos, card):
    ans = ask({"op": "legal", "position": pos, "card": card})
    if not ans["ok"]:
        assert ans["error"] == "game_over", ans
        return
    royal = pos["game"] == "dog-royal"
    for mv in ans["moves"][:30]:
        res = ask({"op": "apply", "position": pos, "move": mv})
        assert res["ok"], (mv, res)
        new = res["position"]
        assert new["game"] == pos["game"] and new["layout"] == ("dog-4" if pos["players"] <= 4
                                                                 else "dog-6")
        seen = set()
        for c, locs in new["pieces"].items():
            assert len(locs) == 4
            for loc in locs:
                if loc != "start":
                    key = loc if type(loc) is int else (c, loc)
                    assert key not in seen
                    seen.add(key)
        if not royal:
            continue
        mover = None
        for ev in res["events"]:
            if ev["type"] == "move":
                if type(ev["from"]) is str and ev["from"].endswith(":start"):
                    c = ev["from"].split(":")[0]
                    i = RANKS.index(ev["rank"])
                    assert pos["pieces"][c][i] == "start"  # that rank waited there
                elif type(ev["from"]) is str:  # in its home: "red:h1"
                    c, h = ev["from"].split(":")
                    i = pos["pieces"][c].index(h)
                    assert RANKS[i] == ev["rank"]
                else:
                    c, i = owner(pos, ev["from"])
                    assert RANKS[i] == ev["rank"]
                mover = (c, i)
                assert new["pieces"][c][i] in (ev["to"], ev["to"].split(":")[1]
                                               if type(ev["to"]) is str else ev["to"]) or any(
                    e["type"] == "jump" for e in res["events"])
            elif ev["type"] == "capture":
                c = ev["colour"]
                i = RANKS.index(ev["rank"])
                assert new["pieces"][c][i] == "start"
                if ev["rank"] == "king":
                    # a king is taken only by a king, or on the mover's own start space
                    own_start = starts(pos["players"])[pos["to_move"]]
                    assert RANKS[mover[1]] == "king" or ev["at"] == own_start, res["events"]


def _walk(n, frm, to):
    # the track spaces strictly between frm and to, walking forward
    out = []
    t = (frm + 1) % n
    while t != to:
        out.append(t)
        t = (t + 1) % n
    return out


@SETTINGS
@given(positions(), hs.sampled_from(["2", "3", "5", "6", "8", "9", "10", "12", "1-7", "1/11",
                                     "13"]))
def test_no_piece_passes_a_blocker_or_a_higher_rank_without_green(pos, card):
    ans = ask({"op": "legal", "position": pos, "card": card})
    if not ans["ok"]:
        return
    n = TRACK[pos["players"]]
    st = starts(pos["players"])
    royal = pos["game"] == "dog-royal"
    for mv in ans["moves"]:
        frm, to = mv["path"][0]
        if type(frm) is not int:
            continue  # entering, or moving in a home
        if type(to) is not int:
            to = st[pos["to_move"]]  # into home: the walk passes the own start space
            passed = _walk(n, frm, to) + [to]
        else:
            passed = _walk(n, frm, to)
        c, i = owner(pos, frm)
        for t in passed:
            o = owner(pos, t)
            if o is None:
                continue
            blocker = st.get(o[0]) == t  # on its own-coloured start space
            knight = royal and i == 1
            assert not blocker or knight, (mv, t)
            if royal and card not in GREEN:
                assert o[1] >= i, ("passed a higher rank", mv, t)
        if royal and i == 0:  # the king: counts of 1 to 7 only
            steps = (to - frm) % n if type(mv["path"][0][1]) is int else None
            assert steps is None or steps <= 7, mv


@SETTINGS
@given(positions(), hs.sampled_from(sorted(COUNTS)))
def test_counted_cards_move_exactly_a_count_of_the_card(pos, card):
    ans = ask({"op": "legal", "position": pos, "card": card})
    if not ans["ok"]:
        return
    n = TRACK[pos["players"]]
    st = starts(pos["players"])
    for mv in ans["moves"]:
        frm, to = mv["path"][0]
        if type(frm) is str:
            continue  # entering (1/11, 13) or moving in a home
        if type(to) is int:
            fwd = (to - frm) % n
            back = (frm - to) % n
            assert fwd in COUNTS[card] or (card == "4" and back == 4), mv
        else:
            k = int(to.split(":h")[1])
            steps = (st[pos["to_move"]] - frm) % n + k
            c, i = owner(pos, frm)
            jester = pos["game"] == "dog-royal" and i == 3
            assert steps in COUNTS[card] or (jester and any(
                steps + s in COUNTS[card] for s in (1, 2))), mv


def test_the_deck_is_the_rulebooks_110_cards():
    # "110 Karten (je 10x 1/11 und 13, je 7x 2, 3, 4, 5, 6, 1-7, 8, 9, 10, 12, = und Tauscher,
    # 6x Magnet)"
    cards = cards_mod.load("dog-cards")
    deck = dict(zip(cards.names, cards.deck))  # the count of each kind, in the kinds' order
    assert sum(deck.values()) == 110
    assert deck["1/11"] == deck["13"] == 10 and deck["magnet"] == 6
    assert all(deck[k] == 7 for k in ("2", "3", "4", "5", "6", "1-7", "8", "9", "10", "12",
                                      "copy", "swap"))


def test_random_games_of_2_to_6_players_end_with_a_winner():
    for game in ("dog", "dog-royal"):
        for players in (2, 3, 4, 5, 6):
            for seed in (1, 2):
                st, turns = randgame.play(seed, players, max_turns=20000, game=game)
                assert st.winners(), "%s seed %d, %d players: no winner in %d turns" % (
                    game, seed, players, turns)
