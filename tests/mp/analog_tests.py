# The analog front end (host_tools/sim/analog.py) under the firmware's scanner, on MicroPython:
# what the design of hardware/design/analog.json reads, against the design before issue 27 (one
# ground for the LEDs and the sensors, a 100 kohm pull-down at each ADC pin). Expectations come
# from the ranks (docs/board-protocols.md, section 3: red-4 the jester) and the scanner's
# classes (a dead sensor is a fault, never a piece: firmware/hal/scanner.py).
from simboard import scan_for, check, first_rank_design, SCAN_MS
from host_tools.games.track.world import TrackWorld
from host_tools.sim.world import load_json, ANALOG_DESIGN
from firmware.board import Board
from firmware.calibrate import ranks_step
from firmware.hal import measure
from firmware.hal.scanner import NO_BAND, NAMES

SCRATCH = "/tmp"
RANKS = ("king", "knight", "citizen", "jester")
DOG4 = "hardware/variants/dog-4"
DOG6 = "hardware/variants/dog-6"
WHITE = (255, 255, 255)
JESTER_SEED = 22  # the board (sensor spread, placements) the jester is tried on
CITIZEN_EDGE = 2  # calibration.up_edge: king/knight, knight/citizen, citizen/jester
STRIP_0 = [str(k) for k in range(16)]  # strip-0: track spaces 0-15, its LEDs chained 0-15


def old_design():
    """hardware/design/analog.json as it stood before issue 27."""
    d = load_json(ANALOG_DESIGN)
    d["grounds"] = "shared"                      # sensors and LEDs on one GND
    d["adc_pull_down_ohm"] = 100000              # 100 kohm at each ADC pin
    d["harness"]["analog_ground_conductors"] = 0
    d["harness"]["led_ground_conductors"] = 5    # pins 3, 4, 6, 8 and 10 all GND
    d["strip"]["led_ground_mm"] = 0.5            # a thin trace: the old design named no width
    return d


def board(seed, config, design=None, magnets=None):
    """A fresh board of that variant on the front end of `design` (default: today's) with the
    pieces' `magnets` (default: today's),
    calibrated the way a person does it (ranks_tests.py): the empty board, then every piece on
    its start-area spot in rank order, with every LED dark."""
    w = TrackWorld(seed, config=config, cards="dog-cards", magnets=magnets)
    if design is not None:
        w._front_end(design)
    b = Board(config_dir=config, data_dir=SCRATCH)
    held = []
    for name in sorted(w.pieces):
        held.append((name, w.locs[w.pieces[name][0]]))
        w.lift(held[-1][1])
    measure.measure_baseline(b.scanner, b.calib, 16)
    for name, at in held:
        w.place(name, at)
    ranks_step(b)
    scan_for(b, 200)
    return w, b


def read(b, loc):
    i = b.index[loc]
    k = b.scanner.band[i]
    return NAMES[b.scanner.state[i]], None if k == NO_BAND else RANKS[k]


def light_strip_0(b):
    """The firmware lights strip-0's 16 LEDs white (at its own brightness)."""
    for loc in STRIP_0:
        b.leds.set(b.led_index(loc), *WHITE)
    b.leds.show()


def mean_reading(w, b, loc, scans=8):
    """The ADC's reading of loc's sensor, averaged over a few scans (one reading's noise is
    about 4 mV rms)."""
    total = 0
    for _ in range(scans):
        scan_for(b, 20)
        total += w.last_read[w.index[loc]]
    return total // scans


def jester_under_lit_leds(design, magnets=None):
    """A jester at the far end of strip-0, then every LED of the strip lit: what the scanner
    reads there, the strip's other (empty) spaces that read a piece, how far the lit LEDs move
    the jester's reading and how far it stood from its band's citizen edge."""
    w, b = board(JESTER_SEED, DOG4, design, magnets)
    w.lift("red:s4")
    w.place("red-4", "15")
    scan_for(b, 300)
    check(read(b, "15") == ("upright", "jester"), "the jester, LEDs dark: %r" % (read(b, "15"),))
    dark = mean_reading(w, b, "15")
    room = b.calib.up_edge[3 * b.index["15"] + CITIZEN_EDGE] - dark
    light_strip_0(b)
    scan_for(b, 600)
    shift = mean_reading(w, b, "15") - dark
    ghosts = [loc for loc in STRIP_0[:-1] if read(b, loc)[0] != "empty"]
    return read(b, "15"), ghosts, shift, room


def test_lit_leds_on_the_old_shared_ground_raise_a_jester_to_a_citizen():
    # the first design whole, its front end and its rank magnets: the LEDs' return current
    # through the sensors' ground moves every reading on the strip by more than the jester's
    # room under its band's edge (twice), and the empty spaces past the middle of the strip
    # read pieces. (Today's stronger jester, 3 mm up, has more room: the same shift takes it
    # just past its edge, not past the edge's hysteresis)
    seen, ghosts, shift, room = jester_under_lit_leds(old_design(), first_rank_design())
    check(shift > room, "lit LEDs moved the jester's reading by %d, under its room %d" % (
        shift, room))
    check(seen == ("upright", "citizen"), "the jester under lit LEDs read %r" % (seen,))
    check(ghosts, "no empty space near the strip's far end read a piece")


def test_lit_leds_leave_a_jester_a_jester_on_the_separate_grounds():
    seen, ghosts, shift, room = jester_under_lit_leds(None)
    check(abs(shift) < room // 4, "lit LEDs moved the jester's reading by %d (room %d)" % (
        shift, room))
    check(seen == ("upright", "jester"), "the jester under lit LEDs read %r" % (seen,))
    check(ghosts == [], "empty spaces read pieces under lit LEDs: %r" % (ghosts,))


def dead_sensor_on_the_6_seat_board(design):
    """Space 5 (multiplexer 0, on the ADC pin the scan reads first after each select step, with
    bank 1's multiplexer beside it: the node's largest capacitance) loses its sensor with the
    board empty around it. Returns what the scanner reported for it, and the last conversion
    of it at each scan."""
    w, b = board(22, DOG6, design)
    check(read(b, "5") == ("empty", None), "space 5 before: %r" % (read(b, "5"),))
    w.fault("dead_sensor", "5", 2000)
    seen = []
    last = []
    for _ in range(20):  # 400 ms
        scan_for(b, SCAN_MS, seen)
        last.append(w.last_read[w.index["5"]])
    return [s for s in seen if s[0] == "5"], last


def test_a_dead_sensor_is_never_a_fault_with_the_old_pull_down():
    # the old pull-down left the dead sensor's node holding what the channel before it put
    # there, draining between conversions: the scan's first conversion of it read as an
    # upside-down piece (a scanner that took single conversions reported one: this test's
    # first form), the later ones lower and lower. The scanner counts a reading towards a
    # change only if two conversions more agree with it (firmware/hal/scanner.py), so it
    # reports nothing: a dead sensor the board cannot tell from an empty space, where the
    # design's pull-down makes it a fault (the next test)
    seen, last = dead_sensor_on_the_6_seat_board(old_design())
    w, b = board(22, DOG6, old_design())
    check(all(r < b.scanner.lo for r in last[2:]), "the node did not drain: %r" % (last,))
    check(seen == [], "the dead sensor gave %r" % (seen,))


def test_a_dead_sensor_reads_as_a_fault_with_the_design_pull_down():
    seen, _ = dead_sensor_on_the_6_seat_board(None)
    check(seen == [("5", "fault")], "the dead sensor gave %r" % (seen,))
