# A small seeded generator that gives the same numbers on CPython and MicroPython (their
# `random` modules differ), so seeded games can be compared across the two.


class Rng:
    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def below(self, n):
        # the 31-bit LCG of ANSI C; the high bits are the good ones
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
