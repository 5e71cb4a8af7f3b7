"""Reads a callgrind profile (valgrind's callgrind format, version 1) for what make bench
separates from the firmware's count: the memory manager's work (MicroPython's py/gc.c, every
function named gc_*), whose cost in a process the simulator shares is set by the simulator's
heap (docs/measuring.md)."""
import re

MEMORY_MANAGER = "gc_"  # py/gc.c's functions (gc_alloc, gc_collect, gc_mark_subtree, ...)
_NAME = re.compile(r"\((\d+)\)(?: (.*))?$")


def _is_mm(name):
    return name.split("'")[0].startswith(MEMORY_MANAGER)  # f'2: callgrind's recursion level


class _Names:
    """callgrind's name compression: "(id) name" the first time, "(id)" after."""

    def __init__(self):
        self.by_id = {}

    def __call__(self, text):
        m = _NAME.match(text)
        if m is None:
            return text
        if m.group(2) is not None:
            self.by_id[m.group(1)] = m.group(2)
        return self.by_id[m.group(1)]


def split(path):
    """(instructions counted, of them the memory manager's, the calls into it): each call from
    a function outside the memory manager into one inside counts with all it ran (callgrind
    writes a call's inclusive cost on the line after its calls=)."""
    names = _Names()
    fn = callee = ""
    total = mm = calls = 0
    into_mm = False
    with open(path) as f:
        for line in f:
            if into_mm:
                mm += int(line.split()[1])  # "position cost"
                into_mm = False
            elif line.startswith("fn="):
                fn = names(line[3:].rstrip("\n"))
            elif line.startswith("cfn="):
                callee = names(line[4:].rstrip("\n"))
            elif line.startswith("calls="):
                if _is_mm(callee) and not _is_mm(fn):
                    into_mm = True
                    calls += int(line[6:].split()[0])
            elif line.startswith("totals:") or line.startswith("summary:"):
                total = int(line.split()[1])
    return total, mm, calls
