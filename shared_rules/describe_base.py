# What the words of every game share (shared_rules/describe.py finds each game's part): places,
# lists, names and the board's own events (boot, fault, mismatch) said the same way on every
# board. Runs on MicroPython too.

# the names the rules core keeps in lower case with "_" (agents, black-market cards, reasons):
# these short words stay lower case inside a name ("Leader of the Pack")
_SMALL_WORDS = ("of", "the", "a", "an", "and")
# the only MFRC522 versions a working card reader reports (firmware/selftest.py checks the same)
READER_VERSIONS = (0x91, 0x92)


def cap(text):
    """The sentence's first letter in capitals (MicroPython's str has no capitalize)."""
    text = str(text)
    return text[:1].upper() + text[1:]


def listed(items):
    """"a", "a and b", "a, b and c"."""
    items = [str(x) for x in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def where(loc):
    """A location as players say it: "38", "red's home space 2", "red's start area" (a
    start-area spot "red:s3" and the rules' "red:start" alike)."""
    loc = str(loc)
    if ":" not in loc:
        return loc
    colour, spot = loc.split(":", 1)
    if spot[:1] == "h":
        return "%s's home space %s" % (colour, spot[1:])
    return "%s's start area" % colour


def reason(text):
    """A reason the firmware gave, for a person: a card's or a rule's key in it ("security_system
    is not in the offer") said by its name ("Security System is not in the offer")."""
    out = []
    for word in str(text).split(" "):
        core = word.rstrip(".,:;)")
        if "_" in core and core.replace("_", "").isalpha():
            word = name(core) + word[len(core):]
        out.append(word)
    return " ".join(out)


def places(locs):
    return listed([where(x) for x in locs])


def name(key):
    """A card's or a reason's name for a person: "double_agent" -> "Double Agent",
    "leader_of_the_pack" -> "Leader of the Pack"."""
    words = str(key).split("_")
    out = []
    for j, w in enumerate(words):
        out.append(w if j and w in _SMALL_WORDS else cap(w))
    return " ".join(out)


def plural(n, one, many=None):
    return "%d %s" % (n, one if n == 1 else (many or one + "s"))


def boot(ev, title=None):
    """The application started: its build, its cards, its sensors and its card reader."""
    head = "The board started" + (" for %s" % title if title else "")
    build = ev.get("version")
    head += " (build %s)" % build if build else " (no build number on its flash)"
    parts = [plural(ev.get("cards_enrolled") or 0, "card") + " enrolled",
             "sensors calibrated" if ev.get("calibrated") else "sensors not calibrated yet"]
    v = ev.get("nfc_version")
    if v in READER_VERSIONS:
        parts.append("card reader answers")
    elif v is not None:
        parts.append("card reader does not answer (it reports 0x%02x)" % (v & 0xFF))
    return "%s: %s." % (head, ", ".join(parts))


def fault(ev):
    what = ev.get("what")
    err = ev.get("errno")
    code = " (error %s)" % err if err else ""
    reason = ev.get("reason")
    if what == "save":
        return "The flash could not save the last turn%s: the game goes on, kept in memory." \
            % code
    if what == "memory":
        return "The board's memory is full: it can keep no more of this game, so undo and " \
            "export no longer work."
    if what == "load":
        return "The game on the flash could not be read%s: no game was resumed." % code
    return "Fault in %s%s: %s." % (what, code, reason) if reason else \
        "Fault in %s%s." % (what, code)


def mismatch(ev):
    locs = ev.get("locations") or []
    if not locs:
        return "The board matches the game again."
    return "The board differs from the game at %s." % places(locs)


def unknown(ev, kind):
    """An event this version has no words for (a newer firmware's): its kind, in words."""
    return "The board says: %s." % str(kind).replace("_", " ")
