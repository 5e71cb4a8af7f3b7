# Where the game's pieces stand physically: rules location codes to sensor indices, the board a
# position implies (a class per sensor, and in a ranked game the rank band of the piece on it;
# start areas as a count of pieces on their four spots, since any spot will do), the sensors
# where the sensed board differs from it, and what the players must do at each.
from firmware import ondemand
from firmware.hal.scanner import EMPTY, UP, DOWN, NO_BAND  # noqa: F401 -- NO_BAND: no rank

# the module that builds the tables at power-up (firmware/ondemand.py): its code is not kept
SETUP = "firmware.games.track.setup"
COUNTED = 255  # start-area spots: compared by count, not one by one
ANY = 255      # count of a colour not in the game: its pieces may rest in their area or not

# what the players must do at a square that differs (the view gives each its colour)
PUT = 1       # put a piece here
TAKE = 2      # take the piece off here
TURN = 3      # turn the piece over
EXCHANGE = 4  # another piece belongs here (a swap taken back; the wrong rank)
FAULT = 5     # the sensor reads nonsense


# the type checker's alone (pyright reads any TYPE_CHECKING as true): the set-up builds
# the object elsewhere (setup.py, on demand), so the class says what it holds; on a board the
# block is never run
TYPE_CHECKING = False
if TYPE_CHECKING:
    from shared_rules.layout import Layout


class Places:
    # what setup.init_places makes (annotations only: no code, no heap on a board)
    lay: "Layout"
    n: int
    sensor: bytearray
    loc: bytearray
    spots: list
    spot_colour: bytearray
    no_piece: bytes
    no_band: bytes
    spot_list: bytes
    track: bytes
    work: bytearray

    def __init__(self, lay, index):
        """index: WLOC name -> sensor index (Board.index)."""
        ondemand.call(SETUP, "init_places", self, lay, index)

    def expected(self, st, classes, counts, bands=None):
        """Fills classes (per sensor) and counts (pieces per start area) for position st, and
        bands (per sensor, when given and the game ranks its pieces) with the rank band each
        piece on the board must read as."""
        lay = self.lay
        classes[:] = self.no_piece
        if bands is not None:
            bands[:] = self.no_band
        ranked = bands is not None and st.game.ranked
        for c in range(lay.ncol):
            counts[c] = 0 if c in st.seats else ANY
        for p in range(lay.npieces):
            loc = st.pos[p]
            if loc < lay.nboard:
                i = self.sensor[loc]
                classes[i] = DOWN if st.undercover(p) else UP
                if ranked:
                    bands[i] = lay.piece_slot[p]
            elif lay.piece_colour[p] in st.seats:
                counts[lay.piece_colour[p]] += 1

    def differences(self, classes, counts, sensed, bands=None, sensed_bands=None):
        """Sensor indices the players must change so the board reads as expected (with bands:
        a piece of another rank than expected, or whose rank cannot be read, differs too)."""
        out = []
        if not self._same(classes, sensed, bands, sensed_bands):
            for i in range(self.n):
                e = classes[i]
                if e != COUNTED and (sensed[i] != e or (bands is not None and bands[i] != NO_BAND
                                                        and sensed_bands[i] != bands[i])):
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
                # a faulty spot may hold its piece: no free spot is asked for in its stead
                out.extend(free[:max(0, want - len(row) + len(free))])
            elif len(have) > want:
                for i in have[want:]:
                    if i not in out:  # an upside-down one is listed already
                        out.append(i)
        return out

    def _same(self, classes, sensed, bands, sensed_bands):
        """Whether every sensor outside the start areas reads as expected, compared at C speed
        (the common case of every settled board): the expected board with the start-area spots
        as sensed, against the sensed board. False also where the slow loop of differences()
        may find nothing (an empty square reading a rank band): it then looks sensor by sensor."""
        w = self.work
        w[:] = classes
        for i in self.spot_list:
            w[i] = sensed[i]
        if w != sensed:
            return False
        if bands is None:
            return True
        w[:] = bands
        for i in self.spot_list:
            w[i] = sensed_bands[i]
        return w == sensed_bands

    def todo(self, i, classes, sensed, recheck, ranked=False):
        """What the players must do at sensor i, which differs from the expected board
        (ranked: a ranked game's board, where a piece of the right kind may be of another
        rank than expected)."""
        e = classes[i]
        now = sensed[i]
        if now != EMPTY and now != UP and now != DOWN:
            return FAULT
        if now == e and (recheck[i] or ranked):
            return EXCHANGE  # the right kind of piece, but another belongs here
        if e == COUNTED:
            return TURN if now == DOWN else (PUT if now == EMPTY else TAKE)
        if e == EMPTY:
            return TAKE
        if now == EMPTY:
            return PUT
        return TURN

    def name(self, i):
        """The physical location name of sensor i ("12", "red:h2", "red:s3")."""
        lay = self.lay
        loc = self.loc[i]
        if loc != 255:
            return str(lay.loc_json(loc))
        c = self.spot_colour[i]
        return "%s:s%d" % (lay.colours[c], self.spots[c].index(i) + 1)
