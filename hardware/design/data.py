"""The design's data: the parts library, the ESP32's pin table, the GPIO roles, and the board
variants (each a folder under hardware/variants/ with its pin, sensor and LED maps)."""
import json
import os

DESIGN_DIR = os.path.dirname(os.path.abspath(__file__))
HARDWARE_DIR = os.path.dirname(DESIGN_DIR)
VARIANTS_DIR = os.path.join(HARDWARE_DIR, "variants")
MUX_CHANNELS = 16


class DesignError(ValueError):
    """The data describes a board that cannot be built; the message says where."""


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def parts():
    return load_json(os.path.join(DESIGN_DIR, "parts.json"))


def esp32():
    return load_json(os.path.join(DESIGN_DIR, "esp32.json"))


def roles():
    return load_json(os.path.join(DESIGN_DIR, "roles.json"))["roles"]


def gpio_uses(pins, role_table=None):
    """[(role path, index or None, gpio)] for every GPIO entry of a pins.json, in role order.
    A role whose path is missing from pins.json is an error: the table and the map disagree."""
    out = []
    for path, role in (role_table or roles()).items():
        node = pins
        for key in path.split("."):
            if not isinstance(node, dict) or key not in node:
                if role.get("optional"):
                    node = None     # a board without this part (one card reader)
                    break
                raise DesignError("pins.json has no %s (roles.json names it)" % path)
            node = node[key]
        if node is None:
            continue
        if isinstance(node, list):
            for i, gpio in enumerate(node):
                out.append((path, i, gpio))
        else:
            out.append((path, None, node))
    return out


def role_net(role, index):
    return role["net"].format(i=index) if index is not None else role["net"]


class Strip:
    """One board hanging off the main board: a sensor strip (one multiplexer, its sensors and the
    LEDs at the same locations) or an LED-only strip (LEDs with no sensor under them)."""

    def __init__(self, name, harness, mux=None):
        self.name = name
        self.harness = harness
        self.mux = mux
        self.sensors = []   # [(channel, location)] in channel order
        self.leds = []      # [(chain index, name)] in chain order

    def __repr__(self):
        return "Strip(%s)" % self.name


class Variant:
    """A board variant: its maps and how its sensors and LEDs fall onto strips."""

    def __init__(self, folder, pins=None, sensors=None, leds=None):
        self.folder = folder
        self.config = load_json(os.path.join(folder, "variant.json"))
        self.name = self.config["name"]
        self.title = self.config["title"]
        maps = os.path.normpath(os.path.join(folder, self.config.get("maps", ".")))
        self.maps_dir = maps
        self.pins = pins if pins is not None else load_json(os.path.join(maps, "pins.json"))
        self.sensors = (sensors if sensors is not None
                        else load_json(os.path.join(maps, "sensors.json"))["sensors"])
        self.leds = leds if leds is not None else load_json(os.path.join(maps, "leds.json"))["leds"]
        self.strips = self._strips()

    def _strips(self):
        nmux = len(self.pins["mux"]["adc"])
        strips = [Strip("strip-%d" % m, "sensor_strip", mux=m) for m in range(nmux)]
        strip_of_loc = {}
        seen = set()
        for s in self.sensors:
            m, ch, loc = s["mux"], s["channel"], s["loc"]
            if not (0 <= m < nmux):
                raise DesignError("sensor %s: mux %r is not one of the %d in pins.json mux.adc"
                                  % (loc, m, nmux))
            if not (0 <= ch < MUX_CHANNELS):
                raise DesignError("sensor %s: channel %r is not 0..%d" % (loc, ch, MUX_CHANNELS - 1))
            if (m, ch) in seen:
                raise DesignError("sensor %s: mux %d channel %d is taken twice" % (loc, m, ch))
            if loc in strip_of_loc:
                raise DesignError("sensor %s appears twice in sensors.json" % loc)
            seen.add((m, ch))
            strip_of_loc[loc] = strips[m]
            strips[m].sensors.append((ch, loc))
        for st in strips:
            st.sensors.sort()
        led_only = Strip(self.config["led_only_strip"], "led_strip")
        for i, name in enumerate(self.leds):
            strip_of_loc.get(name, led_only).leds.append((i, name))
        if led_only.leds:
            strips.append(led_only)
        return strips

    def led_runs(self):
        """[(strip, first chain index, last chain index)]: the chain cut where it changes strip.
        Each strip's connector carries one DIN and one DOUT, so a strip may hold only one run."""
        runs = []
        owner = {}
        for st in self.strips:
            for i, _ in st.leds:
                owner[i] = st
        for i in range(len(self.leds)):
            st = owner[i]
            if runs and runs[-1][0] is st and runs[-1][2] == i - 1:
                runs[-1] = (st, runs[-1][1], i)
            else:
                if any(r[0] is st for r in runs):
                    raise DesignError(
                        "LED chain re-enters %s at index %d (leds.json): its connector carries one "
                        "chain run; reorder leds.json so each strip's LEDs are consecutive"
                        % (st.name, i))
                runs.append((st, i, i))
        return runs


def variant_folders():
    """Every board variant the project has: hardware/variants/*/variant.json, sorted by name."""
    out = []
    for name in sorted(os.listdir(VARIANTS_DIR)):
        folder = os.path.join(VARIANTS_DIR, name)
        if os.path.exists(os.path.join(folder, "variant.json")):
            out.append(folder)
    return out


def variants():
    return [Variant(f) for f in variant_folders()]
