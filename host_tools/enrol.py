"""agentboard enrol: teaches the board which NFC sticker is which card. Each sticker put on the
reader is named (from --card, or asked) and stored on the board; a sticker already enrolled
is reported with its card, never enrolled twice."""
import time

from shared_rules import cards as cards_mod


def card_kinds():
    return list(cards_mod.load().names)


def run(con, say, ask, card=None, count=None, poll_s=0.2, idle_s=None):
    """Enrols stickers as they are put on the reader, until `count` new ones (None: until
    ask() returns None or Ctrl-C). Returns how many were enrolled."""
    from host_tools.device import DeviceError
    kinds = card_kinds()
    if card is not None and card not in kinds:
        raise DeviceError("unknown card kind %r; kinds are %s" % (card, ", ".join(kinds)))
    say("put a card on the reader%s; take it off before the next one" % (
        " (each new sticker becomes a %s)" % card if card else ""))
    done = 0
    last = ""
    quiet_since = time.time()
    while count is None or done < count:
        st = con.send({"op": "status"})
        uid = st["reader"]["card"]
        if uid and uid != last:
            quiet_since = time.time()
            if st["reader"].get("kind"):
                say("sticker %s is already enrolled as %s" % (uid, st["reader"]["kind"]))
            else:
                kind = card
                while kind is None:
                    kind = ask("which card is sticker %s? (%s)" % (uid, ", ".join(kinds)))
                    if kind is None:
                        return done
                    kind = kind.strip()
                    if kind not in kinds:
                        say("%r is not a card kind" % kind)
                        kind = None
                ans = con.send({"op": "enrol", "uid": uid, "card": kind})
                if not ans.get("ok"):
                    raise DeviceError("the board refused %s: %s" % (uid, ans.get("reason")))
                done += 1
                say("enrolled %s as %s (%d on the board)" % (uid, kind, ans["cards_enrolled"]))
        last = uid
        if idle_s is not None and time.time() - quiet_since > idle_s:
            break
        time.sleep(poll_s)
    return done
