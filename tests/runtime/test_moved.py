"""Old module paths (before the layered layout) keep working for one release, with a
DeprecationWarning that names the new path; the names users reach from ``import oddsim`` stay
silent."""

import importlib
import subprocess
import sys
import warnings

import pytest

from oddsim._runtime.moved import MOVED, MOVED_NAMES


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_is_the_new_module(old):
    code = (f"import warnings, importlib\n"
            f"with warnings.catch_warnings(record=True) as seen:\n"
            f"    warnings.simplefilter('always')\n"
            f"    old = importlib.import_module({old!r})\n"
            f"new = importlib.import_module({MOVED[old]!r})\n"
            f"assert any(w.category is DeprecationWarning and {MOVED[old]!r} in str(w.message) "
            f"for w in seen), [str(w.message) for w in seen]\n"
            f"assert old is new or old._moved_to == new.__name__\n"
            f"homes = {MOVED_NAMES.get(old, {})!r}\n"
            f"home = lambda n: importlib.import_module(homes[n]) if n in homes else new\n"
            f"assert all(getattr(old, n) is getattr(home(n), n) for n in [*dir(new), *homes]\n"
            f"           if not n.startswith('__'))\n")
    subprocess.run([sys.executable, "-c", code], check=True)  # a fresh process: nothing imported yet


def test_old_submodules_and_exported_names():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        solve_module = importlib.import_module("oddsim.exact.solve")
        from oddsim.exact import solve
        from oddsim.montecarlo import simulate
    from oddsim.stages.pipeline import simulate as new_simulate
    from oddsim.stages.pipeline import solve as new_solve

    assert solve_module is importlib.import_module("oddsim.engines.exact.solve")
    # the functions, not their modules: the whole battle's, as the old engine packages' were
    assert solve is new_solve and simulate is new_simulate
    assert solve_module.__spec__.name == "oddsim.engines.exact.solve"


def test_what_a_bare_import_reaches_stays_silent():
    code = ("import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            "import oddsim, oddsim.api, oddsim.purchase\n"
            "from oddsim import rules\n"
            "assert oddsim.rules.with_changes and oddsim.result.BattleResult is oddsim.BattleResult\n"
            "assert oddsim.waves.Wave and oddsim.amphibious.Amphibious is oddsim.Amphibious\n"
            "assert oddsim.solve and oddsim.simulate and oddsim.api.run_waves and oddsim.purchase.sweep\n")
    subprocess.run([sys.executable, "-c", code], check=True)
