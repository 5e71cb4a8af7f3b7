# The Agent Avenue board, simulated (hardware/variants/agent-avenue): 14 spaces with a hall
# sensor each on one multiplexer, two pawns whose magnets stand with opposite poles down, three
# MFRC522 readers (up, down, tap) on one SPI bus with their own chip selects and a shared reset
# (host_tools/sim/nfc_chip.py: the pads, the discard pile and the fields as designed), the LED
# chain, two buttons and a buzzer. Everything else (board time, ADC, LEDs, buttons,
# faults, power, hands on pawns) is host_tools/sim/world.py's World.
from host_tools.sim import world as W

VARIANT = "hardware/variants/agent-avenue/"
DEFAULT_READER = "tap"  # a card op naming no reader: the pad for everything but the play
BOX_SEED = 7933  # the same box of cards whatever the board's seed


class AvenueWorld(W.World):
    ranked = False  # two pawns: nothing to calibrate for ranks

    def __init__(self, seed=1, folder=VARIANT, magnets=None, readers=None):
        """magnets: the magnets' design figures (default hardware/design/magnets.json's);
        readers: the card readers' design (hardware/design/readers.json as parsed; default
        that file)."""
        self.build(seed, folder, magnets, readers)

    def _read_variant(self, folder):
        info = W.load_json(folder + "/variant.json")
        self.board = info["layout"]
        return info

    def _kinds(self):
        return ["space"] * len(self.locs)

    def _set_pieces(self, magnets, kinds, seed):
        """The two pawns on their start spaces; the pole facing down is the variant's: one
        that reads "upside_down" stands north down."""
        self.polarity = {}
        pawns = self.variant["pawns"]
        for name in sorted(pawns):
            self.pieces[name] = [-1, False]
            self.polarity[name] = -1.0 if pawns[name]["reads"] == "upside_down" else 1.0
        self._make_field(magnets, kinds, seed)
        for name in sorted(pawns):
            self._put(name, self.index[pawns[name]["start"]], False, True)

    def _card_readers(self, seed, readers):
        """Three readers on one bus, each with its own chip select, named as the pins name
        them."""
        nfc = self.pins["nfc"]
        self.reader_names = list(nfc["readers"])
        self._readers(seed, readers, self.reader_names, [nfc["cs"]] + list(nfc["more_cs"]),
                      self.reader_names)

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
        return self._stickers([(a["name"], a["copies"]) for a in spec["agents"]] +
                              [(m["name"], 1) for m in spec["market"]], BOX_SEED)

    def _tags(self):
        tags = {}
        for j in range(len(self.reader_names)):
            tags[self.reader_names[j]] = [t.hex() for t in self.table.lying(j)]
        return tags

    def _lay_tags(self, tags):
        for reader in tags:
            for uid in tags[reader]:
                self.card(uid, reader)
