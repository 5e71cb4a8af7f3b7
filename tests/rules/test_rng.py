"""shared_rules/rng.py: the seeded generator both interpreters share."""
from hypothesis import given, strategies as hs

from shared_rules.rng import Rng

# the first draws of ANSI C's LCG (state' = state * 1103515245 + 12345 mod 2^31) from seed 1,
# worked by hand from the formula: state0 = (1 * 2654435761 + 1) & 0x7FFFFFFF = 506952114
SEED_1_STATE = 506952114


def test_the_state_follows_the_seed_as_the_formula_says():
    assert Rng(1).state == SEED_1_STATE
    r = Rng(1)
    r.below(1000)
    assert r.state == (SEED_1_STATE * 1103515245 + 12345) & 0x7FFFFFFF


@given(hs.integers(0, 2 ** 31), hs.integers(1, 5000), hs.integers(0, 8))
def test_a_sum_of_draws_is_the_draws_one_by_one(seed, n, k):
    one, many = Rng(seed), Rng(seed)
    assert many.sum_below(n, k) == sum(one.below(n) for _ in range(k))
    assert many.state == one.state  # and the stream goes on from the same place
    assert many.below(n) == one.below(n)
