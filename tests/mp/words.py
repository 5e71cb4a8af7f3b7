# Runs on MicroPython (and CPython): `micropython tests/mp/words.py < LINES` from the repository
# root. Each input line is {"ev": EVENT, "game": GAME or null} or {"view": VIEW, "actor": BOOL};
# each output line is the JSON string of its words (shared_rules/describe.py), or null.
import sys
import json

sys.path.insert(0, ".")

from shared_rules import describe  # noqa: E402

for line in sys.stdin:
    req = json.loads(line)
    if "view" in req:
        said = describe.view_words(req["view"], req["actor"])
    else:
        said = describe.words(req["ev"], req["game"])
    print(json.dumps(said))
