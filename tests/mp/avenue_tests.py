# The Agent Avenue referee (firmware/games/avenue/referee.py) on MicroPython, driven directly: pads,
# sensors and buttons as the application hands them over, with expectations from the rules
# (facts note: Enforcer +1 with one in play, Mole -3, Sentinel 0; seed 002: both cards played,
# the other side recruits first, the hand drawn back to 4).
import json
import os

from simboard import check
from firmware.gamelog import Store
from firmware.cardmap import CardMap
from firmware.games.avenue import referee as R

SCRATCH = "/tmp"
GREEN_READS = 1  # scanner class of green's pawn (south pole down: upright)
BLUE_READS = 2
SPACES = 14


def fresh_dir(name):
    d = SCRATCH + "/" + name
    try:
        os.mkdir(d)
    except OSError:
        pass
    for f in ("game.log", "cards.json"):
        try:
            os.remove(d + "/" + f)
        except OSError:
            pass
    return d


def uid(k):
    return "04%012x" % (k + 1)


class Table:
    """A referee with its own flash folder and a sticker per card kind: uid(k) is kind k of
    R.card_kinds (agents first, then the black-market cards); uid(100 + k) a second copy."""

    def __init__(self, name, data=None):
        self.dir = data or fresh_dir(name)
        self.lines = []
        self.store = Store(self.dir)
        kinds = R.card_kinds(R.tables.load())
        self.cards = CardMap(self.dir, kinds)
        for k in range(len(kinds)):
            self.cards._put(bytes.fromhex(uid(k)), kinds[k])
            self.cards._put(bytes.fromhex(uid(100 + k)), kinds[k])
        self.ref = R.Referee(self.store, self.cards, self.emit, bytes([GREEN_READS, BLUE_READS]),
                             SPACES)
        self.board = bytearray(SPACES)

    def emit(self, obj):
        self.lines.append(json.dumps(obj))

    def events(self, name):
        return [json.loads(x) for x in self.lines if json.loads(x).get("event") == name]

    def pawns(self, green, blue):
        b = self.board
        for i in range(SPACES):
            b[i] = 0
        b[green] = GREEN_READS
        b[blue] = BLUE_READS
        self.ref.sense(b)
        self.ref.decide()

    def kind(self, name):
        return R.card_kinds(self.ref.tb).index(name)


def started(name="av1"):
    t = Table(name)
    t.ref.start("simple", (1, 1), 0)
    t.pawns(0, 7)
    return t


def test_a_turn_play_recruit_pawns():
    t = started()
    ref = t.ref
    check(ref.phase == "play", "phase %s" % ref.phase)
    check(t.events("turn")[-1]["side"] == "green", "green starts")
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    ref.on_pad(R.DOWN, uid(t.kind("mole")))
    check(ref.phase == "recruit", "both cards played: phase %s" % ref.phase)
    view = ref.public_view()
    check(view["played"]["down"] == "hidden" and view["played"]["up"] == "enforcer",
          "played %r" % view["played"])
    check(view["hands"]["green"] == [4] and view["deck"] == 38 - 8 - 2, "drawn back to 4")
    ref.on_pad_off(R.DOWN)  # blue takes the face-down card
    check(ref.phase == "recruit", "one card lifted: still the recruit")
    ref.on_pad_off(R.UP)
    rec = t.events("recruit")
    check([(r["side"], r["agent"]) for r in rec] == [("blue", "mole"), ("green", "enforcer")],
          "recruits %r" % rec)
    view = ref.public_view()
    check(view["pawns"] == {"green": 1, "blue": 4}, "pawns %r" % view["pawns"])
    check(view["phase"] == "await_effect" and view["expected"] == ["0", "1", "4", "7"],
          "view %s %r" % (view["phase"], view["expected"]))
    t.pawns(1, 4)
    check(ref.phase == "play" and t.events("turn")[-1]["side"] == "blue", "blue's turn")


def test_identical_names_only_when_declared():
    t = started("av2")
    ref = t.ref
    ref.on_pad(R.UP, uid(t.kind("sentinel")))
    ref.on_pad(R.DOWN, uid(100 + t.kind("sentinel")))
    check(ref.phase == "play" and t.events("reject"), "refused without a declaration")
    ref.hold_confirm()
    check(ref.phase == "recruit", "declared: played (%s)" % ref.phase)


def test_resume_from_flash_replays_every_decision():
    t = started("av3")
    ref = t.ref
    ref.on_pad(R.TAP, uid(t.kind("daredevil")))  # a discard
    ref.on_pad_off(R.TAP)
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    ref.on_pad(R.DOWN, uid(t.kind("mole")))
    before = ref.public_view()
    again = Table("av3", t.dir)
    again.pawns(0, 7)
    again.ref.resume_from_flash()
    # the readers find the two cards still lying on their pads
    again.ref.on_pad(R.UP, uid(t.kind("enforcer")))
    again.ref.on_pad(R.DOWN, uid(t.kind("mole")))
    after = again.ref.public_view()
    check(after == before, "resumed %r\nbefore %r" % (after, before))
    check(after["discards_left"]["green"] == [3] and after["deck"] == 38 - 8 - 1 - 2,
          "discard counted")


def test_a_market_card_is_refused_on_the_play_pads_and_the_discard_unnamed():
    t = started("av4")
    ref = t.ref
    ref.on_pad(R.UP, uid(t.kind("masterplan")))
    check(t.events("reject") and ref.public_view()["pads"]["up"] is None, "refused")
    ref.on_pad_off(R.UP)
    ref.on_pad(R.TAP, uid(t.kind("codebreaker")))
    check("codebreaker" not in "".join(t.lines), "a discard is never named")


def test_the_face_down_card_changes_no_output_byte():
    outs = []
    for down in ("mole", "saboteur", "double_agent"):
        t = started("av5")
        t.lines = []
        ref = t.ref
        ref.on_pad(R.UP, uid(t.kind("enforcer")))
        ref.on_pad(R.DOWN, uid(t.kind(down)))
        t.lines.append(json.dumps(ref.public_view()))
        # the saved game too: its length decides whether and where the flash fills up
        t.lines.append("game.log %d bytes" % os.stat(t.dir + "/game.log")[6])
        ref.on_pad_off(R.DOWN)
        t.lines.append(json.dumps(ref.public_view()))
        outs.append(t.lines)
    check(outs[0] == outs[1] == outs[2], "outputs differ with the face-down card: %r" % outs)


def test_selftest_checks_every_reader_of_the_board():
    from firmware import selftest
    from host_tools.games.avenue.world import AvenueWorld
    import builtins
    real_print = builtins.print
    builtins.print = lambda *a, **kw: None
    config = "hardware/variants/agent-avenue"
    try:
        AvenueWorld(5, config)
        rep = selftest.run(config, SCRATCH)
        check(rep["ok"], "good board: %r" % (rep["problems"],))
        check(sorted(rep["occupied"]) == ["0", "7"], "the pawns at home: %r" % rep["occupied"])
        w = AvenueWorld(6, config)
        w.nfc.chips[1].powered = False  # the down reader's module is unplugged
        w.nfc.chips[1].cs_pin = -1
        rep = selftest.run(config, SCRATCH)
    finally:
        builtins.print = real_print
    check(not rep["ok"] and len(rep["problems"]) == 1 and "reader down" in rep["problems"][0],
          "a dead down reader: %r" % (rep["problems"],))


def test_a_flash_that_refuses_every_save_is_told_once_and_the_game_goes_on():
    from firmware.store import Guarded
    from store_tests import Refusing  # a flash chip that does not answer: EIO
    records = []
    faults = []
    for dead in (False, True):
        t = Table("av6")
        if dead:
            t.store = Guarded(Refusing(5), t.emit)
            t.ref.store = t.store
        ref = t.ref
        ref.start("simple", (1, 1), 0)
        t.pawns(0, 7)
        ref.on_pad(R.TAP, uid(t.kind("daredevil")))  # a discard
        ref.on_pad_off(R.TAP)
        ref.on_pad(R.UP, uid(t.kind("enforcer")))
        ref.on_pad(R.DOWN, uid(t.kind("mole")))
        ref.on_pad_off(R.DOWN)
        ref.on_pad_off(R.UP)
        t.pawns(1, 4)
        ref.on_pad(R.UP, uid(t.kind("sentinel")))
        ref.on_pad(R.DOWN, uid(t.kind("saboteur")))
        records.append(json.loads("".join(ref.export_parts())))
        faults.append(t.events("fault"))
    check(not faults[0], "a working flash told of a fault: %r" % faults[0])
    check(len(faults[1]) == 1 and faults[1][0]["what"] == "save" and faults[1][0]["errno"] == 5,
          "faults %r" % faults[1])
    check("pad" not in json.dumps(records[0]), "the record's padding exported")
    check(records[1] == records[0] and len(records[0]["turns"]) >= 2,
          "the record kept in RAM %r\non flash %r" % (records[1], records[0]))


def played_and_cut(name, strip_stickers=False):
    """A play (enforcer up, mole down), then a power cut: a new referee on the same flash,
    the pads empty at power-up. strip_stickers: the play's line as a firmware from before
    the stickers were saved wrote it."""
    t = started(name)
    t.ref.on_pad(R.UP, uid(t.kind("enforcer")))
    t.ref.on_pad(R.DOWN, uid(t.kind("mole")))
    if strip_stickers:
        with open(t.dir + "/game.log") as f:
            lines = [json.loads(x) for x in f if x.strip()]
        for line in lines:
            line.pop("uids", None)
        with open(t.dir + "/game.log", "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
    again = Table(name, t.dir)
    again.pawns(0, 7)
    again.ref.resume_from_flash()
    return t, again


def test_after_a_cut_in_the_recruit_a_lift_decides_nothing_until_both_cards_are_back():
    t, again = played_and_cut("av7")
    ref = again.ref
    check(ref.put_back() == ["up", "down"], "both asked back: %r" % ref.put_back())
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    ref.on_pad_off(R.UP)  # lifted before the face-down card is back: no choice
    check(not again.events("recruit") and ref.phase == "recruit", "nothing decided")
    ref.on_pad(R.DOWN, uid(100 + t.kind("mole")))  # the other mole: not the card played
    check(again.events("reject") and ref.put_back() == ["up", "down"], "a twin refused")
    ref.on_pad_off(R.DOWN)
    ref.on_pad(R.DOWN, uid(t.kind("mole")))
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    check(ref.put_back() == [], "both back")
    ref.on_pad_off(R.UP)  # blue takes the face-up card, green the other
    ref.on_pad_off(R.DOWN)
    rec = again.events("recruit")
    check([(r["side"], r["agent"]) for r in rec] == [("blue", "enforcer"), ("green", "mole")],
          "recruits %r" % rec)


def test_confirm_with_one_card_back_says_the_other_was_taken():
    t, again = played_and_cut("av8")
    ref = again.ref
    check(not ref.confirm(), "no card back yet: confirm says nothing")
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    check(ref.confirm() and again.events("taken") == [{"event": "taken", "face": "down"}],
          "taken %r" % again.events("taken"))
    ref.on_pad_off(R.UP)
    rec = again.events("recruit")
    check([(r["side"], r["agent"]) for r in rec] == [("blue", "mole"), ("green", "enforcer")],
          "recruits %r" % rec)


def test_a_record_without_stickers_takes_the_first_agent_card_on_each_pad():
    t, again = played_and_cut("av9", strip_stickers=True)
    ref = again.ref
    ref.on_pad(R.UP, uid(t.kind("masterplan")))  # not an agent: never a played card
    check(again.events("reject") and ref.put_back() == ["up", "down"], "a market card")
    ref.on_pad_off(R.UP)
    ref.on_pad(R.UP, uid(t.kind("enforcer")))
    ref.on_pad(R.DOWN, uid(t.kind("mole")))
    check(ref.put_back() == [], "both back: %r" % ref.put_back())
    ref.on_pad_off(R.DOWN)
    ref.on_pad_off(R.UP)
    check([r["agent"] for r in again.events("recruit")] == ["mole", "enforcer"], "recruited")


def test_the_saved_play_is_as_long_whatever_the_stickers_uid_length():
    sizes = []
    for short in (False, True):
        t = started("av10")
        down = "04a1b2c3" if short else uid(t.kind("mole"))  # a 4-byte and a 7-byte UID
        t.cards._put(bytes.fromhex(down), "mole")
        t.ref.on_pad(R.UP, uid(t.kind("enforcer")))
        t.ref.on_pad(R.DOWN, down)
        sizes.append(os.stat(t.dir + "/game.log")[6])
    check(sizes[0] == sizes[1], "game.log %r" % sizes)
