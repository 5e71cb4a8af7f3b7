# The simulated world itself: deterministic for a seed, faults as the control channel defines
# them, and the world API refusing what hands cannot do.
from host_tools.sim.world import World, SimError
from simboard import fresh, scan_for, state_of, check

SCRATCH = "/tmp"


def readings(seed, n=300):
    w = World(seed)
    out = []
    for k in range(n):
        w.select = k % 16
        out.append(w.adc_u16(36 + 0 * k))
    return out


def test_same_seed_same_board_other_seed_other_sensors():
    a = readings(11)
    check(a == readings(11), "a seed does not repeat")
    check(a != readings(12), "two seeds gave the same readings")


def test_stuck_sensor_keeps_its_last_reading_then_recovers():
    w, b = fresh(3)
    scan_for(b, 200)
    w.fault("stuck_sensor", "20", 500)
    w.lift("red:s1")
    w.place("red-1", "20")
    seen = scan_for(b, 300)
    check(("20", "upright") not in seen, "a stuck sensor saw the piece: %r" % (seen,))
    seen = scan_for(b, 600)
    check(("20", "upright") in seen, "not seen after the fault: %r" % (seen,))


def test_hands_cannot_do_the_impossible():
    w = World(4)
    for fn, args in ((w.lift, ("5",)), (w.place, ("red-1", "5")), (w.flip, ("5",)),
                     (w.lift, ("99",)), (w.place, ("purple-1", "5")), (w.press, ("start",)),
                     (w.fault, ("melt", "5")), (w.card, ("0411",))):
        try:
            fn(*args)
            raise AssertionError("%s%r was accepted" % (fn.__name__, args))
        except SimError:
            pass
    w.lift("red:s1")
    try:
        w.place("red-1", "blue:s1")
        raise AssertionError("placed onto an occupied spot")
    except SimError as e:
        check("blue-1" in str(e), "message %r" % str(e))


def test_world_reports_every_piece():
    w = World(5)
    w.lift("green:s3")
    w.place("green-3", "44", upside_down=True)
    pieces = w.world()
    check(len(pieces) == 16, "%d pieces" % len(pieces))
    check(pieces["green-3"] == {"at": "44", "upside_down": True}, "%r" % (pieces["green-3"],))
    check(pieces["red-1"] == {"at": "red:s1", "upside_down": False}, "%r" % (pieces["red-1"],))
