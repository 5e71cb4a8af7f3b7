"""The 1:1 placement and drilling template of a variant (python -m hardware.design template
VARIANT -o FILE.svg): every sensor's centre with a crosshair and its strip and channel, every
LED with its light hole, every reader pad with the RC522 module under it, the discard pile, the
dowel holes, and a 100 mm scale bar to check the print. The whole sheet in one SVG (a print
shop's or a plotter's), and, when it is larger than a page, the same tiled onto A4 or Letter
pages that overlap for glueing. Figures from the variant's coords.json and mechanics.json."""
import math
import os
from xml.sax.saxutils import escape, quoteattr

from hardware.design import coords, coords_make, data

SVG_NS = "http://www.w3.org/2000/svg"
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAGE_MARGIN_MM = 8.0     # most printers leave 4-6 mm of every edge blank
FOOTER_MM = 16.0         # under each page's window: its name and its own scale bar
OVERLAP_MM = 10.0        # neighbouring pages repeat this much, to line them up and glue
LEGEND_MM = 30.0         # the full sheet's band under the drawing
SCALE_BAR_MM = 100.0
CROSS_MM = 5.0           # a crosshair's arm
FONT_MM = 2.2
STRIP_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65",
                 "#a04000", "#2e4053", "#b03a2e", "#1a5276")
INK = "#000000"


def fmt(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


def tag(name, attrs, body=None):
    a = "".join(" %s=%s" % (k.replace("_", "-"), quoteattr(fmt(v) if isinstance(v, float)
                                                           else str(v)))
                for k, v in attrs)
    if body is None:
        return "<%s%s/>" % (name, a)
    return "<%s%s>%s</%s>" % (name, a, body, name)


def text(x, y, s, size=FONT_MM, anchor="middle", cls="label"):
    return tag("text", [("x", x), ("y", y), ("font_size", size), ("text_anchor", anchor),
                        ("font_family", "sans-serif"), ("class", cls)], escape(s))


def line(x1, y1, x2, y2, colour=INK, width=0.2, cls=None):
    attrs = [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2), ("stroke", colour),
             ("stroke_width", width)]
    return tag("line", attrs + ([("class", cls)] if cls else []))


def crosshair(x, y, colour=INK, arm=CROSS_MM):
    return line(x - arm, y, x + arm, y, colour) + line(x, y - arm, x, y + arm, colour)


def circle(x, y, r, cls, colour=INK, dash=None):
    attrs = [("class", cls), ("cx", x), ("cy", y), ("r", r), ("fill", "none"),
             ("stroke", colour), ("stroke_width", 0.2)]
    return tag("circle", attrs + ([("stroke_dasharray", dash)] if dash else []))


def rect(x, y, w, h, cls, dash=None, colour=INK):
    attrs = [("class", cls), ("x", x), ("y", y), ("width", w), ("height", h), ("fill", "none"),
             ("stroke", colour), ("stroke_width", 0.3)]
    return tag("rect", attrs + ([("stroke_dasharray", dash)] if dash else []))


def scale_bar(x, y):
    """A 100 mm bar with a tick every 10 mm: measured on the print, it must read 100 mm."""
    parts = [line(x, y, x + SCALE_BAR_MM, y, width=0.5, cls="scale-bar")]
    for i in range(11):
        tx = x + i * SCALE_BAR_MM / 10
        parts.append(line(tx, y, tx, y - (3 if i % 5 == 0 else 1.5)))
    parts.append(text(x + SCALE_BAR_MM / 2, y + 4, "100 mm: measure it on the print; "
                      "anything else, print again at 100 % (actual size)", 2.5))
    return tag("g", [("id", "scale-bar")], "".join(parts))


def strip_of(variant):
    """{location: (strip index, mux, channel)} from sensors.json."""
    muxes = sorted(set(s["mux"] for s in variant.sensors))
    return dict((s["loc"], (muxes.index(s["mux"]), s["mux"], s["channel"]))
                for s in variant.sensors)


def sensor_marks(table, variant):
    where = strip_of(variant)
    r = table.get("piece_d", 0) / 2
    out = []
    for loc, (x, y) in coords.positions(table).items():
        k, mux, ch = where[loc]
        colour = STRIP_COLOURS[k % len(STRIP_COLOURS)]
        body = (circle(x, y, 0.4, "centre", colour) + crosshair(x, y, colour)
                + (circle(x, y, r, "piece", colour, "1 1") if r else "")
                + text(x + 1.2, y - 1.2, loc, FONT_MM, "start")
                + text(x + 1.2, y + 3.2, "m%d.%d" % (mux, ch), 1.6, "start"))
        out.append(tag("g", [("class", "sensor"), ("data_loc", loc)], body))
    return tag("g", [("id", "sensors")], "".join(out))


def led_marks(table, mech):
    hole = mech["holes"]["led"]["d_mm"]
    w, h = mech["parts"]["led"]["size_mm"]
    out = []
    for name, (x, y) in coords.positions(table, "leds").items():
        body = (rect(x - w / 2, y - h / 2, w, h, "led-body")
                + circle(x, y, hole / 2, "drill", dash="2 1")
                + line(x - 1, y, x + 1, y) + line(x, y - 1, x, y + 1))
        if ":" in name:     # a LED with no sensor under it (a seat's, a pad's) says whose
            body += text(x, y + hole / 2 + 2.5, name, 1.8)
        out.append(tag("g", [("class", "led"), ("data_led", name), ("data_x", x),
                             ("data_y", y)], body))
    return tag("g", [("id", "leds")], "".join(out))


def pad_marks(table, mech):
    mw, mh = mech["parts"]["reader_module"]["size_mm"]
    out = []
    for name, pad in table["readers"].items():
        (x, y), (w, h) = pad["at"], pad["size"]
        body = (rect(x - w / 2, y - h / 2, w, h, "pad")
                + rect(x - mw / 2, y - mh / 2, mw, mh, "module", "3 2")
                + crosshair(x, y)
                + text(x, y - h / 2 + 5, "%s pad" % name, 3.0)
                + text(x, y + mh / 2 + 4, "RC522 module under it (%g x %g mm)" % (mw, mh), 2.0))
        out.append(tag("g", [("class", "reader"), ("data_reader", name), ("data_x", x),
                             ("data_y", y)], body))
    for name, area in table.get("areas", {}).items():
        (x, y), (w, h) = area["at"], area["size"]
        body = (rect(x - w / 2, y - h / 2, w, h, "area", "1 2")
                + text(x, y - h / 2 + 5, "%s pile" % name, 3.0)
                + text(x, y - h / 2 + 9, "out of every reader's field", 2.0))
        out.append(tag("g", [("class", "area"), ("data_area", name)], body))
    return tag("g", [("id", "readers")], "".join(out))


def other_marks(table, mech):
    d = mech["holes"]["registration"]["d_mm"]
    out = []
    for i, (x, y) in enumerate(table.get("pins", [])):
        out.append(tag("g", [("class", "pin"), ("data_pin", i + 1)],
                       circle(x, y, d / 2, "drill") + crosshair(x, y, arm=d)
                       + text(x, y + d + 3, "dowel %d: drill %g mm" % (i + 1, d), 2.2)))
    if "main_board" in table:
        x, y = table["main_board"]
        out.append(tag("g", [("class", "main-board")],
                       crosshair(x, y, arm=3) + text(x, y + 6, "main board", 2.5)))
    bx, by, bw, bh = table.get("board", [0, 0] + table["sheet"])
    out.append(rect(bx, by, bw, bh, "board-edge", "4 2"))
    return tag("g", [("id", "other")], "".join(out))


def drawing(table, variant, mech):
    """Everything on the sheet, in mm from its top-left corner."""
    return (other_marks(table, mech) + pad_marks(table, mech) + led_marks(table, mech)
            + sensor_marks(table, variant))


def legend(table, variant, mech, x, y):
    """What the sheet is and what to drill, and the scale bar."""
    lines = ["%s: placement and drilling template, 1:1 (%s)" % (variant.title, variant.name),
             "+ sensor centre (m M.C: multiplexer M, channel C; colour: its strip); dashed "
             "circle: a piece's base. The bottom edge faces the first colour's seat.",
             "LED: drill %g mm through the game board (light hole); dowel pins: %g mm; "
             "reader pads: the card's outline, the RC522 module dashed under it."
             % (mech["holes"]["led"]["d_mm"], mech["holes"]["registration"]["d_mm"])]
    if "assumption" in table:
        lines.append("ASSUMED coordinates (coords.json): measure your board first "
                     "(hardware/BUILD.md).")
    body = "".join(text(x, y + 4 * i, s, 2.8, "start") for i, s in enumerate(lines))
    return tag("g", [("id", "legend")], body + scale_bar(x, y + 4 * len(lines) + 4))


def svg_doc(w, h, viewbox, body):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + tag("svg", [("xmlns", SVG_NS), ("version", "1.1"), ("width", "%smm" % fmt(w)),
                          ("height", "%smm" % fmt(h)), ("viewBox", viewbox)], body) + "\n")


def full(table, variant, mech=None):
    """The whole sheet at 1:1, with a legend band under it."""
    mech = mech or coords_make.mechanics()
    w, h = table["sheet"]
    body = (tag("title", [], escape("%s template" % variant.name))
            + rect(0, 0, w, h, "sheet")
            + drawing(table, variant, mech) + legend(table, variant, mech, 5, h + 6))
    return svg_doc(w, h + LEGEND_MM, "0 0 %s %s" % (fmt(w), fmt(h + LEGEND_MM)), body)


def window(paper):
    """The part of a page that shows the sheet (w, h), in either orientation."""
    pw, ph = paper
    return pw - 2 * PAGE_MARGIN_MM, ph - 2 * PAGE_MARGIN_MM - FOOTER_MM


def grid(sheet, paper):
    """(columns, rows, page size) for the orientation that needs fewer pages."""
    best = None
    for pw, ph in (paper, (paper[1], paper[0])):
        ww, wh = window((pw, ph))
        cols = max(1, math.ceil((sheet[0] - OVERLAP_MM) / (ww - OVERLAP_MM)))
        rows = max(1, math.ceil((sheet[1] - OVERLAP_MM) / (wh - OVERLAP_MM)))
        if best is None or cols * rows < best[0] * best[1]:
            best = (cols, rows, (pw, ph))
    return best


def pages(table, variant, paper="a4", mech=None):
    """[(file suffix, svg text)]: the sheet on pages of the paper, row by row. Page (r, c)
    shows the sheet from (c, r) x (window - overlap), so neighbours repeat OVERLAP_MM."""
    mech = mech or coords_make.mechanics()
    if paper not in PAPERS:
        raise data.DesignError("paper %r: one of %s" % (paper, ", ".join(sorted(PAPERS))))
    cols, rows, (pw, ph) = grid(table["sheet"], PAPERS[paper])
    ww, wh = window((pw, ph))
    art = drawing(table, variant, mech)
    out = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * (ww - OVERLAP_MM), r * (wh - OVERLAP_MM)
            name = "page %d of %d (row %d, column %d)" % (r * cols + c + 1, rows * cols,
                                                           r + 1, c + 1)
            inner = tag("svg", [("class", "window"), ("x", PAGE_MARGIN_MM),
                                ("y", PAGE_MARGIN_MM), ("width", ww), ("height", wh),
                                ("viewBox", "%s %s %s %s" % (fmt(x0), fmt(y0), fmt(ww),
                                                             fmt(wh)))], art)
            foot_y = PAGE_MARGIN_MM + wh
            body = (inner + rect(PAGE_MARGIN_MM, PAGE_MARGIN_MM, ww, wh, "window-edge")
                    + text(PAGE_MARGIN_MM, foot_y + 4, "%s %s: %s; the first %g mm of its "
                           "top and left repeat the page above and to its left: glue it over "
                           "them, crosshairs on crosshairs" % (variant.name, paper, name,
                                                               OVERLAP_MM), 2.2, "start")
                    + scale_bar(PAGE_MARGIN_MM, foot_y + 11))
            out.append(("%s-%d" % (paper, r * cols + c + 1),
                        svg_doc(pw, ph, "0 0 %s %s" % (fmt(pw), fmt(ph)), body)))
    return out


def write(variant, out, papers=("a4",), table=None):
    """The full sheet to out (FILE.svg) and its pages beside it (FILE-a4-1.svg ...) for each
    paper; returns the paths written."""
    table = table or coords.read(os.path.join(variant.maps_dir, "coords.json"))
    mech = coords_make.mechanics()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    stem = out[:-4] if out.endswith(".svg") else out
    files = [(stem + ".svg", full(table, variant, mech))]
    for paper in papers:
        files += [("%s-%s.svg" % (stem, suffix), body)
                  for suffix, body in pages(table, variant, paper, mech)]
    for path, body in files:
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
    return [path for path, _ in files]
