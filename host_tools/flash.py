"""`agentboard flash`: MicroPython onto an ESP32 through esptool's Python API.

Every step says what it does, and every failure is one clear sentence (FlashError) before
anything on the chip changes where that can be known: no board, several boards, a busy port,
no ESP32 answering, a missing or foreign firmware file, a firmware built for another chip.

The firmware: MicroPython's ESP32_GENERIC build, version 1.29 (the .bin from
micropython.org/download/ESP32_GENERIC, the same version as mpy-cross here). It is a merged
image (bootloader, partition table, MicroPython) written at the chip's bootloader offset:
0x1000 on the ESP32, 0x0 on newer chips; esptool knows each chip's offset.
"""
import os
import struct

from host_tools import ports

ESP_IMAGE_MAGIC = 0xE9
CHIP = "esp32"  # the chip of the referee's board (hardware/README.md), esptool's name
IMAGE_HEADER = 24  # esptool's image header with its extended part
CHIP_ID_AT = 12  # the extended header's chip id (little-endian 16 bit)
# what to flash and where to get it (README.md), the next step of every refused firmware file
FIRMWARE = "MicroPython 1.29's ESP32_GENERIC build"
GET_FIRMWARE = ("download %s (the .bin from micropython.org/download/ESP32_GENERIC) and name "
                "it with --firmware" % FIRMWARE)
ROM_BAUD = 115200  # the ROM loader's rate; esptool connects at it, then changes it
# esptool cannot drive DTR and RTS over a raw TCP socket (loader.py: connect() turns to
# no-reset for "socket:" ports; a hard reset only sets RTS, which the socket ignores)
NO_RESET_LINES = "socket://"
BY_HAND = "hold BOOT, press and release EN, then release BOOT"
# esptool's words when the flash does not hold what it wrote (cmds.py, write_flash's check)
# a build with ROMFS names vfs.rom_ioctl among its interned strings (MicroPython keeps every
# qstr as plain text in the application's read-only data); ESP32_GENERIC 1.29 has none
ROMFS_MARK = b"rom_ioctl"
NOT_KEPT = ("MD5 of file does not match data in flash", "the written flash region is empty")
# the USB bridges of ESP32 boards top out at 2-3 Mbaud (CH340: 2 M, CP2102N: 3 M); below 9600
# baud writing 1.5 MB would take half an hour
MIN_BAUD = 9600
MAX_BAUD = 3000000
# USB-serial bridges found on ESP32 boards: (vendor id, product id) -> name
BRIDGES = {
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
    (0x1A86, 0x7523): "WCH CH340",
    (0x1A86, 0x55D4): "WCH CH9102",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6010): "FTDI FT2232",
    (0x303A, 0x1001): "Espressif USB JTAG/serial",
}


class FlashError(Exception):
    """A failure explained in one sentence for the person at the keyboard."""


def find_port(ports=None):
    """The one serial port with an ESP32 board's USB bridge, or FlashError."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    boards = [p for p in ports if (p.vid, p.pid) in BRIDGES]
    if not boards:
        raise FlashError("no ESP32 board found on USB (looked for %s); plug it in, or name "
                         "the port with --port" % ", ".join(sorted(set(BRIDGES.values()))))
    if len(boards) > 1:
        raise FlashError("several boards are connected (%s): choose one with --port"
                         % ", ".join(p.device for p in boards))
    return boards[0].device


def image_chip(path):
    """The chip a firmware image was built for (esptool's chip name), or FlashError."""
    if not path:
        raise FlashError("--firmware is empty: " + GET_FIRMWARE)
    if not os.path.exists(path):
        raise FlashError("firmware file %s does not exist: %s" % (path, GET_FIRMWARE))
    if not os.path.isfile(path):
        raise FlashError("%s is %s, not a firmware file: %s" % (
            path, "a folder" if os.path.isdir(path) else "not a plain file", GET_FIRMWARE))
    try:
        with open(path, "rb") as f:
            head = f.read(IMAGE_HEADER)
    except OSError as e:
        raise FlashError("cannot read firmware file %s: %s" % (path, e.strerror))
    if len(head) < IMAGE_HEADER or head[0] != ESP_IMAGE_MAGIC:
        raise FlashError("%s is not an ESP firmware image (no 0xE9 header): %s" % (
            path, GET_FIRMWARE))
    chip_id = struct.unpack_from("<H", head, CHIP_ID_AT)[0]
    from esptool.targets import CHIP_DEFS
    for name, rom in CHIP_DEFS.items():
        if name != "esp8266" and getattr(rom, "IMAGE_CHIP_ID", None) == chip_id:
            return name
    raise FlashError("%s is built for an unknown chip (image chip id %d): %s" % (
        path, chip_id, GET_FIRMWARE))


def offset_for(chip):
    from esptool.targets import CHIP_DEFS
    return CHIP_DEFS[chip].BOOTLOADER_FLASH_OFFSET


def chip_name(esp):
    # "ESP32-D0WD-V3 (revision v3.1)" -> esptool's name "esp32"
    return esp.CHIP_NAME.lower().replace("-", "")


def _image_with_game(firmware, target, romfs=False):
    """(the image's bytes with agentboard's partitions in its table, those partitions):
    the game's, and with romfs the ROMFS partition, refused for a build without ROMFS."""
    from host_tools import partitions
    with open(firmware, "rb") as f:
        image = f.read()
    if romfs and ROMFS_MARK not in image:
        raise FlashError("%s has no ROMFS (MicroPython's vfs.rom_ioctl is not in it): a romfs "
                         "partition would be of no use to it; nothing was written. Leave out "
                         "--romfs, or flash a MicroPython built with MICROPY_VFS_ROM (see "
                         "docs/romfs.md)" % firmware)
    try:
        return partitions.with_partitions(image, offset_for(target), romfs)
    except partitions.TableError as e:
        # a table that cannot take the game's partition: not MicroPython's download
        raise FlashError("%s: %s; %s" % (firmware, e, GET_FIRMWARE))


def _connect(port, connect_attempts):
    """esptool's connection to the chip on port, or FlashError saying why there is none."""
    import serial
    from esptool.cmds import detect_chip
    from esptool.util import FatalError
    try:
        return detect_chip(port, baud=ROM_BAUD, connect_attempts=connect_attempts)
    except serial.SerialException as e:
        raise FlashError(ports.open_problem(port) or "cannot open %s: %s" % (port, e))
    except (FatalError, OSError) as e:
        text = str(e).split("\n")[0]
        if "could not open" in text.lower():  # esptool's guess: "busy or doesn't exist"
            reason = ports.open_problem(port)
            if reason:
                raise FlashError(reason)
        raise FlashError("no ESP32 answers on %s (%s); check the cable, hold BOOT while "
                         "connecting if the board needs it" % (port, text))


def can_reset(port):
    """Whether esptool can reset the board on `port` (into its loader, and afterwards)."""
    return not port.startswith(NO_RESET_LINES)


def flash(firmware, port=None, baud=460800, say=print, connect_attempts=7, romfs=False):
    """Checks everything it can, then erases, writes, verifies and resets. Returns the chip.
    romfs: add the ROMFS partition for the compiled firmware (a build with ROMFS only)."""
    target = image_chip(firmware)
    image, parts = _image_with_game(firmware, target, romfs)
    if port is None:
        port = find_port()
    reason = ports.problem(port)
    if reason:
        raise FlashError(reason)
    say("agentboard: %s is MicroPython for %s" % (firmware, target))
    if not can_reset(port):
        say("agentboard: %s has no reset lines: the board must already wait in its loader "
            "(%s)" % (port, BY_HAND))
    say("agentboard: connecting to the board on %s" % port)
    esp = _connect(port, connect_attempts)
    try:
        found = chip_name(esp)
        say("agentboard: found %s" % esp.get_chip_description())
        if found != target:
            raise FlashError("the board is an %s but %s is built for %s: nothing was written; %s"
                             % (found, firmware, target, GET_FIRMWARE if found == CHIP else
                                "the referee runs on an ESP32 board (hardware/README.md)"))
        _write(esp, port, baud, (firmware, image, parts), say)
        return found
    finally:
        try:
            esp._port.close()
        except Exception:
            pass


def _write(esp, port, baud, what, say):
    """Erases, writes and verifies the image, then resets the board; FlashError if that
    stops half way, or the flash does not read back what was written."""
    import serial
    from esptool.cmds import erase_flash, write_flash
    from esptool.util import FatalError
    firmware, image, parts = what
    try:
        esp = _prepare(esp, baud, parts)
        say("agentboard: erasing the flash")
        erase_flash(esp)
        at = offset_for(chip_name(esp))
        say("agentboard: writing %s at 0x%x, its partition table with %s (verified by "
            "checksum)" % (firmware, at, ", ".join(_purpose(p) for p in parts)))
        write_flash(esp, [(at, image)])
        _reset(esp, port, say)
    except (FatalError, serial.SerialException, OSError) as e:
        raise FlashError(_stopped(str(e).split("\n")[0], port))


def _prepare(esp, baud, parts):
    """esptool's flasher stub running at `baud`, the flash attached as esptool's write-flash
    attaches it (which also resets the flash chip), and its size checked: FlashError, with
    nothing written, if agentboard's partitions do not fit."""
    from esptool.cmds import attach_flash, detect_flash_size
    from esptool.util import flash_size_bytes
    from host_tools import partitions
    esp = esp.run_stub()
    if baud != ROM_BAUD:
        esp.change_baud(baud)
    attach_flash(esp)
    size = detect_flash_size(esp)
    if size:
        reason = partitions.room_problem(parts, flash_size_bytes(size))
        if reason:
            raise FlashError(reason + ": nothing was written")
    return esp


def _purpose(part):
    return "%r for %s" % (part, "the compiled firmware (ROMFS)" if part.label == "romfs"
                          else "the game's journal")


def _reset(esp, port, say):
    from esptool.cmds import reset_chip
    if can_reset(port):
        say("agentboard: resetting the board")
        reset_chip(esp, "hard-reset")
    else:  # esptool would only write RTS, which the socket drops: the stub would stay
        say("agentboard: %s cannot reset the board: press the board's EN (reset) button to "
            "start MicroPython" % port)


def _stopped(why, port):
    """The sentence for a write that failed: what to do next."""
    if any(text in why for text in NOT_KEPT):
        return ("the flash does not read back what was written (%s): esptool checked every "
                "block on its way, so the board's flash or its supply is failing; run flash "
                "again, and if it fails the same way use another board" % why)
    again = "run flash again" if can_reset(port) else (
        "put the board in its loader (%s) and run flash again" % BY_HAND)
    return ("flashing stopped (%s): the board may hold half a firmware; check the cable, "
            "%s (at a lower --baud if this repeats)" % (why, again))
