# What the players are shown: a small model the referee publishes after every change, from
# public information only; the LED view draws from it alone, never from the referee's working
# buffers (the sensed board, what was touched, the judge).
from firmware.games.track import move_lights


class Shown:
    def __init__(self):
        self.seat = -1         # colour index of the seat to move (-1: no game)
        self.lights = move_lights.NONE  # the card in play: movable pieces, a lifted one's targets
        self.spots = []        # start-area spots lit as movable (pieces that may come into play)
        self.steps = []        # the mover's start-area spots that count Partner 4 steps left
        self.todo = []         # [(sensor, what)]: squares to change (places.PUT, TAKE, ...)
        self.bad = []          # sensors of a placement no legal move explains (blinking)
        self.accepted = -1     # sensor of the move just accepted (-1: none)
        self.draw = -1         # colour index of the seat that must draw a card (-1: none)
        self.special = []      # sensors lit to show a game's special spaces (the new-game menu)
        self.menu = None       # the new-game menu's seats (colour indices), or None
