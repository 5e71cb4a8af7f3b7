# The generated circuits of a board variant (hardware/design/circuit.py, SKiDL), built once per
# worker and shared by the hardware test files that only read them: generating a variant's
# boards takes seconds, and four files read the same ones (a test that changes a circuit, to
# see the ERC fail, builds its own). The files that read them run together, a variant a unit
# of work (played.CIRCUITS, conftest.py's scheduler).
from hardware.design import circuit

_built = {}


def board_list(variant):
    """The variant's boards (the main board first, then every strip), as build_boards gives
    them; the same objects on every call in this worker."""
    if variant.folder not in _built:
        _built[variant.folder] = circuit.build_boards(variant)
    return _built[variant.folder]


def boards(variant):
    """name -> board of the variant's boards."""
    return dict((b.name, b) for b in board_list(variant))
