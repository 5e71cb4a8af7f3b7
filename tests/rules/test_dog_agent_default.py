# A request without `game` is an Agent DOG request and gets exactly the answers Agent DOG gives
# (dog-rules.md "Selecting the game": "Agent DOG stays the default"); naming the game
# `"agent-dog"` changes nothing else. The Agent DOG rules themselves are covered by the
# test_rules_*.py suites; here only the selection. Expectations from seed 000 as there.
import json

from rulebook import position


def ask_both_ways(both, req):
    """The answer without `game`, and the answer with `"game": "agent-dog"`."""
    plain = both.ask(req)
    named = json.loads(json.dumps(req))
    named["position"]["game"] = "agent-dog"
    return plain, both.ask(named)


def test_legal_and_hints_are_the_same_with_or_without_game_agent_dog(both):
    # red 10 + 5 lands on 15 (blue there is knocked out); red 58 + 8 reaches h2 through its
    # start space 0, or 2 on the track (agent-dog-4: holes 4 7 12 ...; neither lands on one)
    req = {"op": "legal", "position": position(red=[10, 58], blue=[15]), "card": "8"}
    plain, named = ask_both_ways(both, req)
    assert plain == named
    assert {tuple(m["path"][0]) for m in plain["moves"]} == {(10, 18), (58, 2), (58, "red:h2")}
    req = {"op": "hints", "position": position(red=[10]), "card": "5"}
    plain, named = ask_both_ways(both, req)
    assert plain == named == {"ok": True, "movable": [10], "targets": {"10": [15]}}
    # the 4 is not an Agent DOG card (the red 4 is "partner"): unknown card either way
    req = {"op": "legal", "position": position(red=[10]), "card": "4"}
    plain, named = ask_both_ways(both, req)
    assert plain["error"] == named["error"] == "bad_request"


def test_apply_is_the_same_with_or_without_game_agent_dog(both):
    req = {"op": "apply", "position": position(red=[10], blue=[15]),
           "move": {"card": "5", "path": [[10, 15]]}}
    plain, named = ask_both_ways(both, req)
    # without `game` the answer is Agent DOG's as before: no DOG fields appear in it
    assert "game" not in plain["position"] and "layout" not in plain["position"]
    assert plain["events"] == named["events"] == [
        {"type": "move", "from": 10, "to": 15}, {"type": "capture", "at": 15, "colour": "blue"}]
    # docs/dog-rules.md: a position that names its game gets answers naming both the game
    # and the layout (the default one here), and nothing else changes
    extra = {k: named["position"].pop(k) for k in ("game", "layout") if k in named["position"]}
    assert extra == {"game": "agent-dog", "layout": "agent-dog-4"}
    assert plain == named
    assert plain["position"]["to_move"] == "blue" and plain["position"]["cards_left"]["red"] == 4
