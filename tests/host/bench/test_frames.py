"""host_tools/bench/frames.py, the frame checker, against the real interpreter: functions built
to sit on either side of MicroPython's 11-word limit, run as .mpy on the unix port, where
micropython.mem_total() grows by the frame's block at a call that allocates it on the heap and
by nothing at a call whose frame sits on the C stack. And the firmware's hot paths (listed in
host_tools/bench/hot_frames.json) keep their frames off the heap."""
import os
import subprocess

import pytest

from conftest import micropython_cmd
from host_tools.bench import frames

# py/bc.h mp_code_state_t ahead of the state: fun_bc, ip, sp, n_state with exc_sp_idx,
# old_globals, one word each; the unix port is 64-bit
HEADER_WORDS = 5
WORD_BYTES = 8
LOCALS = range(6, 12)     # around the limit: from well under it to over it
TRY_LOCALS = range(0, 4)  # a try block's exception entry is 3 words more


def _plain(n):
    # n locals besides the argument, each a plain store: nothing is allocated
    body = "".join("    v%d = a\n" % k for k in range(n))
    return "def plain_%d(a):\n%s    return a\n" % (n, body)


def _with_try(n):
    body = "".join("    v%d = a\n" % k for k in range(n))
    return ("def try_%d(a):\n%s    try:\n        a += 1\n    except KeyError:\n"
            "        a = 0\n    return a\n" % (n, body))


GENERATOR = ("def gen_big(a):\n" + "".join("    v%d = a\n" % k for k in range(14)) +
             "    while True:\n        yield a\n")
MEASURE = """import micropython
import probe


def grown(f):
    before = micropython.mem_total()
    f(1)
    return micropython.mem_total() - before


for name in NAMES:
    print(name, grown(getattr(probe, name)))


def resumed(g, n):
    before = micropython.mem_total()
    for _ in range(n):
        next(g)
    return micropython.mem_total() - before


g = probe.gen_big(1)
next(g)
print("gen_big.resume", resumed(g, 10))
print("gen_big.create", grown(probe.gen_big))
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """The probe module compiled by mpy-cross, what the checker reads of it, and what the unix
    port's allocator counted calling each of its functions (bytes)."""
    tmp = tmp_path_factory.mktemp("frames")
    src = "".join(_plain(n) + "\n\n" for n in LOCALS)
    src += "".join(_with_try(n) + "\n\n" for n in TRY_LOCALS) + GENERATOR
    (tmp / "probe.py").write_text(src)
    frames.compile_py(str(tmp / "probe.py"), str(tmp / "probe.mpy"))
    codes = {c.name: c for c in frames.mpy_codes((tmp / "probe.mpy").read_bytes())}
    os.remove(str(tmp / "probe.py"))  # the unix port imports the .mpy, as a board does
    names = sorted(n for n in codes if n != "gen_big")
    (tmp / "measure.py").write_text("NAMES = %r\n" % names + MEASURE)
    out = subprocess.run([micropython_cmd(), "measure.py"], cwd=str(tmp), capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    grown = dict((k, int(v)) for k, v in (line.split() for line in out.stdout.splitlines()))
    return codes, grown


def test_the_probe_straddles_the_limit(probe):
    codes, _ = probe
    words = sorted(c.words for c in codes.values() if not c.generator)
    assert frames.STACK_WORDS in words and frames.STACK_WORDS + 1 in words
    tried = [c for c in codes.values() if c.n_exc_stack]
    assert {c.on_heap for c in tried} == {False, True}
    # a try block's entry weighs 3 words: some function with one sits on the stack with fewer
    # than 11 state slots only because of it, and the next one goes to the heap with fewer too
    assert any(c.on_heap and c.n_state <= frames.STACK_WORDS for c in tried)


def test_the_checker_says_what_the_interpreter_allocates(probe):
    codes, grown = probe
    for name, c in sorted(codes.items()):
        if c.generator:
            continue
        want = (HEADER_WORDS + c.words) * WORD_BYTES if c.on_heap else 0
        assert grown[name] == want, "%s: %d words (%d state, %d exception entries), checker " \
            "says %s, the interpreter allocated %d bytes" % (
                name, c.words, c.n_state, c.n_exc_stack, "heap" if c.on_heap else "stack",
                grown[name])


def test_a_generator_frame_is_made_once_with_it(probe):
    codes, grown = probe
    gen = codes["gen_big"]
    assert gen.generator and gen.words > frames.STACK_WORDS and not gen.on_heap
    assert grown["gen_big.resume"] == 0
    assert grown["gen_big.create"] >= gen.words * WORD_BYTES


def test_functions_are_named_as_in_their_source(tmp_path):
    # __init__ and read are static qstrs of the interpreter: an .mpy names them by index only;
    # a second code of one name in one scope is numbered
    src = tmp_path / "k.py"
    src.write_text("class K:\n    def __init__(self):\n        pass\n\n    def read(self):\n"
                   "        return [x for x in ()], lambda: 0, lambda: 1\n")
    assert [c.name for c in frames.module_codes(str(src))] == [
        "K", "K.__init__", "K.read", "K.read.<listcomp>", "K.read.<lambda>",
        "K.read.<lambda>#2"]


def test_not_an_mpy_is_refused():
    with pytest.raises(frames.MpyError):
        frames.read_mpy(b"MZ\x00\x1f")  # not an .mpy file of version 6
    with pytest.raises(frames.MpyError):
        frames.read_mpy(b"M\x06\x00\x1f\x05")  # ends inside its qstr table


def test_no_hot_path_function_puts_its_frame_on_the_heap():
    hot = frames.hot_paths()
    assert len(hot) > 50 and {p for p, _, _ in hot} >= {"scan", "redraw", "tap", "judge"}
    heap, missing = frames.hot_on_heap(frames.device_codes(hot), hot)
    assert not missing, "hot_frames.json names functions the code no longer has: %s" % (
        ", ".join(missing))
    assert not heap, "hot-path functions whose every call allocates their frame (over %d " \
        "words, docs/measuring.md): %s" % (frames.STACK_WORDS, ", ".join(
            "%s (%d words)" % h for h in heap))
