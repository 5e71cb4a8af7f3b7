# The Agent Avenue board, simulated (hardware/variants/agent-avenue): 14 spaces with a hall
# sensor each on one multiplexer, two pawns whose magnets stand with opposite poles down, three
# MFRC522 readers (up, down, tap) on one SPI bus with their own chip selects and a shared reset
# (host_tools/sim/nfc_chip.py: the pads, the discard pile and the fields as designed), the LED
# chain, two buttons and a buzzer. Everything else (board time, ADC, LEDs, buttons,
# faults, hands on pawns) is the Agent DOG world's: this is a World with other maps.
from shared_rules.rng import Rng
from host_tools.sim import world as W
from host_tools.sim import nfc_chip

VARIANT = "hardware/variants/agent-avenue/"
DEFAULT_READER = "tap"  # a card op naming no reader: the pad for everything but the play


def _load(folder, name):
    """A map of the variant: folder is absolute, or relative to the project's root."""
    if folder.startswith("/"):
        import json
        with open(folder.rstrip("/") + "/" + name) as f:
            return json.load(f)
    return W.load_json(folder.rstrip("/") + "/" + name)


class AvenueWorld(W.World):
    ranked = False  # two pawns: nothing to calibrate for ranks
    def __init__(self, seed=1, folder=VARIANT, magnets=None, readers=None):
        """magnets: the magnets' design figures (default hardware/design/magnets.json's);
        readers: the card readers' design (hardware/design/readers.json as parsed; default
        that file)."""
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
        self.offset_v = [self._gauss() * self.phys["quiescent_offset_sigma_mv"] / 1000.0
                         for _ in range(n)]
        tol = self.phys["sensitivity_tolerance"]
        self.sens = [self.phys["sensitivity_mv_per_mt"] / 1000.0 * (1.0 + tol * self._gauss())
                     for _ in range(n)]
        # pawns: the pole facing down is the variant's: reads "upside_down" = north down
        self.pieces = {}
        self.polarity = {}
        self.on = [None] * n
        pawns = self.variant["pawns"]
        for name in sorted(pawns):
            self.pieces[name] = [-1, False]
            self.polarity[name] = -1.0 if pawns[name]["reads"] == "upside_down" else 1.0
        self._make_field(magnets, ["space"] * n, seed)
        for name in sorted(pawns):
            self._put(name, self.index[pawns[name]["start"]], False, True)
        self.select = 0
        self.select_bits = {}
        sel = self.pins["mux"]["select"]
        for b in range(len(sel)):
            self.select_bits[sel[b]] = b
        # one bank of multiplexers, no enable lines (World models the DOG boards' two banks)
        self.bank_bits = {}
        self.bank_on = []
        self.adc_mux = {}
        adc = self.pins["mux"]["adc"]
        self.nadc = len(adc)
        for m in range(len(adc)):
            self.adc_mux[adc[m]] = m
        self._front_end()
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
        self.board = self.variant["layout"]
        self._readers(seed, readers, self.reader_names, [nfc["cs"]] + list(nfc["more_cs"]),
                      self.reader_names)
        self.adc_reads = 0
        self.hook = None
        self.wait_until = 0
        self.deck = self._deck()
        self.table.stock([nfc_chip.parse_uid(uid) for uid, _ in self.deck])
        self._init_power()

    def _pad(self, reader):
        r = DEFAULT_READER if reader is None else reader
        if r not in self.reader_names:
            raise W.SimError("readers are %s" % ", ".join(self.reader_names))
        return self.reader_names.index(r)

    def card_off(self, reader=None):
        """Takes the cards off one pad, or off every pad."""
        if reader is not None:
            W.World.card_off(self, reader)
            return
        for j in range(len(self.reader_names)):
            self.table.take(j)

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
        for j in range(len(self.reader_names)):
            tags[self.reader_names[j]] = [t.hex() for t in self.table.lying(j)]
        return {"pieces": self.world(), "placed": self.placed(), "tags": tags,
                "pile": [t.hex() for t in self.table.piled()]}

    def restore(self, snap):
        self._restore_pieces(snap)
        self.restore_cards(snap)
        for reader in snap["tags"]:
            for uid in snap["tags"][reader]:
                self.card(uid, reader)
