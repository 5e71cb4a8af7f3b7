# The board's supply, simulated from the design data: the USB-C source and its cable, what lies
# in VBUS (fuse, reverse-polarity MOSFET, the eFuse with its soft start, current limit and
# undervoltage lockout), the loads on each rail (the LEDs from the frame the firmware wrote,
# the sensors, multiplexers, card readers, the ESP32, each at its datasheet's current in
# hardware/design/parts.json), the regulators between the rails, and at the end the ESP32's
# 3.3 V from the DevKit's LDO against its brown-out detector (hardware/design/esp32.json).
#
# A design is a plain dict (design_from_data builds it from the data files and a board's maps,
# as the simulator does; hardware/design/power_path.py builds the same from the generated
# circuit, and adds what only the netlist says: the capacitance at attach). Supply evaluates it:
# state() solves the 5 V rail for a given LED current, and the checks below (attach, backfeed,
# ldo, worst_led_ma) are the design's power findings.
#
# Runs in the MicroPython device process (the world asks it on every LED frame) and in CPython:
# a frame costs one sum over its bytes and a quadratic.
import math

from host_tools.sim.files import load_json

RAIL_5V = "+5V"
SIM_DATA = "host_tools/sim/data/supply.json"
TYP = 0
MAX = 1
# how many of a component the board places, by the board's maps (every other one: one)
COUNTED = {"sensor": "sensors", "mux": "muxes", "miso_buffer": "miso_buffers"}
READER_HEADER = "nfc_header"
LED_DATA_PULLDOWN = "r_led_pd"
DVDT_CAP = "c_dvdt"
OK = "ok"
UNDERVOLTAGE = "eFuse undervoltage lockout"
CURRENT_LIMIT = "eFuse current limit"
OVERLOAD = "supply over-current protection"
COLLAPSE = "the input cannot carry the load"
UNITS = {"p": 1e-6, "n": 1e-3, "u": 1.0, "m": 1e3}  # a capacitor's value in uF


class SupplyError(ValueError):
    """A cable or design the model cannot evaluate; the message says which."""


def load_sim_data():
    """The simulator's own supply figures (host_tools/sim/data/supply.json)."""
    return load_json(SIM_DATA)


def capacitance_uf(value):
    """A capacitor's value as parts.json writes it ("100nF", "1000uF 10V") in uF."""
    v = value.split()[0]
    if not v.endswith("F") or v[-2] not in UNITS:
        raise SupplyError("%r is no capacitance" % value)
    return float(v[:-2]) * UNITS[v[-2]]


def awg_mohm_per_m(awg, copper):
    """Resistance of one conductor of that gauge (ASTM B258 diameter, IACS copper)."""
    d_mm = copper["awg36_mm"] * copper["awg_ratio"] ** ((36 - awg) / 39.0)
    return copper["ohm_mm2_per_m"] / (math.pi * d_mm * d_mm / 4.0) * 1000.0


def cable_mohm(cable, parts, sim):
    """Loop resistance (VBUS and GND) of a cable: "kit" (the kit's, parts.json), a name of
    supply.json's cables, or {"awg": n, "m": length}."""
    if cable == "kit":
        return parts["modules"]["usb_c_cable"]["loop_mohm"]
    if type(cable) is str:
        if cable not in sim["cables"]:
            raise SupplyError("cables are kit, %s, or {\"awg\": n, \"m\": length}"
                              % ", ".join(sorted(sim["cables"])))
        cable = sim["cables"][cable]
    return 2 * cable["m"] * awg_mohm_per_m(cable["awg"], sim["copper"]) + \
        sim["cable_contacts_mohm"]


def _add(rails, rail, typ, mx, n):
    t = rails.get(rail)
    if t is None:
        t = [0.0, 0.0]
        rails[rail] = t
    t[TYP] += n * typ
    t[MAX] += n * mx


MODULE_DRAWS = ("supply", "antenna")  # a module's steady draw, and what it draws when switched on


def _loads(parts, counts):
    """{rail: [typ mA, max mA]} of every load but the LEDs."""
    rails = {}
    for key in parts["components"]:
        s = parts["components"][key].get("supply")
        if s is not None and not s.get("firmware_limited"):
            _add(rails, s["rail"], s["typ_ma"], s["max_ma"], counts.get(COUNTED.get(key), 1))
    for key in parts["modules"]:
        mod = parts["modules"][key]
        n = counts["readers"] if mod.get("plugs_into") == READER_HEADER else 1
        for part in MODULE_DRAWS:
            s = mod.get(part)
            if s is not None:
                # at_once: the readers' antenna drivers, one on at a time (the firmware polls)
                _add(rails, s["rail"], s["typ_ma"], s["max_ma"], min(n, s.get("at_once", n)))
    return rails


def _converters(parts):
    """{rail: its regulator} (every regulator of the library is placed on every board)."""
    out = {}
    for group in ("components", "modules"):
        for key in parts[group]:
            c = parts[group][key].get("converter")
            if c is not None:
                out[c["to"]] = {"from": c["from"], "linear": bool(c.get("linear")),
                                "vout": c.get("vout", 0.0), "efficiency": c.get("efficiency", 1.0)}
    return out


def _path(parts):
    """The parts in VBUS between the receptacle and the 5 V rail, the soft start last of
    them: [(key, mOhm, soft start)] by key."""
    out = []
    for key in sorted(parts["components"]):
        p = parts["components"][key].get("path")
        if p is not None:
            out.append((key, p["mohm"], bool(p.get("soft_start"))))
    return out


def _efuse(parts, source_v):
    """The soft-start element's figures, its ramp from its dV/dT capacitor; None without."""
    for key in parts["components"]:
        comp = parts["components"][key]
        if "efuse" in comp:
            e = dict(comp["efuse"])
            c_f = capacitance_uf(parts["components"][DVDT_CAP]["value"]) * 1e-6
            e["ramp_ms"] = e["dvdt_s_per_v_f"] * source_v * c_f * 1000.0
            return e
    return None


def design_from_data(parts, esp, pins, counts):
    """A board's power design from parts.json, esp32.json, its pins.json and its counts
    ({"sensors", "muxes", "leds", "readers", "miso_buffers"}), as the simulator builds it. What only the
    circuit says (the capacitance at attach) is None here."""
    mods = parts["modules"]
    comps = parts["components"]
    devkit = mods["devkitc"]
    source_v = mods["supply"]["v"]
    power = pins["power"]
    return {
        "source_v": source_v,
        "source_ma": mods["supply"]["rating_ma"],
        "path": _path(parts),
        "efuse": _efuse(parts, source_v),
        # a DevKit whose input the design does not name was wired by its 5V pin (its USB
        # port then being the flashing port: a second source)
        "devkit_input": devkit.get("input", "5v_pin"),
        "devkit_lead_mohm": mods["devkit_lead"]["loop_mohm"] if "devkit_lead" in mods else 0,
        "ldo": devkit["ldo"],
        "esp": esp["power"],
        "loads": _loads(parts, counts),
        "converters": _converters(parts),
        "reader_rail": mods["rc522"]["supply"]["rail"],
        "leds": {"n": counts["leds"], "ma_per_channel": power["led_ma_per_channel"],
                 "idle_ma": power["led_idle_ma"], "budget_ma": power["led_budget_ma"]},
        "led_data_held": LED_DATA_PULLDOWN in comps,
        "c_direct_uf": None,
        "c_soft_uf": None,
    }


class Supply:
    """A design fed by a cable (its loop resistance in mOhm)."""

    def __init__(self, design, cable_mohm, sim):
        self.d = design
        self.sim = sim
        self.cable_mohm = cable_mohm
        self.pre_mohm = 0.0    # the path before the soft start: the eFuse's input sees the rest
        self.path_mohm = 0.0
        for _, mohm, is_soft in design["path"]:
            if not is_soft:
                self.pre_mohm += mohm
            self.path_mohm += mohm
        conv = design["converters"]
        self.ldo_rail = None
        for rail in conv:
            if conv[rail]["linear"]:
                self.ldo_rail = rail
        self.static = [self._static(TYP), self._static(MAX)]

    def _static(self, col):
        """(mA on 5 V that do not depend on its voltage, mW the bucks take, mA through the
        DevKit's LDO) at the typical or maximum loads."""
        loads = self.d["loads"]
        lin = loads.get(RAIL_5V, [0.0, 0.0])[col]
        p_mw = 0.0
        for rail in self.d["converters"]:
            c = self.d["converters"][rail]
            load = loads.get(rail, [0.0, 0.0])[col]
            if c["linear"]:
                lin += load
            else:
                p_mw += load * c["vout"] / c["efficiency"]
        ldo_ma = loads.get(self.ldo_rail, [0.0, 0.0])[col] if self.ldo_rail else 0.0
        return lin, p_mw, ldo_ma

    def led_ma(self, buf, bpp):
        """What a frame draws: every LED's controller, and each channel in proportion to its
        duty (pins.json power: the firmware limiter's model of the WS2812B)."""
        leds = self.d["leds"]
        n = len(buf) // bpp
        return n * leds["idle_ma"] + sum(buf) * leds["ma_per_channel"] / 255.0

    def state(self, led_ma, col=TYP):
        """The rails with led_ma in the LEDs: {vbus_v (at the board's receptacle), efuse_in_v,
        rail_5v_v, esp32_v, input_ma, status, brownout}."""
        lin, p_mw, ldo_ma = self.static[col]
        lin += led_ma
        r = (self.cable_mohm + self.path_mohm) / 1000.0
        vs = self.d["source_v"]
        # V5 = Vs - R (I_lin + P / V5): the bucks draw more as the rail sags
        a = vs - r * lin / 1000.0
        disc = a * a - 4.0 * r * p_mw / 1000.0
        status = OK
        if disc < 0 or a <= 0:
            status, v5, i_in = COLLAPSE, 0.0, 0.0
        else:
            v5 = (a + math.sqrt(disc)) / 2.0
            i_in = lin + p_mw / v5
            status = self._protection(i_in, vs)
            if status != OK:
                v5 = 0.0
        vbus = vs - self.cable_mohm * i_in / 1e6
        out = {"vbus_v": vbus, "efuse_in_v": vs - (self.cable_mohm + self.pre_mohm) * i_in / 1e6,
               "rail_5v_v": v5, "input_ma": i_in, "led_ma": led_ma, "status": status}
        out["esp32_v"] = self.esp32_v(v5, ldo_ma)
        out["brownout"] = out["esp32_v"] < self.d["esp"]["brownout_v"]
        return out

    def _protection(self, i_in, vs):
        """What trips at an input current: the eFuse's limit and lockout, or the supply's."""
        e = self.d["efuse"]
        if e is not None:
            if i_in > e["ilim_ma"]:
                return CURRENT_LIMIT
            if vs - (self.cable_mohm + self.pre_mohm) * i_in / 1e6 < e["uv_v"]:
                return UNDERVOLTAGE
        if i_in > self.d["source_ma"]:
            return OVERLOAD
        return OK

    def esp32_v(self, v5, ldo_ma):
        """The ESP32's supply from the DevKit's LDO, fed from the 5 V rail (through the lead
        into its USB port when the design feeds it so)."""
        if v5 <= 0:
            return 0.0
        ldo = self.d["ldo"]
        v_in = v5 - self.d["devkit_lead_mohm"] * ldo_ma / 1e6
        drop = ldo["dropout_v_light"] + (ldo["dropout_v_rated"] - ldo["dropout_v_light"]) * \
            ldo_ma / ldo["rated_ma"]
        v = v_in - drop
        return ldo["vout"] if v > ldo["vout"] else (v if v > 0 else 0.0)

    # -- the design's findings -------------------------------------------------------------
    def worst_led_ma(self):
        """The most the LEDs can draw: the firmware's budget while their data line is held
        low at reset; every LED full white when it floats (the chain latches noise)."""
        leds = self.d["leds"]
        if self.d["led_data_held"]:
            return leds["budget_ma"]
        return leds["n"] * (3 * leds["ma_per_channel"] + leds["idle_ma"])

    def attach(self):
        """The supply's view of the board at attach: the capacitance it meets at once, the
        first instant's current into it (through the cable and the path up to the soft
        start) and, behind a soft start, the current while the ramp charges the rest."""
        c_direct = self.d["c_direct_uf"]
        if c_direct is None:
            raise SupplyError("the capacitance at attach is the circuit's: power_path.design")
        vs = self.d["source_v"]
        out = {"c_direct_uf": c_direct, "limit_uf": self.sim["sink_bulk_uf_max"],
               "peak_ma": vs / ((self.cable_mohm + self.pre_mohm) / 1e6)}
        e = self.d["efuse"]
        if e is not None:
            out["ramp_ms"] = e["ramp_ms"]
            out["ramp_ma"] = self.d["c_soft_uf"] * vs / e["ramp_ms"]
            out["ok"] = c_direct <= out["limit_uf"] and out["ramp_ma"] < e["ilim_ma"]
        else:
            out["ok"] = c_direct <= out["limit_uf"]
        return out

    def backfeed(self):
        """The current one source drives into the other when a laptop feeds the DevKit's USB
        port while the board's supply is on: None when the design never joins them."""
        if self.d["devkit_input"] == "usb":
            return None
        lap = self.sim["laptop_port"]
        dv = max(lap["v_max"] - self.d["source_v"], self.d["source_v"] - lap["v_min"])
        r = (lap["cable_mohm"] + self.cable_mohm + self.path_mohm) / 1000.0
        return {"ma": dv / r * 1000.0, "volts_apart": dv}

    def ldo(self):
        """The DevKit's LDO at the most its rail draws, from the supply's nominal voltage (no
        cable drop: the most it has to burn): {ma, watts, allowed_w, readers_on_it}."""
        ldo = self.d["ldo"]
        _, _, ldo_ma = self.static[MAX]
        watts = (self.d["source_v"] - ldo["vout"]) * ldo_ma / 1000.0
        allowed = (ldo["tj_max_c"] - ldo["ambient_c"]) / float(ldo["theta_ja_c_per_w"])
        return {"ma": ldo_ma, "watts": watts, "allowed_w": allowed,
                "readers_on_it": self.d["reader_rail"] == self.ldo_rail}
