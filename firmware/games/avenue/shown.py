# What the Agent Avenue board's players are shown: the view its referee publishes
# (Referee.publish), from public information only; the LEDs (lights.py) draw from it alone,
# never from the referee's working buffers (its sensed spaces, the game's state, what the pads
# hold). Filled in place on every redraw: the blinking redraws five times a second make no
# heap garbage.
from firmware.mpconst import const

# a space's mark: what differs there from the game (spaces without a mark show the pawns)
SPACE_OK = const(0)
SPACE_FAULT = const(1)  # its sensor reads nonsense
SPACE_TAKE = const(2)   # a pawn stands here that the game has elsewhere: take it off
SPACE_COME = const(3)   # a pawn must come here (its colour blinks)
# a pad's mark
PAD_OFF = const(0)
PAD_WANT = const(1)    # put a card on this pad
PAD_FULL = const(2)    # a card lies on it (the same whatever the card is)
PAD_PICK = const(3)    # the other side takes one of these
PAD_BACK = const(4)    # put its played card back on it (after a power-up: blinking)
PAD_LIFT = const(5)    # lift the card on it: refused, or found there at power-up (blinking)
_NO_SIDE = const(-1)
ALL_SEATS = const(-1)  # seat_lit for the winner: every seat of its side lit


class Shown:
    def __init__(self, spaces, pads):
        self.menu = None  # type: tuple | None  # the menu's choice (mode, (green, blue) seats)
        self.playing = False   # a game has been started (won games too)
        self.advanced = False  # its mode shows the black-market spaces
        self.pawns = bytearray(2)  # the space of each side's pawn in the game
        self.spaces = bytearray(spaces)  # a mark per space (SPACE_...)
        self.pads = bytearray(pads)      # a mark per pad, by reader role (PAD_...)
        self.seat_side = _NO_SIDE  # the side whose seats are lit: the one to act, or the winner
        self.seat_count = 0        # its seats
        self.seat_lit = 0          # the seat lit in full (the other dim), ALL_SEATS: every one
