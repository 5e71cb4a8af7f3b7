# The Agent Avenue board, simulated (hardware/variants/agent-avenue): 14 spaces with a hall
# sensor each on one multiplexer, two pawns whose magnets stand with opposite poles down, three
# MFRC522 readers (up, down, tap) on one SPI bus with their own chip selects and a shared reset,
# the LED chain, two buttons and a buzzer. Everything else (board time, ADC, LEDs, buttons,
# faults, hands on pawns) is the Agent DOG world's: this is a World with other maps.
from shared_rules.rng import Rng
from host_tools.sim import world as W
from host_tools.sim.nfc_chip import Mfrc522, Tag

VARIANT = "hardware/variants/agent-avenue/"
DEFAULT_READER = "tap"  # a card op naming no reader: the pad for everything but the play


def _load(folder, name):
    """A map of the variant: folder is absolute, or relative to the project's root."""
    if folder.startswith("/"):
        import json
        with open(folder.rstrip("/") + "/" + name) as f:
            return json.load(f)
    return W.load_json(folder.rstrip("/") + "/" + name)


class ReaderView:
    """What one reader chip sees of the world: its own pad's tags, the shared board clock,
    the NFC faults of every reader and of its own, and the world's random numbers."""

    def __init__(self, world, cs, rst, name):
        self.world = world
        self.name = name
        self.pins = {"nfc": {"cs": cs, "rst": rst}}
        self.tags = []
        self.rng = world.rng

    def advance_us(self, us):
        self.world.advance_us(us)

    def nfc_corrupt(self):
        return self.world.nfc_corrupt(self.name)


class Bus:
    """SPI2 with several MFRC522 on it: pin changes reach every chip (each knows its chip
    select and the shared reset); a byte goes to the one selected."""

    def __init__(self, chips):
        self.chips = chips

    def pin(self, gpio, value):
        for c in self.chips:
            c.pin(gpio, value)

    def xfer(self, byte):
        out = 0xFF
        for c in self.chips:
            if c.selected:
                out = c.xfer(byte)
        return out


class AvenueWorld(W.World):
    ranked = False  # two pawns: nothing to calibrate for ranks
    def __init__(self, seed=1, folder=VARIANT):
        W._current[0] = self
        self.rng = Rng(seed)
        self.phys = W.load_json("host_tools/sim/data/physics.json")
        self.pins = _load(folder, "pins.json")
        self.variant = _load(folder, "variant.json")
        sensors = _load(folder, "sensors.json")["sensors"]
        self.leds_map = _load(folder, "leds.json")["leds"]
        self.clock_us = 0
        self.cpu_hz = 160000000
        self.locs = [s["loc"] for s in sensors]
        self.index = {}
        for i in range(len(self.locs)):
            self.index[self.locs[i]] = i
        self.sensor_at = [[-1] * 16 for _ in self.pins["mux"]["adc"]]
        for i in range(len(sensors)):
            self.sensor_at[sensors[i]["mux"]][sensors[i]["channel"]] = i
        n = len(self.locs)
        self.field = [self.phys["field_mt"]["space"]] * n
        self.offset_v = [self._gauss() * self.phys["quiescent_offset_sigma_mv"] / 1000.0
                         for _ in range(n)]
        tol = self.phys["sensitivity_tolerance"]
        self.sens = [self.phys["sensitivity_mv_per_mt"] / 1000.0 * (1.0 + tol * self._gauss())
                     for _ in range(n)]
        # pawns: the pole facing down is the variant's: reads "upside_down" = north down
        self.pieces = {}
        self.polarity = {}
        self.magnet = {}  # field factor per piece: every pawn's magnet is the same
        self.on = [None] * n
        pawns = self.variant["pawns"]
        for name in sorted(pawns):
            self.pieces[name] = [-1, False]
            self.polarity[name] = -1.0 if pawns[name]["reads"] == "upside_down" else 1.0
            self.magnet[name] = 1.0
            self._put(name, self.index[pawns[name]["start"]], False)
        self.select = 0
        self.select_bits = {}
        sel = self.pins["mux"]["select"]
        for b in range(len(sel)):
            self.select_bits[sel[b]] = b
        # one bank of multiplexers, no enable lines (World models the DOG boards' two banks)
        self.bank_bits = {}
        self.bank_on = []
        self.switched_us = 0
        self.last_sensor = {}
        self.adc_mux = {}
        adc = self.pins["mux"]["adc"]
        self.nadc = len(adc)
        for m in range(len(adc)):
            self.adc_mux[adc[m]] = m
        self.faults = []
        self.last_read = [0] * n
        self.schedule = []
        self._seq = 0
        self.buttons = {}
        self.button_pins = {}
        for name in ("confirm", "back"):
            self.button_pins[self.pins["buttons"][name]] = name
            self.buttons[name] = False
        self.led_colours = {}
        self.led_writes = 0
        self.buzzer = []
        nfc = self.pins["nfc"]
        self.reader_names = list(nfc["readers"])
        cs = [nfc["cs"]] + list(nfc["more_cs"])
        self.views = {}
        chips = []
        for j in range(len(cs)):
            v = ReaderView(self, cs[j], nfc["rst"], self.reader_names[j])
            self.views[self.reader_names[j]] = v
            chips.append(Mfrc522(v))
        self.nfc = Bus(chips)
        self.tags = []  # the Agent DOG world's one reader: unused here
        self.adc_reads = 0
        self.hook = None
        self.wait_until = 0
        self.deck = self._deck()
        self._init_power()

    def volts(self, i):
        name = self.on[i]
        v = W.World.volts(self, i)
        if name is not None and self.polarity[name] < 0:
            # the same field, the other pole: mirror the output about the sensor's idle level
            mid = self.phys["vcc"] / 2 + self.offset_v[i]
            v = 2 * mid - v
            lo = self.phys["output_min_v"]
            hi = self.phys["output_max_v"]
            v = lo if v < lo else hi if v > hi else v
        return v

    def _reader(self, reader):
        r = DEFAULT_READER if reader is None else reader
        if r not in self.views:
            raise W.SimError("readers are %s" % ", ".join(self.reader_names))
        return self.views[r]

    def card(self, uid, reader=None):
        """Puts a card with that 7-byte UID on a pad (default: tap) until card_off."""
        v = self._reader(reader)
        if type(uid) is str:
            uid = bytes([int(uid[j:j + 2], 16) for j in range(0, len(uid), 2)])
        if len(uid) != 7:
            raise W.SimError("an NTAG213 UID has 7 bytes")
        v.tags.append(Tag(uid))

    def card_off(self, reader=None):
        """Takes the cards off one pad, or off every pad."""
        if reader is None:
            for name in self.views:
                self.views[name].tags = []
        else:
            self._reader(reader).tags = []

    def _deck(self):
        """The 53 physical cards: 38 agents and 15 black-market cards, with sticker UIDs."""
        spec = W.load_json("shared_rules/data/agent-avenue-cards.json")
        out = []
        seen = {}
        r = Rng(7933)  # the same box of cards whatever the board's seed
        kinds = [(a["name"], a["copies"]) for a in spec["agents"]] + \
            [(m["name"], 1) for m in spec["market"]]
        for name, copies in kinds:
            for _ in range(copies):
                while True:
                    uid = "04" + "".join(["%02x" % r.below(256) for _ in range(6)])
                    if uid not in seen and uid[6:8] != "88":
                        break
                seen[uid] = 1
                out.append((uid, name))
        return out

    def snapshot(self):
        tags = {}
        for name in self.reader_names:
            tags[name] = ["".join(["%02x" % b for b in t.uid]) for t in self.views[name].tags]
        return {"pieces": self.world(), "tags": tags}

    def restore(self, snap):
        for name in self.pieces:
            self._put(name, -1, False)
        for name in snap["pieces"]:
            at = snap["pieces"][name]["at"]
            self._put(name, self.index[at] if at is not None else -1,
                      snap["pieces"][name]["upside_down"])
        self.card_off()
        for reader in snap["tags"]:
            for uid in snap["tags"][reader]:
                self.card(uid, reader)
