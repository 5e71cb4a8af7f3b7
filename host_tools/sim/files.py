# The repository's data files for the simulator, on CPython and on MicroPython (where the
# device process runs from a copy of the repository's files: paths are from its root).
import json


def _root():
    try:
        here = __file__
    except NameError:
        return "."
    cut = here.rfind("host_tools/sim/files")
    if cut <= 0:
        return "."
    return here[:cut].rstrip("/") or "."


ROOT = _root()


def load_json(rel):
    # read whole, then parsed: MicroPython's json.load reads a file a byte at a time (a call
    # into the stream for each), ten times slower than loads over the text, and a simulated
    # device reads some 80 KB of design data at every boot
    with open(rel if rel.startswith("/") else ROOT + "/" + rel) as f:
        return json.loads(f.read())
