"""An ESP32 on an ESP32-DevKitC as esptool sees it through the board's USB-serial bridge: the
auto-reset circuit (RTS drives EN, DTR drives GPIO0), the ROM's boot messages, its serial loader
and esptool's flasher stub (host_tools/virtual/esp32_loader.py), the registers esptool reads and
writes (the chip-detect word, eFuses, clocks, the SPI1 peripheral through which it talks to the
flash chip), and the module's 4 MB SPI NOR flash, kept in a file that outlives the process
(host_tools/sim/nor_flash.py: sectors erased whole to FF, programs that only clear bits; its file
holds every byte inverted). What the chip is (eFuses, flash chip, ROM) is data:
esp32_chip.json. host_tools/virtual/rom_loader.py serves it on a loopback port.

What runs after the ROM is not modelled: booting from flash, the ROM prints what it loads of the
second-stage bootloader at 0x1000 (or that its header is invalid) and the chip says nothing more.
Registers the model does not know read 0 and are noted (`notes`), as are SPI flash commands it
does not know: a test sees esptool asking for something the model cannot answer.
"""
import functools
import json
import os
import struct
import time

import importlib.util

import yaml
from esptool.loader import ESPLoader, StubFlasher
from esptool.targets.esp32 import ESP32ROM

from host_tools.sim.nor_flash import NorFlash, SECTOR, ERASED, IOCTL_BLOCK_ERASE, blank
from host_tools.virtual.esp32_loader import (Failed, FLASH_FAILED, NOT_FLASHING, OHAI,
                                              RomLoader, StubLoader, slip)

IDENTITY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "esp32_chip.json")
# espefuse's table of the ESP32's eFuse fields, found without importing espefuse (which warns)
EFUSE_DEFS = os.path.join(os.path.dirname(importlib.util.find_spec("espefuse").origin),
                          "efuse_defs", "esp32.yaml")
MAC_CRC_POLY = 0x8C  # the ROM's esp_crc8: CRC-8, reflected polynomial 0x8C, initial value 0
# where each eFuse block's words start in the read registers (esptool targets/esp32.py reads
# BLOCK1's key as words 14-21); BLOCK0 has 7 words, BLOCK1-3 eight each
EFUSE_BLOCK_WORD = {0: 0, 1: 14, 2: 22, 3: 30}
EFUSE_WORDS = 38

# GPIO_STRAP as the ROM prints it (esptool docs, boot-mode-selection): GPIO5 and MTDO have
# pull-ups, GPIO2, GPIO4 and MTDI pull-downs; GPIO0 is the boot button (or DTR)
STRAP_GPIO0 = 0x10
STRAP_PULLS = 0x01 | 0x02
DOWNLOAD_BOOT = "DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2)"
FLASH_BOOT = "SPI_FAST_FLASH_BOOT"
POWER_ON = "rst:0x1 (POWERON_RESET)"  # EN and power-up alike
SOFTWARE = "rst:0xc (SW_CPU_RESET)"
FLASH_MODES = {0: "QIO", 1: "QOUT", 2: "DIO", 3: "DOUT"}
CLOCK_DIV = {0xF: 1, 0x0: 2, 0x1: 3, 0x2: 4}  # the image's flash frequency: 80 MHz / div
SEGMENTS_AT = 24  # an image's segments follow its 8-byte header and 16-byte extended header
MAX_SEGMENTS = 16

SPI = ESP32ROM.SPI_REG_BASE
SPI_BLOCK = 0x100  # SPI1's registers
SPI_CMD, SPI_ADDR = SPI, SPI + 0x04
SPI_USR, SPI_USR1, SPI_USR2 = (SPI + ESP32ROM.SPI_USR_OFFS, SPI + ESP32ROM.SPI_USR1_OFFS,
                               SPI + ESP32ROM.SPI_USR2_OFFS)
SPI_MOSI_DLEN, SPI_MISO_DLEN = (SPI + ESP32ROM.SPI_MOSI_DLEN_OFFS,
                                SPI + ESP32ROM.SPI_MISO_DLEN_OFFS)
SPI_W0 = SPI + ESP32ROM.SPI_W0_OFFS
SPI_CMD_USR = 1 << 18
USR_ADDR, USR_DUMMY, USR_MISO, USR_MOSI = 1 << 30, 1 << 29, 1 << 28, 1 << 27
USR1_ADDR_BITS_AT = 26
SPI_RESET_ENABLE, SPI_RESET = 0x66, 0x99


@functools.lru_cache(maxsize=1)
def identity():
    with open(IDENTITY) as f:
        return json.load(f)


@functools.lru_cache(maxsize=1)
def esptool_stub():
    """The flasher stub esptool uploads to an ESP32: the only RAM code this chip can run."""
    return StubFlasher(ESP32ROM)


def efuse_words(chip):
    """The eFuse read registers of the chip described in esp32_chip.json, packed where
    espefuse's field table puts each field."""
    with open(EFUSE_DEFS) as f:
        fields = yaml.safe_load(f)["EFUSES"]
    words = [0] * EFUSE_WORDS

    def put(name, value):
        d = fields[name]
        at = EFUSE_BLOCK_WORD[d["blk"]] + d["word"]
        words[at] |= (value & ((1 << d["len"]) - 1)) << d["pos"]

    for name, value in chip["efuses"]["fields"].items():
        put(name, value)
    mac = bytes.fromhex(chip["efuses"]["mac"].replace(":", ""))
    # as esptool's read_mac takes it apart: word 2's low half, then word 1, big-endian
    words[1] = int.from_bytes(mac[2:], "big")
    words[2] |= int.from_bytes(mac[:2], "big")
    put("MAC_CRC", mac_crc(mac))
    return words


def mac_crc(mac):
    """The MAC's check byte as the ROM computes it (espefuse's EfuseMacField.calc_crc)."""
    crc = 0
    for b in mac:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (MAC_CRC_POLY if crc & 1 else 0)
    return crc


class Esp32:
    """The chip. The link calls receive(), take_output(), set_lines() and tick(); everything
    else is the loaders' and the tests'. Not thread-safe: the link serialises calls."""
    SECTOR = SECTOR

    def __init__(self, flash_path, download=True, clock=time.monotonic, chip=None, stuck=None):
        """chip: what the chip is (default esp32_chip.json); stuck: {flash address: bits that
        read 0 whatever is written there}, a failing flash cell."""
        self.identity = chip or identity()
        self.stuck = dict(stuck or {})
        self.clock = clock
        jedec = self.identity["flash"]["jedec_id"]
        self.flash_bytes = 1 << jedec[2]  # the JEDEC capacity code is log2 of the size
        self.flash = _flash_file(flash_path, self.flash_bytes)
        self.efuses = efuse_words(self.identity)
        self.notes = []  # what the model was asked and does not model, and what went wrong
        self.events = []  # resets, loaders, baud changes, erases, writes: what happened
        self.boot_logs = []  # every boot's text, as the ROM printed it
        self.spi_heard = []  # SPI flash commands sent through the registers, in order
        self.flash_blocks = 0  # flash data blocks written, over all downloads
        self.on_event = None  # a callback for each event (the standalone server prints them)
        self.out = []  # (baud, bytes) sent on the UART and not yet taken by the link
        self.lines = (False, False)  # DTR, RTS as the bridge drives them
        self.released_at = None  # when EN was released, while the chip waits to leave reset
        self.loader = None
        self.power_on(download)

    # -- power, reset and boot ---------------------------------------------------------------
    def power_on(self, download):
        """Power applied (the board plugged in), GPIO0 low if `download` (BOOT held)."""
        self._boot(POWER_ON, io0_high=not download)

    def power_off(self):
        self.loader = None
        self.out = []
        self.event("power off")

    def set_lines(self, dtr, rts):
        """The bridge's DTR and RTS changed. Through the board's two transistors EN is low only
        for RTS alone and GPIO0 low only for DTR alone; the chip leaves reset en_rise_s after
        EN is released, and reads GPIO0 then."""
        self.tick()
        was_held = self._en_low()
        self.lines = (dtr, rts)
        if self._en_low():
            if not was_held:
                self.event("reset held (EN low)")
            self.loader = None
            self.out = []
            self.released_at = None
        elif was_held:
            self.released_at = self.clock()

    def _en_low(self):
        dtr, rts = self.lines
        return rts and not dtr

    def _io0_high(self):
        dtr, rts = self.lines
        return not (dtr and not rts)

    def next_boot_in(self):
        """Seconds until the chip leaves reset (None: not waiting to)."""
        if self.released_at is None:
            return None
        return max(0.0, self.released_at + self._en_rise() - self.clock())

    def _en_rise(self):
        return self.identity["auto_reset"]["en_rise_s"]

    def tick(self):
        """Leaves reset if EN has been released long enough (reading GPIO0 as it is now: the
        link calls this before every line change, so it is as it was then)."""
        if self.released_at is not None and self.clock() >= self.released_at + self._en_rise():
            self.released_at = None
            self._boot(POWER_ON, self._io0_high())

    def _boot(self, cause, io0_high):
        rom = self.identity["rom"]
        self.baud = rom["baud"]
        self.apb_hz = self.identity["clock"]["xtal_hz"]
        self.synced_baud = False
        self.attached = False
        self.ram = {}
        self.spi_regs = {}  # SPI1's registers, as a reset leaves them (unset ones read 0)
        self.strap = STRAP_PULLS | (STRAP_GPIO0 if io0_high else 0)
        mode = FLASH_BOOT if io0_high else DOWNLOAD_BOOT
        lines = [rom["banner"], "", "%s,boot:0x%x (%s)" % (cause, self.strap, mode)]
        if io0_high:
            self.loader = None
            lines += self._load_bootloader()
            self.event("boot from flash")
        else:
            self.loader = RomLoader(self)
            lines.append("waiting for download")
            self.event("boot into the ROM loader")
        self._print(lines)

    def _load_bootloader(self):
        """What the ROM prints loading the second-stage bootloader at its offset."""
        at = ESP32ROM.BOOTLOADER_FLASH_OFFSET
        head = self.read_flash(at, SEGMENTS_AT)
        if head[0] != ESPLoader.ESP_IMAGE_MAGIC or not 0 < head[1] <= MAX_SEGMENTS:
            return ["invalid header: 0x%08x" % struct.unpack_from("<I", head)[0]]
        lines = ["configsip: 0, SPIWP:0x%02x" % head[8],
                 "clk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,wp_drv:0x00",
                 "mode:%s, clock div:%d" % (FLASH_MODES.get(head[2], "?"),
                                            CLOCK_DIV.get(head[3] & 0x0F, 0))]
        pos = at + SEGMENTS_AT
        for _ in range(head[1]):
            load, length = struct.unpack("<II", self.read_flash(pos, 8))
            if pos + 8 + length > self.flash_bytes:
                return lines + ["invalid segment length 0x%x" % length]
            lines.append("load:0x%08x,len:%d" % (load, length))
            pos += 8 + length
        lines.append("entry 0x%08x" % struct.unpack_from("<I", head, 4)[0])
        return lines

    def _print(self, lines):
        text = "".join(line + "\r\n" for line in lines)
        self.boot_logs.append(text)
        self.send(text.encode("ascii"))

    def run_ram(self, entry):
        """The code loaded to RAM started at `entry`: esptool's stub runs as the stub does;
        anything else is code the model cannot run, and the chip falls silent."""
        stub = esptool_stub()
        loaded = all(self.ram.get(start) == bytes(code) for start, code in
                     ((stub.text_start, stub.text), (stub.data_start, stub.data))
                     if code is not None)
        if not loaded or entry != stub.entry:
            self.loader = None
            self.note("RAM code at 0x%08x is not esptool's stub: the model cannot run it" % entry)
            return
        self.loader = StubLoader(self)
        self.attached = True  # the stub attaches the flash as it starts
        self.apb_hz = self.identity["clock"]["stub_apb_hz"]
        self.event("flasher stub running")
        self.send(slip(OHAI))

    def load_ram(self, at, data):
        for start, seg in self.ram.items():
            if start + len(seg) == at:
                self.ram[start] = seg + data
                return
        self.ram[at] = bytes(data)

    def leave_loader(self):
        """The ROM's FLASH_END: it leaves the loader and boots the flash."""
        self.event("ROM loader left")
        self._boot(SOFTWARE, io0_high=True)

    # -- the UART ----------------------------------------------------------------------------
    def receive(self, data, host_baud=None):
        """Bytes from the host at `host_baud` (None: the link carries no rate, a raw socket).
        Until the ROM has synced it takes the host's rate from the SYNC pulses; bytes at any
        other rate than the chip's arrive as noise and are lost."""
        self.tick()
        if self.loader is None:
            return
        if host_baud is not None and host_baud != self.baud:
            if isinstance(self.loader, RomLoader) and not self.loader.synced:
                self.baud = host_baud
            else:
                self.event("%d bytes at %d baud lost as noise: the chip listens at %d"
                           % (len(data), host_baud, self.baud))
                return
        self.loader.feed(data)

    def send(self, data):
        self.out.append((self.baud, bytes(data)))

    def take_output(self, host_baud=None):
        """What the chip sent since the last call, as a host at host_baud reads it."""
        self.tick()
        out, self.out = self.out, []
        good = [data for baud, data in out if host_baud is None or baud == host_baud]
        if len(good) < len(out):
            self.event("output at %d baud lost as noise: the host listens at %d"
                       % (out[0][0], host_baud))
        return b"".join(good)

    def set_baud(self, baud):
        self.baud = baud
        self.event("baud %d" % baud)

    def rom_baud(self, asked):
        """The rate the ROM sets for CHANGE_BAUDRATE: it divides its clock estimate (from the
        RTC calibration and the 8 MHz clock's eFuse) by the rate asked."""
        clock = self.identity["clock"]
        estimate = clock["rtc_cali_value"] * 15625 * self._efuse_field("CLK8M_FREQ") // 40
        return asked * clock["xtal_hz"] // estimate

    def _efuse_field(self, name):
        return self.identity["efuses"]["fields"].get(name, 0)

    # -- registers ---------------------------------------------------------------------------
    def read_reg(self, addr):
        fixed = self._fixed_registers()
        if addr in fixed:
            return fixed[addr]
        base = ESP32ROM.EFUSE_RD_REG_BASE
        if base <= addr < base + 4 * EFUSE_WORDS and addr % 4 == 0:
            return self.efuses[(addr - base) // 4]
        if SPI <= addr < SPI + SPI_BLOCK:
            return self.spi_regs.get(addr, 0)
        self.note("READ_REG 0x%08x: a register the model does not know (read as 0)" % addr)
        return 0

    def _fixed_registers(self):
        clock = self.identity["clock"]
        return {
            ESPLoader.CHIP_DETECT_MAGIC_REG_ADDR: ESP32ROM.MAGIC_VALUE,
            ESP32ROM.APB_CTL_DATE_ADDR:
                self.identity["efuses"]["apb_ctl_date_rev_bit"] << ESP32ROM.APB_CTL_DATE_S,
            ESP32ROM.UART_CLKDIV_REG: self.apb_hz // self.baud,
            ESP32ROM.RTCCALICFG1: clock["rtc_cali_value"] << ESP32ROM.TIMERS_RTC_CALI_VALUE_S,
            ESP32ROM.GPIO_STRAP_REG: self.strap,
            ESP32ROM.RTC_CNTL_SDIO_CONF_REG: 0,
        }

    def write_reg(self, addr, value):
        if SPI <= addr < SPI + SPI_BLOCK:
            self.spi_regs[addr] = value
            if addr == SPI_CMD and value & SPI_CMD_USR:
                self._spi_user_command()
        elif addr != ESPLoader.UART_DATE_REG_ADDR:  # esptool writes it only to wait
            self.note("WRITE_REG 0x%08x: a register the model does not know" % addr)

    def _spi_user_command(self):
        """SPI1's user command: the command byte, address, dummy cycles, data out and in as
        esptool's run_spiflash_command sets them up; the answer lands in W0.."""
        reg = self.spi_regs
        usr, usr1 = reg.get(SPI_USR, 0), reg.get(SPI_USR1, 0)
        op = reg.get(SPI_USR2, 0) & 0xFF
        addr = None
        if usr & USR_ADDR:
            bits = (usr1 >> USR1_ADDR_BITS_AT) + 1
            addr = reg.get(SPI_ADDR, 0) >> (32 - bits)
        n_in = (reg.get(SPI_MISO_DLEN, 0) + 1) // 8 if usr & USR_MISO else 0
        answer = self._flash_command(op, addr, n_in)
        answer += bytes(-len(answer) % 4)
        for k in range(0, len(answer), 4):
            reg[SPI_W0 + k] = struct.unpack_from("<I", answer, k)[0]
        reg[SPI_CMD] = reg.get(SPI_CMD, 0) & ~SPI_CMD_USR  # done at once

    def _flash_command(self, op, addr, n_in):
        """The flash chip's answer to one command (n_in bytes)."""
        self.spi_heard.append(op)
        flash = self.identity["flash"]
        if op == 0x9F:  # RDID
            return bytes(flash["jedec_id"])[:n_in]
        if op == 0x5A:  # RDSFDP: the table, erased past its header
            table = bytes(flash["sfdp"])
            return bytes(table[addr + k] if addr + k < len(table) else ERASED
                         for k in range(n_in))
        status = {0x05: 0, 0x35: 1, 0x15: 2}  # RDSR, RDSR2, RDSR3
        if op in status:
            return bytes([flash["status"][status[op]]])[:n_in]
        if op == SPI_RESET_ENABLE:
            return b""
        if op == SPI_RESET:  # takes effect only right after reset-enable (W25Q32JV: 66h, 99h)
            if self.spi_heard[-2:-1] == [SPI_RESET_ENABLE]:
                self.event("flash chip reset")
            return b""
        self.note("SPI flash command 0x%02x: not one the model knows" % op)
        return bytes(n_in)

    # -- the flash ---------------------------------------------------------------------------
    def attach_flash(self, pins):
        self.attached = True

    def require_attached(self):
        if not self.attached:  # the ROM talks to the flash only after SPI_ATTACH
            raise Failed(NOT_FLASHING)

    def set_flash_size(self, total):
        self.flash_size_set = total

    def read_flash(self, at, n):
        if at < 0 or at + n > self.flash_bytes:
            raise Failed(FLASH_FAILED)
        buf = bytearray(n)
        self.flash.readblocks(0, buf, at)
        for where, bits in self.stuck.items():
            if at <= where < at + n:
                buf[where - at] &= ~bits & 0xFF
        return bytes(buf)

    def sector_blank(self, at):
        return self.read_flash(at, SECTOR) == bytes([ERASED]) * SECTOR

    def erase_range(self, at, size):
        """Every sector holding a byte of [at, at + size) erased."""
        first, end = at // SECTOR, (at + size + SECTOR - 1) // SECTOR
        if end * SECTOR > self.flash_bytes:
            raise Failed(FLASH_FAILED)
        for k in range(first, end):
            self.flash.ioctl(IOCTL_BLOCK_ERASE, k)
        self.event("erased 0x%x-0x%x" % (first * SECTOR, end * SECTOR))

    def program(self, at, data):
        if at + len(data) > self.flash_bytes:
            raise Failed(FLASH_FAILED)
        self.flash.writeblocks(0, data, at)

    # -- what happened -----------------------------------------------------------------------
    def event(self, text):
        self.events.append(text)
        if self.on_event is not None:
            self.on_event(text)

    def note(self, text):
        self.notes.append(text)
        self.event("note: " + text)


def _flash_file(path, nbytes):
    """The NOR flash kept in `path`: a new file is erased flash; an old one must be as big."""
    if not os.path.exists(path):
        blank(path, nbytes)
    elif os.path.getsize(path) != nbytes:
        raise ValueError("%s holds %d bytes, not the chip's %d" % (
            path, os.path.getsize(path), nbytes))
    return NorFlash(nbytes // SECTOR, path=path)
