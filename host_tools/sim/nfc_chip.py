# The NXP MFRC522 at register level behind its SPI port, and NTAG213 stickers in its field
# (ISO/IEC 14443-3 type A: REQA/WUPA, two cascade levels of anticollision and select, HLTA).
# Only what a UID reader needs is modelled; anything else a driver touches reads back as
# written, as the chip's plain configuration registers do.

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


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A: initial 0x6363, reflected polynomial 0x8408; low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b ^= (b << 4) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes([crc & 0xFF, (crc >> 8) & 0xFF])


class Tag:
    """An NTAG213 sticker: 7-byte UID, ATQA 0x0044, SAK 0x04 at level 1 and 0x00 at level 2."""

    def __init__(self, uid):
        self.uid = bytes(uid)
        self.state = "idle"

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


class Mfrc522:
    def __init__(self, world):
        self.world = world
        pins = world.pins["nfc"]
        self.cs_pin = pins["cs"]
        self.rst_pin = pins["rst"]
        self.selected = False
        self.powered = True
        self.addr = -1
        self.reading = False
        self.reset()

    def reset(self):
        self.reg = bytearray(64)
        self.reg[VERSION] = 0x92  # version 2.0
        self.reg[COMMAND] = 0x20
        self.reg[T_PRESCALER] = 0
        self.fifo = bytearray()

    # -- pins and SPI --------------------------------------------------------------------
    def pin(self, gpio, value):
        if gpio == self.cs_pin:
            self.selected = not value  # chip select is active low
            self.addr = -1
            self.reading = False
        elif gpio == self.rst_pin:
            if not value:
                self.powered = False
            elif not self.powered:
                self.powered = True
                self.reset()

    def xfer(self, byte):
        """One byte over SPI while selected; returns what the chip drives on MISO."""
        if not self.selected or not self.powered:
            return 0xFF
        if self.addr < 0 or self.reading:
            out = self.read(self.addr) if self.reading and self.addr >= 0 else 0
            self.addr = (byte >> 1) & 0x3F
            self.reading = bool(byte & 0x80)
            return out
        self.write(self.addr, byte)
        return 0

    # -- registers -----------------------------------------------------------------------
    def read(self, r):
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
        elif r == BIT_FRAMING and v & 0x80 and self.reg[COMMAND] & 0x0F == TRANSCEIVE:
            self.transceive()

    def command(self, cmd):
        if cmd == SOFT_RESET:
            self.reset()
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
        if self.reg[TX_CONTROL] & 0x03:
            for tag in world.tags:
                a = tag.receive(frame, bits)
                if a is not None:
                    answers.append(a)
        if not answers:
            world.advance_us(self.timeout_us())
            self.reg[COM_IRQ] |= TIMER_IRQ
            return
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
        if world.nfc_corrupt():
            j = world.rng.below(len(data))
            data[j] ^= 1 << world.rng.below(8)
            if world.rng.below(2):
                self.reg[ERROR] |= PARITY_ERR
        world.advance_us(len(data) * 94)
        self.fifo = data
        self.reg[CONTROL] &= 0xF8  # RxLastBits 0: every answer here ends on a whole byte
        self.reg[COM_IRQ] |= RX_IRQ | IDLE_IRQ
