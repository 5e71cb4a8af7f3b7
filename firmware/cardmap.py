# Which NFC sticker is which card: learned once by enrolment, kept on flash as `cards.json`
# (one JSON line per sticker: ["uid hex", "card kind"]), written atomically. An unknown
# sticker is reported, never guessed.
#
# In memory the map is packed: 12 bytes per sticker (UID length, up to 10 UID bytes, its kind),
# about 1.3 KB for the 110 cards instead of a dict of strings, in tables of 16 stickers: a
# fragmented heap at boot gives small blocks more readily than one of the whole deck. The
# file is read a line at a time so loading never holds the whole deck either.
import json
import os

from firmware.mpconst import const

_SLOT = const(12)
_KIND = const(11)       # where in its slot a sticker's card kind is
_PER_TABLE = const(16)  # stickers per table


HEX = "0123456789abcdefABCDEF"


def _uid_bytes(uid_hex):
    # strictly hex digits: int(x, 16) alone would take "+4", " a" and "0x"
    if type(uid_hex) is not str or len(uid_hex) not in (8, 14, 20):
        raise ValueError("a UID is 4, 7 or 10 bytes: 8, 14 or 20 hex digits")
    for c in uid_hex:
        if c not in HEX:
            raise ValueError("a UID is written in hex digits only (0-9, a-f)")
    # (a loop, not a list comprehension: a card tap reads here, and the comprehension's
    # frame went to the heap, docs/measuring.md "Frames")
    uid = bytearray(len(uid_hex) // 2)
    for j in range(len(uid)):
        uid[j] = int(uid_hex[2 * j:2 * j + 2], 16)
    return bytes(uid)


class CardMap:
    def __init__(self, data_dir=".", kinds=()):
        self.path = data_dir + "/cards.json"
        self.kinds = list(kinds)
        self.n = 0  # stickers known
        self.tables = []  # _PER_TABLE slots each
        self.error = None
        try:
            f = open(self.path)
        except OSError:
            return
        with f:
            try:
                while True:
                    line = f.readline()
                    if not line:
                        break
                    if line.strip():
                        uid_hex, kind = json.loads(line)
                        self._put(_uid_bytes(uid_hex), kind)
            except (ValueError, TypeError) as e:
                self.n = 0
                self.tables = []
                self.error = "cards.json is unreadable (%s): enrol the cards again" % e

    def _find(self, uid):
        n = len(uid)
        for j in range(self.n):
            t = self.tables[j // _PER_TABLE]
            at = (j % _PER_TABLE) * _SLOT
            if t[at] == n:
                k = 0
                while k < n and t[at + 1 + k] == uid[k]:
                    k += 1
                if k == n:
                    return j
        return -1

    def _kind_of(self, j):
        return self.tables[j // _PER_TABLE][(j % _PER_TABLE) * _SLOT + _KIND]

    def _put(self, uid, kind):
        if kind not in self.kinds:
            raise ValueError("unknown card kind %r; kinds are %s" % (kind, ", ".join(self.kinds)))
        k = self.kinds.index(kind)
        j = self._find(uid)
        if j < 0:
            j = self.n
            if j % _PER_TABLE == 0:
                self.tables.append(bytearray(_PER_TABLE * _SLOT))
            self.n += 1
        t = self.tables[j // _PER_TABLE]
        at = (j % _PER_TABLE) * _SLOT
        t[at] = len(uid)
        t[at + 1:at + 1 + len(uid)] = uid
        t[at + _KIND] = k

    def kind(self, uid_hex):
        j = self._index(uid_hex)
        return self.kinds[self._kind_of(j)] if j >= 0 else None

    def _index(self, uid_hex):
        # the sticker's slot, -1 if unknown (or no UID at all); apart from kind(): a try
        # block's words, and kind()'s frame would go to the heap at every card tap
        try:
            return self._find(_uid_bytes(uid_hex))
        except ValueError:
            return -1

    def enrol(self, uid_hex, kind):
        self._put(_uid_bytes(uid_hex), kind)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            for j in range(self.n):
                t = self.tables[j // _PER_TABLE]
                at = (j % _PER_TABLE) * _SLOT
                uid = "".join(["%02x" % b for b in t[at + 1:at + 1 + t[at]]])
                f.write(json.dumps([uid, self.kinds[self._kind_of(j)]]))
                f.write("\n")
        os.rename(tmp, self.path)

    def count(self):
        return self.n
