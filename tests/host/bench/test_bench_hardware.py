# Section 8's heap figures on a second port: which unix port MICROPYTHON32 names, and how a
# heap's wK turn into bytes on each word size.
import os

from host_tools.bench.common import BIN, MICROPYTHON32
from host_tools.bench.hardware import port32, wk_bytes


def test_a_wk_is_a_32_bit_heaps_kb_on_either_word_size():
    # MicroPython's ports/unix/main.c: -X heapsize=Nw scales N by the word over 4 bytes
    assert wk_bytes(8) == 2048
    assert wk_bytes(4) == 1024


def test_no_32_bit_port_named_says_how_to_have_one():
    exe, why = port32({})
    assert exe is None
    assert MICROPYTHON32 in why and "docs/measuring.md" in why


def test_the_venvs_64_bit_port_is_not_taken_for_a_32_bit_one():
    venv = os.path.join(BIN, "micropython")
    exe, why = port32({MICROPYTHON32: venv})
    assert exe is None
    assert "64-bit port, not a 32-bit one" in why and venv in why


def test_a_missing_or_foreign_program_is_refused_with_its_name(tmp_path):
    missing = str(tmp_path / "micropython32")
    exe, why = port32({MICROPYTHON32: missing})
    assert exe is None and missing in why and "cannot be run as MicroPython" in why
    echo = "/bin/echo"  # runs, but prints its arguments, not a word size
    exe, why = port32({MICROPYTHON32: echo})
    assert exe is None and echo in why and "cannot be run as MicroPython" in why
