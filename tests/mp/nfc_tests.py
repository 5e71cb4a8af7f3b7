# The MFRC522 driver against the simulated chip (register level) and NTAG213 stickers.
import time

from simboard import fresh, check
from host_tools.games.track.world import TrackWorld
from firmware.board import Board
from firmware.hal.mfrc522 import CARD, REMOVED, TWO_CARDS, OK, NO_CARD, TAG_POWER_UP_US

SCRATCH = "/tmp"
UID = bytes([0x04, 0x5A, 0x13, 0x22, 0x9C, 0x61, 0x80])
UID2 = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])


def polls(b, n, every_ms=100):
    out = []
    for _ in range(n):
        out.append(b.cards.poll())
        time.sleep_ms(every_ms)
    return out


def test_chip_answers_with_its_version():
    w, b = fresh(1)
    check(b.nfc.version() == 0x92, "VersionReg %x" % b.nfc.version())


def test_reads_a_seven_byte_uid_once_per_placement():
    w, b = fresh(2)
    check(polls(b, 3) == [0, 0, 0], "events with no card")
    w.card(UID)
    got = polls(b, 10)
    check(got == [CARD] + [0] * 9, "held still: %r" % (got,))
    check(b.cards.uid == UID, "uid %r" % (b.cards.uid,))


def test_removal_is_reported_and_a_new_placement_reads_again():
    w, b = fresh(3)
    w.card(UID)
    polls(b, 2)
    w.card_off()
    got = polls(b, 4)
    check(got[:2] == [0, REMOVED], "removal after two empty polls: %r" % (got,))
    w.card(UID)
    check(polls(b, 2) == [CARD, 0], "placed again")
    w.card_off()
    polls(b, 3)
    w.card(UID2)
    check(polls(b, 1) == [CARD] and b.cards.uid == UID2, "second card")


def test_an_empty_poll_costs_about_the_chip_timer():
    w, b = fresh(4)
    t0 = time.ticks_us()
    st = b.nfc.read_uid(bytearray(10))
    dt = time.ticks_diff(time.ticks_us(), t0)
    check(st == NO_CARD, "status %d" % st)
    # the driver sets a 1.5 ms receive timeout; with the SPI traffic a miss stays under 3 ms
    check(1500 <= dt < 3000, "an empty poll took %d us" % dt)


def test_corrupted_frames_never_yield_a_wrong_uid():
    w, b = fresh(5)
    w.card(UID)
    w.fault("nfc_crc", None, 3000)
    seen = []
    for _ in range(30):
        ev = b.cards.poll()
        if ev == CARD:
            seen.append(b.cards.uid)
        time.sleep_ms(100)
    check(all(u == UID for u in seen), "read %r" % (seen,))
    check(b.cards.errors > 0, "the fault produced no errors: %d" % b.cards.errors)
    polls(b, 5)
    check(b.cards.uid == UID, "not read after the fault: %r" % (b.cards.uid,))


def test_two_cards_on_the_reader_are_a_collision_not_a_uid():
    w, b = fresh(6)
    w.card(UID)
    w.card(UID2)
    got = polls(b, 4)
    check(got == [TWO_CARDS, 0, 0, 0], "two cards: %r" % (got,))
    check(b.cards.uid == b"", "a uid was guessed: %r" % (b.cards.uid,))
    w.card_off()
    w.card(UID2)
    check(polls(b, 1) == [CARD] and b.cards.uid == UID2, "after the collision")


def powered(b):
    """The reader's antenna on, and its tags given the time ISO/IEC 14443-3 allows them."""
    b.cards.arm()
    time.sleep_us(TAG_POWER_UP_US)


def test_read_uid_checks_status_ok_for_a_present_card():
    w, b = fresh(7)
    w.card(UID)
    powered(b)
    buf = bytearray(10)
    st = b.nfc.read_uid(buf)
    n = b.nfc.uid_len
    check(st == OK and bytes(buf[:n]) == UID, "status %d uid %r" % (st, bytes(buf[:n])))


def test_every_card_of_the_deck_reads_back_its_uid():
    w, b = fresh(8)
    buf = bytearray(10)
    for uid_hex, kind in w.deck:
        w.card(uid_hex)
        powered(b)
        st = b.nfc.read_uid(buf)
        n = b.nfc.uid_len
        got = "".join(["%02x" % x for x in buf[:n]])
        check(st == OK and got == uid_hex, "%s (%s) read as %s, status %d" % (
            uid_hex, kind, got, st))
        w.card_off()


# -- the readers as designed (hardware/design/readers.json) --------------------------------------

class _NoInput:
    def poll(self):
        return None


def spec_with(change):
    """readers.json as parsed, changed by change(spec) (an older or another design)."""
    from host_tools.sim import world as W
    spec = W.load_json(W.READERS)
    change(spec)
    return spec


def pile_on_the_pad(spec):
    # the DOG boards' first design: the reader under the discard pile
    for name in ("agent-dog-4", "dog-4", "dog-6"):
        lay = spec["layouts"][name]
        lay["pile_mm"] = list(lay["pads_mm"]["cards"])


def played_then_discarded(spec, uids, seed=11):
    """The application's console events while the players play each card of uids in turn: on
    the play pad, read, then discarded (0.4 s apart). Stickers not enrolled: the board names
    each card it reads in a reject, and says two cards when two stickers answer."""
    import json
    import firmware.games.track.app as app
    w = TrackWorld(seed, readers=spec)
    t = 1000000
    for uid in uids:
        w.at_time(t, w.card, uid)
        w.at_time(t + 300000, w.discard)
        t += 400000
    lines = []
    app.main("hardware", SCRATCH, max_scans=(t // 1000) // 20 + 10, write=lines.append,
             inp=_NoInput())
    return w, [json.loads(x) for x in lines if '"reject"' in x]


def test_the_second_card_played_is_read_with_the_first_on_the_discard_pile():
    w, rej = played_then_discarded(None, [UID, UID2])
    check([e.get("uid") for e in rej] == [UID.hex(), UID2.hex()], "rejects: %r" % (rej,))
    check([t.uid for t in w.table.piled()] == [UID, UID2], "the pile: both cards")


def test_with_the_reader_under_the_pile_the_second_card_is_two_cards():
    # the old design: the first card stays in the field under the second
    w, rej = played_then_discarded(spec_with(pile_on_the_pad), [UID, UID2])
    check(rej[0].get("uid") == UID.hex(), "the first card: %r" % (rej,))
    check(any("two cards on the reader" in e["reason"] for e in rej[1:]) and
          not any(e.get("uid") == UID2.hex() for e in rej), "the second card: %r" % (rej,))


def reads_after_a_pile(spec, n, seed=12):
    """Whether the reader reads the card played after n cards of the deck were discarded."""
    w = TrackWorld(seed, readers=spec)
    b = Board(config_dir="hardware", data_dir=SCRATCH)
    for uid_hex, _ in w.deck[:n]:
        w.card(uid_hex)
        w.discard()
    last = w.deck[n][0]
    w.card(last)
    polls(b, 2)
    return b.cards.uid == bytes([int(last[j:j + 2], 16) for j in range(0, 14, 2)])


def test_a_full_discard_pile_never_makes_a_played_card_unreadable():
    check(reads_after_a_pile(None, 100), "the card played after 100 discards is not read")
    # under the pile, the stickers detune each other: nothing reads any more
    check(not reads_after_a_pile(spec_with(pile_on_the_pad), 10),
          "a pile of 10 over the reader still reads the card on top")


def test_a_sticker_answers_only_once_it_has_been_in_the_field_for_5_ms():
    w, b = fresh(13)
    w.card(UID)
    buf = bytearray(10)
    b.nfc.antenna(True)
    early = b.nfc.read_uid(buf)
    time.sleep_us(TAG_POWER_UP_US)
    late = b.nfc.read_uid(buf)
    b.nfc.antenna(False)
    check(early == NO_CARD and late == OK, "at once %d, after 5 ms %d" % (early, late))
    # a poll switches the field on and waits for the tags itself
    w.card_off()
    polls(b, 3)
    w.card(UID2)
    check(b.cards.poll() == CARD and b.cards.uid == UID2, "a poll not armed first")


def test_the_driver_waits_for_the_chip_to_start_after_its_reset():
    from host_tools.sim import nfc_chip as C
    w, b = fresh(14)
    # what the driver set up after the reset pulse took (the timer's prescaler)
    check(b.nfc.read(C.T_PRESCALER) == 0xA9, "timer prescaler %x" % b.nfc.read(C.T_PRESCALER))
    chip = w.nfc.chips[0]
    b.nfc.rst.value(0)
    b.nfc.rst.value(1)
    b.nfc.write(C.T_PRESCALER, 0x55)  # at once: the crystal is still starting
    check(b.nfc.read(C.COMMAND) & C.POWER_DOWN, "PowerDown reads 0 while starting")
    check(b.nfc.read(C.T_PRESCALER) == 0, "a write during the start-up was taken")
    check(b.nfc.wait_ready() and not chip.selected, "never ready")


# -- the Agent Avenue board: three readers on one bus -------------------------------------------

AVENUE = "hardware/variants/agent-avenue"


def avenue(spec=None, seed=21):
    from host_tools.games.avenue.world import AvenueWorld
    w = AvenueWorld(seed, AVENUE, readers=spec)
    return w, Board(config_dir=AVENUE, data_dir=SCRATCH)


def rounds(b, n, turns=None):
    """n rounds of the application's reader polls (PollTurns, one a scan of 20 ms, a round as
    many scans as readers, after the scan that arms the first): the events per reader."""
    from firmware.hal.mfrc522 import PollTurns
    turns = turns or PollTurns(b.readers)
    seen = [[] for _ in b.readers]
    for k in range(len(b.readers) * n + 1):
        j = turns.step()
        if j >= 0 and b.readers[j].event:
            seen[j].append(b.readers[j].event)
        time.sleep_ms(20)
    return seen


def scans_until_gone(b, turns, j, limit=40):
    """Scans of the application's polls until reader j reports its card REMOVED (None if not
    within limit), and any other event meanwhile."""
    other = []
    for k in range(1, limit + 1):
        r = turns.step()
        time.sleep_ms(20)
        if r == j and b.readers[j].event == REMOVED:
            return k, other
        if r >= 0 and b.readers[r].event:
            other.append((r, b.readers[r].event))
    return None, other


def test_avenue_a_card_taken_off_is_gone_two_polls_after_its_turn():
    # whatever the scan the hand lifts the card at: its reader's turn comes within a round
    # (3 scans), its first empty poll puts it first, polled again two scans later (its field
    # rested a scan); the second empty poll reports it gone. The other pads' cards stay.
    from firmware.hal.mfrc522 import PollTurns
    worst = 0
    for phase in range(3):
        w = AvenueWorld_with_cards()
        b = Board(config_dir=AVENUE, data_dir=SCRATCH)
        turns = PollTurns(b.readers)
        check(rounds(b, 2, turns) == [[CARD]] * 3, "the three cards read")
        for _ in range(phase):
            turns.step()
            time.sleep_ms(20)
        w.card_off("down")
        n, other = scans_until_gone(b, turns, 1)
        check(n is not None and not other, "phase %d: gone after %r scans, other events %r"
              % (phase, n, other))
        worst = max(worst, n)
        check([len(r.uid) for r in b.readers] == [7, 0, 7], "the other pads' cards")
    # a round, then a scan of rest and the second poll: 100 ms at the most, against 300 ms
    # when each reader was polled once in 5 scans and a card was gone after 3 empty polls
    check(worst == 5, "the slowest: %d scans" % worst)


def test_corrupted_frames_never_keep_the_other_readers_from_their_turns():
    # the up and down pads' cards each miss one poll (lifted), then lie there again under a
    # burst of corrupted frames: each gets its one look ahead of the others, no more, so the
    # tap pad's reader keeps its turn every third scan (when a missed card kept its place in
    # front until it read, the two corrupted readers took every scan between them)
    from firmware.hal.mfrc522 import PollTurns
    w = AvenueWorld_with_cards()
    b = Board(config_dir=AVENUE, data_dir=SCRATCH)
    turns = PollTurns(b.readers)
    check(rounds(b, 2, turns) == [[CARD]] * 3, "the three cards read")
    for pad in ("up", "down"):
        w.fault("nfc_crc", pad, 3000)
        w.card_off(pad)
    back = [False, False]
    for _ in range(12):
        turns.step()
        time.sleep_ms(20)
        for r in range(2):
            if b.readers[r].misses and not back[r]:
                w.card(w.deck[r][0], ("up", "down")[r])
                back[r] = True
    check(back == [True, True], "a poll missed each lifted card: %r" % (back,))
    polled = [0, 0, 0]
    for _ in range(30):
        j = turns.step()
        time.sleep_ms(20)
        if j >= 0:
            polled[j] += 1
            check(b.readers[j].event != REMOVED, "a card under corrupted frames taken off")
    check(min(polled) >= 9, "polls per reader in 30 scans: %r" % (polled,))


def test_a_sticker_keeps_its_state_through_a_field_gap_under_5_1_ms():
    # the simulated sticker as ISO/IEC 14443-3 has it: read (left ACTIVE), its field off for
    # less than the field reset, it does not answer the next wake-up; off for the reset's
    # 5.1 ms or more, it starts from IDLE and does
    from firmware.hal.mfrc522 import RF_RESET_US
    w, b = fresh(17)
    w.card(UID)
    buf = bytearray(10)
    got = []
    for gap_us in (1000, RF_RESET_US):
        b.nfc.antenna(True)
        time.sleep_us(TAG_POWER_UP_US)
        first = b.nfc.read_uid(buf)
        b.nfc.antenna(False)
        time.sleep_us(gap_us)
        b.nfc.antenna(True)
        time.sleep_us(TAG_POWER_UP_US)
        got.append((first, b.nfc.read_uid(buf)))
        b.nfc.antenna(False)
        time.sleep_ms(20)
    check(got == [(OK, NO_CARD), (OK, OK)], "read, then after 1 ms and 5.1 ms off: %r" % (got,))


def test_a_reader_is_armed_only_once_its_field_has_been_off_long_enough():
    # a scan that ran long may bring the next reader's turn close to its last poll: arming it
    # waits out the field reset (5.1 ms off), so that its tags start from IDLE
    from firmware.hal.mfrc522 import RF_RESET_US
    w, b = fresh(16)
    w.card(UID)
    r = b.cards
    r.arm()
    time.sleep_ms(20)
    r.poll()
    off = time.ticks_us()
    r.arm()
    on = time.ticks_us()
    r.poll()
    check(time.ticks_diff(on, off) >= RF_RESET_US, "on again after %d us" % time.ticks_diff(
        on, off))


def test_the_readers_fields_rest_a_scan_between_polls():
    # an operating field off for 5.1 ms resets the tags in it (ISO/IEC 14443-3): each poll
    # then finds them in IDLE. The application never switches a field on again sooner, with
    # one reader (polled every other scan) or three, a card taken off or not.
    from firmware.hal.mfrc522 import PollTurns, RF_RESET_US
    for make in (lambda: fresh(15), avenue):
        w, b = make()  # one world at a time: the device's stand-ins follow the newest
        table = w.table
        off_at = {}
        rests = []
        real = table.switched

        def switched(j, on, real=real, off_at=off_at, rests=rests, w=w):
            real(j, on)
            if on and j in off_at:
                rests.append(w.clock_us - off_at[j])
            elif not on:
                off_at[j] = w.clock_us

        table.switched = switched
        pad = "up" if len(b.readers) > 1 else None
        w.card(w.deck[0][0], pad)
        turns = PollTurns(b.readers)
        rounds(b, 4, turns)
        w.card_off(pad)
        rounds(b, 4, turns)
        check(rests and min(rests) >= RF_RESET_US, "%d readers: rests %r" % (
            len(b.readers), sorted(rests)[:3]))


def test_avenue_each_reader_reads_its_own_pad_alone():
    w, b = avenue()
    check([r.chip.version() for r in b.readers] == [0x92] * 3, "versions")
    cards = [w.deck[0][0], w.deck[1][0], w.deck[2][0]]
    for name, uid in zip(("up", "down", "tap"), cards):
        w.card(uid, name)
    seen = rounds(b, 3)
    check(seen == [[CARD]] * 3, "events per reader: %r" % (seen,))
    got = ["".join(["%02x" % x for x in r.uid]) for r in b.readers]
    check(got == cards, "each reader read %r" % (got,))


def no_miso_buffer(spec):
    spec["bus"]["miso_buffered"] = False


def test_avenue_without_the_miso_buffers_no_reader_answers():
    # the old design: the deselected modules hold MISO low under every byte the selected one
    # returns
    w, b = avenue(spec_with(no_miso_buffer))
    check([r.chip.version() for r in b.readers] == [0] * 3, "versions through a held MISO")
    w.card(w.deck[0][0], "up")
    check(rounds(b, 3) == [[], [], []], "a card read through a held MISO")


def test_avenue_the_application_keeps_one_field_on_at_a_time():
    import firmware.games.avenue.app as app
    w = AvenueWorld_with_cards()
    table = w.table
    most = [0]
    real = table.switched

    def switched(j, on):
        real(j, on)
        n = sum(1 for c in table.chips if c.field_on)
        most[0] = n if n > most[0] else most[0]

    table.switched = switched
    app.main(AVENUE, SCRATCH, max_scans=100, write=lambda line: None, inp=_NoInput())
    check(most[0] == 1, "fields on at once: %d" % most[0])


def AvenueWorld_with_cards():
    from host_tools.games.avenue.world import AvenueWorld
    w = AvenueWorld(22, AVENUE)
    for name, (uid, _) in zip(("up", "down", "tap"), w.deck):
        w.card(uid, name)
    return w


def close_pads(spec):
    # pads 35 mm apart: closer than the design's, so that two fields on drown the pauses
    spec["layouts"]["agent-avenue"]["pads_mm"]["down"] = [35, 0]


def test_two_fields_on_side_by_side_keep_a_sticker_from_its_readers_pauses():
    w, b = avenue(spec_with(close_pads))
    w.card(w.deck[0][0], "up")
    up, down = b.readers[0].chip, b.readers[1].chip
    buf = bytearray(10)
    up.antenna(True)
    down.antenna(True)
    time.sleep_us(TAG_POWER_UP_US)
    both = up.read_uid(buf)
    down.antenna(False)
    alone = up.read_uid(buf)
    up.antenna(False)
    check(both != OK and alone == OK, "both fields on: %d, one: %d" % (both, alone))


def test_avenue_a_refused_card_blinks_its_pad_for_2_s_of_board_time():
    # the refusal's blink is the board's clock (each scan), not the readers': it lasts 2 s
    # whatever the polls' schedule (a black-market card laid on a play pad: refused)
    import json
    import os
    from firmware.games.avenue import app as app_mod
    from firmware.games.avenue import referee as R
    from firmware.games.avenue.shown import PAD_LIFT
    w = AvenueWorld_with_cards()
    for pad in ("up", "down", "tap"):
        w.card_off(pad)
    market = [u for u, k in w.deck if k in R.tables.load().market_names][0]
    data = SCRATCH + "/blink"
    try:
        os.mkdir(data)
    except OSError:
        pass
    with open(data + "/cards.json", "w") as f:
        for u, k in w.deck:
            f.write(json.dumps([u, k]) + "\n")
    lines = []
    a = app_mod.App(AVENUE, data, write=lines.append, inp=_NoInput())
    a.boot()
    a.ref.start("simple", (1, 1), 0)
    n = 0
    for n in range(100):  # the pawns read on their starts, the game in play
        a.step(n)
        time.sleep_ms(20)
    w.card(market, "up")
    refused_at = None
    for n in range(100, 400):
        a.step(n)
        time.sleep_ms(20)
        marked = a.ref.publish().pads[R.UP] == PAD_LIFT
        if refused_at is None and '"reject"' in "".join(lines):
            refused_at = n
        elif refused_at is not None and not marked:
            break
    check(refused_at is not None, "the market card was not refused: %r" % lines[-3:])
    check(abs((n - refused_at) - 100) <= 1, "blinked %d scans" % (n - refused_at))
