# The names of DOG Royal's ranks, one definition (shared_rules/ranks.py) that the rules core,
# the firmware and the host tools read. Expectations from docs/dog-rules.md ("Pieces and ranks":
# a colour's list is its pieces' rank, king, knight, citizen, jester) and
# docs/board-protocols.md (red-1 the king ... red-4 the jester).
import json
import os
import subprocess

from conftest import ROOT, micropython_cmd
from shared_rules import position
from shared_rules.ranks import RANKS
from shared_rules.royal import KING, KNIGHT, CITIZEN, JESTER

DEVICE = os.path.join(ROOT, "host_tools", "sim", "device")


def test_the_ranks_in_the_order_a_colour_lists_its_pieces():
    assert RANKS == ("king", "knight", "citizen", "jester")
    assert [RANKS[r] for r in (KING, KNIGHT, CITIZEN, JESTER)] == list(RANKS)


def test_the_piece_a_colour_lists_kth_has_the_kth_rank_in_dog_royal():
    # red's third piece stands on 5, green's first on 32: a citizen and a king
    st = position.parse({"game": "dog-royal", "players": 2, "to_move": "red",
                         "pieces": {"red": ["start", "start", 5, "start"],
                                    "green": [32, "start", "start", "start"]}})
    assert st.game.rank_name(st.at(5)) == "citizen"
    assert st.game.rank_name(st.at(32)) == "king"


def test_the_firmware_reads_the_names_without_loading_dog_royal(tmp_path):
    # heap: an Agent DOG board imports its referee and calibration, never DOG Royal's rules
    script = tmp_path / "leaf.py"
    script.write_text(
        "import sys, json\n"
        "sys.path.insert(0, %r)\nsys.path.insert(0, %r)\n"
        "import shared_rules.ranks\n"
        "leaf = sorted(k for k in sys.modules if k.startswith('shared_rules'))\n"
        "import firmware.calibrate, firmware.games.track.referee\n"
        "print(json.dumps({'leaf': leaf, 'royal': 'shared_rules.royal' in sys.modules,\n"
        "                  'same': firmware.games.track.referee.RANKS is shared_rules.ranks.RANKS and\n"
        "                          firmware.calibrate.RANKS is shared_rules.ranks.RANKS}))\n"
        % (DEVICE, ROOT))
    out = subprocess.run([micropython_cmd(), str(script)], cwd=str(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"leaf": ["shared_rules", "shared_rules.ranks"], "royal": False, "same": True}
