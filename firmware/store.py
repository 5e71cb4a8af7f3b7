# The game on flash: `game.log`, one JSON line per record. The first line is the game's header
# (format, players, seats, dealer), then one line per completed turn ({"seat", "card", "move"},
# or {"undo": true} taking the last turn back). Appending one line per move costs the same at
# move 5 and at move 1500, and a power cut can at worst cut the last line short: a line that is
# not whole JSON is dropped on loading, so the game resumes at the last completed move. A new
# game is written to a temporary file and renamed over the old one.
#
# Turns stay on flash: the referee keeps only where each line starts (one int per turn), and
# reads turns back one at a time to resume, undo or export.
from array import array
import json
import os

FORMAT = "agentboard-record/1"
CHUNK = 64
MAX_STEP = 0xFFFF  # the furthest a turn may start from its chunk's first


class Offsets:
    """Where each turn starts in the log, as a list of 64-entry chunks: one array grown to a
    thousand turns would need one ever larger contiguous block, which a fragmented heap of
    an ESP32 cannot always give. A chunk keeps where its first turn starts and each turn's
    distance from there in 2 bytes (64 lines span a few KB; a turn further than 64 KB away
    starts a new chunk), so a turn costs 2 bytes, not 4: a 1,000-turn game holds 2 KB less."""

    def __init__(self):
        self.chunks = []  # per chunk: array("H") of its turns' distances from its base
        self.bases = []   # per chunk: where its first turn starts
        self.sizes = []   # per chunk: how many turns it holds
        self.n = 0

    def append(self, at):
        if not self.chunks or self.sizes[-1] == CHUNK or at - self.bases[-1] > MAX_STEP:
            self.chunks.append(array("H", bytes(2 * CHUNK)))
            self.bases.append(at)
            self.sizes.append(0)
        k = self.sizes[-1]
        self.chunks[-1][k] = at - self.bases[-1]
        self.sizes[-1] = k + 1
        self.n += 1

    def pop(self):
        k = self.sizes[-1] - 1
        at = self.bases[-1] + self.chunks[-1][k]
        self.n -= 1
        if k:
            self.sizes[-1] = k
        else:
            self.chunks.pop()
            self.bases.pop()
            self.sizes.pop()
        return at

    def __len__(self):
        return self.n

    def __getitem__(self, j):
        for c in range(len(self.chunks)):
            if j < self.sizes[c]:
                return self.bases[c] + self.chunks[c][j]
            j -= self.sizes[c]
        raise IndexError("turn %d" % j)

    def __iter__(self):
        for c in range(len(self.chunks)):
            base = self.bases[c]
            chunk = self.chunks[c]
            for k in range(self.sizes[c]):
                yield base + chunk[k]


class Store:
    def __init__(self, data_dir="."):
        self.path = data_dir + "/game.log"

    def new(self, header):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(header))
            f.write("\n")
        os.rename(tmp, self.path)

    def append(self, obj):
        """Appends one record line; returns the offset where it starts."""
        with open(self.path, "a") as f:
            f.seek(0, 2)
            at = f.tell()
            f.write(json.dumps(obj))
            f.write("\n")
        return at

    def load(self):
        """(header, offsets of the turns still in force), or (None, []) with no game. A torn
        last line is cut off the file, so later appends start on a line of their own."""
        try:
            f = open(self.path)
        except OSError:
            return None, Offsets()
        header = None
        offsets = Offsets()
        good = 0
        with f:
            while True:
                at = f.tell()
                line = f.readline()
                if not line or not line.endswith("\n"):
                    break
                try:
                    obj = json.loads(line)
                except ValueError:
                    break
                good = f.tell()
                if header is None:
                    if type(obj) is not dict or obj.get("format") != FORMAT:
                        return None, Offsets()
                    header = obj
                elif obj.get("undo"):
                    if offsets:
                        offsets.pop()
                else:
                    offsets.append(at)
            end = f.seek(0, 2)
        if header is not None and end != good:
            self._truncate(good)
        return header, offsets

    def _truncate(self, size):
        with open(self.path) as f:
            keep = f.read(size)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(keep)
        os.rename(tmp, self.path)

    def turn(self, offset):
        with open(self.path) as f:
            f.seek(offset)
            return json.loads(f.readline())


def record_parts(store, header, offsets):
    """The game record of docs/board-protocols.md as pieces of one JSON text, so a long game can
    be written out without ever holding it whole in memory."""
    yield '{"format": "%s", "game": %s, "layout": %s, "players": %d, "seats": %s, "dealer": %s' % (
        FORMAT, json.dumps(header["game"]), json.dumps(header["layout"]), header["players"],
        json.dumps(header["seats"]), json.dumps(header["dealer"]))
    if "first" in header:  # a ranked game: the rank each seat put on its start space
        yield ', "first": %s' % json.dumps(header["first"])
    yield ', "turns": ['

    for j in range(len(offsets)):
        if j:
            yield ", "
        yield json.dumps(store.turn(offsets[j]))
    yield "]}"
