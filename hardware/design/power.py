"""The power budget, computed from the parts the circuit places (the BOM) and each part's supply
current from its datasheet (parts.json), per rail, up to the 5 V USB-C input.

Typical: every part at its datasheet's typical figure; maximum: at its maximum. The LEDs count at
the firmware limiter's budget in both (pins.json power.led_budget_ma): the limiter lets any scene
reach it, and never more. hardware/README.md carries the rendered table; a test keeps it equal."""
from hardware.design import data

INPUT_RAIL = "+5V"
CHANNELS_PER_LED = 3


LOAD = "load"
LEDS = "leds"
CONVERTER = "converter"


class Line:
    """One consumer of a rail (kind LOAD; LEDS for the firmware-limited LEDs), or a regulator's
    draw on the rail that feeds it (kind CONVERTER)."""

    def __init__(self, name, qty, rail, typ_ma, max_ma, source, kind=LOAD):
        self.name = name
        self.qty = qty
        self.rail = rail
        self.typ_ma = typ_ma
        self.max_ma = max_ma
        self.source = source
        self.kind = kind


class Budget:
    def __init__(self, lines, rails, input_typ_ma, input_max_ma, rating_ma):
        self.lines = lines
        self.rails = rails              # {rail: (typ, max)} of the loads on it
        self.input_typ_ma = input_typ_ma
        self.input_max_ma = input_max_ma
        self.rating_ma = rating_ma


def counts(boards):
    """{component key: how many the boards place} (the BOM's quantities)."""
    out = {}
    for board in boards:
        for _, key in board.placed:
            out[key] = out.get(key, 0) + 1
    return out


def led_line(variant, comp, qty):
    pw = variant.pins["power"]
    per_led = CHANNELS_PER_LED * pw["led_ma_per_channel"] + pw["led_idle_ma"]
    capped = min(qty * per_led, pw["led_budget_ma"])
    return Line("%s x %d (firmware limit)" % (comp["value"], qty), qty, comp["supply"]["rail"],
                capped, capped,
                "%s; %d x %d mA = %d mA unlimited, capped at led_budget_ma = %d mA"
                % (comp["supply"]["source"], qty, per_led, qty * per_led, pw["led_budget_ma"]),
                LEDS)


def module_line(mod, s, q):
    """A module's draw on its rail: q modules, of which s["at_once"] at most draw at once
    (the readers' antenna drivers: one on at a time)."""
    on = min(q, s.get("at_once", q))
    label = s.get("label", mod["value"])
    label = label if q == 1 else "%s x %d" % (label, q)
    if on < q:
        label += ", %d on at a time" % on
    return Line(label, q, s["rail"], on * s["typ_ma"], on * s["max_ma"], s["source"])


def budget(variant, library=None, boards=None):
    library = library or data.parts()
    if boards is None:
        from hardware.design import circuit
        boards = circuit.build_boards(variant, library)
    n = counts(boards)
    lines = []
    converters = []
    for key in sorted(library["components"]):
        comp = library["components"][key]
        if n.get(key) and "supply" in comp:
            if comp["supply"].get("firmware_limited"):
                lines.append(led_line(variant, comp, n[key]))
            else:
                s = comp["supply"]
                label = s.get("label", comp["value"])
                lines.append(Line("%s x %d" % (label, n[key]), n[key], s["rail"],
                                  n[key] * s["typ_ma"], n[key] * s["max_ma"], s["source"]))
        if n.get(key) and "converter" in comp:
            converters.append((comp["value"], comp["converter"]))
    for key in sorted(library["modules"]):
        mod = library["modules"][key]
        if n.get(mod.get("plugs_into")):
            q = n[mod["plugs_into"]]    # one module per header it plugs into
            for part in ("supply", "antenna"):
                if part in mod:
                    lines.append(module_line(mod, mod[part], q))
            if "converter" in mod:
                converters.append((mod["value"], mod["converter"]))
    rails = {}
    for line in lines:
        t, m = rails.get(line.rail, (0.0, 0.0))
        rails[line.rail] = (t + line.typ_ma, m + line.max_ma)
    # Regulators draw on their input rail what their output rail's loads need.
    for name, conv in converters:
        load_t, load_m = rails.get(conv["to"], (0.0, 0.0))
        if conv.get("linear"):
            factor = 1.0
            how = "linear: input current = output current"
        else:
            factor = conv["vout"] / (conv["vin"] * conv["efficiency"])
            how = "%.1f V x I / (%.1f V x %.0f %%)" % (conv["vout"], conv["vin"],
                                                       100 * conv["efficiency"])
        line = Line("%s feeding %s" % (name, conv["to"]), 1, conv["from"], load_t * factor,
                    load_m * factor, "%s; %s" % (how, conv["source"]), CONVERTER)
        lines.append(line)
        t, m = rails.get(conv["from"], (0.0, 0.0))
        rails[conv["from"]] = (t + line.typ_ma, m + line.max_ma)
    total_t, total_m = rails[INPUT_RAIL]
    return Budget(lines, rails, total_t, total_m, library["modules"]["supply"]["rating_ma"])


def fmt(ma):
    if ma >= 10:
        return "%.0f" % ma
    if ma >= 1:
        return "%.1f" % ma
    return "%.2f" % ma


RAIL_ORDER = ("+3V3_SENSOR", "+3V3_NFC", "+3V3_ESP", "+5V")


def render(b):
    """The budget as the Markdown table hardware/README.md carries (then the figures' sources)."""
    out = ["| consumer | rail | typical mA | maximum mA |", "|---|---|---|---|"]
    for rail in RAIL_ORDER:
        for line in b.lines:
            if line.rail == rail:
                out.append("| %s | %s | %s | %s |" % (line.name, rail, fmt(line.typ_ma),
                                                     fmt(line.max_ma)))
        if rail in b.rails:
            t, m = b.rails[rail]
            out.append("| **%s total** | %s | **%s** | **%s** |" % (rail, rail, fmt(t), fmt(m)))
    out.append("| **USB-C input, 5 V** | supply rated %s mA | **%s** (%.0f %% of it) | **%s** "
               "(%.0f %% of it) |" % (fmt(b.rating_ma), fmt(b.input_typ_ma),
                                      100 * b.input_typ_ma / b.rating_ma, fmt(b.input_max_ma),
                                      100 * b.input_max_ma / b.rating_ma))
    out.append("")
    out.append("Figures from:")
    out.append("")
    for rail in RAIL_ORDER:
        for line in b.lines:
            if line.rail == rail:
                out.append("- %s: %s." % (line.name, line.source.rstrip(".")))
    return "\n".join(out) + "\n"
