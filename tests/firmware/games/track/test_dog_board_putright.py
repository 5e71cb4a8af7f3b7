"""A wrong placement put right leaves the turn as if it never happened (issue: a citizen's jump
was cut off when the citizen had been put on a wrong square and back earlier in the turn). Whole
DOG Royal games on the 4- and 6-seat boards in which, before each citizen's jump and each
capture, the hand first puts the moving piece on a square no legal move of the card reaches,
waits for the board's refusal, and puts it back where it came from; every move must then be
taken as the players meant it (the board's public view equal to the players' game after every
turn: host_tools/games/track/players.py's check). DOG and DOG Royal split no card (their 1-7
moves one piece one count), so the split, Agent DOG's Partner 4, is played so on the Agent DOG
board, before each of its segments. Expectations: the rules core's legal moves."""
import pytest

from host_tools.games.track.players import Table, Players, wloc
from shared_rules import movegen
from shared_rules.cards import SPLIT
from shared_rules.move import legal_moves

pytestmark = [pytest.mark.micropython, pytest.mark.slow]  # whole games

SPLIT_REACH = 7  # no split segment goes further than the 7's seven steps
WANTED = {"dog-royal": ("jump", "capture"), "agent-dog": ("split", "capture")}


def kind_of(st, mv):
    if mv.act == SPLIT:
        return "split"
    if mv.act in (movegen.STEPS, movegen.MAGNET):
        if movegen.jump_of(mv.b) >= 0:
            return "jump"
        if st.at(movegen.dest_of(mv.b)) >= 0:
            return "capture"
    return None


def reached(st, k):
    """Every track space a legal move of card k could end on, pass through or jump to."""
    lay = st.lay
    out = set()
    for m in legal_moves(st, k):
        if m.act == SPLIT:
            for p in range(lay.npieces):
                if st.pos[p] < lay.n:
                    out.update((st.pos[p] + d) % lay.n for d in range(SPLIT_REACH + 1))
        elif m.act in (movegen.STEPS, movegen.MAGNET):
            out.add(movegen.dest_of(m.b))
            if movegen.jump_of(m.b) >= 0:
                out.add(movegen.jump_of(m.b))
    return out


def wrong_square(table, src, to):
    """Before a jump, a split segment or a capture: a free track space no legal move of the
    card reaches, a few spaces behind where the piece came from."""
    st = table.st
    mv = table.playing
    if kind_of(st, mv) not in WANTED[st.game.name]:
        return None
    lay = st.lay
    near = reached(st, mv.card)
    base = int(src) if src.isdigit() else lay.start[lay.cidx[src.split(":")[0]]]
    for back in range(2, lay.n):
        t = (base - back) % lay.n
        if t not in near and st.at(t) < 0 and wloc(t, lay) not in (src, to):
            return wloc(t, lay)
    return None


def bumped_piece(table, src, to):
    """Before a jump, a split segment or a capture: another piece on the track, the nearest
    ahead of where the moving piece comes from (a hand brushing the pieces on its way; lifted
    and put back)."""
    st = table.st
    mv = table.playing
    if kind_of(st, mv) not in WANTED[st.game.name]:
        return None
    lay = st.lay
    base = int(src) if src.isdigit() else lay.start[lay.cidx[src.split(":")[0]]]
    standing = set(p["at"] for p in table.world().values())  # a split's segments move some
    for ahead in range(1, lay.n):
        t = wloc((base + ahead) % lay.n, lay)
        if t in standing and t not in (src, to):
            return t
    return None


# seeds chosen only so that each kind comes twice soon, never to hide a failure (any seed must
# pass): the first of seeds 1-40 by turns to that, with the rules core playing the same players'
# choices (17, 20 and 15 turns; 175, 54 and 26 with the seeds before)
@pytest.mark.parametrize("board,game,players,seed", [
    ("dog-4", "dog-royal", 4, 30), ("dog-6", "dog-royal", 6, 25), ("agent-dog-4", "agent-dog", 4, 34)])
@pytest.mark.parametrize("hand", ["fumble", "bump"])
def test_moves_after_a_wrong_placement_put_right_are_taken_whole(board, game, players, seed,
                                                                 hand):
    t = Table(seed=seed, board=board)
    try:
        t.new_game(players, game=game)
        t.fumble = wrong_square if hand == "fumble" else None
        t.bump = bumped_piece if hand == "bump" else None
        p = Players(t, seed)
        p.deal()
        seen = dict((k, 0) for k in WANTED[game])
        turns = 0
        while min(seen.values()) < 2 and turns < 400:
            before = len(t.fumbled)
            st = t.st
            evs = p.turn()  # raises if the board takes another move than the players made
            turns += 1
            if len(t.fumbled) > before:
                seen[kind_of(st, t.playing)] += 1
            kinds = [e.get("event") for e in evs]
            if "win" in kinds:
                break
            if "round_end" in kinds:
                p.deal()
        assert min(seen.values()) >= 1, seen
    finally:
        t.close()
