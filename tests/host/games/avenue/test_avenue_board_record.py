"""An Agent Avenue board's exported game record: `agentboard replay` steps through it with the
rules core (every decision, its pawn moves and the end), and a record that is wrong anywhere is
refused whole with the one reason."""
import copy
import json
import subprocess
import sys

import pytest

from host_tools.replay import replay, RecordError
from conftest import ROOT
import played


@pytest.fixture(scope="module")
def record():
    g = played.avenue(19, "advanced", (1, 2))
    return g.record, g.st, g.decisions


def write(tmp_path, rec, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return str(path)


def test_replay_steps_through_every_decision_to_the_end(record, tmp_path):
    rec, st, n = record
    lines = replay(write(tmp_path, rec))
    assert lines[0].startswith("La Via delle Spie / Agent Avenue, advanced mode, green 1 / "
                               "blue 2")
    numbered = set(int(x.split()[0]) for x in lines[1:])
    assert numbered == set(range(1, n + 1))
    assert "== %s wins" % ("Green", "Blue")[st.winner] in lines[-1]
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "replay",
                          write(tmp_path, rec)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.splitlines() == lines


@pytest.mark.parametrize("spoil,reason", [
    (lambda r: r["turns"][1].update(side={"green": "blue", "blue": "green"}[
        r["turns"][1]["side"]]), "turn 2 is"),
    (lambda r: r["turns"].append(copy.deepcopy(r["turns"][-1])), "after the game ended"),
    (lambda r: r.update(mode="expert"), "mode must be"),
    (lambda r: r.update(offer=["masterplan"]), "offer must list"),
    (lambda r: r.update(players=4), "players must be 3"),
    (lambda r: r["turns"][0].update(move={"play": {"up": "enforcer"}}), "turn 1"),
])
def test_a_wrong_record_is_refused_with_its_reason(record, tmp_path, spoil, reason):
    rec = copy.deepcopy(record[0])
    spoil(rec)
    with pytest.raises(RecordError, match=reason):
        replay(write(tmp_path, rec))
