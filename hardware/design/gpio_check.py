"""Checks every GPIO of a pins.json against the ESP32's restrictions (esp32.json, from the
ESP32 datasheet and the DevKitC guide) and against what its circuit does (roles.json).

Returns a list of problems, one sentence each, naming the pins.json entry; empty when the pin map
is safe to wire."""
from hardware.design import data

ANALOG_OK = "ADC1"


def _label(path, index, gpio):
    return "%s%s = GPIO%s" % (path, "" if index is None else "[%d]" % index, gpio)


def header_gpios(esp):
    """GPIO numbers the ESP32-DevKitC brings out on its headers."""
    out = set()
    for names in esp["devkitc"].values():
        for name in names:
            if name.startswith("GPIO"):
                out.add(int(name[len("GPIO"):]))
    return out


def check(pins, esp=None, role_table=None):
    esp = esp or data.esp32()
    role_table = role_table or data.roles()
    table = esp["gpio"]
    on_header = header_gpios(esp)
    problems = []
    users = {}
    for path, index, gpio in data.gpio_uses(pins, role_table):
        role = role_table[path]
        label = _label(path, index, gpio)
        if not isinstance(gpio, int) or isinstance(gpio, bool) or str(gpio) not in table:
            problems.append("%s: the ESP32 has no such GPIO" % label)
            continue
        users.setdefault(gpio, []).append(label)
        info = table[str(gpio)]
        if "flash" in info:
            problems.append("%s: wired to the module's SPI flash (%s); using it stops the chip"
                            % (label, info["flash"]))
            continue
        if "console" in info:
            problems.append("%s: the REPL's UART (%s) to the DevKit's USB bridge, which flash, "
                            "deploy and the console use" % (label, info["console"]))
            continue
        if gpio not in on_header:
            problems.append("%s: not brought out on the ESP32-DevKitC's headers" % label)
        direction = role["direction"]
        if direction == "output" and info.get("input_only"):
            problems.append("%s: input only (GPIO34-39 have no output driver), but %s drives it"
                            % (label, path))
        if role.get("pull") and info.get("input_only"):
            problems.append("%s: needs the internal pull-%s; GPIO34-39 have no internal pulls"
                            % (label, role["pull"]))
        if direction == "analog":
            adc = info.get("adc")
            if adc is None:
                problems.append("%s: an analog read on a pin with no ADC" % label)
            elif not adc.startswith(ANALOG_OK):
                problems.append("%s: an analog read on %s; ADC2 stops working once Wi-Fi runs, "
                                "use an ADC1 pin (GPIO32-39)" % (label, adc))
        strap = esp["strapping"].get(str(gpio))
        if strap is not None:
            bad = [lv for lv in role["reset_levels"] if lv not in strap["allowed_at_reset"]]
            if bad:
                problems.append("%s: a strapping pin, and its circuit (%s) can hold it %s at "
                                "reset: %s" % (label, role["why"], " or ".join(bad), strap["why"]))
    for gpio in sorted(users):
        if len(users[gpio]) > 1:
            problems.append("GPIO%d is used %d times: %s"
                            % (gpio, len(users[gpio]), ", ".join(users[gpio])))
    return problems
