# game.log: the game on the file system, one JSON line per record (the records: store.py), for a
# board whose MicroPython was flashed with its own partition table (no "game" partition for the
# journal, firmware/flashlog.py). Imported only on such a board (store.open_store).
# Appending one line per move costs the same at move 5 and at move 1500, and a power cut can at
# worst cut the last line short: a line that is not whole JSON is dropped on loading, so the
# game resumes at the last completed move. A new game is written to a temporary file and
# renamed over the old one.
import json
import os

from firmware.records import replay, Offsets


class Store:
    def __init__(self, data_dir="."):
        self.path = data_dir + "/game.log"

    def new(self, header):
        tmp = self.path + ".tmp"
        try:
            self._write(tmp, header)
        except OSError:
            # no room for the new game beside the old one: the old one goes first (it must
            # not come back after a power cut either way), then one more try
            _remove(tmp)
            _remove(self.path)
            self._write(tmp, header)
        try:
            os.rename(tmp, self.path)
        except OSError:
            _remove(tmp)
            _remove(self.path)
            raise

    def _write(self, path, header):
        try:
            with open(path, "w") as f:
                f.write(json.dumps(header))
                f.write("\n")
        except OSError:
            _remove(path)  # a partial file would hold on to the room that ran out
            raise

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
        self.good = 0
        with f:
            header, offsets = replay(self._lines(f))
            end = f.seek(0, 2)
        if header is not None and end != self.good:
            self._truncate(self.good)
        return header, offsets

    def _lines(self, f):
        # yields (where, record) for each whole line; self.good: where the whole lines end
        while True:
            at = f.tell()
            line = f.readline()
            if not line or not line.endswith("\n"):
                return
            try:
                obj = json.loads(line)
            except ValueError:
                return
            self.good = f.tell()
            yield at, obj

    def due(self):
        return False

    def ready(self):
        """Nothing to prepare: littlefs erases as it writes."""

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


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
