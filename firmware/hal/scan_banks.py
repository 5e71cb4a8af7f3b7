# The scan loop of the boards with banks of multiplexers or ranked pieces (the DOG boards):
# Scanner.use() starts it on such a board (hal/scanner.py has the plain loop for the others),
# so a board without banks or ranks never loads it. As Scanner._run, it is a generator, so
# that its frame is made once and a pass allocates nothing.
from firmware.hal.scanner import EMPTY, UP, DOWN, FAULT, NO_BAND, GRAY, GRAY_BIT


def run(sc):
    # As Scanner._run, for boards with banks of muxes and/or ranked pieces. A candidate is a
    # class and a rank together (class + 4 * (rank + 1), 0 for no rank), so a rank too must
    # hold for `stable` scans before it is reported.
    sel = sc.sel
    reads = sc.reads
    nmux = sc.nmux
    sensor_of = sc.sensor_of
    raw = sc.raw
    state = sc.state
    cand = sc.cand
    count = sc.count
    up_on = sc.up_on
    up_off = sc.up_off
    dn_on = sc.dn_on
    dn_off = sc.dn_off
    lo = sc.lo
    hi = sc.hi
    changed = sc.changed
    stable = sc.stable
    fault_scans = sc.fault_scans
    band_lo = sc.band_lo
    band_hi = sc.band_hi
    banks = sc.banks
    nbank = len(banks) if banks else 1
    nread = sc.nread
    ranked = sc.ranked
    band = sc.band if ranked else None
    rank_scans = 2 * stable
    up_edge = sc.calib.up_edge
    dn_edge = sc.calib.dn_edge
    while True:
        nch = 0
        for bk in range(nbank):
            if banks:
                banks[bk].value(0)
            nr = nread[bk]
            for k in range(16):
                b = GRAY_BIT[k]
                sel[b].value((GRAY[k] >> b) & 1)
                base = (bk * 16 + GRAY[k]) * nmux
                for m in range(nr):
                    i = sensor_of[base + m]
                    r = reads[m]()
                    if i < 0:
                        continue
                    raw[i] = r
                    if band_lo[i] <= r <= band_hi[i]:
                        if count[i]:
                            count[i] = 0
                        continue
                    s = state[i]
                    if r < lo or r > hi:
                        c = FAULT
                    elif r > (up_off[i] if s == UP else up_on[i]):
                        c = UP
                    elif r < (dn_off[i] if s == DOWN else dn_on[i]):
                        c = DOWN
                    else:
                        c = EMPTY
                    code = c
                    now = s
                    if ranked:
                        if c == UP:
                            e = 3 * i
                            code = c + 4 * (1 if r > up_edge[e] else 2 if r > up_edge[e + 1]
                                            else 3 if r > up_edge[e + 2] else 4)
                        elif c == DOWN:
                            e = 3 * i
                            code = c + 4 * (1 if r < dn_edge[e] else 2 if r < dn_edge[e + 1]
                                            else 3 if r < dn_edge[e + 2] else 4)
                        if band[i] != NO_BAND:
                            now = s + 4 * (band[i] + 1)
                    if code == now:
                        count[i] = 0
                        continue
                    if code != cand[i]:
                        cand[i] = code
                        count[i] = 1
                    else:
                        count[i] += 1
                    # a new rank under a piece already seen waits twice as long: a piece
                    # lifted or put down slowly passes the smaller ranks' readings on
                    # its way, and should not be taken for one of them
                    if count[i] >= (fault_scans if c == FAULT else
                                    stable if c != s else rank_scans):
                        state[i] = c
                        if ranked:
                            band[i] = (code >> 2) - 1 if code >= 4 else NO_BAND
                        count[i] = 0
                        changed[nch] = i
                        nch += 1
                        sc._band(i)
            if banks:
                banks[bk].value(1)
        sc.nchanged = nch
        sc.scans += 1
        yield nch
