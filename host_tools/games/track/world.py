# The track games' boards, simulated (hardware/variants/: the Agent DOG board by default, or the
# DOG boards, whose pieces carry magnets of four sizes by rank (red-1 the king ... red-4 the
# jester), and whose 6-seat side reads two banks of multiplexers on the same ADC pins): four
# pieces of each colour in their start areas, one MFRC522 under the play pad with the discard
# pile beside it, and the deck of a track game's card table. Everything else (board time, ADC,
# LEDs, buttons, faults, power, hands on pieces) is host_tools/sim/world.py's World.
#
# Runs inside the MicroPython device process (host_tools/sim/worlds.py makes it) and in CPython.
from host_tools.sim import world as W
from host_tools.sim.world import SimError, load_json  # noqa: F401 (tests read them from here)

DEFAULT_BOARD = "agent-dog-4"
DEFAULT_CARDS = "agent-dog-cards"
PAD = "cards"  # the DOG boards' one reader, under the play pad (readers.json layouts)
PIECES_PER_COLOUR = 4
BOX_SEED = 7919  # the deck is the same box of cards whatever the board's seed


class TrackWorld(W.World):
    def __init__(self, seed=1, config=None, board=None, cards=None, magnets=None, readers=None):
        """config: the folder of the board's maps (as the firmware's config/); board: a variant
        name instead (default the Agent DOG board); cards: the deck's card table (a
        shared_rules/data name, default Agent DOG's); magnets: the magnets' design figures
        (default hardware/design/magnets.json's); readers: the card readers' design
        (hardware/design/readers.json as parsed; default that file)."""
        self.cards_name = cards or DEFAULT_CARDS
        self.build(seed, config if config is not None else W.config_dir(board or DEFAULT_BOARD),
                   magnets, readers)

    def _read_variant(self, folder):
        try:
            info = W.load_json(folder + "/variant.json")
        except OSError:
            info = {}  # the Agent DOG board's maps in hardware/ itself
        self.board = info.get("layout") or DEFAULT_BOARD
        self.ranked = bool(info.get("ranked_pieces"))
        lay = W.load_json("shared_rules/data/%s.json" % self.board)
        self.colours = tuple(lay["colours"])
        self.holes = lay["holes"]
        return info

    def _kinds(self):
        kinds = []
        for loc in self.locs:
            if ":" in loc:
                kinds.append("home" if ":h" in loc else "start_area")
            else:
                kinds.append("hole" if int(loc) in self.holes else "space")
        return kinds

    def _set_pieces(self, magnets, kinds, seed):
        """Every colour's pieces, each in its start area on its own spot."""
        names = ["%s-%d" % (c, k) for c in self.colours for k in range(1, PIECES_PER_COLOUR + 1)]
        for name in names:
            self.pieces[name] = [-1, False]
        self._make_field(magnets, kinds, seed)
        for name in names:
            c, k = name.rsplit("-", 1)
            self._put(name, self.index["%s:s%s" % (c, k)], False, True)

    def _card_readers(self, seed, readers):
        self._readers(seed, readers, [PAD], [self.pins["nfc"]["cs"]])

    def _pad(self, reader):
        return 0

    def _deck(self):
        """The 110 physical cards: (uid hex, kind), stickers with unique 7-byte NXP UIDs."""
        spec = W.load_json("shared_rules/data/%s.json" % self.cards_name)
        return self._stickers([(kind["card"], spec["deck"].get(kind["card"], 0))
                               for kind in spec["kinds"]], BOX_SEED)

    def _tags(self):
        return [t.hex() for t in self.table.lying(0)]

    def _lay_tags(self, tags):
        for uid in tags:
            self.card(uid)
