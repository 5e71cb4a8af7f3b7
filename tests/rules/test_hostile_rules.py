# The rules server under hostile lines (docs/rules-protocol.md, "Limits of a line"): every bad
# line gets one bad_request answer, the server keeps serving (a good request after each bad
# one proves it), and CPython and MicroPython answer the same. The expected reasons are the
# beginnings the document's table gives.
import json
import random
import signal
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT, micropython_cmd
from polls import until, waiting
from rulebook import position
from shared_rules import jsonline
from shared_rules.protocol import Rules

LIMIT = 65536  # the document's line limit
MEGABYTE = 1 << 20

TOO_LONG = "the line is longer than 65536 bytes"
NOT_UTF8 = "the line is not UTF-8 text"
NOT_JSON = "not a JSON line"
TOO_DEEP = "the request nests arrays and objects deeper than 16 levels"
NOT_FINITE = "NaN and Infinity are not JSON numbers"
NOT_WHOLE = "numbers in a request are whole numbers"
TOO_BIG = "numbers in a request have at most 9 digits"
NOT_ASCII = "strings in a request are ASCII text"

GOOD = {"op": "legal", "position": position(red=[10]), "card": "5"}
GOOD_ANSWER = {"ok": True, "moves": [{"card": "5", "path": [[10, 15]]}]}


def line_with(field, raw):
    """GOOD as a line, with the JSON text `raw` (bytes) as the value of position[field]."""
    pos = dict(position(red=[10]))
    pos[field] = "@@"
    req = {"op": "legal", "position": pos, "card": "5"}
    return json.dumps(req).encode().replace(b'"@@"', raw)


def nested(depth):
    return b"[" * depth + b"]" * depth


BAD = [
    # name, the line (bytes, without its newline), the reason's beginning
    ("deep array", nested(5000), TOO_DEEP),
    ("deep unclosed", b"[" * 60000, TOO_DEEP),
    ("17 deep in a request", line_with("players", nested(15)), TOO_DEEP),
    ("deep object", b'{"a":' * 100 + b"1" + b"}" * 100, TOO_DEEP),
    ("one invalid byte", b"\xff", NOT_UTF8),
    ("invalid byte in a request", line_with("to_move", b'"re\xffd"'), NOT_UTF8),
    ("cut-off character", b'["\xc3"]', NOT_UTF8),
    ("encoded surrogate", b'["\xed\xa0\x80"]', NOT_UTF8),
    ("overlong slash", b'["\xc0\xaf"]', NOT_UTF8),
    ("beyond U+10FFFF", b'["\xf4\x90\x80\x80"]', NOT_UTF8),
    ("one byte over the limit", b" " * LIMIT + b"1", TOO_LONG),
    ("a megabyte string", b'"' + b"a" * MEGABYTE + b'"', TOO_LONG),
    ("a megabyte of brackets", b"[" * MEGABYTE, TOO_LONG),
    ("NaN", line_with("players", b"NaN"), NOT_FINITE),
    ("Infinity", line_with("players", b"Infinity"), NOT_FINITE),
    ("-Infinity", line_with("players", b"-Infinity"), NOT_FINITE),
    ("NaN in a list", b"[1, NaN]", NOT_FINITE),
    ("fraction", line_with("players", b"4.0"), NOT_WHOLE),
    ("exponent", line_with("players", b"4e0"), NOT_WHOLE),
    ("overflowing exponent", line_with("players", b"1e999"), NOT_WHOLE),
    ("ten digits", line_with("players", b"1234567890"), TOO_BIG),
    ("a huge number", line_with("players", b"9" * 5000), TOO_BIG),
    ("non-ASCII name", line_with("to_move", '"rød"'.encode()), NOT_ASCII),
    ("escaped non-ASCII", line_with("to_move", b'"r\\u00f8d"'), NOT_ASCII),
    ("escaped lone surrogate", line_with("to_move", b'"\\ud800"'), NOT_ASCII),
    ("escaped emoji", b'["\\ud83d\\ude00"]', NOT_ASCII),
    ("non-ASCII key", b'{"\xc3\xb8p": "legal"}', NOT_ASCII),
    # MicroPython's own parser takes each of these; JSON does not
    ("missing colon", b'{"op" "legal", "card": "5"}', NOT_JSON),
    ("missing comma", b'{"op": "legal" "card": "5"}', NOT_JSON),
    ("trailing comma", b'{"op": "legal",}', NOT_JSON),
    ("trailing comma in a list", b"[1, 2,]", NOT_JSON),
    ("leading comma", b"[,1]", NOT_JSON),
    ("double comma", b'{"a": 1,, "b": 2}', NOT_JSON),
    ("number key", b"{1: 2}", NOT_JSON),
    ("leading zero", b"[01]", NOT_JSON),
    ("no digits after minus", b"[-]", NOT_JSON),
    ("unknown escape", b'["\\x41"]', NOT_JSON),
    ("short unicode escape", b'["\\u12"]', NOT_JSON),
    ("raw tab in a string", b'["a\tb"]', NOT_JSON),
    ("raw NUL in a string", b'["a\x00b"]', NOT_JSON),
    ("values without comma", b"[true false]", NOT_JSON),
    ("two values", b"{} {}", NOT_JSON),
    ("trailing garbage", b'{"op": "legal"} x', NOT_JSON),
    ("single quotes", b"{'op': 'legal'}", NOT_JSON),
    ("unterminated string", b'["abc', NOT_JSON),
    ("unclosed", b'{"op": "legal"', NOT_JSON),
    ("stray close", b"[]]", NOT_JSON),
    ("truncated literal", b"[tru]", NOT_JSON),
    ("word", b"Nonsense", NOT_JSON),
    ("empty line", b"", NOT_JSON),
    ("blank line", b" \t ", NOT_JSON),
    ("vertical tab", b"\x0b[]", NOT_JSON),
    ("NUL", b"\x00", NOT_JSON),
    ("just a carriage return", b"\r", NOT_JSON),
]


class BinaryServer:
    """`... -m shared_rules serve` fed raw bytes: one line out for each line in."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd + ["-m", "shared_rules", "serve"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)

    def ask(self, raw):
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        assert out, "the server ended: %s" % self.proc.communicate()[1][-500:]
        return json.loads(out)

    def close(self):
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        assert self.proc.returncode == 0


@pytest.fixture(scope="module")
def servers():
    both = [BinaryServer([ROOT + "/.venv/bin/python"]), BinaryServer([micropython_cmd()])]
    yield both
    for s in both:
        s.close()


def refused(answer, reason):
    return (answer["ok"] is False and answer["error"] == "bad_request"
            and answer["reason"].startswith(reason))


@pytest.mark.parametrize("name,raw,reason", BAD, ids=[b[0] for b in BAD])
def test_each_bad_line_gets_its_reason_and_the_server_keeps_serving(servers, name, raw, reason):
    answers = []
    for server in servers:
        answer = server.ask(raw)
        assert refused(answer, reason), (name, answer)
        assert server.ask(json.dumps(GOOD).encode()) == GOOD_ANSWER
        answers.append(answer)
    assert answers[0] == answers[1], "CPython and MicroPython disagree on %s" % name


@pytest.mark.parametrize("name,raw,reason", [b for b in BAD if len(b[1]) <= 2 * LIMIT],
                         ids=[b[0] for b in BAD if len(b[1]) <= 2 * LIMIT])
def test_handle_line_refuses_the_same_lines_in_process(name, raw, reason):
    assert refused(Rules().handle_line(raw), reason)
    try:
        text = raw.decode()
    except UnicodeError:
        return
    assert refused(Rules().handle_line(text), reason)


def good_line_padded_to(size):
    raw = json.dumps(GOOD).encode()
    return raw + b" " * (size - len(raw))


ACCEPTED = [
    # lines at the limits: the line check lets them through, the rules answer them
    ("exactly the limit", good_line_padded_to(LIMIT), GOOD_ANSWER),
    ("CRLF", json.dumps(GOOD).encode() + b"\r", GOOD_ANSWER),
    ("escaped ASCII", json.dumps(GOOD).encode().replace(b'"card": "5"', b'"card": "\\u0035"'),
     GOOD_ANSWER),
    ("whitespace everywhere", json.dumps(GOOD, indent="\t").encode().replace(b"\n", b" \r "),
     GOOD_ANSWER),
]


@pytest.mark.parametrize("name,raw,answer", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_lines_within_the_limits_are_answered_by_the_rules(servers, name, raw, answer):
    for server in servers:
        assert server.ask(raw) == answer


LINE_REASONS = (TOO_LONG, NOT_UTF8, NOT_JSON, TOO_DEEP, NOT_FINITE, NOT_WHOLE, TOO_BIG, NOT_ASCII)


@pytest.mark.parametrize("name,raw,kind", [
    ("16 deep", line_with("players", nested(14)), "bad_position"),
    ("9 digits", line_with("players", b"-999999999"), "bad_position"),
    ("negative zero", line_with("players", b"-0"), "bad_position"),
    ("brackets in strings do not nest", line_with("to_move", b'"' + b"[{" * 100 + b'"'),
     "bad_position"),
    ("quotes and backslashes escaped", line_with("to_move", rb'"\\\"[\"\\"'),
     "bad_position"),
    ("control characters escaped", line_with("to_move", rb'"\n\t\u0000\u007f"'),
     "bad_position"),
    ("not an object", b"[]", "bad_request"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_values_within_the_limits_reach_the_rules(servers, name, raw, kind):
    answers = [server.ask(raw) for server in servers]
    assert answers[0] == answers[1]
    assert answers[0]["error"] == kind, answers[0]
    assert not answers[0]["reason"].startswith(LINE_REASONS), answers[0]


def test_the_last_line_needs_no_newline():
    text = json.dumps(GOOD).encode()
    for cmd in ([ROOT + "/.venv/bin/python"], [micropython_cmd()]):
        out = subprocess.run(cmd + ["-m", "shared_rules", "serve"], input=text,
                             capture_output=True, cwd=ROOT, timeout=60)
        assert [json.loads(x) for x in out.stdout.splitlines()] == [GOOD_ANSWER]


def test_a_megabyte_line_is_never_held_whole_on_a_small_heap():
    # 256 KB of heap cannot hold a 1 MB line: the server must drop it piece by piece
    lines = [b'"' + b"a" * MEGABYTE + b'"', json.dumps(GOOD).encode()] * 2
    out = subprocess.run([micropython_cmd(), "-X", "heapsize=256k", "-m", "shared_rules",
                          "serve"], input=b"\n".join(lines) + b"\n", capture_output=True,
                         cwd=ROOT, timeout=60)
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.returncode == 0 and not out.stderr, out.stderr[-500:]
    assert len(answers) == 4
    assert refused(answers[0], TOO_LONG) and refused(answers[2], TOO_LONG)
    assert answers[1] == answers[3] == GOOD_ANSWER


def test_a_random_mix_of_bad_lines_gets_the_same_answers_on_both_interpreters():
    # fragments of JSON and of the refused forms, shuffled into lines
    rnd = random.Random(16)
    pieces = [b"[", b"]", b"{", b"}", b'"', b",", b":", b" ", b"\\", b"u", b"00", b"e9", b"-",
              b"0", b"7", b"1.5", b"e3", b"NaN", b"Infinity", b"true", b"null", b"op",
              b'"op"', b'"legal"', b'"position"', b"\xc3\xa9", b"\xff", b"\t"]
    lines = [b"".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
             for _ in range(400)]
    lines = [ln.replace(b"\n", b" ") for ln in lines]
    text = b"\n".join(lines) + b"\n"
    outs = []
    for cmd in ([ROOT + "/.venv/bin/python"], [micropython_cmd()]):
        out = subprocess.run(cmd + ["-m", "shared_rules", "serve"], input=text,
                             capture_output=True, cwd=ROOT, timeout=60)
        assert out.returncode == 0 and not out.stderr, out.stderr[-500:]
        outs.append([json.loads(x) for x in out.stdout.splitlines()])
    assert len(outs[0]) == len(lines)
    for line, a, b in zip(lines, outs[0], outs[1]):
        assert a == b, "CPython and MicroPython disagree on %r" % line
        assert "internal error" not in a.get("reason", "")


def test_an_op_that_is_not_a_name_is_not_echoed(servers):
    # an object prints its keys in a different order on each interpreter
    raw = json.dumps({"op": {"zeta": 1, "alpha": 2, "mid": 3, "k": 4}}).encode()
    answers = [server.ask(raw) for server in servers]
    assert answers[0] == answers[1]
    assert answers[0]["error"] == "bad_request" and "zeta" not in answers[0]["reason"]


# -- the line check against CPython's strict JSON parser --------------------------------------
def depth_of(value):
    if isinstance(value, (list, dict)):
        inner = value.values() if isinstance(value, dict) else value
        return 1 + max([depth_of(v) for v in inner] or [0])
    return 0


def within_protocol(value):
    """Whether a parsed value is one the document lets through: whole numbers of at most 9
    digits, ASCII strings, 16 levels of nesting."""
    def ok(v):
        if isinstance(v, bool) or v is None:
            return True
        if isinstance(v, int):
            return abs(v) < 10 ** 9
        if isinstance(v, str):
            return v.isascii()
        if isinstance(v, list):
            return all(ok(x) for x in v)
        if isinstance(v, dict):
            return all(k.isascii() and ok(x) for k, x in v.items())
        return False  # floats, NaN, Infinity
    return ok(value) and depth_of(value) <= 16


JSONISH = st.lists(st.sampled_from(
    ["[", "]", "{", "}", '"', ",", ":", " ", "\\", "u", "0", "00e9", "d800", "-", "1", "9",
     ".", "e", "E", "+", "NaN", "Infinity", "true", "false", "null", "a", "\t", "\x01", "é",
     "/", "n", '"k"', "123456789", "1234567890"]), max_size=30).map("".join)

ASCII_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 9 + 1, 10 ** 9 - 1)
    | st.text(st.characters(max_codepoint=127)),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(max_codepoint=127), max_size=5), inner,
                      max_size=4),
    max_leaves=30)


ANY_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 12, 10 ** 12) | st.floats()
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=6),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(exclude_categories=["Cs"]), max_size=4), inner,
                      max_size=4),
    max_leaves=20)
EDITS = ["[", "]", "{", "}", '"', ",", ":", " ", "\\", "\\u", "\t", "\x01", "\x7f", "0", "-",
         ".5", "e1", "NaN", "Infinity", "tru", "null", "\u00e9", "\\ud800", "\\x"]


@st.composite
def near_json(draw):
    """The JSON text of any value, with up to three small edits."""
    text = json.dumps(draw(ANY_VALUES), ensure_ascii=draw(st.booleans()),
                      indent=draw(st.sampled_from([None, 1])))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 2))
        text = text[:at] + draw(st.sampled_from(EDITS + [""])) + text[at + cut:]
    return text


@settings(max_examples=3000, deadline=None)
@given(JSONISH | near_json())
def test_the_check_lets_through_exactly_the_json_of_the_protocol(text):
    raw = text.encode()
    try:
        value = json.loads(raw)
        expected = within_protocol(value)
    except ValueError:
        expected = False
    assert (jsonline.check(raw) is None) == expected, text


@settings(max_examples=300, deadline=None)
@given(ASCII_VALUES, st.sampled_from([None, 0, 2, "\t"]))
def test_the_check_accepts_every_json_text_of_the_protocols_values(value, indent):
    raw = json.dumps(value, indent=indent).encode()
    assert (jsonline.check(raw) is None) == (depth_of(value) <= 16)


# -- the process itself -------------------------------------------------------------------------
@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_a_closed_stdout_ends_the_server_quietly(interpreter):
    cmd = [ROOT + "/.venv/bin/python"] if interpreter == "cpython" else [micropython_cmd()]
    proc = subprocess.Popen(cmd + ["-m", "shared_rules", "serve"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdout.close()
    try:
        proc.stdin.write((json.dumps(GOOD) + "\n").encode() * 200)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    err = proc.stderr.read()
    assert proc.wait(timeout=30) == 0 and err == b"", err


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_ctrl_c_ends_the_server_without_a_traceback(interpreter):
    cmd = [ROOT + "/.venv/bin/python"] if interpreter == "cpython" else [micropython_cmd()]
    # Ctrl-C as at a terminal: SIGINT at its default in the server. A pytest-xdist worker may
    # ignore SIGINT, and a child inherits an ignored signal; CPython then installs no
    # KeyboardInterrupt for it, and the server went on to the end of its input (exit 0)
    proc = subprocess.Popen(cmd + ["-m", "shared_rules", "serve"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin and proc.stdout
    proc.stdin.write((json.dumps(GOOD) + "\n").encode())
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline()) == GOOD_ANSWER  # it is up
    until(lambda: waiting(proc.pid), "the server back at its input")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in err, err


@pytest.mark.parametrize("args", [["demo", "x"], ["demo", "1", "7"], ["demo", "1", "four"],
                                  ["demo", "1", "4", "extra"], ["serve", "extra"], ["fly"], []])
def test_bad_arguments_get_the_usage_line(args):
    for cmd in ([ROOT + "/.venv/bin/python"], [micropython_cmd()]):
        out = subprocess.run(cmd + ["-m", "shared_rules"] + args, capture_output=True,
                             text=True, cwd=ROOT, timeout=60)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.startswith("usage: python -m shared_rules") and \
            out.stderr.count("\n") == 1, out.stderr


def test_a_demo_into_a_closed_pipe_ends_quietly():
    for cmd in ([ROOT + "/.venv/bin/python"], [micropython_cmd()]):
        proc = subprocess.Popen(cmd + ["-m", "shared_rules", "demo", "3", "4"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout and proc.stderr
        proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0 and err == b"", err
