# Whole games of DOG and DOG Royal on the simulated board, 2 to 6 players (2-4 on the 4-seat
# board, 5 and 6 on the 6-seat one, as the rulebook seats them): players tap real cards and move
# pieces by hand, the firmware referees, and after every turn its public view (board, ranks,
# cards left, seat to move) must equal the players' own game kept with the rules core. Then a
# coverage check: every card of the DOG deck was played, every power the ranks have was used,
# special spaces made the mover draw, citizens jumped, jesters entered home short, and a side won.
# What "used" means is worked out here from the rulebook's wording, on the moves the players
# made, not taken from what the board said.
import pytest

import played
from host_tools.games.track.players import Table, Players
from shared_rules import movegen
from shared_rules.apply import apply as rules_apply
from shared_rules.cards import STEPS

pytestmark = [pytest.mark.micropython, pytest.mark.slow]  # whole games for 2 to 6 players

# (game, players, seed): every player count of both games; seeds chosen only so that the games
# stay short, never to hide a failure (any seed must pass): the shortest of seeds 1-40 (turns,
# and passes, which hold the board 2.3 s) whose games together still play every card, every
# new move and every power of the ranks the tests below ask for, 1,100 turns in all (1,970
# with the seeds before)
GAMES = [("dog", 2, 7), ("dog", 3, 17), ("dog", 4, 26), ("dog", 5, 6), ("dog", 6, 35),
         ("dog-royal", 2, 4), ("dog-royal", 3, 21), ("dog-royal", 4, 40), ("dog-royal", 5, 15),
         ("dog-royal", 6, 39)]
BOARDS = {2: "dog-4", 3: "dog-4", 4: "dog-4", 5: "dog-6", 6: "dog-6"}  # seed 001's seating
KING, KNIGHT, CITIZEN, JESTER = 0, 1, 2, 3  # a colour's pieces in Royal, in the position's order


def _snapshot(st):
    return (bytes(st.pos), st.to_move, st.dealer, st.last_card, bytes(st.cards), st.out)


class RecordingTable(Table):
    """The table, keeping each move the players made with the position it was made in."""

    def __init__(self, **kw):
        self.moves = []
        self.positions = []
        Table.__init__(self, **kw)

    def play(self, card, mv, meet_first=True):
        st = self.st
        evs = Table.play(self, card, mv, meet_first)
        self.moves.append((st, card, mv, rules_apply(st, mv)[1]))
        return evs

    def check(self):
        # called once after every turn, a move or a pass: the players' position then
        self.positions.append(_snapshot(self.st))
        Table.check(self)


def play(game, players, seed):
    t = RecordingTable(seed=seed, board=BOARDS[players])
    try:
        t.new_game(players, game=game)
        turns, _ = Players(t, seed).game()
        return {"game": game, "players": players, "turns": turns, "events": list(t.events),
                "view": t.public(), "record": t.record(), "moves": t.moves,
                "positions": t.positions}
    finally:
        t.close()


def game_id(g):
    return "%s-%d-%d" % g


def played_game(tmp_path_factory, g):
    """The whole game g, played once per run whichever worker asks first (tests/played.py:
    the games spread over the workers, a game a unit)."""
    return played.across(tmp_path_factory, "dog-board-" + game_id(g), lambda: play(*g))


@pytest.fixture(scope="module", params=GAMES, ids=game_id)
def game(request, tmp_path_factory):
    return played_game(tmp_path_factory, request.param)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    # from the last: the workers take the games' own units from the first on, so this waits
    # on them the least
    got = [played_game(tmp_path_factory, g) for g in reversed(GAMES)]
    return got[::-1]


def passed(st, mv):
    """The track spaces a counted forward move passes (its start and end excluded; a move into
    home passes its own start space), or () for any other move."""
    lay = st.lay
    e = movegen.effective(st, mv.card)
    if st.game.cards.action[e] != STEPS or mv.a < 0:
        return ()
    frm = st.pos[mv.a]
    to = movegen.dest_of(mv.b)
    if frm >= lay.n or movegen.jump_of(mv.b) >= 0 or st.game.cards.backward[e] and \
            to < lay.n and (frm - to) % lay.n == 4:
        return ()
    if to < lay.n:
        k = (to - frm) % lay.n
    else:
        k = (lay.start[mv.a // lay.ppc] - frm) % lay.n + 1
    return [(frm + i) % lay.n for i in range(1, k)]


def steps_used(st, mv):
    """How far a piece went into its home on a counted move from the track, and the card's
    count, or None."""
    lay = st.lay
    e = movegen.effective(st, mv.card)
    frm = st.pos[mv.a] if mv.a >= 0 else lay.nboard
    to = movegen.dest_of(mv.b) if mv.a >= 0 else lay.nboard
    if st.game.cards.action[e] != STEPS or frm >= lay.n or not lay.is_home(to):
        return None
    count = st.game.cards.steps[e]
    went = (lay.start[mv.a // lay.ppc] - frm) % lay.n + lay.home_index(to) + 1
    return went, count


def rank_powers(moves):
    """The Royal powers the players' moves used, by the rulebook's "Royal" section."""
    seen = set()
    for st, card, mv, evs in moves:
        if mv.a < 0:
            continue
        lay = st.lay
        r = mv.a % lay.ppc
        colour = mv.a // lay.ppc
        e = movegen.effective(st, mv.card)
        for t in passed(st, mv):
            q = st.board[t]
            if not q:
                continue
            q -= 1
            if lay.start[q // lay.ppc] == t and r == KNIGHT:
                seen.add("a knight passes a piece on its own start space")
            elif q % lay.ppc < r and st.game.cards.green[e]:
                seen.add("a green card passes a higher rank")
        for ev in evs:
            if ev["type"] == "capture" and ev.get("rank") == "king":
                d = movegen.dest_of(mv.b)
                if r == KING:
                    seen.add("a king takes a king")
                elif d == lay.start[colour]:
                    seen.add("the own start space takes a king")
            if ev["type"] == "jump":
                seen.add("a citizen jumps on")
            if ev["type"] == "draw":
                seen.add("a special space draws")
        used = steps_used(st, mv)
        if used is not None and r == JESTER and used[0] < max(used[1]):
            seen.add("a jester enters home short")
        if r == KING and st.game.cards.action[e] == STEPS and max(st.game.cards.steps[e]) <= 7:
            seen.add("a king moves")
    return seen


def test_whole_games_end_with_a_winner_and_a_record_of_every_turn(game):
    for g in [game]:
        wins = [e for e in g["events"] if e.get("event") == "win"]
        assert len(wins) == 1 and g["view"]["phase"] == "game_over", g["game"]
        team = g["players"] in (4, 6)  # seed 001: 4 and 6 players play in pairs
        assert len(wins[0]["seats"]) == (2 if team else 1), (g["game"], g["players"], wins)
        assert g["view"]["game"] == g["game"]
        assert g["view"]["layout"] == BOARDS[g["players"]]
        assert (g["record"]["game"], g["record"]["layout"]) == (g["game"],
                                                                 BOARDS[g["players"]])
        assert len(g["record"]["turns"]) == g["turns"]


def test_the_games_played_every_card_of_the_dog_deck(games):
    seen = set()
    for g in games:
        seen.update(e["card"] for e in g["events"] if e.get("event") == "card")
    # the DOG Royal box (seed 001, "Spielmaterial"): 2-6, 8-10, 12, 1-7, 1/11, 13, the 4 is
    # the 4 forward or backward, = (copy), the swap and the magnet
    wanted = {"2", "3", "4", "5", "6", "8", "9", "10", "12", "1-7", "1/11", "13", "copy",
              "swap", "magnet"}
    assert wanted - seen == set()


def test_the_games_used_the_new_moves(games):
    seen = set()
    for g in games:
        for st, card, mv, evs in g["moves"]:
            e = movegen.effective(st, mv.card)
            kind = st.game.cards.names[e]
            if kind == "4" and mv.a >= 0 and movegen.dest_of(mv.b) < st.lay.n and \
                    (st.pos[mv.a] - movegen.dest_of(mv.b)) % st.lay.n == 4 and \
                    st.pos[mv.a] < st.lay.n:
                seen.add("4 backward")
            if kind == "1-7" and mv.a >= 0 and st.pos[mv.a] < st.lay.n and \
                    movegen.dest_of(mv.b) < st.lay.n and \
                    (movegen.dest_of(mv.b) - st.pos[mv.a]) % st.lay.n < 7:
                seen.add("1-7 short of 7")  # the board took a count the card leaves open
            if kind in ("magnet", "swap"):
                seen.add(kind)
    assert {"4 backward", "1-7 short of 7", "magnet", "swap"} - seen == set()


def test_the_royal_games_used_every_power_of_the_ranks(games):
    seen = set()
    for g in games:
        if g["game"] == "dog-royal":
            seen |= rank_powers(g["moves"])
    wanted = {"a knight passes a piece on its own start space", "a green card passes a higher "
              "rank", "the own start space takes a king", "a king takes a king",
              "a citizen jumps on", "a special space draws", "a jester enters home short",
              "a king moves"}
    assert wanted - seen == set()


def test_the_board_announced_every_draw_and_jump_the_rules_made(game):
    for g in [game]:
        want = [ev["type"] for _, _, _, evs in g["moves"] for ev in evs
                if ev["type"] in ("draw", "jump")]
        said = [e["event"] for e in g["events"] if e.get("event") in ("draw", "jump")]
        assert said == want, (g["game"], g["players"])
        if g["game"] == "dog":
            assert want == []  # plain DOG has no special spaces



def test_each_exported_record_replays_to_the_positions_the_players_reached(game):
    # The board's record (export) read back by the laptop's replay
    # (host_tools/games/track/replay.py): every turn legal in the record's own game and board,
    # and after each one, move or pass, the position the players themselves reached.
    from host_tools.games.track import replay
    for g in [game]:
        steps = replay.turns(g["record"], "%s %dp" % (g["game"], g["players"]))
        start = next(steps)
        assert start.game.name == g["game"] and start.lay.name == BOARDS[g["players"]]
        seen = [_snapshot(after) for _, _, after, _ in steps]
        assert seen == g["positions"], (g["game"], g["players"])
        assert len(seen) == g["turns"]
