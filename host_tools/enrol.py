"""agentboard enrol: teaches the board which NFC sticker is which card. Each sticker put on the
reader is named (from --card, or asked) and stored on the board; a sticker already enrolled
is reported with its card, never enrolled twice."""
import time

from shared_rules import cards as cards_mod


def card_kinds():
    return list(cards_mod.load().names)


def _reader(con):
    """(the UID on the reader or "", the card kind it is enrolled as or None)."""
    from host_tools.device import DeviceError
    st = con.send({"op": "status"})
    reader = st.get("reader") if st.get("ok") else None
    if type(reader) is not dict or type(reader.get("card")) is not str:
        raise DeviceError("the board does not say what is on its reader (%s); is its firmware "
                          "current? `agentboard deploy` installs it" % (
                              st.get("reason") or "no reader in its status"))
    return reader["card"], reader.get("kind")


def run(con, say, ask, card=None, count=None, poll_s=0.2, idle_s=None, enrolled=None):
    """Enrols stickers as they are put on the reader, until `count` new ones (None: until
    ask() returns None or Ctrl-C). Returns how many were enrolled; `enrolled`, a list, gets
    each UID as it is stored (still there after a Ctrl-C)."""
    from host_tools.device import DeviceError
    kinds = card_kinds()
    if card is not None and card not in kinds:
        raise DeviceError("unknown card kind %r; kinds are %s" % (card, ", ".join(kinds)))
    if enrolled is None:
        enrolled = []
    _reader(con)  # the board answers, before anything is asked of the person
    say("put a card on the reader%s; take it off before the next one" % (
        " (each new sticker becomes a %s)" % card if card else ""))
    done = 0
    last = ""
    quiet_since = time.time()
    while count is None or done < count:
        uid, known = _reader(con)
        if uid and uid != last:
            quiet_since = time.time()
            if known:
                say("sticker %s is already enrolled as %s" % (uid, known))
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
                enrolled.append(uid)
                say("enrolled %s as %s (%d on the board)" % (uid, kind,
                                                            ans.get("cards_enrolled", 0)))
        last = uid
        if idle_s is not None and time.time() - quiet_since > idle_s:
            break
        time.sleep(poll_s)
    return done
