"""Reads pins from KiCad 6 symbol libraries and pads from KiCad footprint libraries.

Only what the cross-check in tests/hardware/test_hardware_library.py needs: the part definitions in
parts.json are checked against the KiCad libraries so the netlist imports into KiCad's PCB
editor (every pin number is a pad of the footprint) and the pin numbering agrees with KiCad's
own librarians. The files are s-expressions; a symbol's block is found by its name and read with
two regular expressions rather than a full parser, which keeps the check fast.
"""
import os
import re

SYMBOL_DIRS = ("/usr/share/kicad/symbols",)
FOOTPRINT_DIRS = ("/usr/share/kicad/footprints",)

_PIN = re.compile(r'\(pin (\w+) \w+.*?\(name "([^"]*)".*?\(number "([^"]*)"', re.S)
_PAD = re.compile(r'\(pad "([^"]*)"')
_EXTENDS = re.compile(r'\(extends "([^"]*)"\)')


class LibraryMissing(Exception):
    pass


def _find(dirs, relpath):
    for d in dirs:
        path = os.path.join(d, relpath)
        if os.path.exists(path):
            return path
    raise LibraryMissing("%s not found in %s (install Debian's kicad-symbols and "
                         "kicad-footprints: make kicad-libs)" % (relpath, ", ".join(dirs)))


def _block(text, start):
    """The balanced s-expression that opens at text[start]."""
    depth = 0
    i = start
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    raise ValueError("unbalanced s-expression")


def symbol_pins(lib_id, dirs=SYMBOL_DIRS):
    """[(number, name, electrical type)] of a symbol "Lib:Name", following `extends`."""
    lib, name = lib_id.split(":", 1)
    with open(_find(dirs, lib + ".kicad_sym"), encoding="utf-8") as f:
        text = f.read()
    while True:
        start = text.find('(symbol "%s"' % name)
        if start < 0:
            raise LibraryMissing("symbol %s not in %s.kicad_sym" % (name, lib))
        block = _block(text, start)
        parent = _EXTENDS.search(block[:200])
        if parent is None:
            break
        name = parent.group(1)
    return sorted(((num, pname, kind) for kind, pname, num in _PIN.findall(block)),
                  key=lambda p: p[0])


def footprint_pads(fp_id, dirs=FOOTPRINT_DIRS):
    """The set of numbered pads of a footprint "Lib:Name" (unnumbered mechanical pads left out)."""
    lib, name = fp_id.split(":", 1)
    with open(_find(dirs, os.path.join(lib + ".pretty", name + ".kicad_mod")),
              encoding="utf-8") as f:
        text = f.read()
    return {p for p in _PAD.findall(text) if p}
