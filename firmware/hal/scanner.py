# Hall-sensor scanner: drives the 74HC4067 select lines, reads every channel of every mux on
# ADC1, and classifies each location as empty, upright or upside-down against its calibrated
# thresholds, with hysteresis. A new class is reported once it held for `stable` scans in a
# row (2: 20 to 40 ms after the piece came), each scan's reading confirmed by two conversions
# more that agree with it within STILL (hal/calibration.py): one reading's noise is a few mV,
# a noise burst's readings scatter over the whole range, so a burst of any length is never
# taken for a piece, and no wait of its own is needed against noise. A piece slid across
# spaces (about 50 ms over each) is seen on the spaces it passes, taken then empty: the
# referee follows it (a space a legal move passes waits, games/track/judge.py in_transit). A
# reading outside the sensor's possible output range is reported as FAULT for that location
# after `fault_scans`, never guessed into a class.
#
# Boards with ranked pieces (DOG Royal: magnets of four sizes) also read each piece's rank from
# how far its reading lies from the empty one (`band`: the rank's index, or NO_BAND). A hand
# putting a piece down passes the smaller ranks' readings on its way (a king reads as a jester
# from about 11 to 6 mm above its place), too slowly for the two conversions that confirm a
# reading to tell, so there a scan counts towards a piece put down, or a new rank under one,
# only while its reading holds still since the scan before (within SETTLED: a hand lowering a
# king at 30 mm/s or more moves the reading by more, but where its field is flattest, 11 mm and
# more up, where it reads as a jester). A rank that rises under a piece (it settles) counts
# after `stable` scans like a piece put down; a rank that falls after `rank_scans` (8, 160 ms:
# a slow lift passes the smaller ranks too). What stays undecidable (a hand holding a piece
# still a few mm up reads as a smaller rank) the referee's judge covers: a piece that enters
# as a rank its start area still reads waits (judge._rank_stayed). A hysteresis lies around
# each band's edges, and a rank that changes is a change of that sensor. Boards with more
# multiplexers than ADC pins enable one bank of multiplexers at a time (their E inputs, active
# low) and read every bank in turn.
#
# No allocation in scan(): every buffer is made here, once.
from array import array

from firmware.mpconst import const
from firmware.hal.calibration import STILL, SETTLED

EMPTY = const(0)
UP = const(1)
DOWN = const(2)
FAULT = const(3)
NAMES = ("empty", "upright", "upside_down", "fault")
NO_BAND = const(255)  # no rank read: no piece, a fault, or a board whose pieces carry no ranks
# (a rank read is its index: 0 king, 1 knight, 2 citizen, 3 jester; the referee's
# games/track/places.py compares with this same value, so the hal imports nothing of the referee)

CHANNELS = const(16)  # of a 74HC4067
# channels in Gray-code order: one select line changes per step (16 pin writes per scan, not 64)
GRAY = bytes([k ^ (k >> 1) for k in range(CHANNELS)])
GRAY_BIT = bytes([3, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0])  # the line that changes


def _in_scan_order(sensor_of, nbank, nmux):
    """The sensor map, indexed (bank * 16 + ch) * nmux + adc, rearranged to the order the scan
    visits it: channels in Gray-code order, so the loop steps through it without looking a
    channel's row up."""
    out = array("h", bytes(2 * len(sensor_of)))
    at = 0
    for bk in range(nbank):
        for k in range(CHANNELS):
            row = (bk * CHANNELS + GRAY[k]) * nmux
            for m in range(nmux):
                out[at] = sensor_of[row + m]
                at += 1
    return out


def _rank_code(c, r, up_edge, dn_edge, e):
    """A ranked board's candidate for reading r of class c: the class and the rank whose band
    it falls in (class + 4 * (rank + 1); the edges between ranks at up_edge[e:e + 3] or
    dn_edge[e:e + 3]), the class alone for no piece or a fault. (A function apart from the
    scan loop, called only where a reading left its band; its frame stays on the C stack.)"""
    if c == UP:
        return UP + 4 * (1 if r > up_edge[e] else 2 if r > up_edge[e + 1]
                         else 3 if r > up_edge[e + 2] else 4)
    if c == DOWN:
        return DOWN + 4 * (1 if r < dn_edge[e] else 2 if r < dn_edge[e + 1]
                           else 3 if r < dn_edge[e + 2] else 4)
    return c


class Scanner:
    def __init__(self, select_pins, adcs, sensor_of, calib, stable=2, fault_scans=6, banks=None,
                 rank_scans=8):
        """select_pins: S0..S3; adcs: one ADC per mux output pin; banks: the enable lines
        (active low) of the banks of muxes that share those pins, or None (one bank, always
        on); sensor_of[(bank * 16 + ch) * len(adcs) + adc] is the sensor index wired there (-1:
        none); calib: thresholds (hal.calibration)."""
        self.sel = select_pins
        self.reads = [a.read_u16 for a in adcs]
        self.nmux = len(adcs)
        self.sensor_of = _in_scan_order(sensor_of, len(sensor_of) // (CHANNELS * self.nmux),
                                        self.nmux)
        self.banks = banks
        # per bank, how many ADC pins carry a mux of that bank (the others are not read)
        self.nread = bytearray(len(banks) if banks else 1)
        for k in range(len(sensor_of)):
            if sensor_of[k] >= 0:
                b = k // (CHANNELS * self.nmux)
                self.nread[b] = max(self.nread[b], k % self.nmux + 1)
        n = calib.n
        self.n = n
        self.stable = stable
        self.fault_scans = fault_scans
        self.rank_scans = rank_scans
        self.raw = array("H", bytes(2 * n))  # from bytes: no list of n ints at boot
        self.state = bytearray(n)
        self.cand = bytearray(n)
        self.count = bytearray(n)
        self.changed = bytearray(n)  # sensors whose class (or rank) changed in the last scan
        self.none_pending = bytes(n)  # count as it reads with no sensor part way to a change
        # the readings for which a sensor keeps its class: one chained comparison decides the
        # common case; FAULT has no band (its readings lie outside), so it takes the long way
        self.band_lo = array("H", bytes(2 * n))
        self.band_hi = array("H", bytes(2 * n))
        self.nchanged = 0
        self.scans = 0
        self.ranked = False
        if banks:
            for pin in banks:
                pin.value(1)  # every bank off; the scan enables one at a time
        self.use(calib)
        for b in range(len(select_pins)):  # where the Gray cycle ends and begins
            select_pins[b].value((GRAY[CHANNELS - 1] >> b) & 1)

    def use(self, calib):
        self.calib = calib
        self.ranked = calib.ranked
        if self.ranked and not hasattr(self, "band"):
            self.band = bytearray(bytes([NO_BAND]) * self.n)
        elif hasattr(self, "band"):
            for i in range(self.n):
                self.band[i] = NO_BAND  # re-read under the new bands
        self.up_on = calib.up_on
        self.up_off = calib.up_off
        self.dn_on = calib.dn_on
        self.dn_off = calib.dn_off
        self.lo = calib.fault_lo
        self.hi = calib.fault_hi
        for i in range(self.n):
            self._band(i)
        self._passes = self._run()  # picks up the new thresholds

    def _band(self, i):
        s = self.state[i]
        if s == EMPTY:
            lo, hi = max(self.dn_on[i], self.lo), min(self.up_on[i], self.hi)
        elif s == UP:
            lo, hi = self.up_off[i] + 1, self.hi
        elif s == DOWN:
            lo, hi = self.lo, self.dn_off[i] - 1
        else:
            lo, hi = 1, 0
        self.band_lo[i] = lo
        self.band_hi[i] = hi
        if self.ranked and (s == UP or s == DOWN):
            self._rank_band(i, s)  # apart: a bigger frame here would be put on the heap

    def _rank_band(self, i, s):
        if self.band[i] == NO_BAND:
            self.band_lo[i] = 1  # a piece whose rank is not read yet: read it
            self.band_hi[i] = 0
            return
        # stay in the rank until the reading passes an edge by the hysteresis
        lo = self.calib.rank_lo(i, s == UP, self.band[i])
        if lo > self.band_lo[i]:
            self.band_lo[i] = lo
        hi = self.calib.rank_hi(i, s == UP, self.band[i])
        if hi < self.band_hi[i]:
            self.band_hi[i] = hi

    def scan(self):
        """One pass over every sensor. Returns how many locations changed class (or, on a
        ranked board, rank); their indices are self.changed[:n], their classes self.state[i]
        and their ranks self.band[i]."""
        return next(self._passes)

    def _loop_parts(self):
        # what the scan loop keeps in its frame's locals: one lookup each per pass, not per
        # sensor; those of the fast path first (see _run). Each bank's ADC reads are those of
        # the pins that carry one of its multiplexers: the loop iterates them, which costs less
        # than a range over their indices
        bank_reads = [self.reads[:self.nread[bk]] for bk in range(len(self.nread))]
        return (self.sensor_of, bank_reads, self.raw, self.band_lo, self.band_hi, self.count,
                self.sel, self.nmux, self.state, self.cand, self.changed, self.up_on,
                self.up_off, self.dn_on, self.dn_off, self.lo, self.hi, self.stable,
                self.fault_scans, self.rank_scans, self.banks,
                len(self.banks) if self.banks else 1, self.ranked,
                self.band if self.ranked else None, self.calib.up_edge, self.calib.dn_edge,
                STILL, SETTLED)

    # The one scan loop of every board. A generator, so that its frame (too big for
    # MicroPython's C stack, so an ordinary call would put it on the heap every time) is made
    # once; each pass allocates nothing. The sensor map is in scan order (_in_scan_order), so
    # the loop walks it with one running index (base). On a ranked board a candidate is a class
    # and a rank together (class + 4 * (rank + 1), 0 for no rank), so a rank too must hold
    # before it is reported, its reading still from scan to scan (see the top).
    # A reading out of its band steps towards a change only if it holds still over two
    # conversions more (a noise burst's readings scatter), and is classed by the mean of the
    # three, whose noise is a reading's over sqrt(3): a reading that sits near a threshold (an
    # empty space beside a king on the ranked boards, 2 sigma from it) crosses it in two scans
    # in a row about as rarely as single readings did in four. Those conversions cost only
    # where a reading leaves its band.
    def _run(self):
        i = r = rd = base = k = b = d = e = p = 0  # first: one-byte opcodes reach locals 0-15
        (sensor_of, bank_reads, raw, band_lo, band_hi, count, sel, nmux, state, cand, changed,
         up_on, up_off, dn_on, dn_off, lo, hi, stable, fault_scans, rank_scans, banks, nbank,
         ranked, band, up_edge, dn_edge, still, settled) = self._loop_parts()
        while True:
            nch = base = 0
            for bk in range(nbank):
                if banks:
                    banks[bk].value(0)
                rds = bank_reads[bk]
                skip = nmux - len(rds)  # the map entries of the ADC pins this bank leaves unread
                for k in range(16):  # CHANNELS, written out: a global is a lookup per channel
                    b = GRAY_BIT[k]
                    sel[b].value((GRAY[k] >> b) & 1)
                    for rd in rds:
                        i = sensor_of[base]
                        base += 1
                        r = rd()
                        if i < 0:
                            continue
                        if band_lo[i] <= r <= band_hi[i]:
                            raw[i] = r
                            if count[i]:
                                count[i] = 0
                            continue
                        d = rd() - r  # out of its band: confirmed (above)
                        e = rd() - r
                        r += (d + e) // 3
                        p = raw[i]  # the scan before's
                        raw[i] = r
                        if (d > still or d < -still or e > still or e < -still or
                                band_lo[i] <= r <= band_hi[i]):
                            count[i] = 0
                            continue
                        s = state[i]
                        c = (FAULT if r < lo or r > hi else
                             UP if r > (up_off[i] if s == UP else up_on[i]) else
                             DOWN if r < (dn_off[i] if s == DOWN else dn_on[i]) else EMPTY)
                        code = _rank_code(c, r, up_edge, dn_edge, 3 * i) if ranked else c
                        now = s + 4 * (band[i] + 1) if ranked and band[i] != NO_BAND else s
                        if code == now:
                            count[i] = 0
                            continue
                        n = count[i] + 1 if code == cand[i] else 1
                        if ranked and n > 1 and (c == UP or c == DOWN) and (
                                r - p > settled or p - r > settled):
                            n = 1  # a piece on its way down (or up): this scan starts anew
                        cand[i] = code
                        if n < (fault_scans if c == FAULT else
                                rank_scans if c == s and (code >> 2) - 1 > band[i] else stable):
                            count[i] = n
                            continue
                        nch = self._report(i, c, code, nch)
                    base += skip
                if banks:
                    banks[bk].value(1)
            self.nchanged = nch
            self.scans += 1
            yield nch

    def _report(self, i, c, code, nch):
        # sensor i's new class c counts (on a ranked board with the rank in its candidate
        # code), the nch-th change of this scan; returns the changes so far
        self.state[i] = c
        if self.ranked:
            self.band[i] = (code >> 2) - 1 if code >= 4 else NO_BAND
        self.count[i] = 0
        self.changed[nch] = i
        self._band(i)
        return nch + 1

    def still(self):
        """Whether no sensor is part way to a change: nothing held a new class (or rank) for
        fewer scans than it needs in the last scan. Compared at C speed, nothing allocated."""
        return self.count == self.none_pending

    def settle(self, scans):
        """Scan until the classes are the steady ones (start-up: nothing reported before)."""
        for _ in range(scans):
            self.scan()
