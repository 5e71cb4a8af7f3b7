# The suite's own scheduling (played.py, conftest.py's scheduler): the units of work are weighed
# by the measured CPU of their files and the longest goes first, so no worker starts a whole game
# at the end of the run while the others are done.
import os

import played

TESTS = os.path.dirname(os.path.abspath(__file__))


def test_a_files_units_share_its_measured_cpu_and_the_longest_goes_first():
    cpu = {"tests/a.py": 30.0, "tests/b.py": 12.0, "circuits": 8.0}
    scopes = ["tests/c.py", "tests/a.py[1]", "tests/b.py", "tests/a.py[2]", "tests/a.py",
              "circuits[dog-4]", "circuits[dog-6]"]
    w = played.weights(scopes, cpu)
    assert w == {"tests/c.py": 0.0, "tests/a.py[1]": 10.0, "tests/a.py[2]": 10.0,
                 "tests/a.py": 10.0, "tests/b.py": 12.0, "circuits[dog-4]": 4.0,
                 "circuits[dog-6]": 4.0}
    order = []
    left = list(scopes)
    while left:
        order.append(played.longest(left, w))
        left.remove(order[-1])
    assert order == ["tests/b.py", "tests/a.py[1]", "tests/a.py[2]", "tests/a.py",
                     "circuits[dog-4]", "circuits[dog-6]", "tests/c.py"]


def test_the_measured_cpu_names_only_files_and_groups_the_suite_has():
    groups = set(played.GROUPS.values()) | {"circuits"}
    for name, seconds in played.measured().items():
        assert name in groups or os.path.isfile(os.path.join(os.path.dirname(TESTS), name)), name
        assert seconds > 0, name
