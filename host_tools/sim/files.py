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
    with open(rel if rel.startswith("/") else ROOT + "/" + rel) as f:
        return json.load(f)
