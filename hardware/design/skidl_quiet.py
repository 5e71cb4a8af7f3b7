"""Imports SKiDL without its start-up chatter and log files.

SKiDL warns at import that no KiCad symbol libraries are configured (this design defines its
parts itself, see parts.json) and opens .log/.erc files named after the running script in the
current folder; both would litter every test run and `make hardware`."""
import io
import logging
import os
import shutil
import sys
import tempfile

# the log files are opened, and removed again, in a folder of this import's own: two processes
# importing SKiDL from one folder at once (parallel test workers) would remove each other's
_saved = sys.stderr
_cwd = os.getcwd()
_scratch = tempfile.mkdtemp(prefix="agentboard-skidl-")
sys.stderr = io.StringIO()
os.chdir(_scratch)
try:
    import skidl  # noqa: F401
    from skidl.logger import erc_logger, rt_logger, stop_log_file_output
    stop_log_file_output()
finally:
    sys.stderr = _saved
    os.chdir(_cwd)
    shutil.rmtree(_scratch, ignore_errors=True)

SKIDL_DIR = os.path.dirname(os.path.abspath(skidl.__file__))


def lean_trace():
    """What skidl.scriptinfo.get_skidl_trace answers (the (file, line) of every caller outside
    SKiDL, the outermost first), without its inspect.stack(): that reads every frame's source
    file for a line of context the trace then drops, and SKiDL asks for it at every part, net and
    connection it adds: four fifths of a whole `build` went there."""
    frame = sys._getframe(1)
    trace = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(SKIDL_DIR):
            trace.append((os.path.abspath(filename), str(frame.f_lineno)))
        frame = frame.f_back
    trace.reverse()
    return trace


from skidl import scriptinfo as _scriptinfo  # noqa: E402

skidl_scriptinfo = _scriptinfo.scriptinfo


def lean_scriptinfo():
    """What skidl.scriptinfo.scriptinfo answers (the top-level script: the outermost caller
    neither built in nor installed), from the frames alone: SKiDL asks it at every Circuit()
    and netlist, and its inspect.stack() reads every frame's source file."""
    import __main__
    if not hasattr(__main__, "__file__") or getattr(sys, "frozen", False):
        return skidl_scriptinfo()
    top = "skidl"
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith("<") and not filename.upper().startswith(
                sys.exec_prefix.upper()):
            top = filename
        frame = frame.f_back
    folder, name = os.path.split(top)
    return {"name": name, "source": name, "dir": folder or os.getcwd()}


# the modules that imported SKiDL's trace by name (from .scriptinfo import get_skidl_trace)
for _module in ("skidl.circuit", "skidl.node", "skidl.logger"):
    setattr(sys.modules[_module], "get_skidl_trace", lean_trace)
_scriptinfo.scriptinfo = lean_scriptinfo  # get_script_dir and get_script_name call it by name

for _logger in (rt_logger, erc_logger):
    for _h in _logger.handlers:
        if type(_h) is logging.StreamHandler:
            _h.setStream(sys.stderr)

from skidl import Circuit, Net, Part, Pin, SKIDL  # noqa: E402
from skidl.pin import pin_drives  # noqa: E402

POWER_DRIVE = pin_drives.POWER

PIN_TYPES = {
    "input": Pin.types.INPUT,
    "output": Pin.types.OUTPUT,
    "bidirectional": Pin.types.BIDIR,
    "tri_state": Pin.types.TRISTATE,
    "passive": Pin.types.PASSIVE,
    "unspecified": Pin.types.UNSPEC,
    "power_in": Pin.types.PWRIN,
    "power_out": Pin.types.PWROUT,
    "open_collector": Pin.types.OPENCOLL,
    "open_emitter": Pin.types.OPENEMIT,
    "no_connect": Pin.types.NOCONNECT,
    "free": Pin.types.FREE,
}

__all__ = ["Circuit", "Net", "Part", "Pin", "SKIDL", "POWER_DRIVE", "PIN_TYPES", "erc_logger",
           "rt_logger"]
