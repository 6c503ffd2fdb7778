"""The command's quick paths (help, listings, version, bad input) import neither NumPy nor Numba:
they answer before an engine could load."""

import subprocess
import sys
from importlib.metadata import entry_points, version
from pathlib import Path

import pytest

import oddsim

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import oddsim.cli

def exit_now(code):  # the real one ends the process at once
    raise SystemExit(code)

oddsim.cli._exit_now = exit_now
sys.argv = ["oddsim", *{args!r}]
try:
    oddsim.cli.main()
except SystemExit as stop:
    code = stop.code
heavy = sorted(m for m in ("numpy", "numba", "matplotlib", "scipy.stats") if m in sys.modules)
print("HEAVY", heavy, "EXIT", code, file=sys.stderr)
"""


def run_cli(*args):
    return subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))], cwd=ROOT,
                          capture_output=True, text=True, check=True)


@pytest.mark.parametrize("args, exit_code", [
    (["--help"], 0),
    (["--version"], 0),
    (["rules", "list"], 0),
    (["battle", "--help"], 0),
    (["trench", "--help"], 0),
    (["purchase", "--help"], 0),
    (["cache", "info"], 0),
    (["battle", "-a", "3 foo", "-d", "1 inf"], 2),
    (["battle", "-a", "3 inf"], 2),
    (["raid", "--bombers", "x"], 2),
])
def test_quick_paths_load_no_engine(args, exit_code):
    result = run_cli(*args)
    assert result.stderr.splitlines()[-1] == f"HEAVY [] EXIT {exit_code}"


@pytest.mark.parametrize("method", ["exact", "mc"])
def test_a_battle_loads_no_scipy_stats(method):
    # (a Monte Carlo battle's 95% intervals once imported scipy.stats: a third of a second)
    result = run_cli("battle", "-a", "3 inf", "-d", "2 inf", "--method", method,
                     *(["--runs", "1000", "--seed", "1"] if method == "mc" else []))
    assert result.stderr.splitlines()[-1] == "HEAVY ['numba', 'numpy'] EXIT 0"


def test_one_version_everywhere():
    assert oddsim.__version__ == version("oddsim")
    assert run_cli("--version").stdout.split()[-1] == version("oddsim")


def test_the_command_exits_at_once_with_its_output_and_status():
    listed = subprocess.run([sys.executable, "-m", "oddsim.cli", "rules", "list"], cwd=ROOT,
                            capture_output=True, text=True)
    assert listed.returncode == 0 and "1942-2e" in listed.stdout and listed.stderr == ""
    bad = subprocess.run([sys.executable, "-m", "oddsim.cli", "battle", "-a", "3 foo", "-d", "1 inf"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("oddsim: error: attacker: unknown unit 'foo'")
    assert bad.stderr.count("\n") == 1


CTRL_C_WHILE_LOADING = """
import sys
from importlib.abc import MetaPathFinder

class CtrlC(MetaPathFinder):  # Ctrl-C arrives while the command line loads
    def find_spec(self, name, path=None, target=None):
        if name == "oddsim.cli":
            raise KeyboardInterrupt

sys.meta_path.insert(0, CtrlC())
sys.argv = ["oddsim", "battle", "-a", "1 inf", "-d", "1 inf"]
from oddsim._entry import main
main()
"""


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_status_130():
    done = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING], cwd=ROOT, capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "oddsim: interrupted\n")


def test_the_installed_command_goes_through_the_guarded_entry_point():
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "oddsim"]
    assert script.value == "oddsim._entry:main"
