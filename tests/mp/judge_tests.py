# The judge's scenarios (tests/firmware/games/track/test_judge.py) on the MicroPython unix port: the same
# functions, run by runner.py; test_on_micropython.py makes a case of each of them (FROM).
import sys

sys.path.append("tests/firmware/games/track")
sys.path.append("tests/rules")

from test_judge import *  # noqa: F401,F403 -- every scenario, run as this module's tests

FROM = "tests/firmware/games/track/test_judge.py"  # where its tests are written
