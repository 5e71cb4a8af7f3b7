"""What goes wrong at a real table, on the simulated Agent Avenue board: a card lifted too early,
two cards on one pad, a bumped pawn, a power cut in the middle of a turn, bad console commands.
Each gets its answer (an event, the view's phase and expected spaces), changes nothing in the
game, and the game then goes on to agree with the players' own after every decision."""
import contextlib
import json

from shared_rules.avenue import move as M
from shared_rules.avenue.apply import apply
from shared_rules.avenue.state import MARKET
from host_tools.games.avenue.players import Players, TB, same_game, READ_MS, OFF_MS
from host_tools.sim import waiting


def agrees(p):
    wrong = same_game(p, p.view())
    assert not wrong, "; ".join(wrong)


def until(p, kind):
    """Carries out the players' decisions up to the next one of `kind`, which it returns."""
    while True:
        assert p.st.winner < 0
        mv = p.choose()
        if mv.kind == kind:
            return mv
        p.carry_out(mv)
        agrees(p)


def events(p, name):
    return [e for e in p.drain() if e.get("event") == name]


def test_a_card_lifted_before_the_other_is_played_plays_nothing():
    p = Players(2, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        up = p.uid(TB.agent_names[mv.up])
        p.drain()
        p.put(up, "up")
        p.take("up")  # lifted again before the face-down card
        seen = p.drain()
        assert [e["event"] for e in seen if e["event"] in ("card", "card_off", "play")] == [
            "card", "card_off"]
        view = p.view()
        assert view["phase"] == "play" and view["pads"] == {"up": None, "down": None}
        p.carry_out(mv)
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_the_first_card_put_back_undoes_the_recruit_choice():
    p = Players(4, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.carry_out(mv)
        up = p.uid(TB.agent_names[mv.up])
        down = p.uid(TB.agent_names[mv.down], (up,))
        p.take("down")  # the other side reaches for the face-down card ...
        p.put(down, "down")  # ... and puts it back
        assert p.view()["phase"] == "recruit"
        p.carry_out(M.recruit(M.TAKE_UP))  # then takes the face-up one
        agrees(p)
    finally:
        p.close()


def test_two_cards_on_one_pad_are_refused_and_change_nothing():
    p = Players(5, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.drain()
        p.ask({"op": "card", "uid": p.uid(TB.agent_names[mv.up]), "reader": "up"})
        p.ask({"op": "card", "uid": p.uid(TB.agent_names[mv.down], (p.uid(TB.agent_names[
            mv.up]),)), "reader": "up"})
        p.wait(READ_MS)
        refused = events(p, "reject")
        assert refused and refused[0]["reader"] == "up" and "two cards" in refused[0]["reason"]
        assert p.view()["pads"]["up"] is None
        p.take("up")
        p.carry_out(mv)
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_an_event_the_board_writes_while_it_answers_the_players_is_not_lost():
    """The board runs until it answers a console command, such as the public view the players
    read while they wait for its pawns: a card read meanwhile has its answer (a refusal) among
    the lines of that answer. The players' next look at the console has it all the same,
    whenever in the readers' polls they ask."""
    p = Players(2, "simple", (1, 1))
    try:
        until(p, M.PLAY)
        p.drain()
        wrong = p.uid(TB.market_names[0])  # a black-market card tapped in a play: refused
        with_the_view = 0
        for ms in range(0, READ_MS, waiting.SCAN_MS // 2):
            p.ask({"op": "card", "uid": wrong, "reader": "tap"})
            p.wait(ms)
            n = len(p.lines)
            assert p.view()["phase"] == "play"
            with_the_view += any(e.get("event") == "reject" for e in p.lines[n:])
            p.wait(READ_MS)
            assert [e["event"] for e in p.drain()] == ["reject"], ms
            p.take("tap")
            p.drain()
        assert with_the_view  # (the case: a refusal that came with the view's answer)
        agrees(p)
    finally:
        p.close()


def test_a_bumped_pawn_is_shown_until_it_is_put_back():
    p = Players(1, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        green = str(p.st.pawns[0])
        free = [str(s) for s in range(TB.spaces) if s not in p.st.pawns][0]
        p.drain()
        p.ask({"op": "lift", "at": green})
        p.ask({"op": "place", "piece": "green-pawn", "at": free})
        p.wait(400)
        found = events(p, "mismatch")
        assert found and sorted(found[-1]["locations"], key=int) == sorted([green, free],
                                                                           key=int)
        view = p.view()
        assert view["phase"] == "mismatch" and view["pawns"]["green"] == int(green)
        leds = p.ask({"op": "leds"})["leds"]
        r, g, b = leds[free]
        assert r > 0 and g == 0 and b == 0  # take the pawn off here: red
        # a card put down meanwhile waits: nothing is played while the board is wrong
        p.put(p.uid(TB.agent_names[mv.up]), "up")
        p.put(p.uid(TB.agent_names[mv.down], (p.uid(TB.agent_names[mv.up]),)), "down")
        assert p.view()["phase"] == "mismatch" and not events(p, "play")
        p.ask({"op": "lift", "at": free})
        p.ask({"op": "place", "piece": "green-pawn", "at": green})
        p.wait(400)
        assert [e["locations"] for e in events(p, "mismatch")] == [[]]
        # the cards lying on the pads are the play, now that the board is right again
        new_st = p.st
        from shared_rules.avenue.apply import apply
        from shared_rules.avenue import legality
        legality.check(new_st, mv)
        p.st, evs = apply(new_st, mv)
        p.table.follow(evs)
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_a_power_cut_after_the_play_resumes_at_the_recruit():
    p = Players(3, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.carry_out(mv)
        before = p.view()
        p.ask({"op": "power_cut"})
        p.ask({"op": "power_on"})
        p.wait(1500)
        assert events(p, "resumed")
        assert p.view() == before
        p.play_to_end(agrees)
    finally:
        p.close()


def cut_and_restart(p, wait_ms=1500, hands=()):
    """A power cut, the hands done while the board is off (control requests), power back."""
    p.ask({"op": "power_cut"})
    for req in hands:
        p.ask(req)
    p.ask({"op": "power_on"})
    p.wait(wait_ms)


def recruit_decided(p):
    return [e for e in p.drain() if e.get("event") in ("recruit", "play", "pawn")]


def all_json(p):
    """Every console line since the last look is one JSON object (docs/board-protocols.md)."""
    lines = p.console_lines()
    for x in lines:
        assert x.startswith("{") and isinstance(json.loads(x), dict), "not JSON: %r" % x
    return [json.loads(x) for x in lines]


def recruit_by_hand(p, take):
    """The players' recruit as the rules have it, carried out by the hands already done."""
    rec = M.recruit(take)
    p.st, evs = apply(p.st, rec)
    p.table.follow(evs)
    p.pawns_to(p.st)
    agrees(p)


@contextlib.contextmanager
def recruiting(seed=3):
    """A simple game played up to its first play, carried out: (players, the play, the face-up
    card's sticker, the face-down card's), the other side to recruit."""
    p = Players(seed, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.carry_out(mv)
        up = p.uid(TB.agent_names[mv.up])
        yield p, mv, up, p.uid(TB.agent_names[mv.down], (up,))
    finally:
        p.close()


def test_a_card_taken_after_a_power_cut_decides_nothing_until_both_are_back():
    # the other side took the face-down card, the power went, and at power-up the face-up
    # card is taken within half a second: the board must not take the empty down pad for the
    # first card lifted (it did: the recruit went the other way round)
    with recruiting() as (p, mv, up, down):
        p.take("down")
        p.drain()
        cut_and_restart(p, 300)
        p.take("up")
        p.wait(2000)
        assert not recruit_decided(p)
        view = p.view()
        assert view["phase"] == "recruit" and view["put_back"] == ["up", "down"]
        # both pads wait for their cards: white (every channel alike), blinking
        seen = []
        for _ in range(3):
            seen.append(p.ask({"op": "leds"})["leds"])
            p.wait(100)
        for pad in ("reader:up", "reader:down"):
            lit = [tuple(f[pad]) for f in seen]
            assert (0, 0, 0) in lit and any(c[0] == c[1] == c[2] > 0 for c in lit), (pad, lit)
        p.put(down, "down")
        p.put(up, "up")
        assert p.view()["put_back"] == [] and not recruit_decided(p)
        p.take("down")  # now the choice: the other side takes the face-down card
        p.take("up")
        recruit_by_hand(p, M.TAKE_DOWN)
        p.play_to_end(agrees)


def test_both_cards_lifted_during_a_power_cut_are_asked_back_not_recruited():
    with recruiting() as (p, mv, up, down):
        p.drain()
        cut_and_restart(p, 2500, [{"op": "card_off", "reader": "up"},
                                  {"op": "card_off", "reader": "down"}])
        seen = all_json(p)
        assert not [e for e in seen if e.get("event") in ("recruit", "pawn")], seen
        assert TB.agent_names[mv.down] not in json.dumps(seen)
        view = p.view()
        assert view["phase"] == "recruit" and view["put_back"] == ["up", "down"]
        assert view["played"]["down"] == "hidden"
        # nothing was committed: another power cut resumes the same recruit
        cut_and_restart(p)
        assert p.view()["phase"] == "recruit"
        p.put(up, "up")
        p.put(down, "down")
        p.take("up")
        p.take("down")
        recruit_by_hand(p, M.TAKE_UP)
        p.play_to_end(agrees)


def test_confirm_says_which_card_was_taken_during_a_power_cut():
    with recruiting() as (p, mv, up, down):
        p.take("down")  # the other side took the face-down card, then the power went
        p.drain()
        cut_and_restart(p)
        assert p.view()["put_back"] == ["down"] and not recruit_decided(p)
        p.press("confirm")  # the players say so: the missing card was the one taken
        taken = [e for e in p.drain() if e.get("event") == "taken"]
        assert taken == [{"event": "taken", "face": "down"}]
        assert p.view()["put_back"] == []
        p.take("up")  # the active side takes the other
        recruit_by_hand(p, M.TAKE_DOWN)
        p.play_to_end(agrees)


def test_after_a_power_cut_the_down_pad_answers_the_same_whatever_lies_face_down():
    # a card put on the down pad after a cut is the played one or not by its sticker: a
    # card bearing the face-down card's name is refused like any other (the board once
    # compared names: it accepted that card silently and refused the others)
    p = Players(3, "simple", (1, 1))
    try:
        while True:  # a play whose face-down agent has a second copy in the box
            mv = until(p, M.PLAY)
            p.carry_out(mv)
            up = p.uid(TB.agent_names[mv.up])
            down = p.uid(TB.agent_names[mv.down], (up,))
            twin = [u for u in p.uids[TB.agent_names[mv.down]] if u not in (up, down)]
            if twin:
                break
            p.carry_out(M.recruit(M.TAKE_UP))
        other = [u for k, us in p.uids.items() for u in us
                 if k in TB.agent_names and k not in (TB.agent_names[mv.down],
                                                      TB.agent_names[mv.up])][0]
        p.take("down")
        cut_and_restart(p)
        all_json(p)
        answers = []
        for card in (twin[0], other):
            p.put(card, "down")
            answers.append([e for e in all_json(p)])
            p.take("down")
            all_json(p)
        assert answers[0] == answers[1], answers
        assert [e["event"] for e in answers[0]] == ["reject"]
        p.put(down, "down")
        assert [e for e in all_json(p) if e.get("event") == "reject"] == []
        assert p.view()["put_back"] == []
        p.take("down")
        p.take("up")
        recruit_by_hand(p, M.TAKE_DOWN)
    finally:
        p.close()


def test_a_power_cut_before_the_pawns_moved_shows_where_they_go():
    p = Players(3, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.carry_out(mv)
        rec = M.recruit(M.TAKE_UP)
        from shared_rules.avenue.apply import apply
        st, evs = apply(p.st, rec)
        moved = [s for s in (0, 1) if st.pawns[s] != p.st.pawns[s]]
        assert moved
        p.take("up")
        p.take("down")
        p.ask({"op": "power_cut"})
        p.ask({"op": "power_on"})
        p.wait(1500)
        view = p.view()
        want = sorted(set([str(p.st.pawns[s]) for s in moved] + [str(st.pawns[s])
                                                                  for s in moved]), key=int)
        assert view["phase"] == "await_effect" and view["expected"] == want
        p.st = st
        p.table.follow(evs)
        p.pawns_to(st)
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_a_power_cut_in_the_middle_of_the_market_taps():
    for seed in range(1, 30):
        p = Players(seed, "advanced", (1, 1))
        try:
            while p.st.winner < 0 and p.st.phase != MARKET:
                p.carry_out(p.choose())
            if p.st.winner >= 0:
                continue
            mv = p.choose()
            p.tap(p.uid(TB.market_names[mv.card]))  # the card taken is tapped, then the power
            p.ask({"op": "power_cut"})
            p.ask({"op": "power_on"})
            p.wait(1500)
            assert p.view()["phase"] == "market" and p.view()["taken"] is None
            p.carry_out(mv)  # the taps again from the first
            agrees(p)
            p.play_to_end(agrees)
            return
        finally:
            p.close()
    raise AssertionError("no seed reached the market")


def test_bad_console_commands_change_nothing():
    p = Players(1, "simple", (1, 1))
    try:
        before = p.view()
        for cmd, kind in [
            ({"op": "new_game", "game": "dog", "players": 2}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "players": 5}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "players": 3,
              "seats": {"green": 2, "blue": 2}}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "mode": "expert"}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "mode": "simple",
              "offer": ["masterplan", "outpost", "spycation"]}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "mode": "advanced",
              "offer": ["masterplan", "masterplan", "spycation"]}, "bad_request"),
            # an offer of lists or objects is a malformed field, not an internal error
            ({"op": "new_game", "game": "agent-avenue", "mode": "advanced",
              "offer": [["masterplan"], ["outpost"], ["spycation"]]}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "mode": "advanced",
              "offer": [{}, {}, {}]}, "bad_request"),
            ({"op": "new_game", "game": "agent-avenue", "dealer": "green"}, "bad_request"),
            ({"op": "calibrate"}, "not_now"),
            ({"op": "fly"}, "bad_request"),
        ]:
            ans = p.console(cmd)
            assert ans["ok"] is False and ans["error"] == kind, (cmd, ans)
            assert ans["reason"]
        assert p.view() == before
        status = p.console({"op": "status"})
        assert status["ok"] and status["game"] == "agent-avenue"
        assert [r["reader"] for r in status["readers"]] == ["up", "down", "tap"]
    finally:
        p.close()


def test_the_pawn_moves_are_lit_until_they_are_done():
    p = Players(3, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.carry_out(mv)
        rec = M.recruit(M.TAKE_UP)
        from shared_rules.avenue.apply import apply
        st, evs = apply(p.st, rec)
        p.take("up")
        p.take("down")
        frames = []
        for _ in range(4):
            frames.append(p.ask({"op": "leds"})["leds"])
            p.wait(100)
        colour = {0: (0, 1), 1: (2,)}  # green lights the G channel, blue the B channel
        for s in (0, 1):
            if st.pawns[s] == p.st.pawns[s]:
                continue
            old, new = str(p.st.pawns[s]), str(st.pawns[s])
            assert all(f[old][0] > 0 and f[old][1] == 0 and f[old][2] == 0 for f in frames), \
                "the space a pawn leaves is red"
            lit = [f[new] for f in frames if any(f[new])]
            assert lit and len(lit) < len(frames), "the target blinks"
            assert all(c[colour[s][-1]] > 0 and c[0] == 0 for c in lit), "in the pawn's colour"
        p.st = st
        p.table.follow(evs)
        p.pawns_to(st)
        agrees(p)
        leds = p.ask({"op": "leds"})["leds"]
        assert leds[str(st.pawns[0])][1] > 0 and leds[str(st.pawns[1])][2] > 0
    finally:
        p.close()


def test_a_dead_sensor_under_a_pawn_is_a_mismatch_until_it_reads_again():
    p = Players(1, "simple", (1, 1))
    try:
        green = str(p.st.pawns[0])
        p.drain()
        p.ask({"op": "fault", "kind": "dead_sensor", "at": green, "ms": 3000})
        p.wait(500)
        assert [e["locations"] for e in events(p, "mismatch")] == [[green]]
        assert p.view()["phase"] == "mismatch"
        p.wait(3000)
        assert [e["locations"] for e in events(p, "mismatch")] == [[]]
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_in_a_team_a_seat_discards_after_its_partner_played_face_up():
    # seed 002, team variant: a player may discard "non importa se il tuo compagno ha già
    # giocato una carta o meno"; the rules core counts it before the play
    from shared_rules.avenue.apply import apply
    from shared_rules.avenue import legality
    p = Players(1, "simple", (2, 2))
    try:
        mv = until(p, M.PLAY)
        side = p.st.active
        partner = mv.down_seat
        assert legality.may_discard(p.st, partner)
        p.light_seat(mv.up_seat)
        up = p.uid(TB.agent_names[mv.up])
        p.put(up, "up")
        p.press("confirm")  # the lit seat passes to the partner
        p.lit = partner
        hand = p.table.hand(side, partner)
        gone = [a for a in hand if a != mv.down][0]
        hand.remove(gone)
        p.table.discarded.append(gone)
        p.tap(p.uid(TB.agent_names[gone], (up,)))
        discard = M.discard(partner)
        p.st, evs = apply(p.st, discard)
        p.table.follow(evs)
        agrees(p)
        assert p.view()["pads"]["up"] == TB.agent_names[mv.up]
        p.put(p.uid(TB.agent_names[mv.down], (up,)), "down")
        legality.check(p.st, mv)
        p.st, evs = apply(p.st, mv)
        p.table.follow(evs)
        agrees(p)
        assert p.view()["played"]["up_seat"] == mv.up_seat
        p.play_to_end(agrees)
    finally:
        p.close()


def test_corrupted_reader_frames_are_never_taken_for_a_card():
    p = Players(2, "simple", (1, 1))
    try:
        mv = until(p, M.PLAY)
        p.drain()
        p.ask({"op": "fault", "kind": "nfc_crc", "ms": 1500})
        up = p.uid(TB.agent_names[mv.up])
        p.ask({"op": "card", "uid": up, "reader": "up"})
        p.wait(1000)
        seen = p.drain()
        assert not [e for e in seen if e.get("event") in ("card", "reject")], seen
        assert p.view()["pads"]["up"] is None
        p.wait(1000)  # the fault is over: the card is read as it is
        cards = [e for e in p.drain() if e.get("event") == "card"]
        assert [(c["face"], c["card"]) for c in cards] == [("up", TB.agent_names[mv.up])]
        p.put(p.uid(TB.agent_names[mv.down], (up,)), "down")
        from shared_rules.avenue.apply import apply
        p.st, evs = apply(p.st, mv)
        p.table.follow(evs)
        agrees(p)
        p.play_to_end(agrees)
    finally:
        p.close()


def test_a_teams_card_found_on_a_pad_at_power_up_is_put_down_again():
    # in a team which seat plays face up is the lit seat's; after a power cut the board does
    # not know which seat put the card it finds lying there, so it counts it only once it is
    # put down again (with the right seat lit)
    for seed in range(1, 40):
        p = Players(seed, "simple", (2, 2))
        try:
            mv = until(p, M.PLAY)
            if mv.up_seat != 1:
                continue  # a play whose face-up card is the second seat's
            p.light_seat(mv.up_seat)
            up = p.uid(TB.agent_names[mv.up])
            p.put(up, "up")
            p.drain()
            cut_and_restart(p)
            seen = all_json(p)
            refused = [e for e in seen if e.get("event") == "reject"]
            assert [e["reader"] for e in refused] == ["up"], seen
            assert not [e for e in seen if e.get("event") == "card"], seen
            assert p.view()["pads"]["up"] is None and p.view()["seat"] == 0
            p.take("up")
            p.lit = 0  # the board lights the first seat again
            p.carry_out(mv)
            agrees(p)
            assert p.view()["played"]["up_seat"] == 1
            p.play_to_end(agrees)
            return
        finally:
            p.close()
    raise AssertionError("no seed had the second seat play face up")


def test_calibrate_is_refused_while_a_game_is_set_up():
    # an advanced game waits in its setup for the offer to be tapped in, pawns on the board:
    # the empty step would measure them as the empty board
    p = Players(1, "advanced", (1, 1), offer_by_tap=False, console_start=False)
    try:
        assert p.console({"op": "new_game", "game": "agent-avenue", "mode": "advanced"})["ok"]
        p.wait(300)
        assert p.view()["phase"] == "setup"
        for cmd in ({"op": "calibrate"}, {"op": "calibrate", "step": "pieces"},
                    {"op": "sensors"}):
            ans = p.console(cmd)
            assert ans["ok"] is False and ans["error"] == "not_now", (cmd, ans)
    finally:
        p.close()
