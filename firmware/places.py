# Where the game's pieces stand physically: rules location codes to sensor indices, the board a
# position implies (a class per sensor; start areas as a count of pieces on their four spots,
# since any spot will do), and the locations where the sensed board differs from it.
from firmware.hal.scanner import EMPTY, UP, DOWN

COUNTED = 255  # start-area spots: compared by count, not one by one
ANY = 255      # count of a colour not in the game: its pieces may rest in their area or not


class Places:
    def __init__(self, lay, index):
        """index: WLOC name -> sensor index (Board.index)."""
        self.lay = lay
        self.n = len(index)
        self.sensor = bytearray(lay.nboard)  # rules board location -> sensor index
        for t in range(lay.n):
            self.sensor[t] = index[str(t)]
        for c in range(lay.ncol):
            for k in range(lay.home_n):
                self.sensor[lay.home(c, k)] = index["%s:h%d" % (lay.colours[c], k + 1)]
        self.loc = bytearray([255] * self.n)  # sensor index -> rules board location
        for loc in range(lay.nboard):
            self.loc[self.sensor[loc]] = loc
        self.spots = []
        self.spot_colour = bytearray([255] * self.n)
        for c in range(lay.ncol):
            row = []
            k = 1
            while "%s:s%d" % (lay.colours[c], k) in index:
                i = index["%s:s%d" % (lay.colours[c], k)]
                row.append(i)
                self.spot_colour[i] = c
                k += 1
            self.spots.append(row)

    def expected(self, st, classes, counts):
        """Fills classes (per sensor) and counts (pieces per start area) for position st."""
        lay = self.lay
        for i in range(self.n):
            classes[i] = COUNTED if self.spot_colour[i] != 255 else EMPTY
        for c in range(lay.ncol):
            counts[c] = 0 if c in st.seats else ANY
        for p in range(lay.npieces):
            loc = st.pos[p]
            if loc < lay.nboard:
                classes[self.sensor[loc]] = DOWN if st.undercover(p) else UP
            elif p // lay.ppc in st.seats:
                counts[p // lay.ppc] += 1

    def differences(self, classes, counts, sensed):
        """Sensor indices the players must change so the board reads as expected."""
        out = []
        for i in range(self.n):
            e = classes[i]
            if e != COUNTED and sensed[i] != e:
                out.append(i)
        for c in range(len(self.spots)):
            if counts[c] == ANY:
                continue
            row = self.spots[c]
            have = [i for i in row if sensed[i] == UP or sensed[i] == DOWN]
            for i in row:
                if sensed[i] == DOWN or (sensed[i] != EMPTY and sensed[i] != UP):
                    if i not in out:
                        out.append(i)  # upside down or faulty in a start area
            want = counts[c]
            if len(have) < want:
                free = [i for i in row if sensed[i] == EMPTY]
                out.extend(free[:want - len(have)])
            elif len(have) > want:
                out.extend(have[want:])
        return out
