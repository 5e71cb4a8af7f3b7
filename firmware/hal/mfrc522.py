# NXP MFRC522 over SPI: enough of the chip to find an ISO/IEC 14443 type A card and read its
# UID (NTAG213 stickers: 7 bytes, two cascade levels). Registers and bits from the MFRC522
# datasheet (rev. 3.9); frames from ISO/IEC 14443-3.
#
# CardReader turns polls into events: a card is reported once per placement (a card held still
# is read again at every poll, but not reported again), removal after `miss_limit` empty polls,
# two cards on the reader as a collision. A frame that fails its BCC or CRC_A check, or any
# receive error, is an error for that poll, never a UID.
#
# A reader's antenna is on only while it is polled (hardware/README.md, Card readers): readers
# side by side would otherwise reach each other's cards, and each field draws 60-100 mA. A tag
# needs up to 5 ms in the field before it answers, so a poll switches the field on and waits
# that long, unless arm() switched it on earlier (a scan before: no wait at all). Switching the
# field off resets every tag in it, so no HLTA is needed after a read.
import time

from firmware.mpconst import const

_COMMAND = const(0x01)
_POWER_DOWN = const(0x10)  # CommandReg: reads 1 while the chip starts after a reset
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

_CMD_IDLE = const(0x00)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)
_TX_RF_EN = const(0x03)  # TxControlReg: the two antenna drivers

# MFRC522 data sheet: after NRSTPD rises, and after SoftReset, the chip is ready once its
# crystal runs and 1024 clocks have passed; writes before that are lost. Waited for by reading
# PowerDown, at most this long (the crystal's start-up is the module's: a generous bound)
_READY_WAIT_US = const(50000)
_READY_POLL_US = const(100)
# ISO/IEC 14443-3: a PICC accepts a request within 5 ms of entering an unmodulated field
TAG_POWER_UP_US = const(5000)
# a field switched off this long resets every tag in it to POWER-OFF, so that it starts from
# IDLE in the next field (the operating field reset, t_RESET, of ISO/IEC 14443-3 and EMVCo's
# contactless protocol: 5.1 ms at the least); a reader's field rests a whole scan between polls
RF_RESET_US = const(5100)

OK = const(0)
NO_CARD = const(1)
_ERR = const(2)
_COLLISION = const(3)

_REQA = const(0x26)
_WUPA = const(0x52)
_CL1 = const(0x93)
_CL2 = const(0x95)
_CL3 = const(0x97)
CASCADE = bytes((_CL1, _CL2, _CL3))
_CT = const(0x88)  # cascade tag: more UID bytes follow at the next level
_FIFO_READ = const(((_FIFO_DATA << 1) & 0x7E) | 0x80)  # the address byte that reads the FIFO


def crc_a(data, n=-1):
    """ISO/IEC 14443-3 CRC_A over data[:n], as one int: its low byte is sent first. (An int,
    not a (low, high) pair: a tuple would be made on every frame the reader checks.)"""
    crc = 0x6363
    if n < 0:
        n = len(data)
    for j in range(n):
        b = data[j] ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return crc & 0xFFFF


class MFRC522:
    def __init__(self, spi, cs, rst, reset=True):
        """reset False: the shared reset line was pulsed for another chip on the bus already
        (every chip on it restarted then)."""
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self._w = bytearray(2)
        self._r = bytearray(2)
        self.frame = bytearray(9)
        self.rx = bytearray(16)
        self.rx_len = 0
        self._burst = bytearray(bytes((_FIFO_READ,)) * 17)  # read_fifo's: the address throughout
        self._burst_rx = bytearray(17)
        self._addr = bytearray(1)  # the FIFO's address byte that starts a FIFO write
        # views of the first n bytes of frame and of the burst buffers, each made the first
        # time a transfer of that length happens: slicing per transfer would make heap
        # garbage on every poll of the scan loop
        self._frame_views = [None] * (len(self.frame) + 1)  # type: list
        self._burst_views = [None] * (len(self._burst) + 1)  # type: list
        self.uid_len = 0   # bytes of the UID read_uid read
        self.added = 0     # bytes of the UID the last cascade level added
        self.tx_off = 0
        cs.value(1)
        if reset:
            rst.value(0)
            rst.value(1)
        self.wait_ready()
        self.init()

    def wait_ready(self):
        """Waits until the chip has started after a reset; False if it never does (no chip,
        or no clock), which the self-test reports from VersionReg."""
        t0 = time.ticks_us()
        while self.read(_COMMAND) & _POWER_DOWN:
            if time.ticks_diff(time.ticks_us(), t0) > _READY_WAIT_US:
                return False
            time.sleep_us(_READY_POLL_US)
        return True

    def write(self, reg, val):
        w = self._w
        w[0] = (reg << 1) & 0x7E
        w[1] = val
        self.cs.value(0)
        self.spi.write(w)
        self.cs.value(1)

    def read(self, reg):
        w = self._w
        w[0] = ((reg << 1) & 0x7E) | 0x80
        w[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(w, self._r)
        self.cs.value(1)
        return self._r[1]

    def write_fifo(self, n):
        # one chip-select frame: the address once, then n data bytes (datasheet 8.1.2.3)
        a = self._addr
        a[0] = (_FIFO_DATA << 1) & 0x7E
        v = self._frame_views[n]
        if v is None:
            v = self._frame_views[n] = memoryview(self.frame)[:n]
        self.cs.value(0)
        self.spi.write(a)
        self.spi.write(v)
        self.cs.value(1)

    # A card lying on a reader is read again at every poll of it: these calls keep their frames
    # within MicroPython's 11 words (docs/measuring.md, "Frames"), or each would allocate its
    # frame on the heap. (Their while loops visit the bytes last first: a for loop holds two
    # words more.)
    def read_fifo(self, n):
        # the read address repeated n times, the last byte 0: data comes back one byte late
        # (_burst holds the address in every byte but the one this read ends with)
        self._burst[n] = 0
        v = self._burst_views[n + 1]
        if v is None:
            v = self._views(n + 1)
        self.cs.value(0)
        self.spi.write_readinto(v[0], v[1])
        self.cs.value(1)
        self._burst[n] = _FIFO_READ
        rx = self._burst_rx
        out = self.rx
        j = n
        while j:
            j -= 1
            out[j] = rx[j + 1]

    def _views(self, n):
        # views of the first n bytes of the burst buffers, made once per length
        v = (memoryview(self._burst)[:n], memoryview(self._burst_rx)[:n])
        self._burst_views[n] = v
        return v

    def init(self):
        self.write(_COMMAND, _CMD_SOFT_RESET)
        self.wait_ready()
        # timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 60 ticks = 1.5 ms, started after each
        # transmission (TAuto): a tag answers within about 0.1 ms, so no poll blocks for long
        self.write(_T_MODE, 0x80)
        self.write(_T_PRESCALER, 0xA9)
        self.write(_T_RELOAD_H, 0x00)
        self.write(_T_RELOAD_L, 60)
        self.write(_TX_ASK, 0x40)   # 100 % ASK modulation, as type A needs
        self.write(_MODE, 0x3D)     # CRC preset 0x6363
        self.tx_off = self.read(_TX_CONTROL) & ~_TX_RF_EN & 0xFF  # antenna off, as reset left it

    def antenna(self, on):
        self.write(_TX_CONTROL, self.tx_off | _TX_RF_EN if on else self.tx_off)

    def version(self):
        return self.read(_VERSION)

    def transceive(self, n, last_bits=0):
        """Sends self.frame[:n]; the answer lands in self.rx[:self.rx_len]. Returns a status."""
        self.write(_COMMAND, _CMD_IDLE)
        self.write(_COM_IRQ, 0x7F)        # clear every interrupt request bit
        self.write(_FIFO_LEVEL, 0x80)     # flush the FIFO
        self.write_fifo(n)
        self.write(_COMMAND, _CMD_TRANSCEIVE)
        last_bits |= 0x80  # StartSend (apart: within the call, the frame would go to the heap)
        self.write(_BIT_FRAMING, last_bits)
        irq = 0
        tries = 200
        while tries:
            tries -= 1
            irq = self.read(_COM_IRQ)
            if irq & 0x31:  # RxIRq, IdleIRq or TimerIRq
                break
        self.write(_BIT_FRAMING, 0)
        if not irq & 0x30:
            return NO_CARD  # timer ran out: nothing answered
        err = self.read(_ERROR)
        if err & 0x08:
            return _COLLISION
        if err & 0x17:  # buffer overflow, CRC, parity or protocol error
            return _ERR
        k = self.read(_FIFO_LEVEL)
        if k > len(self.rx):
            return _ERR
        self.read_fifo(k)
        self.rx_len = k
        return OK

    def wake(self):
        """WUPA (7-bit frame): wakes idle and halted cards. OK when an ATQA came back."""
        self.frame[0] = _WUPA
        st = self.transceive(1, 7)
        if st == OK and self.rx_len != 2:
            return _ERR
        return st

    def level(self, cl, uid, at):
        """Anticollision and select at one cascade level; UID bytes go to uid[at:]. Returns
        the status; self.added: how many bytes it added (a status alone, not a (status,
        added) pair: no tuple made per level)."""
        self.added = 0
        st = self._anticollision(cl)
        if st == OK:
            st = self._select()
        if st != OK:
            return st
        f = self.frame
        if f[2] == _CT:
            j = 3
            while j:
                j -= 1
                uid[at + j] = f[3 + j]
            self.added = 3
            return OK if self.rx[0] & 0x04 else _ERR
        j = 4
        while j:
            j -= 1
            uid[at + j] = f[2 + j]
        self.added = 4
        return _ERR if self.rx[0] & 0x04 else OK

    def _anticollision(self, cl):
        # the UID bytes of cascade level cl (and their BCC) into frame[2:7], to select with
        f = self.frame
        f[0] = cl
        f[1] = 0x20
        st = self.transceive(2)
        if st != OK:
            return st
        rx = self.rx
        if self.rx_len != 5 or rx[0] ^ rx[1] ^ rx[2] ^ rx[3] ^ rx[4]:
            return _ERR  # BCC wrong: a corrupted frame
        f[1] = 0x70
        j = 5
        while j:
            j -= 1
            f[2 + j] = rx[j]
        return OK

    def _select(self):
        # SELECT with the UID bytes in frame[2:7]; the SAK lands in rx[0]
        f = self.frame
        c = crc_a(f, 7)
        f[7] = c & 0xFF
        f[8] = c >> 8
        st = self.transceive(9)
        if st != OK:
            return st
        if self.rx_len != 3 or crc_a(self.rx, 1) != self.rx[1] | (self.rx[2] << 8):
            return _ERR  # SAK with a bad CRC_A
        return OK

    def read_uid(self, uid):
        """Reads one card's UID into uid (10 bytes room). Returns the status; self.uid_len is
        the UID's length (0 unless OK)."""
        self.uid_len = 0
        st = self.wake()
        if st != OK:
            return st
        n = 0
        k = 0
        while k < len(CASCADE):
            st = self.level(CASCADE[k], uid, n)
            if st == _COLLISION or st == _ERR or st == NO_CARD:
                return st
            n += self.added
            if self.added == 4:
                self.uid_len = n
                return OK
            k += 1
        return _ERR


CARD = const(1)
REMOVED = const(2)
TWO_CARDS = const(3)


class CardReader:
    def __init__(self, chip, miss_limit=2):
        self.chip = chip
        self.miss_limit = miss_limit
        self.buf = bytearray(10)
        self.uid = b""  # the card on the reader, b"" for none
        self.misses = 0
        self.collided = False
        self.errors = 0
        self.armed = False
        self.armed_at = 0
        # when its field went off last: a field switched on again within RF_RESET_US would
        # find its tags as the last poll left them
        self.off_at = time.ticks_add(time.ticks_us(), -RF_RESET_US)
        self.missed = False  # the last poll was an empty one that counts (PollTurns asks)
        self.event = 0  # what the last poll found (PollTurns's caller reads it)

    def arm(self):
        """Switches the antenna on ahead of the next poll, so its tags are powered by then;
        first waits out the rest of the field's RF_RESET_US off, should a long scan have put
        the next too close (a scan apart, it has long passed)."""
        left = RF_RESET_US - time.ticks_diff(time.ticks_us(), self.off_at)
        if left > 0:
            time.sleep_us(left)
        self.chip.antenna(True)
        self.armed = True
        self.armed_at = time.ticks_us()

    def poll(self):
        """One look at the reader: CARD (self.uid), REMOVED, TWO_CARDS, or 0 for nothing new.
        The antenna is on for the look (waiting for the tags to power up unless arm() gave them
        the time already) and off after it."""
        if not self.armed:
            self.arm()
        left = TAG_POWER_UP_US - time.ticks_diff(time.ticks_us(), self.armed_at)
        if left > 0:
            time.sleep_us(left)
        st = self.chip.read_uid(self.buf)
        self.chip.antenna(False)
        self.off_at = time.ticks_us()
        self.armed = False
        return self._event(st)

    def _event(self, st):
        self.missed = False
        if st == OK:
            self.misses = 0
            self.collided = False
            if not self._same(self.chip.uid_len):
                self.uid = bytes(self.buf[:self.chip.uid_len])
                return CARD
            return 0
        if st == _COLLISION:
            self.misses = 0
            if not self.collided:
                self.collided = True
                return TWO_CARDS
            return 0
        if st == _ERR:
            self.errors += 1  # a corrupted frame: try again at the next poll, never guess
            return 0
        # nothing answered. Every poll finds the tags reset (PollTurns rests a field a scan),
        # but one empty poll is not yet a card gone: a hand passing over the pad or a card
        # pushed across it can hide a tag for a moment, so only miss_limit empty polls in a row
        # count (two scans apart: 40 ms and more without an answer)
        if self.uid or self.collided:
            self.misses += 1
            self.missed = True
            if self.misses >= self.miss_limit:
                self.missed = False
                self.misses = 0
                self.collided = False
                if self.uid:
                    self.uid = b""
                    return REMOVED
        return 0

    def _same(self, n):
        """Whether the UID just read (self.buf[:n]) is the card already on the reader, compared
        in place: a slice per poll would be heap garbage while a card lies there."""
        uid = self.uid
        if len(uid) != n:
            return False
        buf = self.buf
        for j in range(n):
            if uid[j] != buf[j]:
                return False
        return True


class PollTurns:
    """The readers' polls, one a scan and one field on at a time (hardware/README.md, Card
    readers). At each scan the reader armed at the scan before is polled (its tags powered a
    whole scan: no wait), its field switched off, and another armed. In turn, except that a
    reader whose card has just missed a poll comes first (once for each empty poll: a
    corrupted frame gives it no turn ahead of the others), so a card taken off is called gone
    `miss_limit` polls two scans apart after its first empty poll, not as many rounds later. A
    reader just polled is never armed at once: its field stays off a whole scan, far past the
    5.1 ms that resets its tags (RF_RESET_US), so each poll finds them in IDLE. A board with
    one reader polls it every other scan."""

    def __init__(self, readers):
        self.readers = readers
        self.armed = -1  # the reader whose field is on for the next scan's poll
        self.turn = 0    # the next reader in turn

    def step(self):
        """One scan's poll: the index of the reader polled (its event in its .event), or -1."""
        rs = self.readers
        j = self.armed
        if j >= 0:
            rs[j].event = rs[j].poll()
        n = len(rs)
        k = 0
        while k < n and (k == j or not rs[k].missed):  # a card that missed: look again first
            k += 1
        if k == n:
            k = self.turn
            if k == j:
                k = (k + 1) % n if n > 1 else -1  # a board with one reader: its field rests
            if 0 <= k < n:
                self.turn = (k + 1) % n
            else:
                k = -1
        self.armed = k
        if k >= 0:
            rs[k].arm()
        return j