# A deploy lands whole or not at all. `agentboard deploy` writes the changed files under
# .deploy/ first, then one journal, .deploy/commit.json, saying where each staged file goes
# and which files go away (written to a temporary name and renamed, so it exists whole or not
# at all), and then carries the journal out. A power cut before the journal exists leaves the
# old version untouched (the staged files are ignored and cleared by the next deploy); a cut
# while it is carried out is finished at the next boot by main.py. Every step can be done
# twice, so finishing again always ends at the new version.
import json
import os

DIR = ".deploy"
JOURNAL = DIR + "/commit.json"


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _parents(path):
    d = ""
    for part in path.split("/")[:-1]:
        d = d + "/" + part if d else part
        if not _exists(d):
            os.mkdir(d)


def finish():
    """Carries out a pending journal. Returns the files it put in place, or -1 with none."""
    try:
        f = open(JOURNAL)
    except OSError:
        return -1
    with f:
        plan = json.load(f)
    moved = 0
    for src, dst in plan["moves"]:
        if not _exists(src):
            continue  # moved before the power went
        _parents(dst)
        try:
            os.rename(src, dst)
        except OSError:  # a FAT volume does not rename over a file
            os.remove(dst)
            os.rename(src, dst)
        moved += 1
    for path in plan["remove"]:
        if _exists(path):
            os.remove(path)
    os.remove(JOURNAL)
    for name in os.listdir(DIR):  # what an earlier, cut-off deploy staged
        os.remove(DIR + "/" + name)
    return moved
