# The game on flash: on a board flashed by `agentboard flash`, the journal on a partition of its
# own (firmware/flashlog.py); elsewhere `game.log` (firmware/gamelog.py), one JSON line per
# record. Both hold the same records: the game's header (format, game, layout, players, seats,
# dealer), then one per completed turn ({"seat", "card", "move"}, or {"undo": true} taking the
# last turn back; {"lifted": true} when the squares an undo asked to be lifted were).
#
# Turns stay on flash: the referee keeps only where each record starts (a byte per turn), and
# reads turns back one at a time to resume, undo or export. Guarded, around either, keeps the
# game going in RAM should the flash refuse a save (full, failing), and says so once. Only the
# store in use is imported (open_store).
import json

from firmware.mpconst import const
# CHUNK: for the tests, which read it here
from firmware.records import FORMAT, CHUNK, ENOSPC, Offsets  # noqa: F401

JOURNAL_LABEL = "game"  # the partition `agentboard flash` adds for the journal
# where the records the flash refused are numbered from (Guarded): past any offset on flash,
# and still a small int on the ESP32 (31 bits), which costs no heap
KEPT = const(0x20000000)
# the records kept in RAM at most: about 8 KB of an ESP32's heap (a turn's text is some 80
# bytes); a game whose flash fails at its start would otherwise fill the heap within a
# thousand turns
KEEP_MAX = const(100)
# the answer to undo and export once Guarded could keep no more of an unsaved game
LOST = "the flash refused this game's saves and memory could keep no more of it: its " \
    "record is not whole"


def open_store(data_dir, out):
    """The device's game log, Guarded: the journal on its "game" partition
    (firmware/flashlog.py) where `agentboard flash` made one, else game.log in data_dir (a
    MicroPython flashed with its own partition table, or no ESP32). Only the store in use is
    imported. out: where the fault event goes should the flash refuse a save."""
    try:
        import esp32
        found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label=JOURNAL_LABEL)
    except ImportError:
        found = None
    if found:
        from firmware.flashlog import FlashLog
        return Guarded(FlashLog(found[0]), out)
    from firmware.gamelog import Store
    return Guarded(Store(data_dir), out)


class Guarded:
    """A store whose saves never stop the game. The first save the flash refuses (full, worn
    out: an OSError) is reported once, as a fault event through `out`; from then on this
    game's records are kept in RAM instead (up to KEEP_MAX of them), so the referee, undo and
    export go on as before, and only a power cut loses the turns since (the board resumes the
    game the flash holds). Past KEEP_MAX records are no longer kept, which is told once more:
    the game is still refereed, but undo and export are refused (whole() is False). A new game
    tries the flash again. A flash that cannot be read back at boot is told of too, and no game
    is resumed."""

    def __init__(self, flash, out):
        self.flash = flash
        self.out = out
        self.kept = None  # JSON texts of this game's records the flash refused; None: none
        self.dropped = 0  # records past KEEP_MAX, not kept anywhere

    def _tell(self, what, err, reason):
        self.out({"event": "fault", "what": what, "errno": err.args[0] if err.args else 0,
                  "reason": reason})

    def _refused(self, err):
        """Tells of the flash's refusal; returns the list the records go to from now on."""
        kept = self.kept = []
        self._tell("save", err, "the flash %s: the game goes on, but it is no longer saved, so "
                   "a power cut would lose the turns from here on" % (
                       "is full" if err.args and err.args[0] == ENOSPC else
                       "refused the save (%s)" % err))
        return kept

    def whole(self):
        """Whether every record of this game can be read back (undo, export)."""
        return not self.dropped

    def new(self, header):
        self.kept = None
        self.dropped = 0
        try:
            self.flash.new(header)
        except OSError as e:
            self._refused(e)

    def append(self, obj):
        """Saves one record; returns where it starts (past KEPT: in RAM)."""
        kept = self.kept
        if kept is None:
            try:
                return self.flash.append(obj)
            except OSError as e:
                kept = self._refused(e)
        if len(kept) < KEEP_MAX:
            kept.append(json.dumps(obj))
        else:
            if not self.dropped:
                self.out({"event": "fault", "what": "memory", "reason": "no room left to keep "
                          "the unsaved game in memory either: it is still refereed, but undo "
                          "and export are no longer possible"})
            self.dropped += 1
        return KEPT + len(kept) + self.dropped - 1

    def turn(self, at):
        if at >= KEPT:
            if at - KEPT >= KEEP_MAX:
                raise ValueError("turn not kept: the flash refused it and memory was full")
            return json.loads(self.kept[at - KEPT])
        return self.flash.turn(at)

    def load(self):
        self.kept = None
        self.dropped = 0
        try:
            return self.flash.load()
        except OSError as e:  # (loading may write: a torn record is marked)
            self._tell("load", e, "the flash could not be read back: the saved game is not "
                       "resumed")
            return None, Offsets()

    def ready(self):
        # asked twice a second while the board stands still (firmware/loop.py): the try block
        # only when there is an erase to do, as its frame goes to the heap at every call
        # (docs/measuring.md, "Frames")
        if self.kept is None and self.flash.due():
            self._erase_ahead()

    def _erase_ahead(self):
        try:
            self.flash.ready()
        except OSError as e:  # an erase ahead failed: the next save would too
            self._refused(e)


def record_parts(store, header, offsets):
    """The game record of docs/board-protocols.md as pieces of one JSON text, so a long game can
    be written out without ever holding it whole in memory."""
    yield '{"format": "%s", "game": %s, "layout": %s, "players": %d, "seats": %s, "dealer": %s' % (
        FORMAT, json.dumps(header["game"]), json.dumps(header["layout"]), header["players"],
        json.dumps(header["seats"]), json.dumps(header["dealer"]))
    if "first" in header:  # a ranked game: the rank each seat put on its start space
        yield ', "first": %s' % json.dumps(header["first"])
    yield ', "turns": ['

    sep = False
    for at in offsets:  # in order: no turn looked up by its index
        if sep:
            yield ", "
        yield json.dumps(store.turn(at))
        sep = True
    yield "]}"
