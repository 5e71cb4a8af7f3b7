# The board's power path (issue 27, finding 6) as the supply model sees it: on every variant the
# DevKit has one supply, the supply meets no more capacitance at attach than USB Type-C allows
# and charges the rest through a soft start, the LED data line is held low while the ESP32 is
# in reset, the card readers are off the DevKit's LDO and the LDO stays within its package, and
# at the most the LEDs can draw the ESP32's supply stays above its brown-out detector. VBUS
# passes fuse, TVS, reverse-polarity MOSFET and eFuse, traced through the generated nets.
# In the simulator, the LEDs' current follows the frame the firmware writes, and a supply that
# cannot hold the ESP32 up resets the device, which then resumes its game as after a power cut.
# The figures are the design data's (hardware/design/parts.json, esp32.json) and the
# simulator's supply.json, each with its datasheet; each test but the last two fails with the
# design data this change replaced (the DevKit on the board's 5 V by its 5V pin, 1 mF on VBUS,
# no pull-down, the readers on the DevKit's LDO, no eFuse).
import os

import pytest

import circuits
from hardware.design import circuit, data, power_path
from host_tools.sim import supply
from host_tools.games.track.world import TrackWorld
from host_tools.sim import worlds

# SKiDL builds the circuit
pytestmark = pytest.mark.hardware

VARIANTS = [os.path.basename(f) for f in data.variant_folders()]
LIB = data.parts()
SIM = supply.load_sim_data()
ESP = data.esp32()["power"]
BROWNOUT_V = ESP["brownout_v"] + ESP["brownout_tolerance_v"]  # the least sensitive chip's


@pytest.fixture(scope="module", params=VARIANTS)
def built(request):
    """(variant, its boards, the power design read off them, the model on the kit's cable)."""
    v = data.Variant(os.path.join(data.VARIANTS_DIR, request.param))
    boards = circuits.board_list(v)  # built once per worker, shared (from parts.json, as LIB)
    d = power_path.design(v, LIB, boards)
    return v, boards, d, power_path.model(d, LIB)


def parts_of(board, key):
    return [p for p, k in board.placed if k == key]


def net_of(part, pin):
    return circuit.pin_of(part, pin).net


# --- the design ------------------------------------------------------------------------------

def test_the_devkit_has_one_supply(built):
    # Espressif: the DevKitC's USB port, 5V pin and 3V3 pin are mutually exclusive supplies.
    # Its USB port takes one plug: the board's lead or a laptop's cable, never both
    _, boards, d, m = built
    main = boards[0]
    assert d["devkit_input"] == "usb"
    for key in ("devkit_j2", "devkit_j3"):
        for s in parts_of(main, key):
            for p in s.pins:
                if p.name in ("5V", "3V3"):
                    assert not power_path.wired(p), (s.ref, p.name)
    [usb_a] = parts_of(main, "usb_a")
    assert net_of(usb_a, "VBUS").name == circuit.V5
    assert m.backfeed() is None


def test_the_supply_meets_no_more_than_10_uf_at_attach(built):
    # USB Type-C allows a sink 10 uF on VBUS without inrush control; the board's 1 mF of LED
    # reservoirs charges behind the eFuse's soft start, at well under its current limit
    _, _, d, m = built
    att = m.attach()
    assert att["c_direct_uf"] <= SIM["sink_bulk_uf_max"] == att["limit_uf"]
    assert d["c_soft_uf"] > 1000     # the LED reservoirs are all behind it
    assert att["ramp_ms"] >= 10
    assert att["ramp_ma"] < d["efuse"]["ilim_ma"] < d["source_ma"]
    assert att["ok"]


def test_vbus_passes_fuse_tvs_reverse_mosfet_and_efuse(built):
    _, boards, d, _ = built
    main = boards[0]
    assert [k for k, _, _ in d["path"]] == ["fuse", "q_rev", "efuse"]
    [usb] = parts_of(main, "usb_c")
    [fuse] = parts_of(main, "fuse")
    [tvs] = parts_of(main, "tvs")
    [q] = parts_of(main, "q_rev")
    [efuse] = parts_of(main, "efuse")
    vbus_in = net_of(usb, circuit.USB_VBUS[0])
    assert all(net_of(usb, p) is vbus_in for p in circuit.USB_VBUS)
    assert {net_of(fuse, "1"), net_of(fuse, "2")} == {vbus_in, net_of(q, "D")}
    assert net_of(tvs, "1") is net_of(q, "D") and net_of(tvs, "2").name == circuit.GND
    assert net_of(q, "S") is net_of(efuse, "3")
    assert all(net_of(efuse, p).name == circuit.V5 for p in circuit.EFUSE_OUT)
    # the gate tied to GND: on with the supply the right way round, off reversed
    [r] = [p.part for p in net_of(q, "G").pins if p.part is not q]
    assert {pp.net.name for pp in r.pins} == {"QREV_GATE", circuit.GND}
    # an ESD clamp on each CC line, beside its 5.1 k
    for cc in ("A5", "B5"):
        keys = sorted(k for p in net_of(usb, cc).pins for part, k in main.placed
                      if part is p.part and part is not usb)
        assert keys == ["esd_cc", "r_cc"], (cc, keys)


def test_the_led_data_line_is_held_low_during_reset(built):
    # GPIO13 floats while the ESP32 is in reset; the 74AHCT125 would pass noise to the chain,
    # which latches it as colours, every LED up to full white: a pull-down keeps them dark
    _, boards, d, m = built
    [shifter] = parts_of(boards[0], "shifter")
    line = net_of(shifter, circuit.SHIFTER_USED + "A")
    assert power_path.held_low(boards[0], LIB, line)
    assert d["led_data_held"]
    assert m.worst_led_ma() == d["leds"]["budget_ma"]


def test_the_card_readers_are_off_the_devkits_ldo_which_stays_within_its_package(built):
    # On the DevKit's AMS1117 the three Agent Avenue readers made it burn about 1 W in its
    # SOT-223, and every reader's RF pulses loaded the ESP32's own supply
    _, boards, d, m = built
    ldo = m.ldo()
    assert not ldo["readers_on_it"] and d["reader_rail"] == circuit.V3_NFC
    assert ldo["watts"] <= ldo["allowed_w"]
    for header in parts_of(boards[0], "nfc_header"):
        assert net_of(header, "3.3V").name == circuit.V3_NFC


def test_at_the_most_the_leds_draw_the_esp32_stays_above_its_brownout_level(built):
    # the kit's supply and cable, the firmware's LED budget (the most it lets the LEDs draw),
    # the other loads at their typical and at their maximum currents
    _, _, _, m = built
    assert m.d["efuse"] is not None     # and the eFuse's lockout does not cut it off
    for col in (supply.TYP, supply.MAX):
        st = m.state(m.worst_led_ma(), col)
        assert st["status"] == supply.OK, st
        assert st["esp32_v"] >= BROWNOUT_V, st
        assert st["efuse_in_v"] > m.d["efuse"]["uv_v"], st


def test_make_hardware_reports_no_power_findings(built):
    _, _, d, _ = built
    assert power_path.findings(d, LIB) == []


def test_the_simulator_builds_the_design_the_circuit_has(built):
    # the simulator cannot run SKiDL: it builds the design from the data files and the maps;
    # it must be the one power_path reads off the generated circuit
    v, _, d, _ = built
    w = worlds.for_board(v.name, 1)
    sim_d = w.supply.d
    for key in ("source_v", "source_ma", "efuse", "devkit_input", "devkit_lead_mohm", "ldo",
                "esp", "converters", "reader_rail", "leds", "led_data_held"):
        assert sim_d[key] == d[key], key
    assert sorted(sim_d["path"]) == sorted(d["path"])
    assert sorted(sim_d["loads"]) == sorted(d["loads"])
    for rail in d["loads"]:
        assert sim_d["loads"][rail] == pytest.approx(d["loads"][rail]), rail


# --- the model's physics ---------------------------------------------------------------------

def test_cable_resistance_follows_the_gauge():
    # ASTM B258 and IACS copper: 28 AWG is 212.9 mOhm/m, 22 AWG 52.96 mOhm/m
    assert supply.awg_mohm_per_m(28, SIM["copper"]) == pytest.approx(212.9, rel=2e-3)
    assert supply.awg_mohm_per_m(22, SIM["copper"]) == pytest.approx(52.96, rel=2e-3)
    kit = LIB["modules"]["usb_c_cable"]["loop_mohm"]
    assert kit == pytest.approx(2 * 1.0 * 52.96 + SIM["cable_contacts_mohm"], abs=1)
    # within the USB Type-C 3 A cable's IR drop: 500 mV VBUS + 250 mV GND at 3 A
    assert kit <= 750 / 3.0
    assert supply.capacitance_uf("1000uF 10V") == 1000 and supply.capacitance_uf("47nF") == 0.047


def test_the_leds_draw_what_the_frame_asks_and_a_full_white_frame_trips_the_efuse():
    w = TrackWorld(1)
    n = len(w.leds_map)
    assert w.supply_report()["led_ma"] == n * 1      # every controller, all dark
    white = bytearray([255] * (3 * n))
    w.led_write(white, (1, 0, 2), 3)
    # 20 mA a channel at full duty and 1 mA a controller (pins.json power): 61 mA an LED
    assert w.supply_report()["led_ma"] == pytest.approx(61.0 * n)
    assert w.power_state["status"] == supply.CURRENT_LIMIT and w.brownouts == 1
    # the firmware's limiter keeps a scene within 850 mA: the board stays up
    scale = 255 * (850 - n) // (60 * n)
    w.led_write(bytearray([scale] * (3 * n)), (1, 0, 2), 3)
    rep = w.supply_report()
    assert rep["status"] == supply.OK and rep["led_ma"] <= 850 and rep["esp32_v"] == 3.3
    assert w.brownouts == 1


def test_a_thin_cable_trips_the_undervoltage_lockout_and_a_bad_cable_is_refused():
    w = TrackWorld(1)
    w.set_cable({"awg": 28, "m": 3.0})
    assert w.power_state["status"] == supply.UNDERVOLTAGE and w.power_state["brownout"]
    w.set_cable("kit")
    assert w.power_state["status"] == supply.OK
    with pytest.raises(Exception, match="a cable is kit"):
        w.set_cable("garden hose")
    assert w.cable == "kit"


def test_the_supply_op_checks_its_cable_before_anything_happens():
    from host_tools.sim import requests
    w = TrackWorld(1)
    for bad in ({"awg": 28}, {"awg": 28, "m": 0}, {"awg": 2, "m": 1}, {"awg": 28.0, "m": 1},
                {"awg": 28, "m": 1, "x": 1}, 5, ""):
        with pytest.raises(requests.BadRequest):
            requests.check({"op": "supply", "cable": bad}, w)
    with pytest.raises(requests.Refused, match="not a cable"):
        requests.check({"op": "supply", "cable": "garden-hose"}, w)
    assert requests.check({"op": "supply", "cable": {"awg": 28, "m": 1.5}}, w)["cable"] == \
        {"awg": 28, "m": 1.5}
    assert w.cable == "kit"


# --- a brown-out in the simulator --------------------------------------------------------------

def cable_between(model, held_ma, bright_ma):
    """A 28 AWG cable (its length) on which the board holds held_ma in its LEDs and browns
    out at bright_ma: a cable too thin for a bright scene."""
    saved = model.cable_mohm
    try:
        for tenths in range(1, 100):
            m = tenths / 10.0
            model.cable_mohm = supply.cable_mohm({"awg": 28, "m": m}, LIB, SIM)
            # some margin below the lockout for what the scene adds while the game goes on
            if model.state(held_ma + 60)["brownout"]:
                break
            if model.state(bright_ma)["brownout"]:
                return m
        raise AssertionError("no cable holds %d mA and fails at %d" % (held_ma, bright_ma))
    finally:
        model.cable_mohm = saved


@pytest.mark.micropython
def test_a_brownout_resets_the_device_and_the_game_resumes_as_after_a_power_cut():
    from host_tools.games.track.players import Table, Players
    t = Table(seed=5)
    try:
        t.new_game(4)
        players = Players(t, 5)
        players.deal()
        for _ in range(4):
            players.turn()
        before = t.record()["turns"]
        held = t.ask({"op": "supply"})
        assert held["brownouts"] == 0 and held["status"] == "ok"
        # every piece lifted off the board: the squares to put them back on light up white
        bright_ma = held["led_ma"] + 16 * 3 * 20 * 96 / 255.0 * 0.9
        metres = cable_between(t.sim.mirror.supply, held["led_ma"], bright_ma)
        t.ask({"op": "supply", "cable": {"awg": 28, "m": metres}})
        ans = t.ask({"op": "wait", "ms": 300})
        assert "resets" not in ans                  # the game's scene holds on this cable
        pieces = {}
        for name, p in t.world().items():
            if p["at"] is not None:
                pieces[name] = p
                t.lift(p["at"])
        ans = t.sim.request({"op": "wait", "ms": 500})
        resets = ans["resets"]
        assert resets and all(r["cause"] == "brownout" and r["esp32_v"] < ESP["brownout_v"] and
                              r["status"] == supply.UNDERVOLTAGE for r in resets), ans
        # it boots again into the same bright scene and browns out again: left off
        assert ans["error"] == "device_off" and len(resets) == 4
        assert t.ask({"op": "supply"})["brownouts"] == len(resets)
        # the kit's cable, the pieces back, power on: the board resumes its game
        t.ask({"op": "supply", "cable": "kit"})
        for name, p in sorted(pieces.items()):
            t.place(name, p["at"], p["upside_down"])
        t.ask({"op": "power_on"})
        t.wait(300)
        assert any(e.get("event") == "resumed" for e in t.events), t.events[-5:]
        assert t.adopt_device_game()["turns"] == before
        for _ in range(3):
            players.turn()
        assert len(t.record()["turns"]) == len(before) + 3
    finally:
        t.close()
