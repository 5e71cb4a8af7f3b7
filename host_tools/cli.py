"""agentboard: flash, talk to and replay an Agent DOG referee board.

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
    from host_tools.sim.demo import main as demo
    return demo(["--players", str(args.players), "--seed", str(args.seed)])


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

    for name, helptext, run in (
            ("export", "save the board's game record (it reveals the undercover history)",
             cmd_export),
            ("monitor", "show the public view and the board's events as they happen",
             cmd_monitor)):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--port", help="serial port of the board")
        p.add_argument("--sim-flash", metavar="DIR",
                       help="talk to a simulated board kept in DIR instead")
        if name == "export":
            p.add_argument("-o", "--output", help="file to write (default: stdout)")
        else:
            p.add_argument("--polls", type=int, default=10**9, help=argparse.SUPPRESS)
            p.add_argument("--every", type=float, default=0.5, help=argparse.SUPPRESS)
        p.set_defaults(run=run)

    p = sub.add_parser("replay", help="step through an exported game record",
                       description="Replays a game record (agentboard-record/1) through the "
                       "rules core and prints every turn and its effects.")
    p.add_argument("record", help="the record file (agentboard export -o FILE)")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("sim", help="the simulated board running the real firmware",
                       description="Plays a whole game on the simulated board (the real "
                       "firmware on the MicroPython unix port), or with --headless takes "
                       "control requests as JSON lines on stdin.")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--flash", help="with --headless: folder that keeps the device's files")
    p.set_defaults(run=cmd_sim)
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
