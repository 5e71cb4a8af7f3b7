# The game on flash: `game.log`, one JSON line per record. The first line is the game's header
# (format, players, seats, dealer), then one line per completed turn ({"seat", "card", "move"},
# or {"undo": true} taking the last turn back). Appending one line per move costs the same at
# move 5 and at move 1500, and a power cut can at worst cut the last line short: a line that is
# not whole JSON is dropped on loading, so the game resumes at the last completed move. A new
# game is written to a temporary file and renamed over the old one.
import json
import os

FORMAT = "agentboard-record/1"


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
        with open(self.path, "a") as f:
            f.write(json.dumps(obj))
            f.write("\n")

    def load(self):
        """(header, turns) of the stored game, or (None, []) when there is none."""
        try:
            f = open(self.path)
        except OSError:
            return None, []
        header = None
        turns = []
        with f:
            while True:
                line = f.readline()
                if not line:
                    break
                if not line.endswith("\n"):
                    break  # cut short by a power cut
                try:
                    obj = json.loads(line)
                except ValueError:
                    break
                if header is None:
                    if type(obj) is not dict or obj.get("format") != FORMAT:
                        return None, []
                    header = obj
                elif obj.get("undo"):
                    if turns:
                        turns.pop()
                else:
                    turns.append(obj)
        return header, turns

    def clear(self):
        try:
            os.remove(self.path)
        except OSError:
            pass


def record(header, turns):
    """The game record of board-protocols.md (the referee's full knowledge)."""
    return {"format": FORMAT, "players": header["players"], "seats": header["seats"],
            "dealer": header["dealer"], "turns": turns}
