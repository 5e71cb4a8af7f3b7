# The suite's own scheduling (played.py, conftest.py's scheduler): the units of work are weighed
# by the measured seconds of their files and the longest goes first, so no worker starts a whole
# game at the end of the run while the others are done.
import os

import played

TESTS = os.path.dirname(os.path.abspath(__file__))


def test_a_files_units_share_its_measured_seconds_and_the_longest_goes_first():
    seconds = {"tests/a.py": 30.0, "tests/b.py": 12.0, "circuits": 8.0}
    scopes = ["tests/c.py", "tests/a.py[1]", "tests/b.py", "tests/a.py[2]", "tests/a.py",
              "circuits[dog-4]", "circuits[dog-6]"]
    w = played.weights(scopes, seconds)
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


def test_the_measured_seconds_name_only_files_and_groups_the_suite_has():
    groups = set(played.GROUPS.values()) | {"circuits"}
    for name, seconds in played.measured().items():
        assert name in groups or os.path.isfile(os.path.join(os.path.dirname(TESTS), name)), name
        assert seconds > 0, name


def test_the_seconds_are_summed_per_file_group_and_circuits_from_a_junit_report():
    # pytest's junit classname is the file's dotted path, a class's name after it; `time` is a
    # test's setup, call and teardown together
    xml = """<testsuites><testsuite name="pytest">
    <testcase classname="tests.host.test_cli" name="test_a" time="1.25"/>
    <testcase classname="tests.host.test_cli" name="test_b[x-1]" time="0.5"/>
    <testcase classname="tests.firmware.games.avenue.test_avenue_board_games" name="test_c"
              time="3.0"/>
    <testcase classname="tests.host.games.avenue.test_avenue_board_record" name="test_d"
              time="2.0"/>
    <testcase classname="tests.hardware.test_hardware_variants" name="test_e[dog-4]" time="4.0"/>
    <testcase classname="tests.hardware.test_hardware_design" name="test_f" time="1.0"/>
    <testcase classname="tests.rules.test_dog_royal.TestRanks" name="test_g" time="0.75"/>
    </testsuite></testsuites>"""
    assert played.from_junit(xml) == {"tests/host/test_cli.py": 1.8, "avenue-19": 5.0,
                                      "circuits": 5.0, "tests/rules/test_dog_royal.py": 0.8}
