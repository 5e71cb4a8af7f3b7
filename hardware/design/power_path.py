"""The power path read off the generated circuit, for the supply model (host_tools/sim/
supply.py): the design dict the simulator builds from the data files, here built from the
netlist itself (which parts VBUS passes through, what capacitance the supply meets at attach,
where the DevKit and the card readers draw from, whether the LED data line is held at reset),
and the design's power findings. `make hardware` reports them; tests hold the simulator's
design equal to this one."""
from hardware.design import circuit, data, power
from host_tools.sim import supply

CAPACITORS = ("Device:C", "Device:C_Polarized")
RESISTORS = ("Device:R",)
USB_VBUS_PIN = circuit.USB_VBUS[0]
DEVKIT_5V_PIN = "5V"
READER_SUPPLY_PIN = "3.3V"
EFUSE_DVDT_PIN = "dV/dT"
KIT_CABLE = "kit"


def wired(pin):
    return pin.net is not None and pin.net is not pin.part.circuit.NC


def keys_of(board):
    return {id(part): key for part, key in board.placed}


def parts_of(board, key):
    return [p for p, k in board.placed if k == key]


def symbol(library, key):
    return library["packages"][library["components"][key]["package"]]["symbol"]


def vbus_path(main, library):
    """([(component, mOhm, soft start)] from the USB-C receptacle's VBUS up to and including
    the first soft-start element, {net names reached before it})."""
    keys = keys_of(main)
    [usb] = parts_of(main, "usb_c")
    start = circuit.pin_of(usb, USB_VBUS_PIN).net
    reached = {start.name}
    frontier = [start]
    path = []
    while frontier:
        net = frontier.pop()
        for pin in net.pins:
            key = keys.get(id(pin.part))
            p = library["components"].get(key, {}).get("path")
            if p is None or pin.num not in p["between"] or any(k == key for k, _, _ in path):
                continue
            path.append((key, p["mohm"], bool(p.get("soft_start"))))
            if p.get("soft_start"):
                continue
            other = [q for q in pin.part.pins if q.num in p["between"] and q is not pin][0]
            if other.net.name not in reached:
                reached.add(other.net.name)
                frontier.append(other.net)
    return path, reached


def capacitance_uf(boards, library, nets):
    """The capacitance between any of `nets` (by name, on every board: the harnesses carry
    the rails) and GND."""
    total = 0.0
    for board in boards:
        for part, key in board.placed:
            if symbol(library, key) not in CAPACITORS:
                continue
            names = {p.net.name for p in part.pins if wired(p)}
            if circuit.GND in names and names & nets:
                total += supply.capacitance_uf(library["components"][key]["value"])
    return total


def held_low(main, library, net):
    """Whether a resistor ties this net to GND."""
    for part, key in main.placed:
        if symbol(library, key) in RESISTORS:
            names = {p.net.name for p in part.pins if wired(p)}
            if names == {net.name, circuit.GND}:
                return True
    return False


def soft_start_ramp(main, library, efuse_key, source_v):
    """The soft start's figures, its ramp from the capacitor on its dV/dT pin."""
    figures = dict(library["components"][efuse_key]["efuse"])
    [efuse] = parts_of(main, efuse_key)
    net = circuit.pin_of(efuse, EFUSE_DVDT_PIN).net
    keys = keys_of(main)
    [c] = [p.part for p in net.pins if p.part is not efuse]
    c_f = supply.capacitance_uf(library["components"][keys[id(c)]]["value"]) * 1e-6
    figures["ramp_ms"] = figures["dvdt_s_per_v_f"] * source_v * c_f * 1000.0
    return figures


def devkit_input(main):
    for key in ("devkit_j2", "devkit_j3"):
        for s in parts_of(main, key):
            for p in s.pins:
                if p.name == DEVKIT_5V_PIN and wired(p):
                    return "5v_pin"
    return "usb" if parts_of(main, "usb_a") else "none"


def reader_rail(main):
    rails = {circuit.pin_of(h, READER_SUPPLY_PIN).net.name for h in parts_of(main, "nfc_header")}
    if len(rails) != 1:
        raise data.DesignError("the card readers draw from %s: one rail expected" % sorted(rails))
    return rails.pop()


def loads(budget):
    out = {}
    for line in budget.lines:
        if line.kind == power.LOAD:
            t = out.setdefault(line.rail, [0.0, 0.0])
            t[0] += line.typ_ma
            t[1] += line.max_ma
    return out


def converters(library, placed):
    out = {}
    for key, comp in library["components"].items():
        if placed.get(key) and "converter" in comp:
            out[comp["converter"]["to"]] = comp["converter"]
    for mod in library["modules"].values():
        if placed.get(mod.get("plugs_into")) and "converter" in mod:
            out[mod["converter"]["to"]] = mod["converter"]
    return {rail: {"from": c["from"], "linear": bool(c.get("linear")), "vout": c.get("vout", 0.0),
                   "efficiency": c.get("efficiency", 1.0)} for rail, c in out.items()}


def design(variant, library=None, boards=None):
    """The variant's power design (supply.design_from_data's dict) from its circuit."""
    library = library or data.parts()
    boards = boards if boards is not None else circuit.build_boards(variant, library)
    main = boards[0]
    placed = power.counts(boards)
    mods = library["modules"]
    source_v = mods["supply"]["v"]
    path, reached = vbus_path(main, library)
    soft = [k for k, _, s in path if s]
    [shifter] = parts_of(main, "shifter")
    feed = devkit_input(main)
    pw = variant.pins["power"]
    return {
        "source_v": source_v,
        "source_ma": mods["supply"]["rating_ma"],
        "path": path,
        "efuse": soft_start_ramp(main, library, soft[0], source_v) if soft else None,
        "devkit_input": feed,
        "devkit_lead_mohm": mods["devkit_lead"]["loop_mohm"] if feed == "usb" else 0,
        "ldo": mods["devkitc"]["ldo"],
        "esp": data.esp32()["power"],
        "loads": loads(power.budget(variant, library, boards)),
        "converters": converters(library, placed),
        "reader_rail": reader_rail(main),
        "leds": {"n": placed.get("led", 0), "ma_per_channel": pw["led_ma_per_channel"],
                 "idle_ma": pw["led_idle_ma"], "budget_ma": pw["led_budget_ma"]},
        "led_data_held": held_low(main, library,
                                  circuit.pin_of(shifter, circuit.SHIFTER_USED + "A").net),
        "c_direct_uf": capacitance_uf(boards, library, reached),
        "c_soft_uf": capacitance_uf(boards, library, {circuit.V5}) if soft else 0.0,
    }


def model(design_, library=None, cable=KIT_CABLE):
    """The supply model of a design, fed through a cable (the kit's by default)."""
    library = library or data.parts()
    sim = supply.load_sim_data()
    return supply.Supply(design_, supply.cable_mohm(cable, library, sim), sim)


def findings(design_, library=None):
    """[(finding, what is wrong)] of a design on the kit's supply and cable; empty when its
    power path is sound."""
    m = model(design_, library)
    out = []
    feed = m.backfeed()
    if feed is not None:
        out.append(("two sources", "the DevKit's 5V pin is on the board's 5 V while its USB port "
                    "takes a laptop: the two supplies, %.2f V apart, drive %.0f mA into each "
                    "other" % (feed["volts_apart"], feed["ma"])))
    att = m.attach()
    if not att["ok"]:
        out.append(("inrush", "%.0f uF on VBUS at attach (USB Type-C allows %.0f uF without "
                    "inrush control): %.1f A at the first instant"
                    % (att["c_direct_uf"], att["limit_uf"], att["peak_ma"] / 1000.0)))
    if not design_["led_data_held"]:
        out.append(("LED data floats", "nothing holds the LED data line while the ESP32 is in "
                    "reset: the chain latches noise, up to %.0f mA" % m.worst_led_ma()))
    ldo = m.ldo()
    if ldo["readers_on_it"]:
        out.append(("readers on the LDO", "the card readers draw from the DevKit's LDO, the "
                    "ESP32's own supply: their RF pulses load it"))
    if ldo["watts"] > ldo["allowed_w"]:
        out.append(("LDO dissipation", "the DevKit's LDO burns %.2f W at %.0f mA, over the "
                    "%.2f W its package allows" % (ldo["watts"], ldo["ma"], ldo["allowed_w"])))
    st = m.state(m.worst_led_ma())
    bod = design_["esp"]["brownout_v"] + design_["esp"]["brownout_tolerance_v"]
    if st["esp32_v"] < bod:
        out.append(("brown-out", "at %.0f mA in the LEDs the ESP32's supply falls to %.2f V "
                    "(%s), under its brown-out detector's %.2f V"
                    % (st["led_ma"], st["esp32_v"], st["status"], bod)))
    return out
