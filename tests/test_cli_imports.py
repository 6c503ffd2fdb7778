"""The command's quick paths (help, listings, version, bad input) import neither NumPy nor Numba:
they answer before an engine could load."""

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import oddsim

ROOT = Path(__file__).resolve().parents[1]
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
