# Runs on MicroPython: `micropython tests/mp/runner.py MODULE [TEST] SCRATCH_DIR` from the
# repository root. The simulator's stand-ins (machine, neopixel, time) come first on the path,
# so the firmware under test is the unmodified device code. Prints one JSON line per test.
import sys
import json

sys.path.insert(0, "host_tools/sim/device")
sys.path.insert(1, ".")
sys.path.insert(2, "tests/mp")

mod_name = sys.argv[1]
only = sys.argv[2] if len(sys.argv) > 3 else None
scratch = sys.argv[-1]
mod = __import__(mod_name)
mod.SCRATCH = scratch
names = sorted(n for n in dir(mod) if n.startswith("test_"))
for name in names:
    if only and name != only:
        continue
    try:
        getattr(mod, name)()
        print(json.dumps({"test": name, "ok": True}))
    except Exception as e:
        sys.print_exception(e)
        print(json.dumps({"test": name, "ok": False, "error": "%s: %s" % (type(e).__name__, e)}))
