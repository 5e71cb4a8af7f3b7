"""What `make hardware` writes for a variant: a KiCad netlist per board, the BOM, a connection
list per connector, the ERC report and the power budget."""
import csv
import io
import os
import re

from hardware.design import data, erc, power, power_path
from hardware.design.skidl_quiet import rt_logger, skidl

BOM_HEADER = ["board", "reference", "value", "part number", "footprint", "quantity", "why"]
CONNECTION_HEADER = ["pin", "signal", "net", "on this board", "mates with"]
OFF_BOARD = "(off-board)"
NO_CONNECT = "__NOCONNECT"   # SKiDL's name for a circuit's no-connect net
RAIL_NETS = ("+5V", "GND", "+3V3_SENSOR", "+3V3_ESP")
# KiCad 6's netlist format: the oldest the PCB editor of every KiCad since 6 reads (Debian's is 6).
NETLIST_TOOL = skidl.KICAD6


def natural(ref):
    m = re.match(r"([A-Z]+)(\d+)$", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def ref_ranges(refs):
    """'C1-C3 C5' for C1, C2, C3, C5."""
    refs = sorted(refs, key=natural)
    out = []
    start = prev = None
    for ref in refs + [None]:
        key = natural(ref) if ref else None
        if prev is not None and key is not None and key[0] == natural(prev)[0] \
                and key[1] == natural(prev)[1] + 1:
            prev = ref
            continue
        if start is not None:
            out.append(start if start == prev else "%s-%s" % (start, prev))
        start = prev = ref
    return " ".join(out)


def bom_rows(variant, boards, library):
    """One row per board and component: the parts on each PCB, then what plugs into them."""
    rows = []
    for board in boards:
        groups = {}
        for part, key in board.placed:
            groups.setdefault(key, []).append(part.ref)
        for key in sorted(groups, key=lambda k: natural(sorted(groups[k], key=natural)[0])):
            comp = library["components"][key]
            pkg = library["packages"][comp["package"]]
            rows.append([board.name, ref_ranges(groups[key]), comp["value"], comp["part_number"],
                         pkg["footprint"], len(groups[key]), comp["why"]])
    main = boards[0]
    harness_count = {}
    for strip in variant.strips:
        harness_count[strip.harness] = harness_count.get(strip.harness, 0) + 1
    for key, mod in library["modules"].items():
        if "plugs_into" in mod:
            refs = [p.ref for p, k in main.placed if k == mod["plugs_into"]]
            # one module per header it plugs into (the Agent Avenue board's three readers), as
            # the power budget counts them; the DevKit is one module in two sockets
            qty = len(refs)
            if mod["plugs_into"] == "devkit_j2":
                refs += [p.ref for p, k in main.placed if k == "devkit_j3"]
            where = "into " + " ".join(refs)
        elif "per_harness" in mod:
            qty, where = harness_count.get(mod["per_harness"], 0), "-"
        else:
            qty, where = 1, "-"
        if qty:
            rows.append([OFF_BOARD, where, mod["value"], mod["part_number"], "-", qty, mod["why"]])
    for item in variant.config.get("kit", []):
        rows.append([OFF_BOARD, "-", item["item"], item["part_number"], "-", item["qty"],
                     item["why"]])
    return rows


def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def mate_names(variant, boards):
    """{(board, connector ref): (other board, other ref)} for the strip cables."""
    by_name = {b.name: b for b in boards}
    out = {}
    main = boards[0]
    for part, strip_name in main.connectors:
        strip = by_name.get(strip_name)
        if strip is None:
            continue
        other = strip.connectors[0][0]
        out[(main.name, part.ref)] = (strip.name, other.ref)
        out[(strip.name, other.ref)] = (main.name, part.ref)
    return out


def connection_rows(board, part, mates, far_end):
    rows = []
    for p in sorted(part.pins, key=lambda p: natural("P" + p.num) if p.num.isdigit()
                    else (p.num, 0)):
        net = p.net
        if mates is not None:
            mate = "%s %s pin %s" % (mates[0], mates[1], p.num)
        else:
            mate = "%s pin %s (%s)" % (far_end, p.num, p.name)
        if net is None or net.name == NO_CONNECT:
            rows.append([p.num, p.name, "(not connected)", "-", mate])
            continue
        others = [q for q in net.pins if q is not p]
        if net.name in RAIL_NETS:
            here = "%s rail (%d pads)" % (net.name, len(others))
        else:
            here = " ".join(sorted(("%s.%s" % (q.part.ref, q.num) for q in others), key=natural_pad))
        rows.append([p.num, p.name, net.name, here or "-", mate])
    return rows


def natural_pad(text):
    ref, _, pad = text.partition(".")
    return natural(ref), pad


def write_variant(variant, out_root, library=None, boards=None):
    """Builds every board of a variant (unless given), checks it and writes its files; returns
    a summary."""
    from hardware.design import circuit
    library = library or data.parts()
    out = os.path.join(out_root, variant.name)
    os.makedirs(os.path.join(out, "connections"), exist_ok=True)
    if boards is None:
        boards = circuit.build_boards(variant, library)
    findings = []
    for board in boards:
        findings.extend(erc.run_erc(board))
    for board in boards:
        with erc.captured(rt_logger) as problems:
            text = board.circuit.generate_netlist(tool=NETLIST_TOOL, track_src=False,
                                                  track_abs_path=False, do_backup=False)
        findings.extend((sev, "%s netlist: %s" % (board.name, msg)) for sev, msg in problems)
        with open(os.path.join(out, board.name + ".net"), "w", encoding="utf-8") as f:
            f.write(str(text))
    write_csv(os.path.join(out, "bom.csv"), BOM_HEADER, bom_rows(variant, boards, library))
    mates = mate_names(variant, boards)
    for board in boards:
        for part, far_end in board.connectors:
            rows = connection_rows(board, part, mates.get((board.name, part.ref)), far_end)
            write_csv(os.path.join(out, "connections", "%s-%s.csv" % (board.name, part.ref)),
                      CONNECTION_HEADER, rows)
    with open(os.path.join(out, "erc.txt"), "w", encoding="utf-8") as f:
        f.write(erc_report(boards, findings))
    budget = power.budget(variant, library, boards)
    power_findings = power_path.findings(power_path.design(variant, library, boards), library)
    with open(os.path.join(out, "power.md"), "w", encoding="utf-8") as f:
        f.write(power.render(budget))
        f.write(power_report(power_findings))
    return {"variant": variant.name, "folder": out, "boards": boards, "findings": findings,
            "budget": budget, "power_findings": power_findings}


def power_report(found):
    """The power path's findings (power_path.findings) as power.md's last section."""
    lines = ["", "Power path (the supply model on the kit's supply and cable): "
             + ("no findings." if not found else "%d findings:" % len(found)), ""]
    lines.extend("- %s: %s." % f for f in found)
    return "\n".join(lines) + "\n"


def erc_report(boards, findings):
    buf = io.StringIO()
    for board in boards:
        mine = [f for f in findings if f[1].startswith(board.name + ":")]
        errors = sum(1 for f in mine if f[0] == erc.ERROR)
        buf.write("%s: %d parts, %d nets, %d errors, %d warnings\n"
                  % (board.name, len(board.placed), len(board.circuit.get_nets()), errors,
                     len(mine) - errors))
        for sev, msg in mine:
            buf.write("  %s: %s\n" % (sev, msg))
    return buf.getvalue()
