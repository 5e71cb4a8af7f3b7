"""firmware/ondemand.py: a rare call's module and the modules it names in DROP_WITH are
dropped after the call, unless they were imported before it."""
import sys

import pytest

from firmware import ondemand

RARE = '''
from odpkg import helper
DROP_WITH = ("odpkg.helper",)


def run(x):
    return helper.twice(x)


def fail():
    raise ValueError("refused")
'''
HELPER = '''
def twice(x):
    return 2 * x
'''


@pytest.fixture
def odpkg(tmp_path, monkeypatch):
    pkg = tmp_path / "odpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rare.py").write_text(RARE)
    (pkg / "helper.py").write_text(HELPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("odpkg.rare", "odpkg.helper", "odpkg"):
        sys.modules.pop(name, None)


def test_the_call_and_what_it_names_in_drop_with_are_dropped_after_it(odpkg):
    assert ondemand.call("odpkg.rare", "run", 21) == 42
    assert "odpkg.rare" not in sys.modules and "odpkg.helper" not in sys.modules
    assert not hasattr(sys.modules["odpkg"], "rare") and not hasattr(sys.modules["odpkg"],
                                                                     "helper")


def test_a_module_imported_before_the_call_stays(odpkg):
    from odpkg import helper  # noqa: F401 - held by someone else, as the scan loop holds code
    assert ondemand.call("odpkg.rare", "run", 1) == 2
    assert "odpkg.rare" not in sys.modules
    assert sys.modules["odpkg.helper"] is helper


def test_the_modules_are_dropped_when_the_call_raises(odpkg):
    with pytest.raises(ValueError):
        ondemand.call("odpkg.rare", "fail")
    assert "odpkg.rare" not in sys.modules and "odpkg.helper" not in sys.modules


def test_a_call_within_a_call_to_the_same_module_leaves_it_to_the_outer_one(odpkg):
    import odpkg.rare  # noqa: F401 - the outer call's import
    assert ondemand.call("odpkg.rare", "run", 2) == 4
    assert "odpkg.rare" in sys.modules and "odpkg.helper" in sys.modules
