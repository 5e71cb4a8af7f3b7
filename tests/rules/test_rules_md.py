# shared_rules/RULES.md maps every rule to its source, the code that carries it out and the
# tests that cover it. This keeps the map from rotting: every test it cites exists (a renamed
# or deleted test fails here), every `module.name` of shared_rules/ it names exists, every file
# it names is there, and it links to nothing outside the repository.
import ast
import glob
import os
import re

from conftest import ROOT

RULES_MD = os.path.join(ROOT, "shared_rules", "RULES.md")
# the tests RULES.md cites are the rules core's, all under tests/rules/ (it says so), which
# mirrors shared_rules/ (Agent Avenue's in tests/rules/avenue/): a bare `test_x.py` is in one
# of those folders (file names are unique across the tests), and so is a `tests/rules/test_x.py`
TESTS_DIR = "tests/rules/"
TESTS = os.path.join(ROOT, *TESTS_DIR.split("/"))
TEST_FOLDERS = (TESTS, os.path.join(TESTS, "avenue"))


def cited_file(name):
    """Where the rules test file `name` is (None: nowhere)."""
    for folder in TEST_FOLDERS:
        if os.path.exists(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None
CODE_DIRS = [os.path.join(ROOT, "shared_rules"), os.path.join(ROOT, "shared_rules", "avenue")]

ALIAS = re.compile(r"`(test_\w+\.py)`\s+is\s+`([\w-]+)`")
TICKED = re.compile(r"`([^`]+)`")
CITATION = re.compile(r"^([\w.-]*)::([\w.]+)$")
CODE_NAME = re.compile(r"^([a-z_]\w*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?$")
LINK = re.compile(r"\]\(([^)\s]+)\)")
ELLIPSIS = "..."


def text():
    with open(RULES_MD, encoding="utf-8") as f:
        return f.read()


def aliases(md):
    found = {}
    for path, name in ALIAS.findall(md):
        assert found.get(name, path) == path, "alias %s names two files" % name
        found[name] = path
    return found


def defined_tests(path):
    """The test functions a test file defines (module level and in classes)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
    return names


def citations(md):
    """(line number, test file, test name) for every `file::name`, `alias::name` and
    `::name` (the last file named before it on the same line)."""
    alias = aliases(md)
    out = []
    for no, line in enumerate(md.splitlines(), 1):
        current = None
        for token in TICKED.findall(line):
            m = CITATION.match(token)
            if not m:
                continue
            where, name = m.groups()
            if where:
                current = alias.get(where, where)
                if current.startswith(TESTS_DIR):
                    current = current[len(TESTS_DIR):]
                if not current.endswith(".py"):
                    current += ".py"
            assert current is not None, "line %d: %s names no file before it" % (no, token)
            out.append((no, current, name))
    return out


def exists(name, defined):
    if ELLIPSIS not in name:
        return name in defined
    # an abbreviated name (`::..._with_3_players_too`): some test must fit it
    pattern = re.compile(".*".join(re.escape(part) for part in name.split(ELLIPSIS)))
    return any(pattern.fullmatch(d) for d in defined)


def test_every_cited_test_exists():
    md = text()
    cited = citations(md)
    assert len(cited) > 300, "RULES.md cites %d tests: is the parser still reading it?" % len(
        cited)
    missing = []
    cache = {}
    for no, path, name in cited:
        full = cited_file(path)
        if full is None:
            missing.append("line %d: no test file %s" % (no, path))
            continue
        if path not in cache:
            cache[path] = defined_tests(full)
        if not exists(name, cache[path]):
            missing.append("line %d: %s has no %s" % (no, path, name))
    assert not missing, "\n".join(missing)


def test_every_cited_test_file_exists():
    md = text()
    missing = []
    for path in set(ALIAS.findall(md)) | set(re.findall(r"`(test_\w+\.py)`", md)):
        if isinstance(path, tuple):
            path = path[0]
        if cited_file(path) is None:
            missing.append(path)
    assert not missing, missing


def module_members(path):
    """{name: set of member names} for a module's top level: functions, classes (with their
    methods, class attributes and the attributes their methods set on self) and names."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    members = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            members[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            inner = set()
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    inner.add(sub.name)
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    inner.add(sub.id)
                elif (isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store)
                      and isinstance(sub.value, ast.Name) and sub.value.id == "self"):
                    inner.add(sub.attr)
            members[node.name] = inner
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    members[target.id] = set()
    return members


def code_module(name):
    for d in CODE_DIRS:
        path = os.path.join(d, name + ".py")
        if os.path.exists(path):
            return path
    return None


def test_every_code_name_exists():
    md = text()
    checked = 0
    missing = []
    for no, line in enumerate(md.splitlines(), 1):
        for token in TICKED.findall(line):
            m = CODE_NAME.match(token)
            if not m or m.group(2) in ("py", "json", "md"):
                continue
            mod, name, member = m.groups()
            path = code_module(mod)
            if path is None:
                continue  # not a module of shared_rules (e.g. `State.winners` in prose)
            members = module_members(path)
            checked += 1
            in_a_class = any(name in inner for inner in members.values())
            if name not in members and not (member is None and in_a_class):
                # `tables.agent_steps` may name a method of the module's class
                missing.append("line %d: %s has no %s" % (no, mod, name))
            elif member is not None and member not in members[name]:
                missing.append("line %d: %s.%s has no %s" % (no, mod, name, member))
    assert checked > 60, "RULES.md names %d code names: is the parser still reading it?" % (
        checked)
    assert not missing, "\n".join(missing)


def test_every_named_file_exists():
    md = text()
    missing = []
    for token in set(TICKED.findall(md)):
        if " " in token or not re.search(r"\.(py|json|md)$", token) or "::" in token:
            continue
        candidates = [os.path.join(ROOT, "shared_rules", token), os.path.join(ROOT, token),
                      os.path.join(TESTS, token), os.path.join(TESTS, "avenue", token)] + [os.path.join(d, token) for d in CODE_DIRS]
        if not any(glob.glob(c) for c in candidates):
            missing.append(token)
    assert not missing, missing


def test_links_stay_inside_the_repository():
    md = text()
    links = LINK.findall(md)
    assert links, "RULES.md links to nothing: is the parser still reading it?"
    base = os.path.dirname(RULES_MD)
    root = os.path.realpath(ROOT)
    for target in links:
        assert "://" not in target and not target.startswith("/"), target
        path = os.path.realpath(os.path.join(base, target.split("#")[0]))
        assert path.startswith(root + os.sep), "%s leaves the repository" % target
        assert os.path.exists(path), "%s does not exist" % target
    assert "../shared" not in md
