# The MFRC522 driver against the simulated chip (register level) and NTAG213 stickers.
import time

from simboard import fresh, check
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
    check(got[:3] == [0, 0, REMOVED], "removal after three empty polls: %r" % (got,))
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
