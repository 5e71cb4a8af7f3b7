# Helpers for the Agent Avenue tests (no tests here): positions written the way the protocol
# writes them, and readers for answers. The facts below are copied from the rule sources (the
# seed's rulebook and the facts the card pictures held), not from the rules core, so the tests
# count their expectations independently.
import copy

# Steps for 1, 2, 3-or-more of an agent in play (facts note table; seed example card -1/6/-1).
# "wins"/"loses" icons hold no number: 0 steps.
STEPS = {
    "double_agent": (-1, 6, -1),
    "codebreaker": (0, 0, 0),
    "daredevil": (2, 3, 0),
    "saboteur": (-1, -1, -2),
    "enforcer": (1, 2, 3),
    "sentinel": (0, 2, 6),
    "sidekick": (4,),
    "mole": (-3,),
}
COPIES = {"double_agent": 6, "codebreaker": 6, "daredevil": 6, "saboteur": 6, "enforcer": 6,
          "sentinel": 6, "sidekick": 1, "mole": 1}
AGENTS = sorted(STEPS)
MARKET_SPACES = (2, 5, 9, 12)
HOMES = {"green": 0, "blue": 7}
ONGOING = ["leader_of_the_pack", "masterplan", "security_system", "getaway_car", "watchtower",
           "supercomputer", "distraction_device", "sinister_twin"]
INSTANT = ["surveillance_truck", "smoke_screen", "outpost", "secret_recruit", "double_trouble",
           "spycation", "mind_control"]
MARKET = ONGOING + INSTANT


def steps(agent, count):
    row = STEPS[agent]
    return row[min(count, len(row)) - 1]


def other(side):
    return "blue" if side == "green" else "green"


def pos(mode="simple", active="green", phase="play", green=0, blue=7, agents=None,
        hands=None, deck=22, discards=None, seats=None, **more):
    """A position; the defaults are a plausible mid-game simple position (deck 22 with 8 cards
    in hand leaves room for 8 agents in play)."""
    seats = seats or {"green": 1, "blue": 1}
    p = {"game": "agent-avenue", "mode": mode, "seats": seats, "active": active,
         "phase": phase, "pawns": {"green": green, "blue": blue},
         "agents": agents or {"green": {}, "blue": {}},
         "hands": hands or {s: [4] * seats[s] for s in ("green", "blue")},
         "deck": deck,
         "discards_left": discards or {s: [4 if seats[s] == 1 else 2] * seats[s]
                                       for s in ("green", "blue")}}
    if mode == "advanced":
        p["offer"] = more.pop("offer", ["masterplan", "outpost", "spycation"])
        p["market_deck"] = more.pop("market_deck", 10)
        p["ongoing"] = more.pop("ongoing", {"green": [], "blue": []})
    p.update(more)
    return p


def recruit_pos(up, down, **kw):
    kw.setdefault("played", {"up": up, "down": down, "up_seat": 0})
    return pos(phase="recruit", **kw)


def market_pos(pending, moved, **kw):
    kw.setdefault("mode", "advanced")
    return pos(phase="market", pending=pending, moved=moved, **kw)


def ask(both, req):
    return both.ask(copy.deepcopy(req))


def apply(both, position, move):
    return ask(both, {"op": "apply", "position": position, "move": move})


def applied(both, position, move):
    ans = apply(both, position, move)
    assert ans["ok"], ans
    return ans["position"], ans["events"]


def legal(both, position):
    ans = ask(both, {"op": "legal", "position": position})
    assert ans["ok"], ans
    return ans["moves"]


def error_of(both, position, move):
    ans = apply(both, position, move)
    assert ans["ok"] is False, ans
    assert "internal error" not in ans["reason"]
    return ans["error"]


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def pawn_moves(events):
    return [(e["side"], e["from"], e["to"], e["steps"]) for e in of_type(events, "pawn")]


def end_of(events):
    ends = of_type(events, "end")
    return ends[0] if ends else None
