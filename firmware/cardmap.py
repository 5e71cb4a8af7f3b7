# Which NFC sticker is which card: learned once by enrolment, kept on flash as `cards.json`
# ({uid hex: card kind}), written atomically. An unknown sticker is reported, never guessed.
import json
import os


class CardMap:
    def __init__(self, data_dir=".", kinds=()):
        self.path = data_dir + "/cards.json"
        self.kinds = kinds
        self.map = {}
        self.error = None
        try:
            with open(self.path) as f:
                m = json.load(f)
            if type(m) is not dict:
                raise ValueError("not an object")
            for uid in m:
                if m[uid] not in kinds:
                    raise ValueError("unknown card kind %r" % (m[uid],))
            self.map = m
        except OSError:
            pass
        except ValueError as e:
            self.error = "cards.json is unreadable (%s): enrol the cards again" % e

    def kind(self, uid_hex):
        return self.map.get(uid_hex)

    def enrol(self, uid_hex, kind):
        if kind not in self.kinds:
            raise ValueError("unknown card kind %r; kinds are %s" % (kind, ", ".join(self.kinds)))
        if len(uid_hex) not in (8, 14, 20):
            raise ValueError("a UID has 4, 7 or 10 bytes (8, 14 or 20 hex digits)")
        try:
            int(uid_hex, 16)
        except ValueError:
            raise ValueError("uid must be hexadecimal")
        self.map[uid_hex.lower()] = kind
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.map, f)
        os.rename(tmp, self.path)

    def count(self):
        return len(self.map)
