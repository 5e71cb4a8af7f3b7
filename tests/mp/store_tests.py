# The game log on flash: turn offsets kept in fixed-size chunks, torn last lines, undo lines.
import os

from simboard import check
from firmware.store import Store, Offsets, CHUNK

SCRATCH = "/tmp"


def fresh_dir(name):
    d = SCRATCH + "/" + name
    try:
        os.mkdir(d)
    except OSError:
        pass
    try:
        os.remove(d + "/game.log")
    except OSError:
        pass
    return d


def test_offsets_behave_as_a_list_across_chunk_boundaries():
    o = Offsets()
    ref = []
    for k in range(3 * CHUNK + 5):
        o.append(k * 37)
        ref.append(k * 37)
    for _ in range(CHUNK + 7):  # back across a boundary, then forward again
        check(o.pop() == ref.pop(), "pop differs")
    for k in range(10):
        o.append(9000 + k)
        ref.append(9000 + k)
    check(len(o) == len(ref), "length %d, expected %d" % (len(o), len(ref)))
    check(list(o) == ref, "iteration differs")
    check(o[0] == 0 and o[len(ref) - 1] == ref[-1], "indexing differs")
    check(len(o.chunks) == (len(ref) + CHUNK - 1) // CHUNK, "%d chunks kept" % len(o.chunks))


def test_offsets_far_apart_start_a_chunk_of_their_own():
    # a chunk keeps each turn's distance from the one before in 1 byte: a turn more than 255
    # bytes further on (a long run of undone turns) starts a new chunk, and reads back exactly
    o = Offsets()
    ref = [0, 100, 355, 611, 612, 867, 65636, 200000, 1 << 24]
    for at in ref:
        o.append(at)
    check(list(o) == ref and [o[j] for j in range(len(ref))] == ref, "far offsets differ")
    check(o[-1] == 1 << 24 and o[-len(ref)] == 0, "negative indices differ")
    # [0, 100, 355] [611, 612, 867] [65636] [200000] [1 << 24]: 256 past 355 is one too far
    check(len(o.chunks) == 5, "%d chunks for 5 runs of steps within 255" % len(o.chunks))
    check(o.pop() == 1 << 24 and len(o.chunks) == 4, "the far chunk not dropped")
    check(list(o) == ref[:-1], "after pop")
    for at in (200000, 65636, 867, 612, 611):  # back across every chunk boundary
        check(o.pop() == at, "pop differs at %d" % at)
    o.append(700)  # after the pops the last turn starts at 355: 345 on starts a chunk
    o.append(701)
    check(list(o) == [0, 100, 355, 700, 701] and len(o.chunks) == 2, "append after pops %r"
          % (list(o),))
    for j in (5, -6):
        try:
            o[j]
            check(False, "turn %d of 5 read" % j)
        except IndexError:
            pass


def test_log_resumes_at_the_last_whole_line_and_honours_undo():
    d = fresh_dir("store1")
    s = Store(d)
    s.new({"format": "agentboard-record/1", "players": 2, "seats": ["blue", "red"],
           "dealer": "blue"})
    at = [s.append({"seat": "blue", "card": "5", "move": k}) for k in range(70)]
    s.append({"undo": True})
    with open(d + "/game.log", "a") as f:
        f.write('{"seat": "red", "card": "7", "mo')  # the power went during this write
    header, offsets = s.load()
    check(header["players"] == 2, "header %r" % (header,))
    check(list(offsets) == at[:-1], "offsets after undo and torn line: %d" % len(offsets))
    check(s.turn(offsets[68])["move"] == 68, "turn 68 reads back wrong")
    with open(d + "/game.log") as f:
        text = f.read()
    check(text.endswith('{"undo": true}\n'), "torn line not cut off: %r" % text[-40:])
    s.append({"seat": "red", "card": "7", "move": 70})
    header, offsets = s.load()
    check(len(offsets) == 70 and s.turn(offsets[69])["move"] == 70, "append after repair")


def test_a_log_of_another_format_is_no_game():
    d = fresh_dir("store2")
    with open(d + "/game.log", "w") as f:
        f.write('{"format": "something-else/1"}\n')
    header, offsets = Store(d).load()
    check(header is None and len(offsets) == 0, "foreign log accepted")
