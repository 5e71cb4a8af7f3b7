# The physical board, simulated: pieces with magnets over hall sensors, the multiplexers routed
# by the select lines the firmware actually drives, the ADC, MFRC522 readers under the card pads
# with the NTAG stickers of the cards played on them and of the discard pile in or out of their
# field, the LED strip, two buttons and a buzzer, all on one board clock.
#
# This module runs inside the MicroPython process next to the unmodified firmware (the
# stand-ins in device/ call into it), and under CPython for tools. Time only moves when the
# device spends it: an ADC conversion, an SPI byte, a sleep. That makes runs deterministic
# for a seed and lets a whole game play in seconds.
#
# World is what every board shares: board time, the ADC and its front end, the multiplexers'
# select and bank lines, the LEDs, buttons and buzzer, faults, the supply and power cuts, hands
# on pieces, the card readers and snapshots. A family's world (the registry's "world" of each
# family, shared_rules/data/games.json; host_tools/games/<family>/world.py) is a World over its
# board's maps: it says which pieces stand where at the start, which kind of place each sensor
# is under, which readers the board has and which box of cards it deals. The field at each
# sensor is the pieces' magnets' as hardware/design/magnets.json makes and places them
# (host_tools/sim/magnetics.py): each piece's magnet as made, each sensor's height, each
# placement's offset, the neighbours'.

from shared_rules.rng import Rng
from host_tools.sim import nfc_chip
from host_tools.sim.magnetics import BoardField, sensor_neighbours
from hardware.design import coords
from host_tools.sim.analog import FrontEnd, OPEN
from host_tools.sim import supply as supply_model
from host_tools.sim.files import ROOT, load_json  # noqa: F401 (tools read them from here)


FAULTS = ("noise", "dead_sensor", "stuck_sensor", "nfc_crc", "weak_magnet")
# a fault in self.faults: [kind, sensor index or -1, until (board us), stuck reading or piece]
FAULT_KIND = 0
FAULT_SENSOR = 1
FAULT_UNTIL = 2
FAULT_STUCK_AT = 3
# a standard normal draw, near enough: the sum of four draws below 1000 (mean 4 x 499.5, standard
# deviation the square root of 4 x (1000^2 - 1) / 12, 577.35), centred and scaled
GAUSS_RANGE = 1000
GAUSS_DRAWS = 4
GAUSS_MEAN = 1998
GAUSS_SD = 577.0
# the highest a hand holds a piece over its place in this world: a king's field there (0.18 mT,
# 2.6 mV) is below one reading's noise; further up it is in the hand, off the board
HOLD_MM = 40
# a conversion refused (both banks of multiplexers on): no code, the error is raised
REFUSED = -3
NOISE_MV = 3300  # a noisy sensor puts out anything from 0 to the 3.3 V rail
ANALOG_DESIGN = "hardware/design/analog.json"  # the front end the sensors' readings pass
PARTS = "hardware/design/parts.json"
ESP32 = "hardware/design/esp32.json"
PHYSICS = "host_tools/sim/data/physics.json"
KIT_CABLE = "kit"
READERS = "hardware/design/readers.json"
CPU_HZ = 160000000  # MicroPython's ESP32 firmware boots at 160 MHz
CHANNELS = 16  # inputs of one multiplexer
BUTTONS = ("confirm", "back")
STICKER_UID_BYTES = 6  # after the manufacturer's byte 04: a 7-byte NXP UID


def default_board():
    """The board a tool means when it names none: the registry's default game's first."""
    # imported here: a simulated device's heap figures leave the simulator's share out, and
    # the registry is the firmware's to load (a world made for a named board never asks)
    from shared_rules import games
    return min(games.boards(games.default()).values())


def config_dir(board=None):
    """The folder (relative to the code's root) holding a board variant's maps."""
    board = board or default_board()
    folder = "hardware/variants/" + board
    try:
        info = load_json(folder + "/variant.json")
    except OSError:
        raise SimError("%r is not a board variant (hardware/variants/)" % (board,))
    maps = info.get("maps", ".")
    if maps == ".":
        return folder
    return "hardware"  # the Agent DOG board keeps its maps in hardware/ itself


MAGNETS = "hardware/design/magnets.json"
_current = [None]


def current():
    """The world the device stand-ins talk to (created on first use: the default game's)."""
    if _current[0] is None:
        from shared_rules import games
        games.attribute(games.part(games.family(games.default()), "world"))()
    return _current[0]


class SimError(Exception):
    """A request the physical world cannot carry out (no piece there, not held, ...)."""


class World:
    """A board's physical world. A family's world calls build() from its constructor once it
    knows its maps' folder, and overrides the hooks below (_kinds, _set_pieces, _card_readers,
    _deck, _pad, _tags, _lay_tags)."""
    # the pads of a board with several card readers, by name (the Agent Avenue board's); the
    # DOG boards' one reader has none: `card` and `card_off` name no reader there
    reader_names = ()
    ranked = False  # whether pieces carry magnets by rank (and a weak_magnet fault is theirs)
    _conv = None  # the conversions (_conversions), started at the first

    def build(self, seed, folder, magnets=None, readers=None):
        """The board of the maps in folder (relative to the code's root, or absolute), in the
        order its seed draws from: the sensors' spread, the pieces, the readers, the deck."""
        _current[0] = self
        self.rng = Rng(seed)
        self.phys = load_json(PHYSICS)
        sensors = self._maps(folder)
        self.clock_us = 0
        self.cpu_hz = CPU_HZ
        self._sensor_map(sensors)
        kinds = self._kinds()
        self._spread()
        self.pieces = {}  # name -> [sensor index or -1 while held, upside down]
        self.on = [None] * len(self.locs)  # sensor index -> piece name
        self._set_pieces(magnets, kinds, seed)
        self._mux_lines()
        self._front_end()
        self._hands_and_outputs()
        self._card_readers(seed, readers)
        self.adc_reads = 0
        # the control channel: board time stops at wait_until and hook() takes requests
        self.hook = None
        self.wait_until = 0
        self.deck = self._deck()
        self.table.stock([nfc_chip.parse_uid(uid) for uid, _ in self.deck])
        self._init_power()

    def _maps(self, folder):
        """The board's pin, LED and variant maps; returns its sensor map."""
        folder = folder.rstrip("/")
        self.pins = load_json(folder + "/pins.json")
        sensors = load_json(folder + "/sensors.json")["sensors"]
        self.leds_map = load_json(folder + "/leds.json")["leds"]
        self.variant = self._read_variant(folder)
        return sensors

    def _read_variant(self, folder):
        return load_json(folder + "/variant.json")

    def _sensor_map(self, sensors):
        """Each sensor's location, and which sensor each multiplexer channel routes (one
        table per bank of multiplexers)."""
        self.locs = [s["loc"] for s in sensors]
        self.index = {}
        for i in range(len(self.locs)):
            self.index[self.locs[i]] = i
        mux = self.pins["mux"]
        self.nadc = len(mux["adc"])
        banks = mux.get("bank") or []
        self.sensor_at = [[-1] * CHANNELS for _ in range(self.nadc * max(1, len(banks)))]
        for i in range(len(sensors)):
            self.sensor_at[sensors[i]["mux"]][sensors[i]["channel"]] = i

    def _spread(self):
        """Per-sensor manufacturing spread, fixed by the seed."""
        n = len(self.locs)
        self.offset_v = [self._gauss() * self.phys["quiescent_offset_sigma_mv"] / 1000.0
                         for _ in range(n)]
        tol = self.phys["sensitivity_tolerance"]
        self.sens = [self.phys["sensitivity_mv_per_mt"] / 1000.0 * (1.0 + tol * self._gauss())
                     for _ in range(n)]

    def _mux_lines(self):
        """The select lines, the bank enable lines (active low, pulled up: every bank off
        until the firmware drives them) and which multiplexer each ADC pin reads."""
        mux = self.pins["mux"]
        self.select = 0
        self.select_bits = {}
        sel = mux["select"]
        for b in range(len(sel)):
            self.select_bits[sel[b]] = b
        banks = mux.get("bank") or []
        self.bank_bits = {}
        for b in range(len(banks)):
            self.bank_bits[banks[b]] = b
        self.bank_on = [False] * len(banks)
        self.adc_mux = {}
        adc = mux["adc"]
        for m in range(len(adc)):
            self.adc_mux[adc[m]] = m

    def _hands_and_outputs(self):
        """No fault, nothing scheduled, no button pressed, every LED and the buzzer unset."""
        self.faults = []  # [kind, sensor index or -1, until_us, stuck reading or piece]
        self.last_read = [0] * len(self.locs)
        self.schedule = []  # [time_us, seq, callable, args]
        self._seq = 0
        self.buttons = {}  # gpio -> pressed
        self.button_pins = {}
        for name in BUTTONS:
            self.button_pins[self.pins["buttons"][name]] = name
            self.buttons[name] = False
        self.led_colours = {}
        self.led_writes = 0
        self.buzzer = []  # (time_us, freq, duty) as the firmware set them

    # -- what a family's world says ----------------------------------------------------------
    def _kinds(self):
        """The kind of place under each sensor, in sensor order (magnetics.py's kinds)."""
        raise NotImplementedError

    def _set_pieces(self, magnets, kinds, seed):
        """The board's pieces (self.pieces), their magnets (_make_field) and where each
        stands at the start."""
        raise NotImplementedError

    def _card_readers(self, seed, readers):
        """The board's readers: _readers() with its pads and chip selects."""
        raise NotImplementedError

    def _deck(self):
        """The physical cards: (uid hex, kind), as _stickers() makes them."""
        raise NotImplementedError

    def _pad(self, reader):
        """The pad a card op naming `reader` means."""
        raise NotImplementedError

    def _tags(self):
        """The cards lying on the pads, as a snapshot carries them."""
        raise NotImplementedError

    def _lay_tags(self, tags):
        """The cards of a snapshot's _tags() put on their pads again."""
        raise NotImplementedError

    # -- board time --------------------------------------------------------------------
    def advance_us(self, us):
        """Board time runs us on (the device sleeps, converts, clocks a bus). A request's
        board time that ends within it (wait_until) is answered there, at its own moment,
        and the hands' next requests act then, not once the device's sleep is over."""
        end = self.clock_us + us
        while True:
            if self.hook is not None and self.clock_us >= self.wait_until:
                self.hook()
            if self._brown is not None:
                self._brownout_now()
            stop = end
            if self.hook is not None and self.clock_us < self.wait_until < end:
                stop = self.wait_until
            while self.schedule and self.schedule[0][0] <= stop:
                ev = self.schedule.pop(0)
                if ev[0] > self.clock_us:
                    self.clock_us = ev[0]
                ev[2](*ev[3])
            self.clock_us = stop
            if stop == end:
                return

    def at_time(self, t_us, fn, *args):
        self._seq += 1
        self.schedule.append([t_us, self._seq, fn, args])
        self.schedule.sort(key=lambda e: (e[0], e[1]))

    def _make_field(self, magnets, kinds, seed):
        """The pieces' magnets over the sensors (self.fld), as magnets.json (or the figures
        given) makes them for this board: a ranked piece red-K carries rank K's magnet, any
        other piece the board's one magnet."""
        spec = magnets if magnets is not None else load_json(MAGNETS)
        name = self.variant.get("name") or self.board
        if name not in spec["boards"]:
            raise SimError("%s: no magnets for this board in %s" % (name, MAGNETS))
        own = spec["boards"][name]["pieces"]
        carried = {}
        for piece in self.pieces:
            if own == "ranks":
                rank = spec["ranks"][int(piece.rsplit("-", 1)[1]) - 1]
                carried[piece] = spec["rank_magnets"][rank]
            else:
                carried[piece] = own
        self.fld = BoardField(spec, name, kinds, self._near(name, spec), self.rng, seed,
                              carried, getattr(self, "polarity", None))
        self._conv = None  # the conversions hold the field's tables: take them again

    def _near(self, name, spec):
        """Each sensor's neighbours within the crosstalk's reach, from the variant's
        coords.json (the same centre distances the design's rank tables use)."""
        try:
            table = coords.load(name, ROOT)
            return sensor_neighbours(table, self.locs, spec["crosstalk"]["within_mm"])
        except ValueError as e:  # CoordsError is one
            raise SimError("%s: %s" % (name, e))

    def _gauss(self):
        return (self.rng.sum_below(GAUSS_RANGE, GAUSS_DRAWS) - GAUSS_MEAN) / GAUSS_SD

    # -- physics -------------------------------------------------------------------------
    # A conversion runs in the MicroPython device process at every ADC read, and MicroPython
    # gives a function whose frame (arguments, locals and value stack) is over 11 words a
    # frame on the heap at every call (VM_MAX_STATE_ON_STACK, py/objfun.c): tens of
    # microseconds a read on a fragmented heap. So the common read is one step of a generator
    # (_conversions: its frame is made once) and the rarer paths are functions whose frames
    # stay within 11 words (docs/measuring.md, "The simulator's own cost").
    def volts(self, i):
        """What sensor i puts out now, before the multiplexer."""
        b = self.fld.own[i]
        if self.ranked and b:
            b *= self._weakened(self.on[i])
        b += self.fld.cross[i]
        return self._output(self.phys["vcc"] / 2 + self.offset_v[i] + self.sens[i] * b)

    def _output(self, v):
        """A sensor's output v with its noise, within the swing of its output stage."""
        v += self._gauss() * self.phys["noise_sigma_mv"] / 1000.0
        lo = self.phys["output_min_v"]
        hi = self.phys["output_max_v"]
        return lo if v < lo else hi if v > hi else v

    def _routed(self, a):
        """The sensor index the enabled multiplexer routes to ADC pin a, or -1 (every bank
        off, or a grounded channel); SimError when two banks drive the pin at once."""
        if not self.bank_on:
            return self.sensor_at[a][self.select]
        first = -1
        for b in range(len(self.bank_on)):
            if self.bank_on[b]:
                if first >= 0:
                    raise SimError("two banks of multiplexers drive ADC pin %d at once: the "
                                   "firmware enabled both" % self._adc_gpio(a))
                first = b
        if first < 0:
            return -1  # every bank off: the pin's pull-down
        return self.sensor_at[a + self.nadc * first][self.select]

    def _adc_gpio(self, a):
        for gpio in self.adc_mux:
            if self.adc_mux[gpio] == a:
                return gpio
        return -1

    def _front_end(self, design=None):
        """The analog front end the readings pass (analog.py): the design's, or another
        design (a dict as hardware/design/analog.json) to compare with."""
        self.fe = FrontEnd(self, design or load_json(ANALOG_DESIGN))
        self._conv = None  # the conversions hold the front end's tables: take them again

    def adc_u16(self, gpio):
        """One ADC conversion on pin gpio. The SAR samples adc_sample_after_us into the call:
        the voltage the pin's node holds then (analog.py: the sensor the select and enable
        lines route to it, through its ground and the pull-down; with no sensor driving it,
        the previous channel's voltage decaying through the pull-down), as the ADC reads it."""
        conv = self._conv
        if conv is None:
            conv = self._start_conversions()
        # (no try here: MicroPython resumed the generator ten times slower from a try block)
        code = conv.send(gpio)
        if code == REFUSED:
            raise self._refused  # raised inside, it would have ended the generator
        return code

    def _start_conversions(self):
        self._conv = self._conversions()
        next(self._conv)
        return self._conv

    # Every conversion of the board, as one generator: its frame is made once, so the tables
    # a read looks up stay its locals (a read costs a few lookups and float operations, no
    # attribute reads of them and no calls in the common case), which an ordinary function
    # could hold only in a frame allocated at every call. The common case is a sensor routed,
    # no fault in force: volts() and _output() (the sensor), FrontEnd.read (the node) and
    # Adc.u16 written out in the same operations. The one error a conversion can raise (both
    # banks on) is kept and handed back as REFUSED: raised inside, it would end the generator.
    def _conversions(self):
        (after_us, conv_us, mid_v, sigma_v, lo_v, hi_v, adc_mux, sensor_at, bank_on, on, own,
         cross, offset_v, sens, rng, last_read, ranked, fe, seen, nt, nv, src, tgt, last_tgt,
         settle_us, shift, gain, per_vcc, adc, zero_v, knee_v, codes_per_v, schedule, draw,
         draws, mean, sd) = self._conversion_parts()
        code = 0
        while True:
            gpio = yield code
            now = self.clock_us
            t = now + after_us
            if self.hook is not None and now >= self.wait_until or self._brown is not None or \
                    schedule and schedule[0][0] <= now + conv_us:
                self.advance_us(conv_us)
            else:
                self.clock_us = now + conv_us  # advance_us with nothing due
            self.adc_reads += 1
            a = adc_mux.get(gpio)
            if a is None:
                code = 0
                continue
            if bank_on:
                try:
                    i = self._routed(a)
                except SimError as e:
                    self._refused = e
                    i = REFUSED
            else:
                i = sensor_at[a][self.select]
            if i < 0:
                code = REFUSED if i == REFUSED else self._undriven(a, t)
                continue
            if self.faults:
                code = last_read[i] = self._faulty(a, t, i)
                continue
            b = own[i]
            if ranked and b:
                b *= self._weakened(on[i])
            b += cross[i]
            v = mid_v + offset_v[i] + sens[i] * b
            v += (rng.sum_below(draw, draws) - mean) / sd * sigma_v / 1000.0  # _gauss()
            v = lo_v if v < lo_v else hi_v if v > hi_v else v
            if seen[a] != fe.ev_n:
                fe._switched_since(a)
            g = shift[i]
            if g:
                v += g * (1.0 - v * per_vcc)
            v *= gain
            last_tgt[i] = tgt[a] = v
            src[a] = i
            if t - nt[a] <= settle_us[a]:
                v = fe._volts_at(a, t)
            nv[a] = v
            nt[a] = t
            code = 0 if v <= zero_v else int((v - zero_v) * codes_per_v + 0.5) if v < knee_v \
                else adc._bent(v * 1000.0)
            code = last_read[i] = code << 4 | code >> 8

    def _conversion_parts(self):
        """What _conversions keeps as its locals, in its order."""
        phys, fe = self.phys, self.fe
        return (phys["adc_sample_after_us"], phys["adc_conversion_us"], phys["vcc"] / 2,
                phys["noise_sigma_mv"], phys["output_min_v"], phys["output_max_v"],
                self.adc_mux, self.sensor_at, self.bank_on, self.on, self.fld.own,
                self.fld.cross, self.offset_v, self.sens, self.rng, self.last_read, self.ranked,
                fe, fe.seen, fe.nt, fe.nv, fe.src, fe.tgt, fe.last_tgt, fe.settle_us, fe.shift,
                fe.gain, fe.per_vcc, fe.adc, fe.adc.offset_v, fe.adc.knee_v, fe.adc.codes_per_v,
                self.schedule, GAUSS_RANGE, GAUSS_DRAWS, GAUSS_MEAN, GAUSS_SD)

    def _undriven(self, a, t):
        """Node a with no sensor routed to it (every bank off, or a grounded channel)."""
        fe = self.fe
        s = fe.source(a, self.select, fe.mask)
        return fe.read(a, t, s, 0.0)

    def _faulty(self, a, t, i):
        """Sensor i's reading while faults are in force: a stuck one reads what it read when
        it stuck, a noisy one puts out anything, a dead one drives nothing."""
        v = self.volts(i)
        if self._in_force(i, "stuck_sensor") is not None:
            return self._in_force(i, "stuck_sensor")[FAULT_STUCK_AT]
        v = self._noise(i, v)
        if self._in_force(i, "dead_sensor") is not None:
            return self._read_node(a, t, OPEN, v)  # unsoldered or unpowered
        return self._read_node(a, t, i, v)

    def _read_node(self, a, t, s, v):
        return self.fe.read(a, t, s, v)

    def _in_force(self, i, kind):
        """The first fault of that kind on sensor i still in force, or None."""
        now = self.clock_us
        for f in self.faults:
            if f[FAULT_KIND] == kind and f[FAULT_SENSOR] == i and f[FAULT_UNTIL] > now:
                return f
        return None

    def _noise(self, i, v):
        """Sensor i's output v, or what each noise fault in force on it puts out instead."""
        for f in self.faults:
            if f[FAULT_KIND] == "noise" and f[FAULT_SENSOR] == i and \
                    f[FAULT_UNTIL] > self.clock_us:
                v = self.rng.below(NOISE_MV) / 1000.0
        return v

    # -- pins ----------------------------------------------------------------------------
    def pin_out(self, gpio, value):
        b = self.select_bits.get(gpio)
        if b is not None:
            if value:
                self.select |= 1 << b
            else:
                self.select &= ~(1 << b)
            self.fe.switched(self.clock_us, self.select)
            return
        b = self.bank_bits.get(gpio)
        if b is not None:
            self.bank_on[b] = not value  # E is active low
            self.fe.banks(self.bank_on)
            self.fe.switched(self.clock_us, self.select)
            return
        self.nfc.pin(gpio, value)

    def pin_in(self, gpio):
        name = self.button_pins.get(gpio)
        if name is not None:
            return 0 if self.buttons[name] else 1  # buttons pull up, pressed reads low
        return 0

    def led_write(self, buf, order, bpp):
        n = len(buf) // bpp
        self.advance_us(self.phys["led_write_us_per_led"] * n)
        self.led_writes += 1
        for i in range(min(n, len(self.leds_map))):
            px = buf[i * bpp:(i + 1) * bpp]
            self.led_colours[self.leds_map[i]] = [px[order[0]], px[order[1]], px[order[2]]]
        self.fe.leds(buf, order, bpp)
        self.led_ma = self.supply.led_ma(buf, bpp)
        if self._power_state():
            self._brownout_now()  # the ESP32 resets while it drives the frame

    # -- the supply (host_tools/sim/supply.py) ----------------------------------------------
    def _init_power(self):
        """The board's supply from the design data and this board's maps, through the kit's
        cable, every LED dark. on_brownout is the device's reset path (the device process
        sets it): called when the ESP32's supply falls under its brown-out detector."""
        parts = load_json(PARTS)
        self.supply_data = supply_model.load_sim_data()
        counts = {"sensors": len(self.locs), "leds": len(self.leds_map),
                  "muxes": len([r for r in self.sensor_at if max(r) >= 0]),
                  "readers": 1 + len(self.pins["nfc"].get("more_cs", ()))}
        # readers sharing the bus each drive MISO through a buffer (readers.json bus)
        buffered = self.readers_spec["bus"]["miso_buffered"] and counts["readers"] > 1
        counts["miso_buffers"] = counts["readers"] if buffered else 0
        design = supply_model.design_from_data(parts, load_json(ESP32), self.pins, counts)
        self.kit_cable_mohm = supply_model.cable_mohm(KIT_CABLE, parts, self.supply_data)
        self.supply = supply_model.Supply(design, self.kit_cable_mohm, self.supply_data)
        self.cable = KIT_CABLE
        self.led_ma = counts["leds"] * design["leds"]["idle_ma"]
        self.brownouts = 0
        self.on_brownout = None
        self._brown = None
        self._power_state()

    def _power_state(self):
        """Evaluates the supply now; True (and the reset pending) when the ESP32 browns out."""
        st = self.supply.state(self.led_ma)
        self.power_state = st
        if st["brownout"]:
            self._brown = st
        return st["brownout"]

    def _brownout_now(self):
        st = self._brown
        self._brown = None
        self.brownouts += 1
        if self.on_brownout is not None:
            self.on_brownout(st)

    def set_cable(self, cable):
        """Plugs the board in through another cable (supply.cable_mohm names them); a cable
        that cannot hold the ESP32 up resets it once board time runs."""
        try:
            mohm = self.kit_cable_mohm if cable == KIT_CABLE else supply_model.cable_mohm(
                cable, None, self.supply_data)
        except (supply_model.SupplyError, KeyError, TypeError):
            raise SimError("a cable is kit, one of %s, or {\"awg\": gauge, \"m\": metres}"
                           % ", ".join(sorted(self.supply_data["cables"])))
        self.supply.cable_mohm = mohm
        self.cable = cable
        self._power_state()

    def supply_report(self):
        st = self.power_state
        out = {"cable": self.cable, "cable_mohm": round(self.supply.cable_mohm, 1),
               "status": st["status"], "brownouts": self.brownouts}
        for key in ("vbus_v", "efuse_in_v", "rail_5v_v", "esp32_v"):
            out[key] = round(st[key], 3)
        for key in ("input_ma", "led_ma"):
            out[key] = round(st[key], 1)
        return out

    # -- the world API: hands on the board -------------------------------------------------
    def _loc(self, at):
        at = str(at)
        i = self.index.get(at, -1)
        if i < 0:
            raise SimError("%s is not a board location" % at)
        return i

    def _put(self, name, i, upside_down, hand=False, off_mm=None):
        """Piece `name` to sensor i (-1: a hand); hand: put down anew (see BoardField.put)."""
        p = self.pieces[name]
        if p[0] >= 0:
            self.on[p[0]] = None
        p[0] = i
        p[1] = upside_down
        if i >= 0:
            self.on[i] = name
        self.fld.put(name, i, upside_down, hand, off_mm)

    def lift(self, at):
        i = self._loc(at)
        name = self.on[i]
        if name is None:
            raise SimError("there is no piece on %s" % at)
        self._put(name, -1, self.pieces[name][1])
        return name

    def place(self, piece, at, upside_down=False, off_mm=None):
        """Puts a held piece down on `at`; off_mm: that far off the location's centre (default
        drawn: within the board's pocket, or a person's aim where there is none). A piece put
        down within the centring overlay's chamfer slides into its pocket."""
        p = self.pieces.get(piece)
        if p is None:
            raise SimError("%s is not a piece of this board; its pieces are %s" % (
                piece, ", ".join(sorted(self.pieces))))
        if p[0] >= 0:
            raise SimError("%s is on %s, not in a hand: lift it first" % (piece, self.locs[p[0]]))
        i = self._loc(at)
        if self.on[i] is not None:
            raise SimError("%s is already on %s" % (self.on[i], at))
        self._put(piece, i, bool(upside_down), True, self._off(off_mm))

    def _off(self, off_mm):
        """How far off its sensor's axis a piece put down off_mm off the centre stands."""
        if off_mm is None:
            return None
        f = self.fld
        if type(off_mm) not in (int, float) or not 0 <= off_mm <= f.capture:
            raise SimError("a piece stands on a location when put down 0 to %g mm off its "
                           "centre" % f.capture)
        return min(float(off_mm), f.limit)

    def hold(self, at, mm):
        """The piece on `at` held mm above its place by a hand (putting it down, or about to
        lift it; 0: let go, it rests there): its magnet that much further from the sensor, and
        off the board's reach beyond HOLD_MM."""
        i = self._loc(at)
        if self.on[i] is None:
            raise SimError("there is no piece on %s to hold" % at)
        if type(mm) not in (int, float) or not 0 <= mm <= HOLD_MM:
            raise SimError("a hand holds a piece 0 to %g mm above its place" % HOLD_MM)
        self.fld.hold(i, float(mm))

    def sensor_depth(self, at, mm):
        """Mounts the sensor at `at` mm below its design height (negative: above), within the
        design's tolerance: what a sensor strip's warp or the game board's thickness does."""
        i = self._loc(at)
        tol = self.fld.height_tol
        if type(mm) not in (int, float) or not -tol <= mm <= tol:
            raise SimError("a sensor sits within %g mm of its design height" % tol)
        self.fld.set_depth(i, float(mm))

    def field_mt(self, at):
        """The field (mT) at the Hall element under `at` now: its piece's and its
        neighbours'."""
        i = self._loc(at)
        return self.fld.own[i] + self.fld.cross[i]

    def flip(self, at):
        i = self._loc(at)
        name = self.on[i]
        if name is None:
            raise SimError("there is no piece on %s to turn over" % at)
        self._put(name, i, not self.pieces[name][1])

    def slide(self, piece, path, upside_down=False):
        """Moves a held piece across path (about 50 ms over each location, occupied ones
        passed over) and leaves it on the last. Returns the board time it will land."""
        p = self.pieces.get(piece)
        if p is None or p[0] >= 0:
            raise SimError("%s is not held: lift it first" % piece)
        idx = [self._loc(a) for a in path]
        if not idx:
            raise SimError("slide needs a path")
        if self.on[idx[-1]] is not None:
            raise SimError("%s is already on %s" % (self.on[idx[-1]], path[-1]))
        step = self.phys["slide_ms_per_location"] * 1000
        t = self.clock_us
        for j in range(len(idx)):
            i = idx[j]
            if j < len(idx) - 1 and self.on[i] is not None:
                continue  # passed over another piece: its sensor barely changes
            self.at_time(t, self._hover, piece, i, bool(upside_down))
            t += step
        self.at_time(t - step, self._land, piece, idx[-1], bool(upside_down))
        return t - step

    def _hover(self, piece, i, upside_down):
        if self.on[i] is None or self.on[i] == piece:
            self._put(piece, i, upside_down)

    def _land(self, piece, i, upside_down):
        self._put(piece, i, upside_down, True)

    def _readers(self, seed, spec, pads, cs, names=None):
        """The card readers, their pads and the discard pile as the design lays them out."""
        self.readers_spec = spec or load_json(READERS)
        layout = self.readers_spec["layouts"].get(self.board)
        if layout is None:
            raise SimError("%s: no reader layout for the %s board" % (READERS, self.board))
        self.table, self.nfc = nfc_chip.build(self, self.readers_spec, layout, pads, cs,
                                              self.pins["nfc"]["rst"], seed, names)

    def card(self, uid, reader=None):
        """Puts a card with that 7-byte UID (bytes or hex) on the reader's pad, where it lies
        until card_off takes it up or discard puts it on the discard pile (a card that lies
        elsewhere on the table is taken from there first)."""
        j = self._pad(reader)
        try:
            uid = nfc_chip.parse_uid(uid)
        except ValueError as e:
            raise SimError(str(e))
        self.table.put(j, uid)

    def card_off(self, reader=None):
        """Takes the cards put on the pad back into a hand."""
        self.table.take(self._pad(reader))

    def discard(self, reader=None):
        """Puts the cards on the pad on the discard pile, where the design lays it."""
        self.table.discard(self._pad(reader))

    def press(self, button, ms=100):
        if button not in self.buttons:
            raise SimError("buttons are confirm and back")
        if type(ms) is not int or ms <= 0:
            raise SimError("a press lasts a whole number of milliseconds above 0")
        self.buttons[button] = True
        self.at_time(self.clock_us + ms * 1000, self._release, button)

    def _release(self, button):
        self.buttons[button] = False

    def fault(self, kind, at=None, ms=1000):
        if kind not in FAULTS:
            raise SimError("faults are %s" % ", ".join(FAULTS))
        if type(ms) is not int or ms <= 0:
            raise SimError("a fault lasts a whole number of milliseconds above 0")
        if kind == "nfc_crc":
            self.faults.append([kind, -1, self.clock_us + ms * 1000, self._nfc_reader(at)])
            return
        i = self._loc(at)
        if kind == "weak_magnet":
            # the piece standing there loses part of its field (a chipped or slipped magnet):
            # the fault goes with the piece, wherever it is put
            if not self.ranked:
                raise SimError("weak_magnet: this board's pieces carry no rank magnets")
            name = self.on[i]
            if name is None:
                raise SimError("weak_magnet: there is no piece on %s" % at)
            self.faults.append([kind, -1, self.clock_us + ms * 1000, name])
            return
        self.faults.append([kind, i, self.clock_us + ms * 1000, self.last_read[i]])

    def _nfc_reader(self, at):
        """The reader an nfc_crc fault corrupts: a named one alone, or None for every reader.
        A location is taken as no name: older tools send one, and the fault was always the
        reader's, never a sensor's."""
        if at is None or at in self.reader_names:
            return at
        self._loc(at)
        return None

    def _weakened(self, name):
        for f in self.faults:
            if f[0] == "weak_magnet" and f[3] == name and f[2] > self.clock_us:
                return self.phys["weak_magnet_factor"]
        return 1.0

    def clear_faults(self, at=None):
        """Ends every fault now, or only those of the sensor at `at`."""
        if at is None:
            self.faults = []
        elif at in self.reader_names:
            self.faults = [f for f in self.faults if not (f[0] == "nfc_crc" and f[3] == at)]
        else:
            i = self._loc(at)
            name = self.on[i]
            self.faults = [f for f in self.faults if f[1] != i and not (
                f[0] == "weak_magnet" and f[3] == name)]

    def nfc_corrupt(self, reader=None):
        """Whether an nfc_crc fault corrupts the frames of that reader (by name) now."""
        for f in self.faults:
            if f[0] == "nfc_crc" and f[2] > self.clock_us and f[3] in (None, reader):
                return True
        return False

    def _stickers(self, kinds, box_seed):
        """[(uid hex, kind)]: copies of each (kind, copies) with stickers of unique 7-byte NXP
        UIDs, the same box of cards whatever the board's seed (box_seed draws them)."""
        out = []
        seen = {}
        r = Rng(box_seed)
        for name, copies in kinds:
            for _ in range(copies):
                while True:
                    uid = "04" + "".join(["%02x" % r.below(256)
                                          for _ in range(STICKER_UID_BYTES)])
                    # ISO/IEC 14443-3: the first byte of a cascade level is never the
                    # cascade tag 0x88, so a double-size UID has no 0x88 as its fourth byte
                    if uid not in seen and uid[6:8] != "88":
                        break
                seen[uid] = 1
                out.append((uid, name))
        return out

    def card_of_kind(self, kind):
        """A card of that kind from the hands: the first copy lying neither on a pad nor on
        the discard pile; when every copy lies on the pile, the one lowest in it (the players
        have shuffled the pile into the deck again)."""
        copies = [uid for uid, k in self.deck if k == kind]
        if not copies:
            raise SimError("%r is not a card kind" % (kind,))
        lying = {}
        for j in range(len(self.table.pads)):
            for t in self.table.lying(j):
                lying[t.hex()] = True
        piled = [t.hex() for t in self.table.piled()]
        for uid in copies:
            if uid not in lying and uid not in piled:
                return uid
        for uid in piled:
            if uid in copies:
                return uid
        raise SimError("every %s card lies on a pad" % kind)

    def snapshot(self):
        # no clock: a device that powers up again starts its ticks from zero
        return {"pieces": self.world(), "placed": self.placed(), "tags": self._tags(),
                "pile": [t.hex() for t in self.table.piled()]}

    def placed(self):
        """How many times a hand has put each piece down: with the seed, where each stands
        in its pocket (a snapshot carries it, so a device powered up again agrees)."""
        out = {}
        for name in self.pieces:
            out[name] = self.fld.pieces[name].placed
        return out

    def restore(self, snap):
        self._restore_pieces(snap)
        self.restore_cards(snap)
        self._lay_tags(snap["tags"])

    def _restore_pieces(self, snap):
        for name in self.pieces:
            self._put(name, -1, False)
        placed = snap.get("placed") or {}
        for name in snap["pieces"]:
            at = snap["pieces"][name]["at"]
            i = self.index[at] if at is not None else -1
            self._put(name, i, snap["pieces"][name]["upside_down"])
            self.fld.recall(name, i, snap["pieces"][name]["upside_down"], placed.get(name, 0))

    def restore_cards(self, snap):
        """The discard pile of a snapshot laid again (the pads' cards are the caller's)."""
        self.table.clear()
        for uid in snap.get("pile", ()):
            self.table.put(0, nfc_chip.parse_uid(uid))
            self.table.discard(0)

    def world(self):
        out = {}
        for name in self.pieces:
            p = self.pieces[name]
            out[name] = {"at": self.locs[p[0]] if p[0] >= 0 else None, "upside_down": p[1]}
        return out
