# Which NFC sticker is which card: learned once by enrolment, kept on flash as `cards.json`
# (one JSON line per sticker: ["uid hex", "card kind"]), written atomically. An unknown
# sticker is reported, never guessed.
#
# In memory the map is packed: 11 bytes per sticker (UID length + up to 10 UID bytes) and one
# byte for its kind, about 1.3 KB for the 110 cards instead of a dict of strings; the file is
# read a line at a time so loading never holds the whole deck either.
import json
import os

SLOT = 11


HEX = "0123456789abcdefABCDEF"


def _uid_bytes(uid_hex):
    # strictly hex digits: int(x, 16) alone would take "+4", " a" and "0x"
    if type(uid_hex) is not str or len(uid_hex) not in (8, 14, 20):
        raise ValueError("a UID is 4, 7 or 10 bytes: 8, 14 or 20 hex digits")
    for c in uid_hex:
        if c not in HEX:
            raise ValueError("a UID is written in hex digits only (0-9, a-f)")
    return bytes([int(uid_hex[j:j + 2], 16) for j in range(0, len(uid_hex), 2)])


class CardMap:
    def __init__(self, data_dir=".", kinds=()):
        self.path = data_dir + "/cards.json"
        self.kinds = list(kinds)
        self.n = 0  # stickers known; the tables below may have room for more
        self.uids = bytearray()
        self.kind_of = bytearray()
        self.error = None
        try:
            f = open(self.path)
        except OSError:
            return
        with f:
            # the lines are counted first and the tables made once: grown a sticker at a time
            # they would leave a trail of ever larger freed blocks in the heap at boot
            lines = 0
            while True:
                line = f.readline()
                if not line:
                    break
                if line.strip():
                    lines += 1
            self._room(lines)
            f.seek(0)
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
                self.uids = bytearray()
                self.kind_of = bytearray()
                self.error = "cards.json is unreadable (%s): enrol the cards again" % e

    def _room(self, more):
        """Makes the tables hold at least `more` further stickers."""
        need = self.n + more - len(self.kind_of)
        if need > 0 and not self.kind_of:
            self.uids = bytearray(need * SLOT)
            self.kind_of = bytearray(need)
        elif need > 0:
            self.uids.extend(bytes(need * SLOT))
            self.kind_of.extend(bytes(need))

    def _find(self, uid):
        n = len(uid)
        for j in range(self.n):
            at = j * SLOT
            if self.uids[at] == n and self.uids[at + 1:at + 1 + n] == uid:
                return j
        return -1

    def _put(self, uid, kind):
        if kind not in self.kinds:
            raise ValueError("unknown card kind %r; kinds are %s" % (kind, ", ".join(self.kinds)))
        k = self.kinds.index(kind)
        j = self._find(uid)
        if j >= 0:
            self.kind_of[j] = k
            return
        self._room(1)
        at = self.n * SLOT
        self.uids[at] = len(uid)
        self.uids[at + 1:at + 1 + len(uid)] = uid
        self.kind_of[self.n] = k
        self.n += 1

    def kind(self, uid_hex):
        try:
            j = self._find(_uid_bytes(uid_hex))
        except ValueError:
            return None
        return self.kinds[self.kind_of[j]] if j >= 0 else None

    def enrol(self, uid_hex, kind):
        self._put(_uid_bytes(uid_hex), kind)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            for j in range(self.n):
                at = j * SLOT
                n = self.uids[at]
                uid = "".join(["%02x" % b for b in self.uids[at + 1:at + 1 + n]])
                f.write(json.dumps([uid, self.kinds[self.kind_of[j]]]))
                f.write("\n")
        os.rename(tmp, self.path)

    def count(self):
        return self.n
