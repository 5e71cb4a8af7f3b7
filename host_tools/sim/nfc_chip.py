# The NXP MFRC522 at register level behind its SPI port, the NTAG213 stickers on the board's
# pads and discard pile, and the fields they lie in (ISO/IEC 14443-3 type A: REQA/WUPA, two
# cascade levels of anticollision and select, HLTA). Every sticker a reader's field powers
# takes part in every frame: answers that differ collide bit by bit. Only what a UID reader
# needs is modelled; anything else a driver touches reads back as written, as the chip's plain
# configuration registers do. The figures are the design's (hardware/design/readers.json):
# the field of the module's antenna and where each pad and the pile lie, the field a sticker
# needs and how stickers piled on each other detune each other, the time a sticker needs to
# power up, the chip's start-up after a reset, and how the modules share the SPI bus.
from array import array

from shared_rules.rng import Rng
from hardware.design import readers as physics

COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
TX_CONTROL = 0x14
CRC_H = 0x21
CRC_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

TIMER_IRQ = 0x01
IDLE_IRQ = 0x10
RX_IRQ = 0x20
CRC_IRQ = 0x04

COLL_ERR = 0x08
PARITY_ERR = 0x02

TX_RF_EN = 0x03          # TxControlReg: Tx1RFEn and Tx2RFEn, the antenna drivers
TX_CONTROL_RESET = 0x80  # the drivers off after any reset
COMMAND_RESET = 0x20     # RcvOff
POWER_DOWN = 0x10        # CommandReg: reads 1 until the chip is ready after a reset
# a stack whose nearest sticker gets less than this share of the weakest need from every
# reader is out of every field (no sticker in it powers up): skipped at once
FAR = 0.5
TABLE_SEED = 7331        # the hands' placements, apart from the sensors' noise
# a sticker's figures, kept in one array of floats made with it (X, Y: its centre on the board,
# mm; NEED: the field it needs; H + j: reader j's field through it, 0 out of reach). The
# simulator shares the device's heap: floats stored anywhere else would each be an object made
# at the time of a hand's move and kept, and such objects strewn over a long game leave the
# heap with no room for the firmware's larger blocks
X = 0
Y = 1
NEED = 2
H = 3


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A: initial 0x6363, reflected polynomial 0x8408; low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b ^= (b << 4) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes([crc & 0xFF, (crc >> 8) & 0xFF])


class Tag:
    """An NTAG213 sticker: 7-byte UID, ATQA 0x0044, SAK 0x04 at level 1 and 0x00 at level 2.
    Where it lies, the field it needs and the field of each of `readers` through it (f, with
    X, Y, NEED, H), since when (placed_us), and whether it still lies on a pad (loose)."""

    def __init__(self, uid, need=0.0, readers=1):
        self.uid = bytes(uid)
        self.state = "idle"
        self.f = array("f", [0.0] * (H + readers))
        self.f[NEED] = need
        self.placed_us = 0
        self.loose = True  # on a pad, not yet on the discard pile

    def hex(self):
        return "".join(["%02x" % b for b in self.uid])

    def _level(self, cl):
        u = self.uid
        if cl == 0x93:
            part = bytes([0x88, u[0], u[1], u[2]])
        else:
            part = u[3:7]
        return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])

    def receive(self, frame, bits):
        """The tag's answer to a frame (bits: valid bits in the last byte, 0 = 8), or None."""
        if bits == 7 and len(frame) == 1:
            if frame[0] == 0x26 and self.state == "idle" or frame[0] == 0x52 and self.state in (
                    "idle", "halt"):
                self.state = "ready1"
                return bytes([0x44, 0x00])
            if self.state != "halt":
                self.state = "idle"  # READY/ACTIVE + anything unexpected: back to IDLE, silent
            return None
        if len(frame) == 2 and frame[1] == 0x20:
            if frame[0] == 0x93 and self.state == "ready1" or frame[0] == 0x95 and \
                    self.state == "ready2":
                return self._level(frame[0])
        elif len(frame) == 9 and frame[1] == 0x70 and crc_a(frame[:7]) == frame[7:9]:
            if frame[0] == 0x93 and self.state == "ready1" and frame[2:7] == self._level(0x93):
                self.state = "ready2"
                return bytes([0x04]) + crc_a(bytes([0x04]))
            if frame[0] == 0x95 and self.state == "ready2" and frame[2:7] == self._level(0x95):
                self.state = "active"
                return bytes([0x00]) + crc_a(bytes([0x00]))
        elif len(frame) == 4 and frame[0] == 0x50 and frame[1] == 0x00:
            if self.state == "active":
                self.state = "halt"
            return None
        if self.state != "halt":
            self.state = "idle"  # anything unexpected sends a tag back to idle
        return None


def parse_uid(uid):
    """A sticker's UID from bytes or hex; ValueError unless 7 bytes (an NTAG213's)."""
    if type(uid) is str:
        uid = bytes([int(uid[j:j + 2], 16) for j in range(0, len(uid), 2)])
    if len(uid) != 7:
        raise ValueError("an NTAG213 UID has 7 bytes")
    return bytes(uid)


class Table:
    """The stickers on a board's pads (one per reader, the reader's antenna under its centre)
    and on its discard pile, bottom card first; and which of them each reader's field powers.
    Where the design puts the pile over a pad (the DOG boards' old design), the pile is that
    pad's stack: a card discarded stays in the field, and the next card lies on it."""

    def __init__(self, world, spec, layout, pads, seed):
        self.world = world
        self.spec = spec
        self.field = physics.Field(spec)
        s = spec["sticker"]
        self.pitch = s["card_pitch_mm"]
        self.power_up_us = s["power_up_us"]
        self.reset_us = s["field_reset_us"]
        self.placement = s["placement_mm"]
        self.pause = spec["field"]["pause_fraction"]
        self.weakest = s["activation_a_per_m"] * (1 - physics.SIGMAS * s["activation_sigma"])
        self.depth = layout["antenna_depth_mm"]
        self.pads = list(pads)
        self.at = [layout["pads_mm"][p] for p in self.pads]
        self.stacks = [[] for _ in self.pads]
        self.pile_at = layout["pile_mm"]
        self.pile = []
        for j in range(len(self.pads)):
            if self._near(self.at[j], self.pile_at):
                self.pile = self.stacks[j]  # the pile lies on this pad
        self.chips = []  # by pad, set by the world once the chips exist
        self.rng = Rng(seed + TABLE_SEED)
        self.pool = {}  # uid -> its Tag: every sticker made once (stock)
        self.products = array("f", physics.stack_products(spec, 1))
        self.reach = [[] for _ in self.pads]  # per reader: the stickers its field powers
        self.off_us = [None] * len(self.pads)  # per reader: when its field went off
        self.dirty = True

    def _near(self, a, b):
        return abs(a[0] - b[0]) <= self.placement and abs(a[1] - b[1]) <= self.placement

    def pad(self, name):
        return self.pads.index(name)

    # -- hands ------------------------------------------------------------------------------
    def find(self, uid):
        """(stack, tag) of the sticker with that UID on the table, or (None, None)."""
        for st in self.stacks + [self.pile]:
            for t in st:
                if t.uid == uid:
                    return st, t
        return None, None

    def put(self, j, uid):
        """The card with that sticker put on pad j (taken up first wherever it lies)."""
        st, t = self.find(uid)
        if st is not None:
            st.remove(t)
        self._lay(self.tag(uid), self.at[j], self.stacks[j])

    def stock(self, uids):
        """Makes the stickers of a deck, and room for a pile of all of them, before play."""
        for uid in uids:
            self.tag(uid)
        self.products = array("f", physics.stack_products(self.spec, len(uids) + 1))

    def tag(self, uid):
        t = self.pool.get(uid)
        if t is None:
            t = self.pool[uid] = Tag(uid, physics.sticker_need(self.spec, uid), len(self.pads))
        return t

    def _lay(self, t, at, stack):
        p = self.placement
        t.f[X] = at[0] + (self.rng.below(2001) - 1000) * p / 1000.0
        t.f[Y] = at[1] + (self.rng.below(2001) - 1000) * p / 1000.0
        t.placed_us = self.world.clock_us
        t.state = "idle"
        t.loose = True
        stack.append(t)
        self.dirty = True

    def take(self, j):
        """The cards put on pad j since it was last cleared, taken into a hand."""
        st = self.stacks[j]
        st[:] = [t for t in st if not t.loose]
        self.dirty = True

    def discard(self, j):
        """The cards on pad j put on the discard pile (they stay where they are when the pile
        lies on the pad)."""
        st = self.stacks[j]
        moving = [t for t in st if t.loose]
        for t in moving:
            if st is not self.pile:
                st.remove(t)
                self._lay(t, self.pile_at, self.pile)
            t.loose = False
        self.dirty = True

    def lying(self, j):
        """The stickers put on pad j and not yet discarded, bottom first."""
        return [t for t in self.stacks[j] if t.loose]

    def piled(self):
        return [t for t in self.pile if not t.loose]

    def clear(self):
        for st in self.stacks:
            del st[:]
        del self.pile[:]
        self.dirty = True

    # -- fields -----------------------------------------------------------------------------
    def _place_fields(self):
        """For every sticker of every stack within reach: the field of each reader through it,
        detuned by its neighbours in the stack; per reader, the stickers it may power."""
        n_max = max([len(st) for st in self.stacks + [self.pile]] + [1])
        if len(self.products) <= n_max:
            self.products = array("f", physics.stack_products(self.spec, n_max + 1))
        self.reach = [[] for _ in self.pads]
        seen = []
        for st in self.stacks + [self.pile]:
            if not st or any(st is s for s in seen):
                continue  # (a pile lying on a pad is that pad's stack)
            seen.append(st)
            self._stack_fields(st)

    def _stack_fields(self, st):
        f = self.field
        n = len(st)
        near = False
        b = st[0].f
        for a in self.at:
            if f.h(b[X] - a[0], b[Y] - a[1], self.depth) >= FAR * self.weakest:
                near = True
        for i in range(n):
            v = st[i].f
            keep = physics.detune(self.products, i, n) if near else 0.0
            z = self.depth + i * self.pitch
            for j in range(len(self.at)):
                a = self.at[j]
                v[H + j] = f.h(v[X] - a[0], v[Y] - a[1], z) * keep if near else 0.0
                if v[H + j] >= v[NEED]:
                    self.reach[j].append(st[i])

    def switched(self, j, on):
        """Reader j's antenna switched on or off. The stickers only it powered lose power:
        they start from IDLE when its field comes back after reset_us or more (the operating
        field reset), and keep the state they were in after a shorter gap (their supply holds
        up: the next poll's wake-up finds a tag left READY or ACTIVE silent)."""
        if not on:
            self.off_us[j] = self.world.clock_us
            return
        off = self.off_us[j]
        if off is None or self.world.clock_us - off < self.reset_us:
            return
        if self.dirty:
            self._place_fields()
            self.dirty = False
        for t in self.reach[j]:
            if not self._powered_by_other(t, j):
                t.state = "idle"

    def _powered_by_other(self, t, j):
        for k in range(len(self.chips)):
            if k != j and self.chips[k].field_on and t.f[H + k] >= t.f[NEED]:
                return True
        return False

    def responding(self, j):
        """The stickers that hear reader j's frame now: in its field, powered up long enough,
        and not kept from its pauses by another reader's field."""
        if self.dirty:
            self._place_fields()
            self.dirty = False
        chip = self.chips[j]
        now = self.world.clock_us
        out = []
        for t in self.reach[j]:
            since = t.placed_us if t.placed_us > chip.field_since else chip.field_since
            if now - since < self.power_up_us:
                continue
            if self._drowned(t, j):
                continue
            out.append(t)
        return out

    def _drowned(self, t, j):
        for k in range(len(self.chips)):
            if k != j and self.chips[k].field_on and t.f[H + k] > self.pause * t.f[H + j]:
                return True
        return False


class Mfrc522:
    """One MFRC522 on the bus: its chip select and reset pins, its registers, its antenna
    (reader j of the table)."""

    def __init__(self, world, table, j, cs, rst, name=None):
        self.world = world
        self.table = table
        self.j = j
        self.name = name
        self.cs_pin = cs
        self.rst_pin = rst
        chip = world.readers_spec["chip"]
        self.start_up_us = chip["start_up_us"]
        self.soft_reset_us = chip["soft_reset_us"]
        self.holds_miso_low = chip["miso_when_deselected"] == "low"
        self.selected = False
        self.powered = True
        self.ready_us = 0
        self.field_on = False
        self.field_since = 0
        self.addr = -1
        self.reading = False
        self.reset()

    def reset(self):
        self.reg = bytearray(64)
        self.reg[VERSION] = 0x92  # version 2.0
        self.reg[COMMAND] = COMMAND_RESET
        self.reg[TX_CONTROL] = TX_CONTROL_RESET
        self.reg[T_PRESCALER] = 0
        self.fifo = bytearray()
        self._antenna()

    def _antenna(self):
        on = self.powered and bool(self.reg[TX_CONTROL] & TX_RF_EN)
        if on != self.field_on:
            self.field_on = on
            self.field_since = self.world.clock_us
            self.table.switched(self.j, on)

    def ready(self):
        return self.world.clock_us >= self.ready_us

    # -- pins and SPI --------------------------------------------------------------------
    def pin(self, gpio, value):
        if gpio == self.cs_pin:
            self.selected = not value  # chip select is active low
            self.addr = -1
            self.reading = False
        elif gpio == self.rst_pin:
            if not value:
                self.powered = False  # hard power-down: the antenna drivers off
                self._antenna()
            elif not self.powered:
                self.powered = True
                self.reset()
                self.ready_us = self.world.clock_us + self.start_up_us

    def xfer(self, byte):
        """One byte over SPI while selected; returns what the chip drives on MISO."""
        if not self.powered:
            return 0xFF
        if self.addr < 0 or self.reading:
            out = self.read(self.addr) if self.reading and self.addr >= 0 else 0
            self.addr = (byte >> 1) & 0x3F
            self.reading = bool(byte & 0x80)
            return out
        if self.ready():
            self.write(self.addr, byte)  # before the chip is ready a write is lost
        return 0

    # -- registers -----------------------------------------------------------------------
    def read(self, r):
        if r == COMMAND and not self.ready():
            return self.reg[COMMAND] | POWER_DOWN
        if r == FIFO_DATA:
            if self.fifo:
                b = self.fifo[0]
                self.fifo = self.fifo[1:]
                return b
            return 0
        if r == FIFO_LEVEL:
            return len(self.fifo)
        return self.reg[r]

    def write(self, r, v):
        if r == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(v)
            return
        if r == FIFO_LEVEL:
            if v & 0x80:
                self.fifo = bytearray()
            return
        if r in (COM_IRQ, DIV_IRQ):
            mask = v & 0x7F
            if v & 0x80:
                self.reg[r] |= mask
            else:
                self.reg[r] &= ~mask & 0xFF
            return
        if r == ERROR or r == VERSION:
            return  # read-only
        self.reg[r] = v
        if r == COMMAND:
            self.command(v & 0x0F)
        elif r == TX_CONTROL:
            self._antenna()
        elif r == BIT_FRAMING and v & 0x80 and self.reg[COMMAND] & 0x0F == TRANSCEIVE:
            self.transceive()

    def command(self, cmd):
        if cmd == SOFT_RESET:
            self.reset()
            self.ready_us = self.world.clock_us + self.soft_reset_us
        elif cmd == CALC_CRC:
            c = crc_a(bytes(self.fifo))
            self.fifo = bytearray()
            self.reg[CRC_L] = c[0]
            self.reg[CRC_H] = c[1]
            self.reg[DIV_IRQ] |= CRC_IRQ
            self.reg[COMMAND] = IDLE
        elif cmd == TRANSCEIVE:
            self.reg[ERROR] = 0

    def timeout_us(self):
        pre = (self.reg[T_MODE] & 0x0F) << 8 | self.reg[T_PRESCALER]
        reload = self.reg[T_RELOAD_H] << 8 | self.reg[T_RELOAD_L]
        return int((reload + 1) * (2 * pre + 1) / 13.56)

    def transceive(self):
        frame = bytes(self.fifo)
        self.fifo = bytearray()
        bits = self.reg[BIT_FRAMING] & 0x07
        self.reg[BIT_FRAMING] &= 0x7F
        self.reg[ERROR] = 0
        world = self.world
        # 106 kbit/s, about 10 bits on air per byte, plus the tag's frame delay time
        world.advance_us(len(frame) * 94 + 90)
        answers = []
        if self.field_on:
            for tag in self.table.responding(self.j):
                a = tag.receive(frame, bits)
                if a is not None:
                    answers.append(a)
        if not answers:
            world.advance_us(self.timeout_us())
            self.reg[COM_IRQ] |= TIMER_IRQ
            return
        data = self._merge(answers)
        if world.nfc_corrupt(self.name):
            j = world.rng.below(len(data))
            data[j] ^= 1 << world.rng.below(8)
            if world.rng.below(2):
                self.reg[ERROR] |= PARITY_ERR
        world.advance_us(len(data) * 94)
        self.fifo = data
        self.reg[CONTROL] &= 0xF8  # RxLastBits 0: every answer here ends on a whole byte
        self.reg[COM_IRQ] |= RX_IRQ | IDLE_IRQ

    def _merge(self, answers):
        """What the receiver makes of answers sent at once: the first bit where two differ is
        a collision (CollErr, its position in CollReg)."""
        data = bytearray(answers[0])
        for other in answers[1:]:
            for j in range(min(len(data), len(other))):
                if data[j] != other[j]:
                    diff = data[j] ^ other[j]
                    bit = 0
                    while not (diff >> bit) & 1:
                        bit += 1
                    self.reg[ERROR] |= COLL_ERR
                    self.reg[COLL] = (j * 8 + bit + 1) & 0x1F
                    break
        return data


class Bus:
    """SPI2 with the board's MFRC522 modules on it: pin changes reach every chip (each knows
    its chip select and the shared reset); a byte reaches every selected chip. What comes back
    on MISO: the selected chips' bytes (several at once: a low wins), and, where the design
    does not buffer MISO, 0 from any module that holds it low while deselected. Without a
    pull-up a chip select floats until the firmware drives it, taken as selecting."""

    def __init__(self, chips, buffered, cs_pulled_up):
        self.chips = chips
        self.buffered = buffered
        for c in chips:
            c.selected = not cs_pulled_up

    def pin(self, gpio, value):
        for c in self.chips:
            c.pin(gpio, value)

    def xfer(self, byte):
        out = 0xFF  # nothing drives MISO
        held = False
        for c in self.chips:
            if c.selected:
                out &= c.xfer(byte)
            elif c.holds_miso_low and not self.buffered:
                held = True
        return 0 if held else out


def build(world, spec, layout, pads, cs_pins, rst, seed, names=None):
    """The table, chips and bus of a board: one reader per pad, pad j's chip select cs_pins[j];
    names: the readers' names for faults (None for a board with one reader)."""
    table = Table(world, spec, layout, pads, seed)
    chips = []
    for j in range(len(pads)):
        chips.append(Mfrc522(world, table, j, cs_pins[j], rst,
                             names[j] if names else None))
    table.chips = chips
    bus = spec["bus"]
    return table, Bus(chips, bus["miso_buffered"] and len(chips) > 1, bus["cs_pull_up"])
