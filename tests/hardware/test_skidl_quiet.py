# hardware/design/skidl_quiet.py puts a lean trace in the place of SKiDL's own (which read every
# frame's source file and took four fifths of a `build`): it must answer exactly what SKiDL's
# answers, and SKiDL must record it where it records its own (each part's and net's creation,
# the place its error messages name).
from hardware.design import skidl_quiet  # first: SKiDL imported quietly (it writes log files)
from hardware.design.skidl_quiet import Circuit, Net, Part, Pin, SKIDL

import skidl.circuit  # noqa: E402 (after skidl_quiet)
import skidl.logger  # noqa: E402
import skidl.node  # noqa: E402
from skidl import scriptinfo  # noqa: E402


def nested(depth):
    """Both traces from one line, depth calls down (the outermost caller first in each)."""
    if depth:
        return nested(depth - 1)
    return scriptinfo.get_skidl_trace(), skidl_quiet.lean_trace()


def test_the_lean_trace_is_skidls_own_answer():
    skidls, lean = nested(3)
    assert lean == skidls
    assert lean[-1][0] == __file__ and len([f for f, _ in lean if f == __file__]) == 5


def test_the_lean_script_info_is_skidls_own_answer():
    assert scriptinfo.scriptinfo is skidl_quiet.lean_scriptinfo
    assert skidl_quiet.lean_scriptinfo() == skidl_quiet.skidl_scriptinfo()
    assert Circuit().script_dir == skidl_quiet.skidl_scriptinfo()["dir"]


def test_skidl_records_the_lean_trace_at_each_part_and_net():
    for module in (skidl.circuit, skidl.node, skidl.logger):
        assert module.get_skidl_trace is skidl_quiet.lean_trace, module.__name__
    c = Circuit()
    part = Part(tool=SKIDL, name="R", ref_prefix="R", circuit=c,
                pins=[Pin(num="1", name="1"), Pin(num="2", name="2")])
    net = Net("N", circuit=c)
    for made in (part, net):
        assert made.skidl_trace[-1][0] == __file__
        assert made.src_line(True).startswith(__file__ + ":")
