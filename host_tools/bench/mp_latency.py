# Runs on MicroPython from a device tree built with the simulator:
#   micropython mp_latency.py N [SCENE]
# plays one move of a scene on the simulated board and prints the board time from the last
# thing the players did (a placement, or the confirm press a move the sensors cannot tell
# from a longer one needs) to the accepted move, split into the scanner's debounce and the
# quiet scan. With N = 2 the accepting decision is taken once more (position, judge, touched
# squares, the view and the strip with its bytes restored first), and the LEDs are drawn from
# it as the app does, the frame written to the strip, so callgrind counts of N = 2 and N = 1
# differ by the processing of one accepted move up to the accept LEDs; mp_window.py keeps the
# simulator's work out of the count. It prints too the frame's board time and the bytes the
# decision allocates (with N >= 2).
#
# Scenes (SCENES below): agent-dog (default: red's opening 5, 0 -> 5, on the Agent DOG board),
# and DOG Royal with 6 players on the 6-seat board, which is calibrated for ranks first the way
# a maker does at bring-up: royal-king (red's king, 0 -> 5 with a 5), royal-1-7 (red's king
# 0 -> 3 with the 1-7, confirmed: 3 lies on the way of its longer counts, so without confirm
# it is taken once it has stood there TRANSIT_MS, firmware/games/track/referee.py), royal-jump (red's citizen 0 -> 8 with an 8, a special space: it draws
# and jumps on to the next free one, 24), royal-stop (the same citizen stays on 8: the board
# cannot tell that from a jump to come, so the player confirms).
import sys
sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
import json
import os
import mp_window
from host_tools.games.track.world import TrackWorld
from host_tools.sim.world import config_dir
mp_window.exclude_hardware()  # before the firmware binds a name of the stand-ins
from firmware.games.track import app as app_mod
from firmware.loop import SCAN_MS
from shared_rules import variant

N = int(sys.argv[1])
SCENE = sys.argv[2] if len(sys.argv) > 2 else "agent-dog"
KING, CITIZEN = 1, 3  # the World's piece numbers (colour-1 .. colour-4: king .. jester)
# scene -> (board, game, players, the piece red puts on its start space, card, placements
# [(from, to)], whether the player confirms)
SCENES = {
    "agent-dog": (None, "agent-dog", 4, None, "5", [("0", "5")], False),
    "royal-king": ("dog-6", "dog-royal", 6, KING, "5", [("0", "5")], False),
    "royal-1-7": ("dog-6", "dog-royal", 6, KING, "1-7", [("0", "3")], True),
    "royal-jump": ("dog-6", "dog-royal", 6, CITIZEN, "8", [("0", "8"), ("8", "24")], False),
    "royal-stop": ("dog-6", "dog-royal", 6, CITIZEN, "8", [("0", "8")], True),
}
board, game_name, players, red_first, card, placements, confirms = SCENES[SCENE]
for name in ("game.log", "calib.json"):  # a fresh flash: every run does the same work
    open(name, "w").close()  # (whether an earlier run, of any scene, left the file or not)
    os.remove(name)
cards_name = variant.variant_class(game_name).cards_name
w = TrackWorld(1, board=board, cards=cards_name)
uid = w.card_of_kind(card)
with open("cards.json", "w") as f:
    f.write(json.dumps([uid, card]) + "\n")
events = []


class NoInput:
    def poll(self):
        return None


a = app_mod.App(config_dir(board) if board else "hardware", ".",
                write=lambda line: events.append((w.clock_us, line)), inp=NoInput())
a.boot()
ref = a.ref
n = 0


def run_until(cond, limit=400):
    global n
    for _ in range(limit):
        t0 = w.clock_us
        a.step(n)
        n += 1
        spent = w.clock_us - t0
        if spent < SCAN_MS * 1000:
            w.advance_us(SCAN_MS * 1000 - spent)  # as app.main paces the loop
        if cond():
            return
    raise SystemExit("timed out")


def scans(k):
    left = [k]

    def done():
        left[0] -= 1
        return left[0] <= 0
    run_until(done)


def command(cmd):
    ans = a.command(cmd)
    if not ans.get("ok"):
        raise SystemExit("%s refused: %s" % (cmd, ans))


game = variant.load(game_name, a.lay.name)
lay = game.lay
if game.ranked:
    # bring-up: the empty board, then every piece on its start-area spot in rank order
    pieces = w.world()
    for name in pieces:
        if pieces[name]["at"] is not None:
            w.lift(pieces[name]["at"])
    scans(20)
    command({"op": "calibrate", "step": "empty"})
    for name in pieces:
        colour, k = name.rsplit("-", 1)
        w.place(name, "%s:s%s" % (colour, k))
    scans(20)
    command({"op": "calibrate", "step": "ranks"})
    scans(20)
ref.start(players, game=game)
st = ref.st
for c in st.seats:
    colour = lay.colours[c]
    k = (red_first if colour == "red" else KING) if game.ranked else lay.ppc
    w.place(w.lift("%s:s%d" % (colour, k)), str(lay.start[c]))
run_until(lambda: ref.phase == "await_card")
w.card(uid)
run_until(lambda: ref.phase == "await_move")
w.card_off()
pre = (ref.st, ref.judge, ref.card)
t_last = 0
for frm, to in placements:
    if t_last:
        scans(10)  # a citizen stands on its special space a moment before it jumps on
    w.place(w.lift(frm), to)
    t_last = w.clock_us
reported = []
touched = bytearray(len(ref.touched))  # the squares touched when the move is decided
real_sense = ref.sense
real_decide = ref.decide
leds_before = bytearray(len(a.view.shown))  # what the LEDs showed before the decision
strip = a.view.strip
strip_before = [None, None]  # the strip's state and its bytes before the decision


def sense(sensed, changed, bands=None):
    reported.append(w.clock_us)
    real_sense(sensed, changed, bands)
    touched[:] = ref.touched


def decide():
    leds_before[:] = a.view.shown
    strip_before[0] = mp_window.state_of(strip)
    strip_before[1] = mp_window.state_of(strip.np)
    real_decide()


ref.sense = sense
ref.decide = decide
if confirms:
    scans(20)  # the board has settled on a move it cannot tell from a longer one
    w.press("confirm")
    t_last = w.clock_us
run_until(lambda: ref.phase != "await_move")
t_move = [t for t, line in events if '"move"' in line][0]
frame_us = [0]


def back_to_before():
    # the moment before the decision: the referee, the view and the strip (its bytes too, so
    # that the accept frame is written to the LEDs as the first time)
    ref.st, ref.judge, ref.card = pre
    ref.phase = "await_move"
    ref.touched[:] = touched
    a.view.shown[:] = leds_before
    mp_window.restore(strip, strip_before[0])
    mp_window.restore(strip.np, strip_before[1])


def again():
    real_decide()
    if confirms:
        ref.confirm()
    a.shown = ref.publish()  # as App.step after a decision: the accept LEDs
    t0 = w.clock_us
    a.view.render(a.shown, True)
    frame_us[0] = w.clock_us - t0  # board time: the frame clocked out to the strip


alloc = mp_window.counted(again, N - 1, back_to_before)
debounce = (reported[-1] - t_last) / 1000.0 if reported and reported[-1] > t_last else 0.0
print(json.dumps({"debounce_ms": debounce,
                  "quiet_ms": (t_move - max(t_last, reported[-1] if reported else 0)) / 1000.0,
                  "total_ms": (t_move - t_last) / 1000.0, "frame_ms": frame_us[0] / 1000.0,
                  "alloc_bytes": alloc // max(1, N - 1)}))
