"""`agentboard sim`: the simulated board with the real firmware, drawn in a browser page on
127.0.0.1; clicks are hands. Ctrl-C stops it."""
import argparse
import sys
import time
import webbrowser

from host_tools.sim.server import SimError
from host_tools.web import twins
from host_tools.web.server import serve
from host_tools.web.twin import TwinError

MAX_PORT = 65535


def port_number(text):
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= MAX_PORT:
        raise argparse.ArgumentTypeError("%s is not a port: give 0 to %d (0: any free one)"
                                         % (text, MAX_PORT))
    return port


def main(argv=None):
    ap = argparse.ArgumentParser(prog="agentboard sim", description=__doc__)
    ap.add_argument("--port", type=port_number, default=8765, help="port on 127.0.0.1 (0: any)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flash", help="folder that keeps the device's files")
    ap.add_argument("--no-browser", action="store_true", help="do not open a browser")
    ap.add_argument("--board", choices=twins.BOARDS, help="the board variant (default: the "
                    "game's own board or its 4-seat one, or %s)" % twins.BOARD)
    ap.add_argument("--game", choices=twins.GAMES, help="the game whose cards are enrolled "
                    "(default: the board's first)")
    args = ap.parse_args(argv)
    board = args.board or (twins.board_for(args.game) if args.game else twins.BOARD)
    print("agentboard: booting the firmware on the simulated %s board ..." % board, flush=True)
    try:
        twin = twins.make(board, args.game, seed=args.seed, flash=args.flash)
    except TwinError as e:
        sys.stderr.write("agentboard: %s\n" % e)
        return 2
    except SimError as e:
        sys.stderr.write("agentboard: cannot start the simulated board: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("agentboard: cannot start the simulated board: %s: %s\n"
                         % (e.filename or args.flash, e.strerror or e))
        return 1
    except KeyboardInterrupt:
        return 130
    # from here on the board is switched off whatever ends this (Ctrl-C, SIGTERM: cli.py), even
    # the moment after its address is printed
    try:
        return _serve(twin, args)
    finally:
        twin.close()


def _serve(twin, args):
    try:
        httpd = serve(twin, args.port)
    except OSError as e:
        sys.stderr.write("agentboard: cannot listen on 127.0.0.1:%d: %s (another program has "
                         "it? try --port 0)\n" % (args.port, e.strerror))
        return 1
    try:
        url = "http://127.0.0.1:%d/" % httpd.server_address[1]
        print("agentboard: the board is at %s (Ctrl-C stops it)" % url, flush=True)
        if not args.no_browser:
            webbrowser.open(url)
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
