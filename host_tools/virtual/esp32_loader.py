"""The serial loaders of an ESP32 as esptool talks to them: the ROM's, and esptool's flasher
stub once uploaded to RAM and started (what esptool does by default). host_tools/virtual/
esp32_chip.py runs them on its model of the chip.

The protocol is the one esptool documents (docs/en/advanced-topics/serial-protocol.rst in
espressif/esptool): SLIP frames; a command is direction 0, command, size, checksum, data; a
response is direction 1, the command, size, a 32-bit value (READ_REG's word) and data ending in
status bytes: four from the ESP32's ROM (status, error, 0, 0), two from the stub (a big-endian
response code: 0 or 0xC0xx-0xFF00). The stub's behaviour is its source's (espressif/esp-flasher-
stub, src/command_handler.c, the v1.4 esptool ships): it answers SYNC eight times with value 0,
answers a data block before writing it and reports a failed write with the next command, erases
just in time as it writes (sectors already blank are left alone until the first one that is not),
and returns MD5s as 16 raw bytes where the ROM sends 32 hex digits. The ROM erases the whole
region at FLASH_BEGIN and writes each block as it comes, in sequence.
"""
import hashlib
import struct
import zlib

from esptool.loader import ESPLoader

CMD = ESPLoader.ESP_CMDS
HEADER = struct.Struct("<BBHI")
DATA_HEADER = struct.Struct("<IIII")  # a _DATA command: length, sequence, 0, 0, then the data
REQUEST, RESPONSE = 0, 1
SYNC_DATA = b"\x07\x07\x12\x20" + b"\x55" * 32
SYNC_ANSWERS = 8  # both loaders answer one SYNC eight times
CHECKSUM_SEED = ESPLoader.ESP_CHECKSUM_MAGIC
OHAI = b"OHAI"  # the stub's greeting, its one unasked-for frame
MD5_BYTES = 16

# why a command failed, and how each loader says it (serial-protocol.rst: "ROM Loader Errors";
# esp-flasher-stub src/commands.h: esp_response_code)
BAD_LENGTH, CHECKSUM, NOT_FLASHING, UNKNOWN, FLASH_FAILED, TOO_MUCH, INFLATE, NOT_SUPPORTED = (
    "bad length", "checksum", "not flashing", "unknown command", "flash failed", "too much data",
    "inflate", "not supported")
ROM_ERRORS = {BAD_LENGTH: 0x05, CHECKSUM: 0x07, NOT_FLASHING: 0x06, UNKNOWN: 0x05,
              FLASH_FAILED: 0x08, TOO_MUCH: 0x05, INFLATE: 0x0B, NOT_SUPPORTED: 0x05}
STUB_ERRORS = {BAD_LENGTH: 0xC000, CHECKSUM: 0xC100, NOT_FLASHING: 0xC600, UNKNOWN: 0xC300,
               FLASH_FAILED: 0xC400, TOO_MUCH: 0xC900, INFLATE: 0xC700, NOT_SUPPORTED: 0xFF00}


class Failed(Exception):
    """A command the loader refuses; args[0] is why (one of the kinds above)."""


def slip(packet):
    """A packet framed as SLIP: C0, the packet with C0 and DB escaped, C0."""
    return b"\xc0" + packet.replace(b"\xdb", b"\xdb\xdd").replace(b"\xc0", b"\xdb\xdc") + b"\xc0"


class SlipReader:
    """Bytes from the UART in, whole packets out; bytes between frames (noise) are dropped."""

    def __init__(self):
        self.packet = None
        self.escape = False

    def feed(self, data):
        packets = []
        for b in data:
            if self.packet is None:
                if b == 0xC0:
                    self.packet = bytearray()
            elif self.escape:
                self.escape = False
                self.packet.append({0xDC: 0xC0, 0xDD: 0xDB}.get(b, b))
            elif b == 0xDB:
                self.escape = True
            elif b == 0xC0:
                if self.packet:  # C0 C0: the end of one frame and the start of the next
                    packets.append(bytes(self.packet))
                    self.packet = None
                # an empty frame is a frame start; keep reading into it
            else:
                self.packet.append(b)
        return packets


def checksum(data):
    state = CHECKSUM_SEED
    for b in data:
        state ^= b
    return state


def _words(data, n, size=None):
    if len(data) != (size if size is not None else 4 * n):
        raise Failed(BAD_LENGTH)
    return struct.unpack_from("<%dI" % n, data)


def _sequence(data):
    if len(data) < DATA_HEADER.size:
        raise Failed(BAD_LENGTH)
    return DATA_HEADER.unpack_from(data)[1]


class Writing:
    """A flash download under way: where the next bytes go, how many are still to come."""

    def __init__(self, chip, offset, size, blocks, block_size, compressed):
        chip.event("writing 0x%x-0x%x (%d blocks%s)" % (
            offset, offset + size, blocks, ", compressed" if compressed else ""))
        self.start = offset
        self.offset = offset
        self.remaining = size
        self.blocks = blocks
        self.block_size = block_size
        self.seq = 0
        self.inflate = zlib.decompressobj() if compressed else None
        self.next_erase = offset - offset % 4096
        self.erase_end = offset + size
        self.dirty_seen = False


class Loader:
    """What both loaders share: SLIP in, commands dispatched, responses out."""
    NAME = "loader"
    SYNC_VALUE = 0
    ATTACH_BYTES = 4
    LACKS = ()  # commands the real loader does not have either

    def __init__(self, chip):
        self.chip = chip
        self.reader = SlipReader()
        self.writing = None
        self.ram = None  # a RAM download under way: [next address, bytes left]

    # -- the frames -------------------------------------------------------------------------
    def feed(self, data):
        for packet in self.reader.feed(data):
            if self.chip.loader is not self:
                return  # the chip left this loader (it ran the stub, or booted)
            self.packet(packet)

    def packet(self, packet):
        if len(packet) < HEADER.size:
            return
        direction, op, size, chk = HEADER.unpack_from(packet)
        data = packet[HEADER.size:]
        if direction != REQUEST or size != len(data):
            self.respond(op, error=BAD_LENGTH)
            return
        self.command(op, data, chk)

    def respond(self, op, value=0, data=b"", error=None):
        self.chip.send(slip(self._response(op, value, data, error)))

    def dispatch(self, op, data, chk):
        """(value, data) for a command; Failed says why it was refused."""
        handler = self.HANDLERS.get(op)
        if handler is None:
            if op not in self.LACKS:
                self.chip.note("%s: command 0x%02x is not one the model knows" % (self.NAME, op))
            raise Failed(UNKNOWN)
        return handler(self, data, chk)

    # -- commands both loaders run alike ----------------------------------------------------
    def sync(self, data, chk):
        if data != SYNC_DATA:
            raise Failed(BAD_LENGTH)
        for _ in range(SYNC_ANSWERS - 1):
            self.respond(CMD["SYNC"], self.SYNC_VALUE)
        return self.SYNC_VALUE, b""

    def read_reg(self, data, chk):
        (addr,) = _words(data, 1)
        return self.chip.read_reg(addr), b""

    def write_reg(self, data, chk):
        if not data or len(data) % 16:
            raise Failed(BAD_LENGTH)
        for at in range(0, len(data), 16):
            addr, value, mask, _delay = struct.unpack_from("<IIII", data, at)
            if mask != 0xFFFFFFFF:
                value = (value & mask) | (self.chip.read_reg(addr) & ~mask)
            self.chip.write_reg(addr, value & 0xFFFFFFFF)
        return 0, b""

    def spi_attach(self, data, chk):
        (pins,) = _words(data, 1, self.ATTACH_BYTES)
        self.chip.attach_flash(pins)
        return 0, b""

    def spi_set_params(self, data, chk):
        _id, total, _block, _sector, _page, _mask = _words(data, 6)
        self.chip.set_flash_size(total)
        return 0, b""

    def mem_begin(self, data, chk):
        size, _blocks, _block_size, offset = _words(data, 4)
        self.ram = [offset, size]
        return 0, b""

    def mem_data(self, data, chk):
        if self.ram is None:
            raise Failed(NOT_FLASHING)
        block = self._data_block(data, chk)
        if len(block) > self.ram[1]:
            raise Failed(TOO_MUCH)
        self.chip.load_ram(self.ram[0], block)
        self.ram[0] += len(block)
        self.ram[1] -= len(block)
        return 0, b""

    def _data_block(self, data, chk):
        if len(data) < DATA_HEADER.size:
            raise Failed(BAD_LENGTH)
        length = DATA_HEADER.unpack_from(data)[0]
        block = data[DATA_HEADER.size:]
        if length != len(block):
            raise Failed(TOO_MUCH)
        if checksum(block) != chk:
            raise Failed(CHECKSUM)
        return block

    def _flash_md5(self, data):
        addr, size, _, _ = _words(data, 4)
        self.chip.event("MD5 of 0x%x-0x%x" % (addr, addr + size))
        return hashlib.md5(self.chip.read_flash(addr, size)).digest()

    def _inflate(self, data, chk):
        """The bytes a compressed data block brings (the stream's next part)."""
        if self.writing is None or self.writing.inflate is None:
            raise Failed(NOT_FLASHING)
        block = self._data_block(data, chk)
        try:
            return self.writing.inflate.decompress(block)
        except zlib.error:
            raise Failed(INFLATE)

    def _count_block(self):
        self.writing.seq += 1
        self.chip.flash_blocks += 1


class RomLoader(Loader):
    """The ESP32 ROM's loader (the chip reset with GPIO0 low)."""
    NAME = "ROM loader"
    ATTACH_BYTES = 8  # the ROM takes a second word, 0
    # esptool asks every chip first; the ESP32's ROM has no GET_SECURITY_INFO (serial-protocol
    # .rst: "ESP32 Chip Detection"), nor the stub's own commands
    LACKS = (CMD["GET_SECURITY_INFO"], CMD["ERASE_FLASH"], CMD["ERASE_REGION"],
             CMD["READ_FLASH"], CMD["RUN_USER_CODE"])

    def __init__(self, chip):
        Loader.__init__(self, chip)
        self.SYNC_VALUE = chip.identity["rom"]["sync_value"]
        self.synced = False

    def _response(self, op, value, data, error):
        status = bytes([0, 0, 0, 0]) if error is None else bytes([1, ROM_ERRORS[error], 0, 0])
        body = data + status
        return HEADER.pack(RESPONSE, op, len(body), value) + body

    def command(self, op, data, chk):
        try:
            value, out = self.dispatch(op, data, chk)
        except Failed as e:
            self.respond(op, error=e.args[0])
            return
        self.respond(op, value, out)
        if op == CMD["SYNC"]:
            self.synced = True
        self.after(op, data)

    def after(self, op, data):
        """What the ROM does once its answer is out: run RAM code, change the baud rate."""
        if op == CMD["MEM_END"]:
            flag, entry = struct.unpack_from("<II", data)
            if flag == 0:
                self.chip.run_ram(entry)
        elif op == CMD["CHANGE_BAUDRATE"]:
            self.chip.set_baud(self.chip.rom_baud(struct.unpack_from("<I", data)[0]))
        elif op in (CMD["FLASH_END"], CMD["FLASH_DEFL_END"]):
            self.chip.leave_loader()

    def mem_end(self, data, chk):
        _words(data, 2)
        self.ram = None
        return 0, b""

    def change_baudrate(self, data, chk):
        _words(data, 2)
        return 0, b""

    def flash_begin(self, data, chk, compressed=False):
        """The ROM erases the whole region first (its erase size: the bytes asked for)."""
        size, blocks, block_size, offset = _words(data, 4)
        self.chip.require_attached()
        self.chip.erase_range(offset, size)
        self.writing = Writing(self.chip, offset, size, blocks, block_size, compressed)
        return 0, b""

    def flash_defl_begin(self, data, chk):
        return self.flash_begin(data, chk, compressed=True)

    def flash_data(self, data, chk):
        w = self.writing
        if w is None or w.inflate is not None:
            raise Failed(NOT_FLASHING)
        block = self._data_block(data, chk)
        if _sequence(data) != w.seq or len(block) != w.block_size:
            raise Failed(BAD_LENGTH)
        self.chip.program(w.start + w.seq * w.block_size, block)
        self._count_block()
        return 0, b""

    def flash_defl_data(self, data, chk):
        w = self.writing
        if w is not None and _sequence(data) != w.seq:
            raise Failed(BAD_LENGTH)
        out = self._inflate(data, chk)
        self.chip.program(w.offset, out)
        w.offset += len(out)
        self._count_block()
        return 0, b""

    def flash_end(self, data, chk):
        _words(data, 1)
        self.writing = None
        return 0, b""

    def spi_flash_md5(self, data, chk):
        self.chip.require_attached()
        return 0, self._flash_md5(data).hex().encode("ascii")

    HANDLERS = {
        CMD["SYNC"]: Loader.sync, CMD["READ_REG"]: Loader.read_reg,
        CMD["WRITE_REG"]: Loader.write_reg, CMD["SPI_ATTACH"]: Loader.spi_attach,
        CMD["SPI_SET_PARAMS"]: Loader.spi_set_params, CMD["MEM_BEGIN"]: Loader.mem_begin,
        CMD["MEM_DATA"]: Loader.mem_data, CMD["MEM_END"]: mem_end,
        CMD["CHANGE_BAUDRATE"]: change_baudrate, CMD["FLASH_BEGIN"]: flash_begin,
        CMD["FLASH_DATA"]: flash_data, CMD["FLASH_END"]: flash_end,
        CMD["FLASH_DEFL_BEGIN"]: flash_defl_begin, CMD["FLASH_DEFL_DATA"]: flash_defl_data,
        CMD["FLASH_DEFL_END"]: flash_end, CMD["SPI_FLASH_MD5"]: spi_flash_md5,
    }


class StubLoader(Loader):
    """esptool's flasher stub, running from RAM."""
    NAME = "flasher stub"

    def __init__(self, chip):
        Loader.__init__(self, chip)
        self.failed = None  # a write that failed after its block was answered
        self.later = None  # what to do once the answer is out (the stub's post-process)

    def _response(self, op, value, data, error):
        body = data + struct.pack(">H", 0 if error is None else STUB_ERRORS[error])
        return HEADER.pack(RESPONSE, op, len(body), value) + body

    def command(self, op, data, chk):
        if op == CMD["RUN_USER_CODE"]:
            return  # the stub answers nothing, and (v1.4) does nothing: its reboot is a TODO
        if self.failed is not None:  # the stub reports it with the next command, not run
            error, self.failed = self.failed, None
            self.respond(op, error=error)
            return
        try:
            value, out = self.dispatch(op, data, chk)
        except Failed as e:
            self.later = None
            self.respond(op, error=e.args[0])
            return
        self.respond(op, value, out)
        later, self.later = self.later, None
        if later is not None:
            try:
                later()
            except Failed as e:
                self.failed = e.args[0]

    def mem_end(self, data, chk):
        flag, entry = _words(data, 2)
        self.ram = None
        if flag == 0:
            self.later = lambda: self.chip.run_ram(entry)
        return 0, b""

    def change_baudrate(self, data, chk):
        new, _old = _words(data, 2)
        self.later = lambda: self.chip.set_baud(new)
        return 0, b""

    def flash_begin(self, data, chk, compressed=False):
        if len(data) not in (16, 20):  # a fifth word asks for encryption
            raise Failed(BAD_LENGTH)
        size, blocks, block_size, offset = struct.unpack_from("<IIII", data)
        self.writing = Writing(self.chip, offset, size, blocks, block_size, compressed)
        self._erase_next()
        return 0, b""

    def flash_defl_begin(self, data, chk):
        return self.flash_begin(data, chk, compressed=True)

    def flash_data(self, data, chk):
        w = self.writing
        if w is None or w.inflate is not None:
            raise Failed(NOT_FLASHING)
        block = self._data_block(data, chk)
        self.later = lambda: self._write(block[:w.remaining])
        return 0, b""

    def flash_defl_data(self, data, chk):
        if self.writing is None or self.writing.inflate is None:
            raise Failed(NOT_FLASHING)
        self._data_block(data, chk)  # checked now, inflated after the answer
        self.later = lambda: self._write(self._inflate(data, chk))
        return 0, b""

    def _write(self, out):
        w = self.writing
        if len(out) > w.remaining:
            raise Failed(TOO_MUCH)
        while w.next_erase < min(w.offset + len(out), w.erase_end):
            self._erase_next()
        self.chip.program(w.offset, out)
        w.offset += len(out)
        w.remaining -= len(out)
        self._count_block()

    def _erase_next(self):
        """The next sector of the region erased, unless it is blank and no sector so far was
        not (esp-flasher-stub's s_conditional_erase_next)."""
        w = self.writing
        if w.next_erase >= w.erase_end:
            return
        if not w.dirty_seen and self.chip.sector_blank(w.next_erase):
            w.next_erase += self.chip.SECTOR
            return
        w.dirty_seen = True
        self.chip.erase_range(w.next_erase, self.chip.SECTOR)
        w.next_erase += self.chip.SECTOR

    def flash_end(self, data, chk):
        _words(data, 1)
        if self.writing is None:
            raise Failed(NOT_FLASHING)
        if self.writing.remaining:
            raise Failed(BAD_LENGTH)
        self.writing = None
        return 0, b""

    def spi_flash_md5(self, data, chk):
        return 0, self._flash_md5(data)

    def erase_flash(self, data, chk):
        _words(data, 0)
        self.chip.erase_range(0, self.chip.flash_bytes)
        return 0, b""

    def erase_region(self, data, chk):
        addr, size = _words(data, 2)
        if addr % self.chip.SECTOR or size % self.chip.SECTOR:
            raise Failed(BAD_LENGTH)
        self.chip.erase_range(addr, size)
        return 0, b""

    def get_security_info(self, data, chk):
        raise Failed(NOT_SUPPORTED)  # the ESP32 has none (esp-stub-lib: not supported)

    HANDLERS = {
        CMD["SYNC"]: Loader.sync, CMD["READ_REG"]: Loader.read_reg,
        CMD["WRITE_REG"]: Loader.write_reg, CMD["SPI_ATTACH"]: Loader.spi_attach,
        CMD["SPI_SET_PARAMS"]: Loader.spi_set_params, CMD["MEM_BEGIN"]: Loader.mem_begin,
        CMD["MEM_DATA"]: Loader.mem_data, CMD["MEM_END"]: mem_end,
        CMD["CHANGE_BAUDRATE"]: change_baudrate, CMD["FLASH_BEGIN"]: flash_begin,
        CMD["FLASH_DATA"]: flash_data, CMD["FLASH_END"]: flash_end,
        CMD["FLASH_DEFL_BEGIN"]: flash_defl_begin, CMD["FLASH_DEFL_DATA"]: flash_defl_data,
        CMD["FLASH_DEFL_END"]: flash_end, CMD["SPI_FLASH_MD5"]: spi_flash_md5,
        CMD["ERASE_FLASH"]: erase_flash, CMD["ERASE_REGION"]: erase_region,
        CMD["GET_SECURITY_INFO"]: get_security_info,
    }
