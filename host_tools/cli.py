"""agentboard: flash, deploy, enrol, calibrate, monitor, export, replay and simulate an Agent DOG
referee board.

Each command says what it does; failures are one line on stderr and a non-zero exit."""
import argparse
import json
import sys

EXIT_FAIL = 1
EXIT_USAGE = 2


def fail(msg, code=EXIT_FAIL):
    sys.stderr.write("agentboard: %s\n" % msg)
    return code


def cmd_flash(args):
    from host_tools.flash import flash, FlashError
    try:
        chip = flash(args.firmware, port=args.port, baud=args.baud)
    except FlashError as e:
        return fail(str(e))
    print("agentboard: MicroPython is on the %s; next: agentboard deploy" % chip)
    return 0


def cmd_deploy(args):
    from host_tools.deploy import deploy, DeployError
    from host_tools.flash import FlashError
    try:
        port = args.port
        if not port:
            from host_tools.flash import find_port
            port = find_port()
        result = deploy(port, boot_check=not args.no_reset,
                        **({"mpy_cross": args.mpy_cross} if args.mpy_cross else {}))
    except (DeployError, FlashError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return fail("interrupted: the board still boots the build it had, or the new one "
                    "whole (a deploy is committed in one step); run deploy again")
    print("agentboard: deployed build %s in %.1f s (%d files copied, %d removed)" % (
        result["version"], result["seconds"], result["copied"], result["removed"]))
    return 0


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
    try:
        n = run(con, _say, _ask, card=args.card, count=args.count)
    except DeviceError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        n = None
    finally:
        con.close()
    if n is not None:
        print("agentboard: enrolled %d sticker%s" % (n, "" if n == 1 else "s"))
    return 0


def cmd_calibrate(args):
    from host_tools.calibrate import run
    from host_tools.device import DeviceError
    con, code = connect(args)
    if con is None:
        return code
    try:
        return run(con, _ask, _say, show_only=args.show)
    except DeviceError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return fail("interrupted: what was measured before is stored")
    finally:
        con.close()


def cmd_virtual(args):
    from host_tools.sim.server import serve_lines
    from host_tools.virtual.device import VirtualDevice, VirtualDeviceError
    try:
        dev = VirtualDevice(flash=args.flash, seed=args.seed, port=args.port)
    except (VirtualDeviceError, OSError) as e:
        return fail("cannot start the virtual device: %s" % e)
    print("agentboard: virtual device on %s (flash: %s)" % (dev.url, dev.flash), flush=True)
    print("agentboard: try `agentboard deploy --port %s`, `mpremote connect %s resume`; "
          "hand actions as JSON lines here (docs/board-protocols.md, section 2)"
          % (dev.url, dev.url),
          flush=True)
    try:
        serve_lines(dev.request, sys.stdin.buffer, sys.stdout)
    except KeyboardInterrupt:
        pass
    finally:
        dev.close()
    return 0


def open_console(args):
    from host_tools.device import SerialConsole, SimConsole
    if args.sim_flash:
        return SimConsole(args.sim_flash)
    port = args.port
    if not port:
        from host_tools.flash import find_port
        port = find_port()
    return SerialConsole(port)


def connect(args):
    """(console, None), or (None, exit code) after saying why there is no console."""
    from host_tools.device import DeviceError
    from host_tools.flash import FlashError
    try:
        return open_console(args), None
    except (DeviceError, FlashError) as e:
        return None, fail(str(e))


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
        return fail("the board has no game to export: %s" % ans.get("reason"))
    text = json.dumps(ans["record"], indent=1)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")
        print("agentboard: wrote %d turns to %s (it reveals the undercover history)"
              % (len(ans["record"]["turns"]), args.output))
    else:
        print(text)
    return 0


def cmd_monitor(args):
    from host_tools.device import DeviceError
    con, code = connect(args)
    if con is None:
        return code
    try:
        view = con.send({"op": "public"})
        print(json.dumps(view.get("view") or view))
        for _ in range(args.polls):
            for e in con.poll_events(args.every):
                print(json.dumps(e))
    except DeviceError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        pass
    finally:
        con.close()
    return 0


def cmd_replay(args):
    from host_tools.replay import replay, RecordError
    try:
        for line in replay(args.record):
            print(line)
    except RecordError as e:
        return fail(str(e))
    except OSError as e:
        return fail("cannot read %s: %s" % (args.record, e.strerror))
    return 0


def cmd_sim(args):
    if args.headless:
        from host_tools.sim.__main__ import main as headless
        return headless(["--seed", str(args.seed)] + (["--flash", args.flash] if args.flash
                                                      else []))
    if args.demo:
        from host_tools.sim.demo import main as demo
        return demo(["--players", str(args.players), "--seed", str(args.seed)])
    from host_tools.web.__main__ import main as web
    return web(["--seed", str(args.seed), "--port", str(args.port)]
               + (["--flash", args.flash] if args.flash else [])
               + (["--no-browser"] if args.no_browser else []))


PORT_HELP = ("serial port of the board, or socket://127.0.0.1:PORT for a virtual one "
             "(default: the one ESP32 board on USB)")


def parser():
    ap = argparse.ArgumentParser(prog="agentboard", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("flash", help="write MicroPython to an ESP32 (esptool)",
                       description="Writes MicroPython's ESP32_GENERIC build to a board: finds "
                       "the port, checks the firmware is built for the chip on it, erases, "
                       "writes at the chip's offset, verifies, resets.")
    p.add_argument("--port", help="serial port (default: the one ESP32 board on USB)")
    p.add_argument("--firmware", required=True,
                   help="MicroPython .bin (micropython.org/download/ESP32_GENERIC, v1.29)")
    p.add_argument("--baud", type=int, default=460800, help="baud rate for writing")
    p.set_defaults(run=cmd_flash)

    p = sub.add_parser("deploy", help="install the firmware on a board running MicroPython",
                       description="Compiles shared_rules/ and firmware/ to .mpy with the "
                       "mpy-cross that matches the board's MicroPython (checked first), copies "
                       "only the files whose hash differs on the board, commits them in one "
                       "step (a cut-off deploy leaves the previous build), writes the hardware "
                       "maps to config/, then resets the board and checks that the application "
                       "starts.")
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--mpy-cross", metavar="PATH",
                   help="the mpy-cross to compile with (default: the one `make setup` installs)")
    p.add_argument("--no-reset", action="store_true",
                   help="leave the board at the REPL instead of resetting it to check the boot")
    p.set_defaults(run=cmd_deploy)

    for name, helptext, run in (
            ("export", "save the board's game record (it reveals the undercover history)",
             cmd_export),
            ("monitor", "show the public view and the board's events as they happen",
             cmd_monitor),
            ("enrol", "teach the board which NFC sticker is which card: put the cards on the "
             "reader one by one", cmd_enrol),
            ("calibrate", "measure the hall sensors (empty board, then pieces) and draw each "
             "sensor's readings and thresholds", cmd_calibrate)):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--port", help=PORT_HELP)
        p.add_argument("--sim-flash", metavar="DIR",
                       help="talk to a simulated board kept in DIR instead")
        if name == "export":
            p.add_argument("-o", "--output", help="file to write (default: stdout)")
        elif name == "monitor":
            p.add_argument("--polls", type=int, default=10**9, help=argparse.SUPPRESS)
            p.add_argument("--every", type=float, default=0.5, help=argparse.SUPPRESS)
        elif name == "enrol":
            p.add_argument("--card", help="enrol every new sticker as this card (e.g. 7, "
                           "1/11, swap) instead of asking for each")
            p.add_argument("--count", type=int, help="stop after this many new stickers")
        else:
            p.add_argument("--show", action="store_true",
                           help="only draw the sensors as they are now; measure nothing")
        p.set_defaults(run=run)

    p = sub.add_parser("replay", help="step through an exported game record",
                       description="Replays a game record (agentboard-record/1) through the "
                       "rules core and prints every turn and its effects.")
    p.add_argument("record", help="the record file (agentboard export -o FILE)")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("sim", help="the simulated board running the real firmware, in a "
                       "browser page",
                       description="Boots the real firmware on the MicroPython unix port "
                       "against the simulated board and draws it in a web page on 127.0.0.1: "
                       "LEDs live, clicks are hands (lift, put down, turn over, slide, cards on "
                       "the reader, buttons). --demo plays a whole game in the terminal "
                       "instead; --headless takes control requests as JSON lines on stdin.")
    p.add_argument("--demo", action="store_true", help="a whole game, printed (as make sim)")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--port", type=int, default=8765, help="the page's port on 127.0.0.1")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--flash", help="folder that keeps the device's files")
    p.set_defaults(run=cmd_sim)

    p = sub.add_parser("virtual", help="a virtual board on a loopback socket, for deploy, "
                       "mpremote and the console tools",
                       description="Runs the MicroPython unix port as a board with no "
                       "firmware of its own, on the simulated hardware, reachable at "
                       "socket://127.0.0.1:PORT like a USB port. Reads hand actions (lift, "
                       "place, card, ...) as JSON lines on stdin.")
    p.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default: any)")
    p.add_argument("--flash", help="folder that keeps the device's files (default: a new one)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=cmd_virtual)
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if not getattr(args, "run", None):
        ap.print_help()
        return EXIT_USAGE
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
