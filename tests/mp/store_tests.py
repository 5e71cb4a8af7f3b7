# The game log on flash: turn offsets kept in fixed-size chunks, torn last lines, undo lines.
import os
import json

from simboard import check
from firmware.gamelog import Store
from firmware.store import Offsets, CHUNK

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


def test_an_undos_squares_to_lift_are_kept_until_the_board_saw_them_lifted():
    # the exchange an undo asks for survives a power cut until the squares were lifted (a
    # {"lifted": true} record), and a later turn or undo replaces it
    d = fresh_dir("store3")
    s = Store(d)
    s.new({"format": "agentboard-record/1", "players": 2, "seats": ["blue", "red"],
           "dealer": "blue"})
    for k in range(3):
        s.append({"seat": "blue", "card": "swap", "move": k})
    s.append({"undo": True, "lift": [20, 28]})
    header, offsets = s.load()
    check(len(offsets) == 2 and offsets.lift == [20, 28], "pending %r" % (offsets.lift,))
    s.append({"lifted": True})
    header, offsets = s.load()
    check(len(offsets) == 2 and offsets.lift is None, "lifted: %r, %d turns" % (
        offsets.lift, len(offsets)))
    s.append({"undo": True, "lift": [5]})
    s.append({"seat": "red", "card": "5", "move": 9})  # played on: the board was right
    header, offsets = s.load()
    check(len(offsets) == 2 and offsets.lift is None, "after a turn: %r" % (offsets.lift,))
    s.append({"undo": True})
    header, offsets = s.load()
    check(len(offsets) == 1 and offsets.lift is None, "a plain undo: %r" % (offsets.lift,))


def test_a_log_of_another_format_is_no_game():
    d = fresh_dir("store2")
    with open(d + "/game.log", "w") as f:
        f.write('{"format": "something-else/1"}\n')
    header, offsets = Store(d).load()
    check(header is None and len(offsets) == 0, "foreign log accepted")


# -- the journal on the game partition (firmware/flashlog.py), on a model of the NOR flash --
from host_tools.sim.nor_flash import NorFlash, PowerCut, SECTOR, NO_CUT  # noqa: E402
from firmware.flashlog import FlashLog, READY_ROOM  # noqa: E402

HEADER = {"format": "agentboard-record/1", "players": 2, "seats": ["blue", "red"],
          "dealer": "blue"}


def turn(k):
    # turns of varying length, so that records end anywhere in a page or a sector
    return {"seat": "blue", "card": "5", "move": {"n": k, "pad": "x" * (k * 7 % 61)}}


def reloaded(flash):
    j = FlashLog(flash)
    header, offsets = j.load()
    return j, header, [j.turn(at)["move"]["n"] for at in offsets]


def test_journal_reads_back_every_turn_and_undo_across_sectors():
    flash = NorFlash(8)
    j = FlashLog(flash)
    j.new(HEADER)
    for k in range(150):  # about 3 sectors
        j.append(turn(k))
    j.append({"undo": True})
    j.append({"undo": True})
    j.append(turn(150))
    j2, header, moves = reloaded(flash)
    check(header == HEADER, "header %r" % (header,))
    check(moves == list(range(148)) + [150], "turns read back: %r" % moves[-5:])
    check(j2.pos == j.pos, "next record at %d, the writer was at %d" % (j2.pos, j.pos))
    check(flash.bits_set == 0, "%d programs over unerased bytes" % flash.bits_set)


def test_journal_saves_erase_nothing_once_ready_ran():
    # the point of the journal: the sector a save goes into was erased ahead of it
    flash = NorFlash(16)
    j = FlashLog(flash)
    j.new(HEADER)
    ahead = 0
    for k in range(400):
        e = flash.erases
        j.ready()
        ahead += flash.erases - e
        e = flash.erases
        j.append(turn(k))
        check(flash.erases == e, "save %d erased %d sectors" % (k, flash.erases - e))
    # each sector the saves went on to was erased ahead, and no more than one beyond
    used = j.pos // SECTOR  # sectors after the first, which the new game erased itself
    check(used <= ahead <= used + 1, "%d sectors erased ahead for %d bytes" % (ahead, j.pos))
    check(j.clean - j.pos >= 0, "the writer is past the erased flash")
    check(reloaded(flash)[2] == list(range(400)), "turns differ")


def test_journal_survives_a_power_cut_at_every_byte_of_a_save():
    # a save cut after any number of its bytes, then one cut at the sector's end: the game
    # loads as it was before the save (or with it, once whole), and goes on being saved
    for first, crosses in ((9, False), (41, True)):  # the save fits its sector, or goes on
        ref = NorFlash(4)                              # to the next, leaving a mark behind
        j = FlashLog(ref)
        j.new(HEADER)
        for k in range(first):
            j.append(turn(k))
        size = (8 + len(json.dumps(turn(first))) + 3) & ~3  # head, text, to 4 bytes
        check((j.pos % SECTOR + size > SECTOR) == crosses, "save %d at %d: not the case meant"
              % (first, j.pos))
        j.ready()
        base = dict((b, bytearray(s)) for b, s in ref.sectors.items())
        saved = False
        for cut in range(len(json.dumps(turn(first))) + 16):
            flash = NorFlash(4)
            flash.sectors = dict((b, bytearray(s)) for b, s in base.items())
            w = FlashLog(flash)
            w.load()
            flash.cut_after = cut
            try:
                w.append(turn(first))
                saved = True
            except PowerCut:
                saved = False
            flash.cut_after = NO_CUT
            j2, header, moves = reloaded(flash)
            want = list(range(first + 1 if saved else first))
            check(header == HEADER and moves == want, "cut after %d bytes: %r" % (cut, moves[-3:]))
            for k in range(len(want), len(want) + 70):  # on, across at least one sector
                j2.ready()
                j2.append(turn(k))
            moves = reloaded(flash)[2]
            check(moves == list(range(len(want) + 70)), "after cut %d: %r" % (cut, moves[-3:]))
            check(flash.bits_set == 0, "cut %d: programs over unerased bytes" % cut)
            if saved:
                break
        check(saved, "the save never completed")


def test_journal_power_cut_while_erasing_loses_nothing_saved():
    for at_new in (False, True):
        flash = NorFlash(8)
        j = FlashLog(flash)
        j.new(HEADER)
        saved = 0
        while saved < 50 or j.clean - j.pos >= READY_ROOM:  # until the next ready() erases
            j.ready()
            j.append(turn(saved))
            saved += 1
        flash.cut_erase = True
        try:
            if at_new:
                j.new(HEADER)  # a new game's first sector
            else:
                j.ready()  # the sector ahead
            check(False, "no erase was cut")
        except PowerCut:
            pass
        moves = reloaded(flash)[2]
        if at_new:  # the old game was ended before its sector was erased: never half of it
            check(moves == [], "a new game cut while erasing left %d old turns" % len(moves))
        else:
            check(moves == list(range(saved)), "a cut erase ahead lost turns: %d" % len(moves))
            j2 = reloaded(flash)[0]
            for k in range(saved, saved + 150):
                j2.ready()
                j2.append(turn(k))
            check(reloaded(flash)[2] == list(range(saved + 150)), "saving on after the cut")


def test_journal_new_game_never_reads_the_old_games_turns():
    flash = NorFlash(10)
    j = FlashLog(flash)
    j.new(HEADER)
    for k in range(300):
        j.ready()
        j.append(turn(k))
    other = dict(HEADER, players=3)
    j2 = FlashLog(flash)
    j2.new(other)
    # fill the first sector to its last byte without ready(): the old game's second sector
    # follows, not erased, its records whole; the new game's turns alone are read
    k = 0
    while j2.pos < SECTOR - 200:
        j2.append(turn(k))
        k += 1
    room = SECTOR - j2.pos
    last = {"seat": "blue", "card": "5", "move": {"n": k, "pad": ""}}
    last["move"]["pad"] = "x" * (room - 8 - len(json.dumps(last)))  # 8: the record's head
    j2.append(last)
    check(j2.pos == SECTOR, "the first sector not filled exactly: %d" % j2.pos)
    _, header, moves = reloaded(flash)
    check(header == other and moves == list(range(k + 1)), "new game read %d turns, %d saved"
          % (len(moves), k + 1))
    for m in range(k + 1, k + 60):
        j2.append(turn(m))
    check(reloaded(flash)[2] == list(range(k + 60)), "the new game across the old sectors")
    check(flash.bits_set == 0, "programs over the old game's bytes")


def test_journal_full_refuses_a_save_and_keeps_the_game():
    flash = NorFlash(3)
    j = FlashLog(flash)
    j.new(HEADER)
    k = 0
    try:
        while True:
            j.append(turn(k))
            k += 1
    except OSError as e:
        check(e.args[0] == 28, "full partition: %r" % (e,))
    check(k > 60 and reloaded(flash)[2] == list(range(k)), "full journal lost turns: %d" % k)
    # full is where the writer stands, not how long the record is: whether a save is refused
    # must not tell what it holds (a face-down card's name), so the shortest record is
    # refused too, and each record before the refusal fitted with room to spare
    check(j.pos > 2 * SECTOR, "refused at %d, before the last sector" % j.pos)
    try:
        j.append({})
        check(False, "a short record saved where a long one was refused")
    except OSError as e:
        check(e.args[0] == 28, "full partition: %r" % (e,))


# -- a flash that refuses saves (firmware/store.py's Guarded) ---------------------------------
from firmware.store import Guarded, KEPT  # noqa: E402


def saves(events):
    return [e for e in events if e.get("what") == "save"]


def filled(store, n):
    """A new game of n turns saved through Guarded(store), which fills up on the way: told
    once, every turn read back; (the Guarded store, its events, the offsets, turns on flash)."""
    events = []
    g = Guarded(store, events.append)
    g.new(HEADER)
    offsets = Offsets()
    for k in range(n):
        offsets.append(g.append(turn(k)))
    ev = saves(events)
    check(len(ev) == 1 and ev[0]["event"] == "fault" and ev[0]["errno"] == 28 and
          "full" in ev[0]["reason"], "fault events: %r" % (events,))
    check([g.turn(at)["move"]["n"] for at in offsets] == list(range(n)), "turns read back")
    on_flash = len([at for at in offsets if at < KEPT])
    check(0 < on_flash < n, "%d turns on flash" % on_flash)
    return g, events, offsets, on_flash


def test_guarded_full_journal_reports_once_and_the_game_goes_on():
    flash = NorFlash(3)  # 12 KB: full after some 90 records
    g, events, offsets, on_flash = filled(FlashLog(flash), 160)
    check(on_flash > 60, "%d turns on flash" % on_flash)
    # the turns kept in RAM cost the offsets a chunk of their own, not one each
    check(len(offsets.chunks) <= 4, "%d chunks" % len(offsets.chunks))
    # undo across the records kept in RAM
    g.append({"undo": True})
    offsets.pop()
    offsets.append(g.append(turn(160)))
    check([g.turn(at)["move"]["n"] for at in offsets] == list(range(159)) + [160], "undo")
    erases = flash.erases
    g.ready()  # the journal is full: nothing to erase, nothing to fail
    check(flash.erases == erases and len(saves(events)) == 1, "ready on a full journal")
    # after a power cut the board resumes what the flash holds: the turns up to the refusal
    check(reloaded(flash)[2] == list(range(on_flash)), "the flash's part of the game")
    # a new game goes to the flash again
    g.new(HEADER)
    at = g.append(turn(0))
    check(at < KEPT and g.kept is None and len(saves(events)) == 1, "new game at %d" % at)
    check(reloaded(flash)[2] == [0], "the new game on flash")


class RamDisk:
    """A block device in RAM for a littlefs: the device's vfs partition, small enough to fill."""

    def __init__(self, block_size, blocks):
        self.block = block_size
        self.data = bytearray(block_size * blocks)

    def readblocks(self, n, buf, off=0):
        at = n * self.block + off
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, off=0):
        at = n * self.block + off
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.block
        if op == 5:
            return self.block
        return 0


def with_littlefs(blocks, test):
    """Runs test(folder) on a littlefs of `blocks` 512-byte blocks mounted for it (while it is
    mounted, the unix port sees no other folder)."""
    import vfs
    disk = RamDisk(512, blocks)
    vfs.VfsLfs2.mkfs(disk)
    vfs.mount(vfs.VfsLfs2(disk), "/lfs")
    try:
        test("/lfs")
    finally:
        vfs.umount("/lfs")


def test_guarded_full_littlefs_reports_once_and_a_new_game_makes_room():
    with_littlefs(16, full_littlefs)  # 8 KB, of which littlefs keeps some for itself


def full_littlefs(d):
    g, events, offsets, on_flash = filled(Store(d), 120)
    header, flash_offsets = Store(d).load()
    check(header == HEADER and [Store(d).turn(at)["move"]["n"] for at in flash_offsets] ==
          list(range(on_flash)), "game.log after the refusal")
    # the full file system takes a new game: the old log goes to make room for it
    g.new(HEADER)
    at = g.append(turn(0))
    check(at < KEPT and len(saves(events)) == 1, "new game at %d: %r" % (at, events))
    header, flash_offsets = Store(d).load()
    check(header == HEADER and len(flash_offsets) == 1, "the new game in game.log")


def test_guarded_new_game_on_a_file_system_full_of_other_files():
    with_littlefs(16, full_of_other_files)


def full_of_other_files(d):
    # no room even without the old game: the refusal is reported and the old game is gone,
    # so a power cut cannot bring it back in place of the new one
    Store(d).new(HEADER)
    Store(d).append(turn(1))
    try:
        while True:  # a file written whole at each close, as littlefs commits
            with open(d + "/other", "a") as f:
                f.write("z" * 64)
    except OSError:
        pass
    events = []
    g = Guarded(Store(d), events.append)
    # a header that needs a block of its own (littlefs keeps small files in its directory)
    g.new(dict(HEADER, pad="p" * 1500))
    at = g.append(turn(0))
    check(at >= KEPT and len(saves(events)) == 1, "refusal: %r" % (events,))
    check(g.turn(at)["move"]["n"] == 0, "the new game's turn kept")
    check(Store(d).load()[0] is None, "the old game is still on flash")
    check("game.log.tmp" not in os.listdir(d), "a partial header left behind")


class Refusing:
    """A flash that takes nothing: every save and every erase ahead fails with `code`."""

    def __init__(self, code):
        self.code = code

    def new(self, header):
        raise OSError(self.code)

    def append(self, obj):
        raise OSError(self.code)

    def due(self):
        return True  # always a sector to erase ahead, which fails

    def ready(self):
        raise OSError(self.code)


def test_guarded_keeps_at_most_keep_max_records_and_says_when_it_stops():
    from firmware.store import KEEP_MAX
    events = []
    g = Guarded(Refusing(5), events.append)
    g.new(HEADER)
    offsets = Offsets()
    for k in range(KEEP_MAX + 20):
        offsets.append(g.append(turn(k)))
    check([(e["what"], e.get("errno")) for e in events] == [("save", 5), ("memory", None)],
          "faults told: %r" % (events,))
    check(not g.whole(), "undo and export still offered with records lost")
    check([g.turn(offsets[k])["move"]["n"] for k in range(KEEP_MAX)] == list(range(KEEP_MAX)),
          "the records kept")
    try:
        g.turn(offsets[KEEP_MAX])
        check(False, "a record past KEEP_MAX read back")
    except ValueError:
        pass
    check(len(offsets.chunks) <= 2, "%d chunks for the offsets" % len(offsets.chunks))
    g.new(HEADER)
    check(g.whole() and len(saves(events)) == 2, "a new game: %r" % (events,))


def test_guarded_erase_ahead_failing_is_a_refusal_not_a_crash():
    events = []
    g = Guarded(Refusing(5), events.append)
    g.kept = None  # as after a game loaded from a flash that still answered
    g.ready()
    at = g.append(turn(0))
    check(len(saves(events)) == 1 and at >= KEPT and g.turn(at)["move"]["n"] == 0,
          "after a failed erase: %r" % (events,))
    g.ready()  # no more erasing, nothing more told
    check(len(saves(events)) == 1, "told again: %r" % (events,))


def test_guarded_flash_unreadable_at_boot_is_told_and_no_game_resumed():
    class Unreadable(Refusing):
        def load(self):
            raise OSError(self.code)

    events = []
    g = Guarded(Unreadable(5), events.append)
    header, offsets = g.load()
    check(header is None and len(offsets) == 0, "a game from an unreadable flash")
    check([(e["what"], e["errno"]) for e in events] == [("load", 5)], "told: %r" % (events,))


def test_referee_refuses_undo_once_the_unsaved_game_is_no_longer_whole():
    # Agent DOG's referee over a flash that takes nothing: passes (one record each) are kept
    # in RAM and undone; past KEEP_MAX records undo would have to replay a turn kept nowhere
    from shared_rules import layout, cards as cards_mod
    from firmware.games.track.places import Places
    from firmware.games.track.referee import Referee
    from firmware.cardmap import CardMap
    from firmware.store import KEEP_MAX
    from secrecy_tests import INDEX
    events = []
    g = Guarded(Refusing(5), events.append)
    ref = Referee(Places(layout.load(), INDEX), g, CardMap(SCRATCH, cards_mod.load().names),
                  events.append)
    ref.start(2)
    ref.phase = "await_card"  # the pieces set up (no sensors here)
    check(ref.pass_turn() and ref.undo() and not ref.turns,
          "a pass kept in RAM not undone: %r" % (events[-3:],))
    ref.phase = "await_card"  # (after the undo the board would be checked: none here)
    while len(ref.turns) <= KEEP_MAX:
        check(ref.pass_turn(), "pass %d refused in phase %s" % (len(ref.turns), ref.phase))
    check(not g.whole() and not ref.undo(), "undo with a turn kept nowhere")
    check([e["what"] for e in events if e.get("event") == "fault"] == ["save", "memory"],
          "faults %r" % ([e for e in events if e.get("event") == "fault"],))
