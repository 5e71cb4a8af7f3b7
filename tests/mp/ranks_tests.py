# Ranks read by the sensors (DOG Royal on the DOG boards) and the 6-seat board's two banks of
# multiplexers, against the simulated board: pieces carry the rank magnets of
# hardware/design/magnets.json with their spread, sensors their offsets and gains.
# Expectations come from the design: red-1 is the king, red-2 the knight, red-3 the citizen,
# red-4 the jester (docs/board-protocols.md, section 3); a weak magnet gives half its field,
# one rank's step (the ranks' fields fall by about 2 from rank to rank).
import json
import os
import micropython

from simboard import scan_for, check, first_rank_design, SCAN_MS
from host_tools.games.track.world import TrackWorld
from host_tools.sim.world import SimError
from host_tools.sim.lap import gains_rounds, rank_of_piece
from host_tools.sim.magnetics import bz_mt, stack_mm
from firmware.board import Board
from firmware.calibrate import ranks_step, rank_crosstalk, spot_groups, command
from firmware.hal import calibration, measure
from firmware.hal.scanner import Scanner, NO_BAND, UP, DOWN

SCRATCH = "/tmp"
RANKS = ("king", "knight", "citizen", "jester")
DOG6 = "hardware/variants/dog-6"
DOG4 = "hardware/variants/dog-4"
MAGNETS = "hardware/design/magnets.json"


def calibrated(seed, config=DOG6, magnets=None, lap=True, depth=None, aim=None, data=None):
    """A fresh board of that variant, calibrated the way a person does it (hardware/README.md,
    Calibrating a ranked board): the empty board, every piece on its start-area spot in rank
    order, then (lap) the gains lap and the ranks step again; the pieces end on their spots.
    depth(location): how far below its design height that sensor is mounted (mm); aim: how
    far off centre the calibrating hands put each piece (default: drawn, as anybody's); data:
    the board's flash folder (a board that saves its calibration there)."""
    w = TrackWorld(seed, config=config, cards="dog-cards", magnets=magnets)
    for loc in w.locs if depth else ():
        w.sensor_depth(loc, depth(loc))
    b = Board(config_dir=config, data_dir=data or SCRATCH)
    names = sorted(w.pieces)
    lift_all(w)
    measure.measure_baseline(b.scanner, b.calib, 16)
    to_spots(w, names, aim)
    counts = ranks_step(b)
    check(counts == [len(w.colours)] * 4, "pieces read per rank: %r" % (counts,))
    if lap:
        for plan in gains_rounds(w.locs, names):
            lift_all(w)
            rank_at = bytearray(bytes([NO_BAND]) * len(b.locations))
            for at in plan:
                w.place(plan[at], at, off_mm=aim)
                rank_at[b.index[at]] = RANKS.index(rank_of_piece(plan[at]))
            measure.measure_pieces(b.scanner, b.calib, rank_at=rank_at)
        lift_all(w)
        to_spots(w, names, aim)
        ranks_step(b)
    scan_for(b, 200)
    return w, b


def lift_all(w):
    for name in sorted(w.pieces):
        if w.pieces[name][0] >= 0:
            w.lift(w.locs[w.pieces[name][0]])


def to_spots(w, names, aim=None):
    for name in names:
        colour, k = name.rsplit("-", 1)
        w.place(name, "%s:s%s" % (colour, k), off_mm=aim)


def design_levels(board="dog-4"):
    """Each rank's field at a space's sensor as a fraction of the king's, from the design."""
    with open(MAGNETS) as f:
        spec = json.load(f)
    z = stack_mm(spec, board, "space")
    out = []
    for rank in RANKS:
        m = spec["magnets"][spec["rank_magnets"][rank]]
        out.append(bz_mt(spec["material"]["br_mt"], m["d_mm"] / 2, m["l_mm"], z, 0.0))
    return [v / out[0] for v in out]


def band_at(b, loc):
    k = b.scanner.band[b.index[loc]]
    return None if k == NO_BAND else RANKS[k]


def test_the_6_seat_board_reads_all_144_sensors_through_two_banks():
    w = TrackWorld(1, config=DOG6, cards="dog-cards")
    b = Board(config_dir=DOG6, data_dir=SCRATCH)
    check(len(b.locations) == 144 and b.scanner.n == 144, "%d sensors" % len(b.locations))
    check(b.variant["layout"] == "dog-6" and b.variant["ranked_pieces"], repr(b.variant))
    scan_for(b, 200)
    reads = w.adc_reads
    b.scanner.scan()
    # one conversion per sensor on a still board: the three ADC pins bank 1 leaves unused are
    # not read (a reading leaving its band takes two more)
    check(w.adc_reads - reads == 144, "%d conversions in one scan" % (w.adc_reads - reads))
    check(w.bank_on == [False, False], "a bank left on after the scan: %r" % (w.bank_on,))
    # uncalibrated, a board takes a piece's swing for an Agent DOG piece's (about 0.45 V): the
    # kings (0.48 V) read as pieces, the smaller ranks need calibration
    for c in w.colours:
        at = "%s:s1" % c
        check(b.scanner.state[b.index[at]] == UP, "%s not upright" % at)


def test_every_rank_is_read_on_every_location_of_the_6_seat_board():
    w, b = calibrated(2)
    free = [loc for loc in b.locations if ":s" not in loc]  # track and homes: 120 sensors
    for j in range(len(free)):
        loc = free[j]
        piece = "red-%d" % (j % 4 + 1)
        at = w.locs[w.pieces[piece][0]] if w.pieces[piece][0] >= 0 else None
        if at is not None:
            w.lift(at)
        w.place(piece, loc)
        scan_for(b, 120)
        check(band_at(b, loc) == RANKS[j % 4], "%s on %s read as %s" % (
            piece, loc, band_at(b, loc)))
    w.lift(w.locs[w.pieces["red-1"][0]])
    w.place("red-1", "7", True)  # upside down: the polarity stays, and so does the rank
    scan_for(b, 120)
    check(b.scanner.state[b.index["7"]] == DOWN and band_at(b, "7") == "king",
          "upside-down king on 7: %s" % band_at(b, "7"))


def test_a_rank_is_reported_after_two_still_scans_and_then_not_again():
    # a piece put down on a ranked board counts, with its rank, once its reading held still
    # for 2 scans (scanner.py), as a class alone does
    w, b = calibrated(3)
    sc = b.scanner
    w.lift("blue:s2")
    scan_for(b, 200)
    w.place("blue-2", "20")
    check(sc.scan() == 0, "reported after 1 scan")
    n = sc.scan()
    check(n == 1 and b.locations[sc.changed[0]] == "20", "scan 2 reported %d" % n)
    check(band_at(b, "20") == "knight", "read %s" % band_at(b, "20"))
    seen = scan_for(b, 1000)
    check(seen == [], "a still knight reported again: %r" % (seen,))


def test_a_weak_magnet_reads_one_rank_lower_and_recovers():
    w, b = calibrated(4)
    w.lift("green:s2")
    w.place("green-2", "50")
    scan_for(b, 200)
    check(band_at(b, "50") == "knight", "knight read as %s" % band_at(b, "50"))
    w.fault("weak_magnet", "50", 2000)
    seen = scan_for(b, 300)
    check(band_at(b, "50") == "citizen", "weakened knight read as %s" % band_at(b, "50"))
    check([s for s in seen if s[0] == "50"] == [("50", "upright")],
          "the change of rank is a change of that sensor: %r" % (seen,))
    scan_for(b, 2000)
    check(band_at(b, "50") == "knight", "after the fault: %s" % band_at(b, "50"))


def test_weak_magnet_needs_a_piece_and_a_ranked_board():
    w = TrackWorld(5, config=DOG4, cards="dog-cards")
    for bad in (("weak_magnet", "10"), ("weak_magnet", "nowhere")):
        try:
            w.fault(bad[0], bad[1], 100)
            check(False, "%r accepted" % (bad,))
        except SimError:
            pass
    plain = TrackWorld(5)
    try:
        plain.fault("weak_magnet", "red:s1", 100)
        check(False, "a weak magnet on the Agent DOG board's unranked pieces")
    except SimError:
        pass


def test_the_4_seat_dog_board_reads_ranks_and_the_agent_dog_board_none():
    w, b = calibrated(6, DOG4)
    check(b.scanner.n == 96 and b.scanner.banks is None, "dog-4: one bank of six muxes")
    for c in w.colours:
        for k in range(1, 5):
            check(band_at(b, "%s:s%d" % (c, k)) == RANKS[k - 1], "%s:s%d" % (c, k))
    TrackWorld(6)
    plain = Board(config_dir="hardware", data_dir=SCRATCH + "/nocal")
    check(plain.variant is None and not hasattr(plain.scanner, "band"),
          "the Agent DOG board has no variant file and reads no ranks")


class _Pin:
    def __init__(self):
        self.v = 1

    def value(self, v=None):
        if v is not None:
            self.v = v
        return self.v


class _Adc:
    def __init__(self, readings, phase):
        self.readings = readings
        self.phase = phase  # the test moves it: every sensor of this pin reads the next level

    def read_u16(self):
        return self.readings[self.phase % len(self.readings)]


def test_a_ranked_banked_scan_allocates_nothing():
    n = 144
    cal = calibration.Calibration(n)
    cal.set_ranks([1.0, 0.52, 0.25, 0.12], 11000, 11000)
    base = cal.base[0]
    # readings that move every sensor across classes and ranks from scan to scan
    readings = [base, base + 10500, base + 5600, base + 2700, base + 1300, base - 10500,
                base - 2700, 100, base + 4000]
    banks = [_Pin(), _Pin()]
    sensor_of = [-1] * (2 * 16 * 6)
    for i in range(n):
        m = i // 16
        sensor_of[((m // 6) * 16 + i % 16) * 6 + m % 6] = i
    adcs = [_Adc(readings, m) for m in range(6)]
    sc = Scanner([_Pin() for _ in range(4)], adcs, sensor_of, cal, banks=banks)
    sc.scan()
    before = micropython.mem_total()
    changes = 0
    for j in range(30):
        if j % 5 == 0:
            for a in adcs:
                a.phase += 1
        changes += sc.scan()
    check(micropython.mem_total() - before == 0,
          "30 scans allocated %d bytes" % (micropython.mem_total() - before))
    check(changes > 0, "the readings changed nothing")
    check(banks[0].v == 1 and banks[1].v == 1, "a bank left enabled")
    for i in range(n):
        s = sc.state[i]
        check((sc.band[i] == NO_BAND) == (s != UP and s != DOWN),
              "sensor %d: class %d with band %d" % (i, s, sc.band[i]))


# -- calibration: the ranks step, the file, the old file -----------------------------------

def test_ranks_survive_the_round_trip_through_flash():
    w, b = calibrated(7, DOG4)
    c = b.calib
    path = SCRATCH + "/calib-ranks.json"
    c.save(path)
    back = calibration.load(path, c.n)
    check(back.ranked and back.levels == c.levels and back.king_up == c.king_up
          and back.king_down == c.king_down, "ranks after the round trip")
    check(list(back.up_edge) == list(c.up_edge) and list(back.dn_edge) == list(c.dn_edge),
          "band edges after the round trip")
    # each reading kept with the rank that gave it (the gains lap used every rank)
    check(sorted(set(c.up_rank)) == [0, 1, 2, 3] and back.up_rank == c.up_rank,
          "ranks of the readings after the round trip: %r" % (sorted(set(back.up_rank)),))
    # the design's levels (the rank magnets' fields at a space's sensor, hardware/design/
    # magnets.json), within the pieces' tolerances and placements
    for got, want in zip(c.levels, design_levels()):
        check(abs(got - want) < 0.1 * want, "levels %r, the design's %r" % (
            c.levels, design_levels()))


def test_an_old_calibration_file_is_an_unranked_board():
    w, b = calibrated(8, DOG4)
    old = b.calib.to_json()
    del old["ranks"]
    path = SCRATCH + "/calib-old.json"
    with open(path, "w") as f:
        json.dump(old, f)
    c = calibration.load(path, b.calib.n)
    check(not c.ranked and len(c.up_edge) == 0, "a file without ranks read as ranked")
    b.scanner.use(c)
    scan_for(b, 200)
    check(all(k == NO_BAND for k in b.scanner.band), "an unranked calibration read a rank")


def test_a_broken_ranks_field_is_refused_and_says_why():
    w, b = calibrated(9, DOG4)
    good = b.calib.to_json()
    cases = (({"levels": [1.0, 0.5, 0.25]}, "levels"),
             ({"levels": [1.0, 0.9, 0.25, 0.12]}, "fall"),
             ({"levels": [1.0, 0.5, 0.25, 0]}, "levels"),
             ({"king_up": "big"}, "king_up"),
             ({"king_down": 0}, "king_down"))
    for change, word in cases:
        obj = json.loads(json.dumps(good))
        obj["ranks"].update(change)
        try:
            calibration.from_json(obj, b.calib.n)
            check(False, "%r accepted" % (change,))
        except ValueError as e:
            check(word in str(e), "%r: %s" % (change, e))
    for bad in ([9] * b.calib.n, [0] * (b.calib.n - 1), "kings"):
        obj = json.loads(json.dumps(good))
        obj["up_rank"] = bad
        try:
            calibration.from_json(obj, b.calib.n)
            check(False, "up_rank %r accepted" % (bad,))
        except ValueError as e:
            check("up_rank" in str(e), str(e))
    obj = json.loads(json.dumps(good))
    obj["ranks"] = [1, 2]
    try:
        calibration.from_json(obj, b.calib.n)
        check(False, "ranks as a list accepted")
    except ValueError as e:
        check("ranks" in str(e), str(e))


def test_the_ranks_step_refuses_pieces_out_of_rank_order_and_changes_nothing():
    w = TrackWorld(10, config=DOG4, cards="dog-cards")
    b = Board(config_dir=DOG4, data_dir=SCRATCH)
    held = sorted((name, w.locs[w.pieces[name][0]]) for name in w.pieces)
    for name, at in held:
        w.lift(at)
    measure.measure_baseline(b.scanner, b.calib, 16)
    for name, at in held:  # jester on s1 ... king on s4: the reverse of the procedure
        colour, k = name.split("-")
        w.place(name, "%s:s%d" % (colour, 5 - int(k)))
    try:
        ranks_step(b)
        check(False, "ranks in reverse order accepted")
    except ValueError as e:
        check("rank order" in str(e), str(e))
    check(not b.calib.ranked and all(v == 0 for v in b.calib.up), "the refusal changed it")
    for name, at in held:
        colour, k = name.split("-")
        w.lift("%s:s%d" % (colour, 5 - int(k)))
    try:
        ranks_step(b)
        check(False, "an empty board measured as ranks")
    except ValueError as e:
        check("no piece read for rank 1" in str(e), str(e))


def test_the_pieces_step_takes_any_rank_for_a_sensors_own_gain():
    w, b = calibrated(11, DOG4)
    c = b.calib
    w.lift("red:s3")
    w.place("red-3", "30")  # a citizen: a quarter of a king's swing
    j = b.index["30"]
    scan_for(b, 200)
    ups, downs = measure.measure_pieces(b.scanner, c)
    check((ups, downs) == (16, 0), "measured %d up, %d down" % (ups, downs))
    check(c.up_rank[j] == 2, "the citizen on 30 sorted into rank %d" % c.up_rank[j])
    king_here = c.king_reading(j, True) - c.base[j]
    # what the board's average king gives on this sensor (at its own height), through its gain
    z = w.fld.z0[j] + w.fld.depth[j]
    kings = [abs(w.fld.pieces["%s-1" % col].bz(z, 0.0)) for col in w.colours]
    field = calibration.swing_to_u16(sum(kings) / len(kings) * w.sens[j] * w.fe.gain)
    check(abs(king_here - field) < 0.12 * field, "king swing %d, expected about %d" % (
        king_here, field))


# -- the ranks step's neighbours (issue 27: crosstalk at the real pitch) ----------------------
# each piece's field, Br +-1.9 % and seated +-0.1 mm, is a few per cent off its rank's design;
# a level is a mean over the colours' pieces: 6 % holds it (the jester's neighbours alone
# took 12-29 % from its level before the correction)
LEVEL_TOLERANCE = 0.06


def test_the_ranks_steps_levels_on_the_6_seat_board_are_the_pieces_own():
    # every colour's four pieces stand side by side on their start-area spots, 16 mm apart
    # (22.6 on the diagonal: hardware/variants/dog-6/coords.json), and the simulated sensors
    # read every piece within reach: the levels the calibration finds are still the rank
    # magnets' own fields over the king's (hardware/design/magnets.json)
    want = design_levels("dog-6")
    for seed in (1, 2, 3, 4):
        w, b = calibrated(seed)
        for got, lv in zip(b.calib.levels, want):
            check(abs(got - lv) < LEVEL_TOLERANCE * lv, "seed %d: levels %r, the design's %r"
                  % (seed, b.calib.levels, want))


def test_the_correction_takes_each_neighbours_share_off_its_reading():
    # readings made from known own swings (upright and upside down) and the variant's shares,
    # in the board's integers: the step's rounds give the own swings back to a unit
    b = Board(config_dir=DOG6, data_dir=SCRATCH)
    c = rank_crosstalk(b)
    groups = spot_groups(b.locations)
    own = {}
    for g in range(len(groups)):
        sign = 1 if g % 2 else -1
        for k in range(4):
            own[groups[g][k]] = sign * (9000 >> k) + 37 * g
    seen = []
    for group in groups:
        for k in range(4):
            x = sum([c[4 * k + j] * own[group[j]] for j in range(4) if j != k])
            seen.append((group[k], k, own[group[k]] + x // measure.CROSSTALK_SCALE))
    for i, k, d in measure._own(seen, groups, c):
        check(abs(d - own[i]) <= 1, "%s: own %d, corrected %d" % (b.locations[i], own[i], d))


def test_a_broken_rank_crosstalk_is_refused_and_changes_nothing():
    w = TrackWorld(15, config=DOG6, cards="dog-cards")
    data = SCRATCH + "/crosstalk"  # the good step saves calib.json: not where others boot
    try:
        os.mkdir(data)
    except OSError:
        pass
    b = Board(config_dir=DOG6, data_dir=data)
    held = sorted((name, w.locs[w.pieces[name][0]]) for name in w.pieces)
    for name, at in held:
        w.lift(at)
    measure.measure_baseline(b.scanner, b.calib, 16)
    to_spots(w, [name for name, at in held])
    good = b.variant["rank_crosstalk"]
    for bad in ("0", good[:-1], good[:-1] + [0.5], [100] + good[1:],
                [0, -5000] + good[2:]):
        b.variant["rank_crosstalk"] = bad
        ans = command(b, {"step": "ranks"})
        check(ans["error"] == "refused" and "rank_crosstalk" in ans["reason"], repr(ans))
        check(not b.calib.ranked and not any(b.calib.up), "the refusal changed it")
    b.variant["rank_crosstalk"] = good
    check(command(b, {"step": "ranks"})["ok"] and b.calib.ranked, "the good figures refused")


def test_the_hal_and_the_referee_agree_on_no_band():
    from firmware.games.track import places
    check(places.NO_BAND == NO_BAND, "places.NO_BAND %d, scanner.NO_BAND %d" % (
        places.NO_BAND, NO_BAND))


def test_a_rank_that_falls_under_a_piece_waits_8_scans():
    # a piece lifted slowly passes the smaller ranks' readings on its way up: a lower rank
    # under a standing piece must hold for 8 scans (160 ms), four times a new piece's 2
    w, b = calibrated(12)
    sc = b.scanner
    w.lift("red:s1")
    w.place("red-1", "40")
    scan_for(b, 200)
    check(band_at(b, "40") == "king", "king read as %s" % band_at(b, "40"))
    w.fault("weak_magnet", "40", 5000)
    for k in range(1, 8):
        check(sc.scan() == 0 and band_at(b, "40") == "king", "rank changed after %d scans" % k)
    n = sc.scan()
    check(n == 1 and band_at(b, "40") == "knight", "after 8 scans: %d, %s" % (
        n, band_at(b, "40")))


# -- the tolerance box, end to end (issue 27, finding 3) ---------------------------------------
HEIGHT_MM = 0.5  # hardware/design/magnets.json: a sensor within 0.5 mm of its design height
AIM_MM = 2.5     # how far off a person puts a piece down by eye (placement.free_mm)


def mean_gain_space(w):
    """The track space whose sensor's sensitivity is nearest the board's mean."""
    track = [i for i in range(len(w.locs)) if ":" not in w.locs[i]]
    mean = sum(w.sens[i] for i in track) / len(track)
    return w.locs[min(track, key=lambda i: abs(w.sens[i] - mean))]


def put(w, b, piece, at, off_mm):
    """Puts the piece down on `at` (lifted from where it stood first, and the board scanned
    meanwhile: a hand takes longer than a scan) and returns the rank read there."""
    held = w.pieces[piece][0]
    if held >= 0:
        w.lift(w.locs[held])
        scan_for(b, 120)
    w.place(piece, at, off_mm=off_mm)
    scan_for(b, 120)
    return band_at(b, at)


def test_every_rank_reads_right_over_the_tolerance_box_on_the_6_seat_board():
    # every sensor 0.5 mm high or low, every piece put down 2.5 mm off (the overlay's pocket
    # takes it to within 0.8 mm of the axis), after the calibration a person does
    w, b = calibrated(13, depth=lambda loc: HEIGHT_MM if len(loc) % 2 else -HEIGHT_MM)
    free = [loc for loc in b.locations if ":s" not in loc]
    for j in range(len(free)):
        got = put(w, b, "red-%d" % (j % 4 + 1), free[j], AIM_MM)
        check(got == RANKS[j % 4], "%s on %s (%+.1f mm) read as %s" % (
            RANKS[j % 4], free[j], w.fld.depth[w.index[free[j]]], got))
    for loc in (free[0], free[1]):  # each rank on a low and on a high sensor
        for k in range(4):
            got = put(w, b, "blue-%d" % (k + 1), loc, AIM_MM)
            check(got == RANKS[k], "%s on %s read as %s" % (RANKS[k], loc, got))
            w.lift(loc)
            scan_for(b, 120)


def test_the_first_designs_king_reads_a_knight_off_centre_or_on_a_low_sensor():
    # with the first design's magnets and calibration (no overlay, no sensor's own gain; every
    # piece centred while calibrating, as its README assumed), on a sensor of the board's mean
    # gain: a king put 2.5 mm off reads as a knight, and on the same sensor 0.5 mm low a king
    # 2 mm off does
    w, b = calibrated(14, magnets=first_rank_design(), lap=False, aim=0)
    at = mean_gain_space(w)
    check(put(w, b, "red-1", at, 0) == "king", "a centred king misread")
    check(put(w, b, "red-1", at, AIM_MM) == "knight", "a king %g mm off read as %s" % (
        AIM_MM, band_at(b, at)))
    w.lift(at)
    w.sensor_depth(at, HEIGHT_MM)
    check(put(w, b, "red-1", at, 2.0) == "knight", "a king 2 mm off on a low sensor read as %s"
          % band_at(b, at))


def test_this_designs_king_holds_where_the_first_designs_fell():
    w, b = calibrated(14, depth=lambda loc: HEIGHT_MM)
    at = mean_gain_space(w)
    for off in (0, 2.0, AIM_MM):
        check(put(w, b, "red-1", at, off) == "king", "a king %g mm off read as %s" % (
            off, band_at(b, at)))


def test_a_sensor_measured_one_way_up_gives_its_swing_the_other_way():
    # the gains lap puts every piece down upright: a sensor's upside-down swing follows from
    # its own upright one (the same gain both ways), in the board's ratio of the two
    w, b = calibrated(17, DOG4)
    c = b.calib
    i = b.index["30"]
    check(c.up[i] and not c.down[i], "the lap measured 30 both ways or not at all")
    up, dn = c.king_swing(i)
    check(dn == up * c.king_down // c.king_up, "down swing %d from up %d" % (dn, up))
    check(put(w, b, "red-1", "30", 0) == "king", "the king upright")
    w.lift("30")
    scan_for(b, 120)
    w.place("red-1", "30", True)
    scan_for(b, 120)
    check(b.scanner.state[i] == DOWN and band_at(b, "30") == "king", "upside down: %s" % (
        band_at(b, "30"),))


def test_told_the_rank_the_pieces_step_measures_a_sensor_far_from_the_mean_gain():
    # a sensor 0.5 mm low and 12 % less sensitive reads a king under the king/knight edge of the
    # board's mean gain: sorted by the bands the pieces step takes it for a knight and puts
    # that sensor's king swing about twice too high; told the rank, it measures the king
    w, b = calibrated(15, DOG4, lap=False)
    c = b.calib
    at = mean_gain_space(w)
    i = b.index[at]
    w.sens[i] *= 0.88
    w.sensor_depth(at, HEIGHT_MM)
    put(w, b, "red-1", at, 0)
    true_swing = b.scanner.raw[i] - c.base[i]
    measure.measure_pieces(b.scanner, c)
    check(c.up_rank[i] == 1, "sorted as rank %d" % c.up_rank[i])
    check(c.king_swing(i)[0] > 1.5 * true_swing, "king swing %d, the king's %d" % (
        c.king_swing(i)[0], true_swing))
    rank_at = bytearray(bytes([NO_BAND]) * c.n)
    rank_at[i] = 0
    measure.measure_pieces(b.scanner, c, rank_at=rank_at)
    check(c.up_rank[i] == 0 and abs(c.king_swing(i)[0] - true_swing) < 0.03 * true_swing,
          "told the rank: king swing %d, the king's %d" % (c.king_swing(i)[0], true_swing))
    scan_for(b, 200)
    check(band_at(b, at) == "king", "read as %s" % band_at(b, at))


def test_the_pieces_steps_ranks_are_checked_and_a_refusal_changes_nothing():
    from firmware import calibrate
    folder = SCRATCH + "/pieces-ranks"
    try:
        os.mkdir(folder)
    except OSError:
        pass
    w, b = calibrated(16, DOG4, lap=False, data=folder)
    before = json.dumps(b.calib.to_json())
    for ranks, error, word in (({"99": "king"}, "bad_request", "99"),
                               ({"12": "queen"}, "bad_request", "queen"),
                               ({12: "king"}, "bad_request", "12"),
                               ({}, "bad_request", "ranks"), (["12"], "bad_request", "ranks"),
                               ({"12": "king", "red:s1": "king"}, "refused", "12")):
        ans = calibrate.command(b, {"op": "calibrate", "step": "pieces", "ranks": ranks})
        check(not ans["ok"] and ans["error"] == error and word in ans["reason"],
              "%r: %r" % (ranks, ans))
        check(json.dumps(b.calib.to_json()) == before, "%r changed the calibration" % (ranks,))
    ans = calibrate.command(b, {"op": "calibrate", "step": "pieces",
                                "ranks": {"red:s1": "king", "red:s2": "knight"}})
    check(ans["ok"] and ans["upright"] == 2, "measured: %r" % (ans,))
    TrackWorld(16)
    plain = Board(config_dir="hardware", data_dir=SCRATCH + "/nocal-pieces")
    ans = calibrate.command(plain, {"op": "calibrate", "step": "pieces",
                                    "ranks": {"12": "king"}})
    check(ans["error"] == "refused" and "no ranks" in ans["reason"], "%r" % (ans,))


def test_an_empty_space_beside_a_king_never_reads_as_a_piece():
    # on the 4-seat board (seed 1) a king on 14 pulls the reading of the empty 15 towards the
    # upside-down threshold: about 2 standard deviations of one reading's noise short of it, so
    # single readings cross it now and then (at 2 scans of single readings a whole game saw 15
    # taken, then empty again, and here it did twice in these 100 s; the simulator repeats
    # for a seed). Each scan's reading out of its band is the mean of three conversions
    # (firmware/hal/scanner.py): 15 stays empty
    w, b = calibrated(1, config=DOG4)
    sc = b.scanner
    i = b.index["15"]
    at = w.locs[w.pieces["green-1"][0]]
    w.lift(at)
    w.place("green-1", "14")
    scan_for(b, 200)
    total = 0
    seen = []
    for _ in range(5000):  # 100 s of board time
        if sc.scan():
            seen.extend([b.locations[sc.changed[j]] for j in range(sc.nchanged)])
        total += sc.raw[i]
    w.lift("14")
    w.place("green-1", at)
    # the case is a close one: the mean reading within 3 sigma (4 mV rms, about 80) of it
    margin = total // 5000 - sc.dn_on[i]
    check(0 < margin < 3 * 80, "15 reads %d above the threshold" % margin)
    check(seen == [], "reported %r" % (seen,))


def lower(w, b, at, mm_per_s, top_mm=15.0):
    """A hand lowering the piece on `at` from top_mm to its place at mm_per_s, the board
    scanned on the way and for 20 scans after; returns the ranks reported there, in order."""
    sc = b.scanner
    seen = []
    h = top_mm
    while True:
        w.hold(at, h)
        for j in range(sc.scan()):
            if b.locations[sc.changed[j]] == at:
                seen.append(band_at(b, at))
        if not h:
            break
        h = max(0.0, h - mm_per_s * SCAN_MS / 1000)
    for _ in range(20):
        for j in range(sc.scan()):
            if b.locations[sc.changed[j]] == at:
                seen.append(band_at(b, at))
    return seen


def test_a_king_lowered_at_a_hands_pace_is_reported_as_a_king_and_no_rank_between():
    # from 15 mm up a king's field is flattest where it reads as a jester (hardware/design:
    # 1.5 mT at 15 mm, 2.5 mT at 11), so that is reported on the way; below it the reading
    # moves by more than SETTLED from scan to scan at 30 mm/s and more, so the citizen and the
    # knight it passes are not (without the scan-to-scan test both are, at 40 mm/s and
    # slower); the king counts 2 scans after it rests
    w, b = calibrated(12)
    w.lift("red:s1")
    scan_for(b, 200)
    for v in (30, 60, 120, 200):
        w.place("red-1", "40")
        seen = lower(w, b, "40", v)
        check(seen and seen[-1] == "king" and all(r in ("jester", "king") for r in seen),
              "lowered at %d mm/s: reported %r" % (v, seen))
        w.lift("40")
        scan_for(b, 200)


def test_a_rank_that_rises_under_a_piece_counts_after_2_scans():
    # a hand holding a king still 1.5 mm up reads as a knight (which no reading can tell from
    # a knight at rest); let down, it reads as a king 2 scans later: a rank rises under a
    # piece only as it settles (with the 8 scans of a falling rank it took 8)
    w, b = calibrated(12)
    sc = b.scanner
    w.lift("red:s1")
    scan_for(b, 200)
    w.place("red-1", "40")
    w.hold("40", 1.5)
    seen = scan_for(b, 10 * SCAN_MS)
    check(seen == [("40", "upright")] and band_at(b, "40") == "knight", "held: %r, %s" % (
        seen, band_at(b, "40")))
    w.hold("40", 0)
    check(sc.scan() == 0, "the king reported after 1 scan")
    n = sc.scan()
    check(n == 1 and band_at(b, "40") == "king", "after 2 scans: %d, %s" % (
        n, band_at(b, "40")))
