# The one main loop every board runs, at 50 scans per second. Each pass scans the sensors,
# polls one card reader (in turn, a reader whose card missed a poll first; its antenna on only
# from the pass before, off for a pass after: hal/mfrc522.PollTurns), the buttons and the
# console, and redraws the LEDs when something changed (and five times a second for
# blinking). A family of games (firmware/games/) gives its App the hooks below; the loop, the
# new-game menu's buttons, the console's dispatch and the console ops every board has
# (COMMON_OPS, in common_ops.py) are written here once.
import time

from firmware import ondemand
from firmware.mpconst import const
from firmware.board import Board
from firmware.store import open_store
from firmware.console import Console, StdinLines, stdout_parts, report_boot
from firmware.hal.buttons import PRESS, RELEASE, HOLD
from firmware.hal.mfrc522 import PollTurns

SCAN_MS = const(20)
# the loop's own numbers are const(): on a board they are no names in the module's dict (each
# name there costs heap, and a dict grows its table in steps)
_BLINK_EVERY = const(10)
_READY_EVERY = const(25)  # twice a second the still board lets the game's journal erase ahead
# reader polls at power-up that look for a card lying there already (a tag may miss a poll
# while the field comes up)
BOOT_POLLS = const(3)
GAME_OVER = "game_over"  # the phase every referee names a finished game by
# The console ops every board has (docs/board-protocols.md, section 1): App's methods of these
# names. Command tables are tuples of names, each resolved when a command comes: a dict of
# (function, flag) pairs would hold its entries in the heap for the board's whole life.
COMMON_OPS = ("enrol", "calibrate", "sensors", "public", "export")
# their module (functions of the App and the command), imported for each command and dropped
# after it (firmware/ondemand.py): a board runs them rarely, their code is not kept in the heap
COMMON_OPS_MODULE = "firmware.common_ops"
# the ops (of every board or of a family) that answer no_game without a game
NEED_GAME = ("public", "export", "undo")
# the type checker's view of what a family's App sets and gives (below); never true on a board,
# where the names are bare annotations that cost nothing
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def print_line(line):
    print(line)


class App:
    """The board's application: the loop above over one family's referee and LED view.

    The referee's contract (what the loop, the console ops and the view ask of it; both
    families' referees keep it, firmware/README.md "The roles"):
      st                None before the first game, else the game's state
      phase             the board's phase as the console names it, None without a game
                        (GAME_OVER once the game is won)
      sense(...), decide()   the scanner's classes as they change; the board still (no
                             sensor part way to a change: in the scan that completed the
                             last one, or once the rest have completed)
      resume_from_flash()    the game saved on flash, taken up again at boot
      tick()            the referee's clock, driven by its family's hooks (the track games':
                        each scan while a piece rests in transit; Agent Avenue's: each scan,
                        for a refused card's blinking)
      publish()         the published view: a small model of public facts only, the one thing
                        the LED view draws from (never the referee's working buffers)
      public_view()     the console's `public` answer (a dict)
      export_parts()    the game record, piece by piece (the console's `export`)
    The LED view offers render(published, blink_on).

    A family's App gives: SOUNDS (event -> buzzer pattern), GAME (the game its boot event
    names, None when the board plays several), OPS (the names of its own console ops,
    `new_game` and `status` among them: each a method of its App named as the op, taking the
    command; an op that needs a game is named in NEED_GAME), choices (the new-game menu) and
    the hooks listed below. `status` is each family's own dict literal: a MicroPython dict's
    key order follows its table's history, so one answer built from shared parts would change
    the order of its keys.
    """
    SOUNDS = {}
    GAME = None
    OPS = ()
    OPS_MODULE = None  # the module of the family's ops that are not App methods (ondemand)
    # set by the family's setup, and its hooks (described below)
    ref: "Any"
    view: "Any"
    cardmap: "Any"
    choices: "Any"
    setup: "Any"
    cards_at_boot: "Any"
    sensed: "Any"
    card_event: "Any"
    start_choice: "Any"
    game_button: "Any"
    back_button: "Any"
    menu_shown: "Any"
    # the published view is asked again at every redraw (True) or only when something changed
    LIVE_VIEW = False

    def __init__(self, config_dir="config", data_dir=".", write=print_line, inp=None,
                 write_parts=None):
        board = Board(config_dir, data_dir)
        self.board = board
        self.data_dir = data_dir
        if write_parts is None and write is print_line:
            write_parts = stdout_parts
        self.console = Console(inp if inp is not None else StdinLines(), write, write_parts)
        # the handler made once: a bound method made on every scan is heap garbage
        self.on_command = self.command
        self.polls = PollTurns(board.readers)
        self.store = open_store(data_dir, self.event)
        self.setup(config_dir)
        board.release_names()  # turned into index tables above: give their heap back
        self.dirty = True
        self.unsettled = False
        self.menu = -1  # the new-game menu's choice (an index of self.choices), -1: closed
        self.shown = self.ref.publish()

    def event(self, obj):
        self.console.emit(obj)
        self.dirty = True
        sound = self.SOUNDS.get(obj.get("event"))
        if sound:
            self.board.buzzer.play(sound)

    def free(self):
        """No game running: none yet, or the last one won (the menu may open, calibrate run)."""
        return self.ref.st is None or self.ref.phase == GAME_OVER

    def boot(self):
        b = self.board
        b.scanner.settle(b.scanner.stable + 2)
        # the board as it stands (on a ranked board with its ranks: a game resumes from what
        # is read), then still: a referee without a game yet decides nothing
        self.sensed(0)
        self.ref.decide()
        report_boot(self.console, b, self.cardmap, self.data_dir, self.GAME)
        self.ref.resume_from_flash()
        self.cards_at_boot()

    # A pass of the loop, 50 a second: step and what it calls each pass keep their frames
    # within MicroPython's 11 words (docs/measuring.md, "Frames"), or each call would allocate
    # its frame on the heap
    def step(self, n):
        b = self.board
        k = b.scanner.scan()
        if k:
            self.sensed(k)
            self.unsettled = True
        if self.unsettled and b.scanner.still():
            # the board is still: judged in the scan that completed the last change, once no
            # other sensor is part way to one (the other half of an action would be: a piece
            # lifted counts sooner than one put down on a board that reads ranks)
            self.unsettled = False
            self.ref.decide()
            self.dirty = True
        elif not self.unsettled and n % _READY_EVERY == 0:
            self.store.ready()  # so that no save waits for a sector erase
        self.each_scan()
        j = self.polls.step()
        if j >= 0:
            self.card_event(j, b.readers[j].event)
        self._buttons()
        self.console.poll(self.on_command)
        b.buzzer.tick(SCAN_MS)
        if self.dirty or n % _BLINK_EVERY == 0:
            if self.dirty or self.LIVE_VIEW:
                self.shown = self.menu_shown() if self.menu >= 0 else self.ref.publish()
            self.view.render(self.shown, (n // _BLINK_EVERY) % 2 == 0)
            self.dirty = False

    def _buttons(self):
        b = self.board
        now = time.ticks_ms()
        ev = b.confirm.poll(now)
        if ev:
            self.confirm_button(ev)
        ev = b.back.poll(now)
        if self.menu >= 0:
            if ev == PRESS:
                self.menu = -1  # back closes the menu
                self.dirty = True
        elif ev:
            self.back_button(ev)

    def confirm_button(self, ev):
        # New game with the buttons: with no game running (or after a win) hold confirm to
        # open the menu; each short press goes to the next choice (the LEDs show it); holding
        # confirm again starts that game. During a game the family's game_button decides. A
        # hold begins with a press, so the menu counts a press when it is released.
        if self.menu >= 0:
            if ev == RELEASE and not self.board.confirm.hold_sent:
                self.menu = (self.menu + 1) % len(self.choices)
            elif ev == HOLD:
                choice = self.choices[self.menu]
                self.menu = -1
                self.start_choice(choice)
            self.dirty = True
        elif ev == HOLD and self.free():
            self.menu = 0
            self.dirty = True
        else:
            self.game_button(ev)

    def command(self, cmd):
        op = cmd["op"]  # a str (console.py): only a name in a table reaches getattr
        if op not in self.OPS and op not in COMMON_OPS:
            return err("bad_request", "unknown op %r" % (op,))
        if op in NEED_GAME and self.ref.st is None:
            return err("no_game", "no game yet: start one with new_game")
        fn = getattr(self, op, None)
        if fn is not None:
            return fn(cmd)
        # an op whose code is kept off the heap: a function of the family's OPS_MODULE, or of
        # COMMON_OPS_MODULE for the ops every board has
        return ondemand.call(COMMON_OPS_MODULE if op in COMMON_OPS else self.OPS_MODULE, op,
                             self, cmd)

    def each_scan(self):
        """Once a scan, after the sensors (a hook: a family's referee with a clock per scan)."""

    # The other hooks every family's App gives (no defaults here: each one costs heap):
    #   setup(config_dir)   what the board plays (its layout, its tables), then self.cardmap
    #                       (CardMap over its card kinds), self.ref, self.view, self.choices
    #   cards_at_boot()     the card readers polled BOOT_POLLS times for cards lying there
    #   sensed(k)           the scanner changed k sensors this scan (0: the board at boot)
    #   card_event(j, ev)   card reader j (of board.readers) reported ev (hal.mfrc522)
    #   start_choice(c)     the new-game menu's choice c, held: start it
    #   game_button(ev)     the confirm button during a game (PRESS, RELEASE or HOLD)
    #   back_button(ev)     the back button with the menu closed
    #   menu_shown()        the view the LEDs show while the menu is open


def err(kind, reason):
    return {"ok": False, "error": kind, "reason": reason}


def run(cls, config_dir="config", data_dir=".", max_scans=-1, write=print_line, inp=None,
        write_parts=None):
    """Builds the family's App, boots it and runs its loop (max_scans passes, -1: forever)."""
    app = cls(config_dir, data_dir, write, inp, write_parts)
    app.boot()
    n = 0
    while max_scans < 0 or n < max_scans:
        t0 = time.ticks_ms()
        app.step(n)
        n += 1
        spent = time.ticks_diff(time.ticks_ms(), t0)
        if spent < SCAN_MS:
            time.sleep_ms(SCAN_MS - spent)
