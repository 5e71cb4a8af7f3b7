"""The circuit, generated with SKiDL from a board variant's maps and the parts library.

A variant is a main board (USB-C input, sensor buck, ESP32-DevKitC sockets, LED level shifter,
the readers' headers with their bus parts, buttons, buzzer, one connector per strip) and its strips: one sensor strip per
multiplexer (the multiplexer, its sensors and the LEDs at the same locations) and, when some LEDs
have no sensor under them (the seats), an LED-only strip. Each board is its own SKiDL circuit,
so each gets its own netlist and PCB; the strips' connectors mate the main board's pin for pin
(the harness pinouts in parts.json). No GPIO number is written here: they come from pins.json
through roles.json; no location from anywhere but sensors.json and leds.json.
"""
import re

from hardware.design import data, readers
from hardware.design.skidl_quiet import (PIN_TYPES, POWER_DRIVE, SKIDL, Circuit, Net, Part,
                                         Pin)

GND = "GND"
AGND = "AGND"                    # the sensors' ground: meets GND at the main board's star point
V5 = "+5V"
V3_SENSOR = "+3V3_SENSOR"
V3_SENSOR_F = "+3V3_SENSOR_F"    # the sensors' 3.3 V on a strip, after its ferrite bead
V3_ESP = "+3V3_ESP"
V3_NFC = "+3V3_NFC"  # the readers' own buck: their antenna drivers' 60-100 mA pulses stay off
# the DevKit's LDO (the ESP32's rail) and off the sensors' analog supply
VBUS_IN = "VBUS_IN"        # the USB-C receptacle's VBUS, before the fuse
VBUS_FUSED = "VBUS_FUSED"  # behind the fuse: the TVS clamps here
VBUS = "VBUS"              # behind the reverse-polarity MOSFET: the eFuse's input
LED_CHAIN = "LED_CHAIN_{}"
SELECT_ROLE = "mux.select"
ADC_ROLE = "mux.adc"
BANK_ROLE = "mux.bank"
USB_VBUS = ("A4", "A9", "B4", "B9")
USB_GND = ("A1", "A12", "B1", "B12", "S1")
USB_DATA = ("A6", "A7", "B6", "B7", "A8", "B8")
USB_A_DATA = ("D-", "D+")
EFUSE_VIN = ("3", "4", "5")
EFUSE_OUT = ("6", "7", "8")
EFUSE_NC = "9"
SHIFTER_USED = "1"
SHIFTER_SPARE = ("2", "3", "4")
NFC_PINS = (("SDA", "nfc.cs"), ("SCK", "nfc.sck"), ("MOSI", "nfc.mosi"), ("MISO", "nfc.miso"),
            ("RST", "nfc.rst"))
MORE_CS_ROLE = "nfc.more_cs"
MISO_ROLE = "nfc.miso"
READER_MISO = "NFC_MISO_{}"  # a module's own MISO, before its buffer
BUZZER_ROLE = "buzzer.pin"
LED_ROLE = "leds.pin"
BUTTON_ROLES = ("buttons.confirm", "buttons.back")
BUCK_OUTPUT_CAPS = 2


def net_safe(text):
    """Location names carry ':' (red:h1); net names keep to letters, digits and '_'."""
    return re.sub(r"[^A-Za-z0-9_+]", "_", text)


class Board:
    """One PCB: a SKiDL circuit, its named nets and the parts placed on it."""

    def __init__(self, name, title, library):
        self.name = name
        self.title = title
        self.library = library
        self.circuit = Circuit()
        self.circuit.no_files = True
        # SKiDL's netlist writer needs the root sheet's tag empty, and its tag check then warns
        # about it on every netlist; the root is one sheet per board, nothing for a PCB to track.
        self.circuit.root.check_tag = lambda create_if_missing=False: True
        self.nets = {}
        self.placed = []        # [(part, component key)]
        self.connectors = []    # [(part, what mates it)]
        self.counts = {}

    def net(self, name, power=False):
        net = self.nets.get(name)
        if net is None:
            net = Net(name, circuit=self.circuit)
            net.function = name     # survives SKiDL merging nets: erc.py finds joined functions
            self.nets[name] = net
        if power:
            # KiCad's PWR_FLAG: power enters this board here (a connector, a USB receptacle, an
            # inductor), so the power pins on the net are fed although no pin is a power output.
            net.drive = POWER_DRIVE
        return net

    def place(self, key, **fields):
        comp = self.library["components"][key]
        pkg = self.library["packages"][comp["package"]]
        pins = [Pin(num=num, name=name, func=PIN_TYPES[kind])
                for num, name, kind in package_pins(self.library, comp["package"])]
        # A stable tag ties each symbol to its footprint across regenerations (KiCad's PCB
        # editor keeps placements by it): the component's role and its number on this board.
        self.counts[key] = self.counts.get(key, 0) + 1
        part = Part(tool=SKIDL, name=comp["package"], ref_prefix=pkg["ref"], value=comp["value"],
                    footprint=pkg["footprint"], pins=pins, circuit=self.circuit,
                    description=comp["why"], tag="%s.%d" % (key, self.counts[key]))
        part.fields["Part Number"] = comp["part_number"]
        part.fields["Role"] = key
        for k, v in fields.items():
            part.fields[k] = v
        self.placed.append((part, key))
        return part

    def nc(self, pin):
        pin += self.circuit.NC

    def connect(self, part, pin_id, net_name, power=False):
        pin_of(part, pin_id).__iadd__(self.net(net_name, power))


def package_pins(library, package):
    """[(number, name, KiCad type)] of a package: listed, from the ESP32 header table, or from a
    harness pinout (connector pins are passive)."""
    pkg = library["packages"][package]
    if "pins" in pkg:
        return [tuple(p) for p in pkg["pins"]]
    if "from_esp32" in pkg:
        esp = data.esp32()
        out = []
        for i, name in enumerate(esp["devkitc"][pkg["from_esp32"]], 1):
            out.append((str(i), name, devkit_pin_type(esp, name)))
        return out
    if "harness" in pkg:
        names = library["harnesses"][pkg["harness"]]["pins"]
        return [(str(i), name, "passive") for i, name in enumerate(names, 1)]
    raise data.DesignError("package %s has no pins" % package)


def devkit_pin_type(esp, name):
    if name == "3V3":
        return "power_out"      # the DevKit's own LDO
    if name in ("5V", GND):
        return "power_in"
    if name == "EN":
        return "input"
    info = esp["gpio"][name[len("GPIO"):]]
    return "input" if info.get("input_only") else "bidirectional"


def pin_of(part, pin_id):
    """A pin by number, else by its unique name."""
    for p in part.pins:
        if p.num == pin_id:
            return p
    named = [p for p in part.pins if p.name == pin_id]
    if len(named) != 1:
        raise data.DesignError("%s has %d pins named %s" % (part.ref, len(named), pin_id))
    return named[0]


def two_pin(board, key, net_a, net_b, **fields):
    part = board.place(key, **fields)
    board.connect(part, "1", net_a)
    board.connect(part, "2", net_b)
    return part


def role_nets(variant):
    """{role path: [net name per item]} for every GPIO role of the pin map."""
    table = data.roles()
    out = {}
    for path, index, _ in data.gpio_uses(variant.pins, table):
        out.setdefault(path, []).append(data.role_net(table[path], index))
    return out


def chain_nets(variant):
    """{strip name: (net into its DIN, net out of its DOUT or None)} on the main board."""
    runs = variant.led_runs()
    out = {}
    for r, (strip, _, _) in enumerate(runs):
        out[strip.name] = (LED_CHAIN.format(r),
                           LED_CHAIN.format(r + 1) if r + 1 < len(runs) else None)
    return out


def build_main(variant, library=None):
    library = library or data.parts()
    board = Board("main", "%s: main board" % variant.title, library)
    nets = role_nets(variant)
    board.net(GND, power=True)
    board.net(V3_SENSOR, power=True)
    board.net(V3_NFC, power=True)

    power_input(board)
    # The sensors' 3.3 V and the readers' own: bucks with the datasheet's application circuit.
    place_buck(board, "buck", V3_SENSOR, "BUCK")
    place_buck(board, "buck_nfc", V3_NFC, "NFC_BUCK")

    _place_devkit(board, variant)

    # Each multiplexer's output: the ADC pin, a pull-down, the strip cable. The strips'
    # analog ground meets the LED and supply ground at one point (hardware/design/analog.json).
    for z in nets[ADC_ROLE]:
        two_pin(board, "r_adc_pd", z, AGND)
    two_pin(board, "gnd_tie", AGND, GND)
    # Banks of multiplexers sharing the ADC pins: each bank's enable line held off at reset.
    for en in nets.get(BANK_ROLE, ()):
        two_pin(board, "r_en_pu", en, V3_SENSOR)

    _place_led_shifter(board, nets)

    # The card readers' cables: the first on nfc.cs, further ones (nfc.more_cs) on the same bus.
    place_readers(board, nets, readers.load()["bus"])

    # Buttons to GND (the ESP32's internal pull-ups).
    for role in BUTTON_ROLES:
        two_pin(board, "button", nets[role][0], GND, Function=role.split(".")[-1])

    _place_buzzer(board, nets)

    _place_strip_headers(board, variant, nets)
    devkit_lead(board)  # last: the connectors placed before it keep their references
    return board


def _place_devkit(board, variant):
    # The ESP32-DevKitC in two sockets: every GPIO of the pin map on its role's net.
    sockets = [board.place("devkit_j2"), board.place("devkit_j3")]
    for s in sockets:
        board.connectors.append((s, "ESP32-DevKitC-32E header " + s.name[-2:]))
    gpio_pins = {}
    for s in sockets:
        for p in s.pins:
            if p.name.startswith("GPIO"):
                gpio_pins[int(p.name[len("GPIO"):])] = p
            elif p.name == GND:
                p += board.net(GND)
    table = data.roles()
    for path, index, gpio in data.gpio_uses(variant.pins, table):
        if gpio not in gpio_pins:
            raise data.DesignError("%s: GPIO%s is not on the ESP32-DevKitC's headers"
                                   % (path, gpio))
        gpio_pins[gpio] += board.net(data.role_net(table[path], index))
    for s in sockets:
        for p in s.pins:
            if not p.is_connected():
                board.nc(p)     # 5V, 3V3, EN, the UART, the flash pins and the spare GPIOs


def _place_led_shifter(board, nets):
    # LED data: 3.3 V to 5 V through one buffer of the 74AHCT125; the spares disabled.
    shifter = board.place("shifter")
    board.connect(shifter, "VCC", V5)
    board.connect(shifter, "GND", GND)
    two_pin(board, "c_dec", V5, GND)
    board.connect(shifter, SHIFTER_USED + "OE", GND)
    board.connect(shifter, SHIFTER_USED + "A", nets[LED_ROLE][0])
    two_pin(board, "r_led_pd", nets[LED_ROLE][0], GND)     # GPIO13 floats during reset
    board.connect(shifter, SHIFTER_USED + "Y", LED_CHAIN.format(0))
    for unit in SHIFTER_SPARE:
        board.connect(shifter, unit + "OE", V5)
        board.connect(shifter, unit + "A", GND)
        board.nc(pin_of(shifter, unit + "Y"))
    two_pin(board, "c_led_bulk", V5, GND)


def _place_buzzer(board, nets):
    # Buzzer: the GPIO switches a transistor; the piezo between 5 V and the collector.
    two_pin(board, "r_base", nets[BUZZER_ROLE][0], "BUZZER_BASE")
    two_pin(board, "r_base_pd", "BUZZER_BASE", GND)
    q = board.place("q_buzzer")
    board.connect(q, "B", "BUZZER_BASE")
    board.connect(q, "E", GND)
    board.connect(q, "C", "BUZZER_COLLECTOR")
    piezo = board.place("piezo")
    board.connect(piezo, "+", V5)
    board.connect(piezo, "-", "BUZZER_COLLECTOR")
    two_pin(board, "r_piezo", V5, "BUZZER_COLLECTOR")


def _place_strip_headers(board, variant, nets):
    # One connector per strip.
    chain = chain_nets(variant)
    for strip in variant.strips:
        part = board.place(header_component(strip), Strip=strip.name)
        board.connectors.append((part, strip.name))
        signals = strip_signals(variant, strip, nets, chain.get(strip.name))
        for p in part.pins:
            net = signals[p.name]
            if net is None:
                board.nc(p)
            else:
                p += board.net(net)


def place_readers(board, nets, bus):
    """One RC522 header per reader, fed from the readers' rail; per readers.json's bus: each
    chip select pulled up (every module deselected while the ESP32 is in reset), and, where
    several readers share the bus, each module's MISO through a buffer its chip select enables
    (common modules hold MISO low while deselected)."""
    selects = [nets["nfc.cs"][0]] + list(nets.get(MORE_CS_ROLE, ()))
    buffered = bus["miso_buffered"] and len(selects) > 1
    for k, cs in enumerate(selects):
        nfc = board.place("nfc_header")
        board.connectors.append((nfc, "RC522 module" + ("" if k == 0 else " on " + cs)))
        miso = READER_MISO.format(k) if buffered else nets[MISO_ROLE][0]
        for pin_name, role in NFC_PINS:
            net = cs if role == "nfc.cs" else miso if role == MISO_ROLE else nets[role][0]
            board.connect(nfc, pin_name, net)
        board.nc(pin_of(nfc, "IRQ"))
        board.connect(nfc, "GND", GND)
        board.connect(nfc, "3.3V", V3_NFC)
        two_pin(board, "c_nfc", V3_NFC, GND)
        if bus["cs_pull_up"]:
            two_pin(board, "r_cs_pu", cs, V3_NFC)
        if buffered:
            buf = board.place("miso_buffer")
            board.connect(buf, "~{OE}", cs)
            board.connect(buf, "A", miso)
            board.connect(buf, "Y", nets[MISO_ROLE][0])
            board.connect(buf, "VCC", V3_NFC)
            board.connect(buf, "GND", GND)
            two_pin(board, "c_dec", V3_NFC, GND)


def power_input(board):
    """USB-C as a sink, power only, then the protection in VBUS: fuse, TVS, reverse-polarity
    MOSFET and the eFuse (soft start, current limit) that feeds the board's 5 V."""
    board.net(VBUS_IN, power=True)      # power enters here, at the receptacle
    board.net(VBUS, power=True)         # and reaches the eFuse through the fuse and MOSFET
    usb = board.place("usb_c")
    for p in USB_VBUS:
        board.connect(usb, p, VBUS_IN)
    for p in USB_GND:
        board.connect(usb, p, GND)
    for p in USB_DATA:
        board.nc(pin_of(usb, p))
    for cc in ("A5", "B5"):
        net = "USB_" + pin_of(usb, cc).name
        board.connect(usb, cc, net)
        two_pin(board, "r_cc", net, GND)
        two_pin(board, "esd_cc", net, GND)
    two_pin(board, "fuse", VBUS_IN, VBUS_FUSED)
    two_pin(board, "tvs", VBUS_FUSED, GND)     # pin 1, the cathode, to VBUS
    q = board.place("q_rev")
    board.connect(q, "D", VBUS_FUSED)
    board.connect(q, "S", VBUS)
    board.connect(q, "G", "QREV_GATE")
    two_pin(board, "r_q_gate", "QREV_GATE", GND)
    two_pin(board, "c_vbus", VBUS, GND)
    efuse = board.place("efuse")
    for p in EFUSE_VIN:
        board.connect(efuse, p, VBUS)
    board.connect(efuse, "EN/UVLO", VBUS)      # its own undervoltage lockout
    for p in EFUSE_OUT:
        board.connect(efuse, p, V5)
    board.connect(efuse, "GND", GND)
    board.connect(efuse, "dV/dT", "EFUSE_DVDT")
    board.connect(efuse, "ILIM", "EFUSE_ILIM")
    board.nc(pin_of(efuse, EFUSE_NC))
    two_pin(board, "c_dvdt", "EFUSE_DVDT", GND)
    two_pin(board, "r_ilim", "EFUSE_ILIM", GND)


def place_buck(board, key, out, prefix):
    """A 3.3 V AP63203 from the board's 5 V with its datasheet's application circuit."""
    two_pin(board, "c_in", V5, GND)
    buck = board.place(key)
    board.connect(buck, "IN", V5)
    board.connect(buck, "EN", V5)
    board.connect(buck, "GND", GND)
    board.connect(buck, "SW", prefix + "_SW")
    board.connect(buck, "FB", out)
    two_pin(board, "c_bst", prefix + "_BST", prefix + "_SW")
    board.connect(buck, "BST", prefix + "_BST")
    two_pin(board, "l_buck", prefix + "_SW", out)
    for _ in range(BUCK_OUTPUT_CAPS):
        two_pin(board, "c_out", out, GND)


def devkit_lead(board):
    """The USB-A receptacle whose lead feeds the DevKit through its own USB port."""
    usb_a = board.place("usb_a")
    board.connect(usb_a, "VBUS", V5)
    board.connect(usb_a, "GND", GND)
    board.connect(usb_a, "Shield", GND)
    for p in USB_A_DATA:
        board.nc(pin_of(usb_a, p))


def header_component(strip):
    return "strip_header" if strip.harness == "sensor_strip" else "led_header"


def strip_signals(variant, strip, nets, chain):
    """{harness pin name: main-board net or None (unconnected)} for one strip's connector."""
    din, dout = chain if chain is not None else (None, None)
    out = {V5: V5, GND: GND, AGND: AGND, V3_SENSOR: V3_SENSOR, "LED_DIN": din, "LED_DOUT": dout}
    for i, net in enumerate(nets[SELECT_ROLE]):
        out["MUX_S%d" % i] = net
    if strip.mux is not None:
        out["MUX_Z"] = nets[ADC_ROLE][strip.adc]
        out["MUX_EN"] = GND if strip.bank is None else nets[BANK_ROLE][strip.bank]
    else:
        out["MUX_EN"] = None
    return out


def build_strip(variant, strip, library=None):
    library = library or data.parts()
    board = Board(strip.name, "%s: %s" % (variant.title, strip.name), library)
    header = board.place(header_component(strip), Strip="main")
    board.connectors.append((header, "main"))
    names = [p.name for p in header.pins]
    rails = (V5, GND, AGND, V3_SENSOR)
    for rail in rails:
        if rail in names:
            board.net(rail, power=True)
    for p in header.pins:
        if p.name in rails or p.name.startswith("MUX_"):
            p += board.net(p.name)

    if strip.mux is not None:
        sensor_supply(board)
        mux = board.place("mux")
        board.connect(mux, "VCC", V3_SENSOR_F)
        board.connect(mux, "GND", AGND)
        board.connect(mux, "~{E}", "MUX_EN")   # GND on the main board, or a bank's line
        board.connect(mux, "COM", "MUX_Z")
        for s in range(len(variant.pins["mux"]["select"])):
            board.connect(mux, "S%d" % s, "MUX_S%d" % s)
        two_pin(board, "c_dec", V3_SENSOR_F, AGND)
        used = set()
        for channel, loc in strip.sensors:
            sense = "SENSE_" + net_safe(loc)
            sensor = board.place("sensor", Location=loc, Channel=str(channel))
            board.connect(sensor, "VCC", V3_SENSOR_F)
            board.connect(sensor, "GND", AGND)
            board.connect(sensor, "OUT", sense)
            board.connect(mux, "I%d" % channel, sense)
            two_pin(board, "c_sensor", V3_SENSOR_F, AGND, Location=loc)
            used.add(channel)
        for channel in range(data.MUX_CHANNELS):
            if channel not in used:
                board.connect(mux, "I%d" % channel, AGND)    # never a floating input

    if strip.leds:
        two_pin(board, "r_led_din", "LED_DIN", "LED_IN")
        board.connect(header, "LED_DIN", "LED_DIN")
        into = "LED_IN"
        for n, (index, name) in enumerate(strip.leds):
            led = board.place("led", Location=name, Chain=str(index))
            board.connect(led, "VDD", V5)
            board.connect(led, "VSS", GND)
            board.connect(led, "DIN", into)
            last = n == len(strip.leds) - 1
            into = "LED_DOUT" if last else "LED_%d" % (index + 1)
            board.connect(led, "DOUT", into)
            two_pin(board, "c_led", V5, GND, Location=name)
        board.connect(header, "LED_DOUT", "LED_DOUT")
        two_pin(board, "c_strip_bulk", V5, GND)
        if strip.mux is not None:
            # the ribbon beside the multiplexer's output carries the LEDs' mean current only
            two_pin(board, "c_strip_led_bulk", V5, GND)
    else:
        board.nc(pin_of(header, "LED_DIN"))
        board.nc(pin_of(header, "LED_DOUT"))
    return board


def sensor_supply(board):
    """The sensors' 3.3 V at a strip's connector: a ferrite bead, then bulk to AGND."""
    board.net(V3_SENSOR_F, power=True)      # power enters through the bead, as a PWR_FLAG says
    two_pin(board, "fb_sensor", V3_SENSOR, V3_SENSOR_F)
    two_pin(board, "c_strip_analog", V3_SENSOR_F, AGND)


def build_boards(variant, library=None):
    """The main board and every strip of a variant, each its own circuit."""
    library = library or data.parts()
    return [build_main(variant, library)] + [build_strip(variant, s, library)
                                             for s in variant.strips]
