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
