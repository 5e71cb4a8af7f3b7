# The game record's format and how a log's records are read back, shared by the stores that
# hold them (firmware/flashlog.py, firmware/gamelog.py) and the one that guards them
# (firmware/store.py): a leaf, importing nothing of the firmware but const() (mpconst.py, a
# leaf too), so that neither store needs the other's module.
from firmware.mpconst import const

FORMAT = "agentboard-record/1"
CHUNK = const(128)
_MAX_STEP = const(0xFF)  # the furthest a turn may start from the turn before it in its chunk
ENOSPC = const(28)


class Offsets:
    """Where each turn starts in the log, as a list of 128-entry chunks: one array grown to a
    thousand turns would need one ever larger contiguous block, which a fragmented heap of
    an ESP32 cannot always give. A chunk keeps where its first turn starts and each later
    turn's distance from the turn before it in one byte (a turn's line is well under 255
    bytes; a turn further on, after a run of undone turns, starts a new chunk), so a turn costs
    1 byte: a 1,000-turn game holds 1 KB less than with 2-byte distances, 3 KB less than with
    a list of ints. Reading turn j adds up its chunk's distances: only resume, undo and
    export read, and they read in order (iteration keeps a running sum)."""

    def __init__(self):
        self.chunks = []  # per chunk: bytearray of each turn's distance from the one before
        self.bases = []   # per chunk: where its first turn starts
        self.sizes = []   # per chunk: how many turns it holds
        self.n = 0
        self.last = 0     # where the last turn starts
        # what the log's last undo still asks of the board: the rules locations whose piece
        # must be lifted (a swap or a capture taken back: the sensors cannot see two pieces
        # exchanged, only that both squares were lifted), None once they were (replay)
        self.lift = None

    def append(self, at):
        step = at - self.last
        if not self.chunks or self.sizes[-1] == CHUNK or not 0 < step <= _MAX_STEP:
            self.chunks.append(bytearray(CHUNK))
            self.bases.append(at)
            self.sizes.append(0)
            step = 0  # the chunk's first turn: its base
        k = self.sizes[-1]
        self.chunks[-1][k] = step
        self.sizes[-1] = k + 1
        self.last = at
        self.n += 1

    def pop(self):
        at = self.last
        k = self.sizes[-1] - 1
        self.n -= 1
        if k:
            self.sizes[-1] = k
            self.last = at - self.chunks[-1][k]
        else:
            self.chunks.pop()
            self.bases.pop()
            self.sizes.pop()
            self.last = self._start(len(self.chunks) - 1, self.sizes[-1] - 1) if self.chunks \
                else 0
        return at

    def _start(self, c, k):
        # where turn k of chunk c starts
        chunk = self.chunks[c]
        at = self.bases[c]
        for i in range(1, k + 1):
            at += chunk[i]
        return at

    def __len__(self):
        return self.n

    def __getitem__(self, j):
        if j < 0:
            j += self.n
        if 0 <= j:
            for c in range(len(self.chunks)):
                if j < self.sizes[c]:
                    return self._start(c, j)
                j -= self.sizes[c]
        raise IndexError("turn %d" % j)

    def __iter__(self):
        for c in range(len(self.chunks)):
            at = self.bases[c]
            chunk = self.chunks[c]
            for k in range(self.sizes[c]):
                at += chunk[k]  # (the first distance is 0)
                yield at


def replay(records):
    """(header, offsets of the turns in force) from a log's (where, record) pairs in order:
    the header first, then turns, an undo taking the last turn in force back ({"undo": true,
    "lift": [locations]} when pieces must be exchanged back), {"lifted": true} once the
    board saw them lifted. offsets.lift: what an undo still asks for."""
    header = None
    offsets = Offsets()
    lift = None
    for at, obj in records:
        if header is None:
            if type(obj) is not dict or obj.get("format") != FORMAT:
                return None, Offsets()
            header = obj
        elif obj.get("undo"):
            if offsets:
                offsets.pop()
            lift = obj.get("lift")
        elif obj.get("lifted"):
            lift = None
        else:
            offsets.append(at)
            lift = None
    offsets.lift = lift
    return header, offsets
