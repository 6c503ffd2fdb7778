"""The first run's helper process: it compiles the DP exactly as a battle without a retreat
policy calls it, into the cache the battle reads, and starts only where it helps."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oddsim._runtime import first_run as _first_run
from oddsim.engines.exact import _ahead, _plain, solve
from oddsim.engines.exact import _kernel as k
from oddsim.model.battle import Battle, RetreatPolicy

ROOT = Path(__file__).resolve().parents[3]


def test_the_placeholders_have_the_types_of_a_battle_without_retreats():
    solve(Battle("1942-2e", "3 inf, 1 art, 1 arm", "4 inf, 1 arm"))
    solve(Battle("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", sea=True))
    assert len(_plain.solve_plain.signatures) == 1  # small battles, on land and at sea: one kernel call
    # one too large for that (its joint arrays are kept between solves) calls the DP on its own
    solve(Battle("1942-2e", "8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb", "2 bb, 2 cv, 4 ftr, 6 sub, 3 dd", sea=True))
    assert _ahead.signature() in k.solve_kernel.signatures


@pytest.mark.parametrize("policy", [{"units_left": 2}, {"below_win": 0.3}, {"aircraft_risk": 0.5},
                                    {"strafe": 1}])
def test_the_placeholders_have_the_types_of_a_battle_with_a_per_state_retreat_rule(policy):
    solve(Battle("1942-2e", "3 inf, 1 art, 1 ftr", "4 inf, 1 arm", retreat=policy))
    assert _ahead.signature(retreats=True) in k.solve_kernel.signatures


def _is_cached(cache: Path) -> bool:
    code = ("from oddsim.engines.exact import _ahead, _kernel\n"
            "print(_ahead._cached(_kernel.solve_kernel, _ahead.signature()))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return {"True\n": True, "False\n": False}[done.stdout]


def test_the_helper_imports_this_oddsim_not_one_in_its_working_directory(tmp_path):
    # (run from a checkout beside an installed copy, it compiled the checkout's files, which
    # Numba caches apart: the first run then compiled the DP twice)
    (tmp_path / "oddsim").mkdir()
    (tmp_path / "oddsim" / "__init__.py").write_text("raise ImportError('the wrong oddsim')\n")
    import oddsim

    program = _ahead.in_this_oddsim("import oddsim; print(oddsim.__file__)")
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                          check=True)
    assert done.stdout == f"{oddsim.__file__}\n"


def test_the_helper_process_caches_the_dp(tmp_path):
    assert not _is_cached(tmp_path)
    subprocess.run([sys.executable, "-c", _ahead.HELPER.format(retreats=False)], cwd=ROOT,
                   env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, check=True)
    assert _is_cached(tmp_path)


class _FakePopen:
    started: list = []

    def __init__(self, args, **options):
        self.started.append(args)

    def wait(self):
        return 0


@pytest.fixture
def first_run(monkeypatch):
    """A command-line run on a cold cache, with the notice's stream and the helper's start caught."""
    stream = io.StringIO()
    monkeypatch.setattr(_first_run, "_announced", set())
    monkeypatch.setattr(_first_run, "_enabled", True)
    monkeypatch.setattr(_first_run, "_stream", stream)
    monkeypatch.setattr(_ahead, "_settled", False)
    monkeypatch.setattr(_ahead, "_cached", lambda kernel, sig: False)
    monkeypatch.setattr(_ahead.subprocess, "Popen", _FakePopen)
    monkeypatch.setattr(_FakePopen, "started", [])
    return stream


def test_a_first_plain_battle_starts_the_helper_once_and_says_it_compiles(first_run):
    helper = _ahead.start(None)
    assert isinstance(helper, _FakePopen)
    [[python, option, program]] = _FakePopen.started
    assert (python, option) == (sys.executable, "-c")
    assert program == (f"import sys; sys.path.insert(0, {str(ROOT)!r}); "  # where this oddsim is
                       "from oddsim.engines.exact._ahead import compile_dp; compile_dp(False)")
    assert first_run.getvalue() == "oddsim: compiling the exact engine, first run only...\n"
    _ahead.wait(helper)
    assert _ahead.start(None) is None  # once per process
    assert len(_FakePopen.started) == 1


def test_a_per_state_retreat_rule_has_its_helper_too(first_run):
    assert _ahead.start(RetreatPolicy(units_left=2)) is not None
    assert _FakePopen.started[0][2].endswith("compile_dp(True)")


def test_no_helper_for_the_best_retreat_a_round_limit_or_under_the_python_api(first_run, monkeypatch):
    assert _ahead.start(RetreatPolicy(best="tuv")) is None
    assert _ahead.start(RetreatPolicy(after_round=2)) is None
    monkeypatch.setattr(_first_run, "_enabled", False)
    assert _ahead.start(None) is None
    assert _FakePopen.started == []
    assert first_run.getvalue() == ""


def test_a_first_command_line_battle_with_the_helper_says_so_once_and_matches_a_warm_one(tmp_path):
    args = [sys.executable, "-m", "oddsim.cli", "battle", "-a", "2 inf, 1 arm", "-d", "3 inf"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    warm = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert first.stderr == "oddsim: compiling the exact engine, first run only...\n"
    assert warm.stderr == ""
    assert first.stdout == warm.stdout and "attacker wins" in first.stdout


def test_a_small_plain_battle_compiles_the_dp_once_and_its_other_kernels_meanwhile(tmp_path):
    # the one-call kernel of a small plain battle passes the DP what solve_kernel passes it (its
    # defaults left out, the DP compiled a second time: 3 s of a first run), and the side tables and
    # sums it calls have the types ``wait`` compiles while the helper compiles the DP
    code = ("import numba, oddsim\n"
            "from oddsim.engines.exact import _ahead, _kernel, _outcomes\n"
            "oddsim.solve(oddsim.Battle('1942-2e', '3 inf, 1 art, 1 arm', '4 inf, 1 arm'))\n"
            "oddsim.solve(oddsim.Battle('1942-2e', '8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb', "
            "'2 bb, 2 cv, 4 ftr, 6 sub, 3 dd', sea=True))\n"
            "cost = oddsim.engines.lowering.lower(oddsim.Battle('1942-2e', '1 inf', '1 inf')).cost\n"
            "sums = tuple(numba.typeof(v) for v in _ahead.sums_placeholders(cost))\n"
            "print(len(_kernel._dp.called.signatures),\n"
            "      _outcomes.end_state_sums.called.signatures == [sums])\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=600)
    assert done.stdout == "1 True\n"
