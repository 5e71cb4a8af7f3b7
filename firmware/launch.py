# Which application this board runs: its variant.json (deployed beside the maps in config/) may
# name one ("app": a module with a main(), e.g. the Agent Avenue board's firmware.avenue.app);
# without one it is the DOG family's firmware/app.py. Only the chosen application is loaded, so
# one board's referee never takes heap on another board.
import json

DEFAULT = "firmware.app"


def app_module(config_dir="config"):
    try:
        with open(config_dir + "/variant.json") as f:
            name = json.load(f).get("app")
    except (OSError, ValueError, AttributeError):
        name = None
    name = name or DEFAULT
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


def main(config_dir="config", data_dir=".", **kw):
    app_module(config_dir).main(config_dir, data_dir, **kw)
