# Finds and reads the JSON data files that ship beside this package. On the device the package
# lives in flash as .mpy files; __file__ still names their folder there.
import json


def data_dir():
    try:
        here = __file__
    except NameError:  # frozen into the firmware image: data sits in the package folder
        return "shared_rules/data"
    cut = here.rfind("/")
    return (here[:cut] if cut >= 0 else ".") + "/data"


def load(name):
    with open(data_dir() + "/" + name) as f:
        return json.load(f)


_cache = {}


def cached(kind, name):
    """kind(parsed data file `name`.json), built once per name: layouts and card tables are
    shared by every position, so a device holds one copy."""
    key = (kind, name)
    obj = _cache.get(key)
    if obj is None:
        obj = kind(load(name + ".json"))
        _cache[key] = obj
    return obj
