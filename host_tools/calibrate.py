"""agentboard calibrate: measures the board's hall sensors and draws what each one reads.

The picture puts every sensor on one line: its readings on a voltage scale from the lowest to
the highest a working sensor can put out, so a weak magnet (upright and upside-down marks
close to the empty mark), a sensor mounted too far away, or a broken one (empty mark outside
the scale, or the class `fault`) stands out at a glance.

A board whose pieces carry ranks (DOG Royal: magnets of four sizes) adds the ranks step after
the empty board: every piece on its start-area spot in rank order, which gives each rank's
level; its picture marks each sensor's rank band edges (|) and names the rank it reads now."""
from firmware.hal.calibration import u16_to_volts as volts  # as the firmware reads the ADC
from shared_rules.ranks import RANKS

WIDTH = 44
WEAK = 0.4  # as Calibration.weak(): a swing under 40 % of the nominal one


def _col(u16, lo, hi):
    x = (u16 - lo) * (WIDTH - 1) // max(1, hi - lo)
    return min(WIDTH - 1, max(0, x))


def verdict(s, i):
    """'fault', 'weak', 'not measured' or 'ok' for sensor i of a `sensors` answer. On a ranked
    board the measured readings are what a king gives there, the nominal its mean swing."""
    base = s["base"][i]
    if s["class"][i] == "fault" or not s["fault_lo"] <= base <= s["fault_hi"]:
        return "fault"
    if not s["up"][i] and not s["down"][i]:
        return "not measured"
    ranks = s.get("ranks")
    nominal = min(ranks["king_up"], ranks["king_down"]) if ranks else s["nominal_swing"]
    up = s["up"][i] - base if s["up"][i] else nominal
    dn = base - s["down"][i] if s["down"][i] else nominal
    if min(up, dn) < nominal * WEAK:
        return "weak"
    return "ok"


def picture(s):
    """The sensors answer of the firmware as text: one line per sensor and a summary."""
    lo, hi = s["fault_lo"], s["fault_hi"]
    out = ["%-9s %6s %7s %7s %7s   %-*s  %s" % (
        "sensor", "empty", "upright", "upside", "now", WIDTH,
        "%.2f V %s %.2f V" % (volts(lo), "-" * (WIDTH - 14), volts(hi)), "verdict"),
        "%-9s %6s %7s %7s %7s   %s" % ("", "V", "V", "down V", "", "v down  ( ) thresholds  "
                                       "o empty  ^ upright  * now")]
    ranked = "up_edge" in s
    if ranked:
        out[0] += "  rank"
        out[1] += "  | rank band edges"
    counts = {}
    for i in range(len(s["loc"])):
        row = [" "] * WIDTH
        # later marks win a shared column: what was measured over what is read now
        marks = [(s["raw"][i], "*"), (s["dn_on"][i], "("), (s["up_on"][i], ")"),
                 (s["base"][i], "o")]
        if ranked:
            marks = marks[:1] + [(s[key][3 * i + j], "|") for key in ("up_edge", "dn_edge")
                                 for j in range(3)] + marks[1:]
        if s["down"][i]:
            marks.append((s["down"][i], "v"))
        if s["up"][i]:
            marks.append((s["up"][i], "^"))
        for val, ch in marks:
            row[_col(val, lo, hi)] = ch
        v = verdict(s, i)
        counts[v] = counts.get(v, 0) + 1
        out.append("%-9s %6.2f %7s %7s %7s   %s  %s" % (
            s["loc"][i], volts(s["base"][i]),
            "%.2f" % volts(s["up"][i]) if s["up"][i] else "-",
            "%.2f" % volts(s["down"][i]) if s["down"][i] else "-",
            s["class"][i], "".join(row), "" if v == "ok" else v.upper())
            + ("  " + (s["rank"][i] or "-") if ranked else ""))
    out.append("%d sensors: %s" % (len(s["loc"]), ", ".join(
        "%d %s" % (counts[k], k) for k in ("ok", "weak", "fault", "not measured")
        if counts.get(k))))
    bad = [s["loc"][i] for i in range(len(s["loc"])) if verdict(s, i) in ("weak", "fault")]
    if bad:
        out.append("check: %s (hardware/README.md, bring-up: weak = magnet or sensor height, "
                   "fault = wiring or a dead sensor)" % ", ".join(bad))
    return "\n".join(out)


PIECES = ("Put pieces on sensors not measured yet, some upright and some upside down, then "
          "press Enter (type done to finish)")
PIECES_RANKED = ("To measure each sensor's own gain (optional): put pieces of any rank on "
                 "sensors not measured yet, then press Enter (type done to finish)")
RANKS_STEP = ("Put every piece on its start-area spot in rank order, as the box sets them out: "
              "king on s1, knight on s2, citizen on s3, jester on s4; then press Enter")


def measure_ranks(con, ask, say):
    """The ranks step of a board whose pieces carry ranks, asked again until the board can
    tell the ranks apart (or the input ends)."""
    from host_tools.device import DeviceError
    while True:
        if ask(RANKS_STEP) is None:
            raise NoAnswer("calibrate needs Enter pressed between its steps: run it in a "
                           "terminal (standard input ended)")
        ans = con.send({"op": "calibrate", "step": "ranks"})
        if ans.get("ok"):
            lv = ans["levels"]
            say("ranks measured (each rank's swing as a fraction of a king's): %s; a king "
                "swings %.3f V" % (", ".join("%s %.2f" % (r, lv[r]) for r in RANKS),
                                   volts(ans["king_up"])))
            return ans
        if ans.get("error") != "refused":
            raise DeviceError("the board could not measure: %s" % ans.get("reason"))
        say("not measured: %s" % ans.get("reason"))


class NoAnswer(Exception):
    """Standard input ended before the calibration's first step."""


def _sensors(con):
    from host_tools.device import DeviceError
    ans = con.send({"op": "sensors"})
    if not ans.get("ok"):
        raise DeviceError("the board cannot calibrate now: %s" % ans.get("reason"))
    if type(ans.get("sensors")) is not dict:
        raise DeviceError("the board sent no sensor readings (is its firmware current? "
                          "`agentboard deploy` installs it)")
    return ans["sensors"]


def run(con, ask, say, show_only=False):
    """The guided calibration over a console `con` (host_tools.device). `ask(prompt)` returns
    the user's answer (None at the end of input); `say(text)` prints. The board is asked for
    its sensors first: a board that does not answer, or runs a game, is said so before the
    person is asked to clear it."""
    from host_tools.device import DeviceError
    sensors = _sensors(con)
    if show_only:
        say(picture(sensors))
        return 0
    if ask("Take every piece off the board, then press Enter") is None:
        raise NoAnswer("calibrate needs Enter pressed between its steps: run it in a "
                       "terminal (standard input ended)")
    ans = con.send({"op": "calibrate", "step": "empty"})
    if not ans.get("ok"):
        raise DeviceError("the board could not measure: %s" % ans.get("reason"))
    say("empty board measured and stored")
    if ans.get("out_of_range"):
        say("out of range, baseline kept (dead or disconnected?): %s" % ", ".join(
            ans["out_of_range"]))
    if sensors.get("ranked_board"):
        measure_ranks(con, ask, say)
    while True:
        reply = ask(PIECES_RANKED if sensors.get("ranked_board") else PIECES)
        if reply is None or reply.strip().lower() in ("done", "d", "q"):
            break
        ans = con.send({"op": "calibrate", "step": "pieces"})
        if not ans.get("ok"):
            raise DeviceError("the board could not measure: %s" % ans.get("reason"))
        say("measured %d upright and %d upside down%s" % (
            ans["upright"], ans["upside_down"],
            "; weak so far: " + ", ".join(ans["weak"]) if ans["weak"] else ""))
    say(picture(_sensors(con)))
    return 0

