# A small seeded generator that gives the same numbers on CPython and MicroPython (their
# `random` modules differ), so seeded games can be compared across the two.


class Rng:
    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def below(self, n):
        # the 31-bit LCG of ANSI C; the high bits are the good ones (sum_below steps the same)
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def sum_below(self, n, k):
        """The sum of k draws below(n), in one call: the simulator's noise takes four draws at
        every ADC conversion, and a Python call costs more than a draw."""
        s = self.state
        total = 0
        while k:
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            total += (s >> 8) % n
            k -= 1
        self.state = s
        return total

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
