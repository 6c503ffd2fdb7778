"""The kernel cache key: any change to a kernel or to a module it imports, directly or not, moves
the cache; other edits keep it."""

import shutil
from pathlib import Path

import platformdirs
import pytest

from oddsim._runtime import kernel_cache as _kernel_cache

PACKAGE = Path(_kernel_cache.__file__).resolve().parents[1]


@pytest.fixture
def copy(tmp_path):
    """A copy of the oddsim package to edit."""
    target = tmp_path / "oddsim"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def relative(paths, root):
    return {p.relative_to(root).as_posix() for p in paths}


def test_kernels_and_what_they_import_are_keyed_and_the_rest_is_not():
    sources = relative(_kernel_cache.kernel_sources(), PACKAGE)
    assert {"_runtime/jit.py", "engines/dice.py", "engines/exact/_kernel.py", "engines/montecarlo/_kernel.py",
            "engines/montecarlo/_rng.py", "trench/_kernel.py"} <= sources
    assert not {"cli.py", "engines/exact/solve.py", "engines/montecarlo/simulate.py", "__init__.py"} & sources


def test_the_key_depends_on_content_not_on_where_the_package_is(copy):
    assert _kernel_cache.source_key(copy) == _kernel_cache.source_key()


@pytest.mark.parametrize("helper", ["engines/dice.py", "errors.py", "engines/montecarlo/_rng.py"])
def test_changing_a_helper_moves_the_cache(copy, helper):
    before = _kernel_cache.kernel_cache_dir("/cache", copy)
    with (copy / helper).open("a") as file:
        file.write("\nHELPER_CHANGED = 1\n")
    after = _kernel_cache.kernel_cache_dir("/cache", copy)
    assert after != before and after.parent == before.parent == Path("/cache")


def test_a_new_kernel_module_and_its_imports_are_keyed(copy):
    (copy / "extra.py").write_text("from oddsim._runtime.jit import jit\n"
                                   "from oddsim.model.forces import Force\n")
    assert {"extra.py", "model/forces.py"} <= relative(_kernel_cache.kernel_sources(copy), copy)


def test_editing_the_command_line_keeps_the_cache(copy):
    before = _kernel_cache.source_key(copy)
    with (copy / "cli.py").open("a") as file:
        file.write("\n# a comment\n")
    assert _kernel_cache.source_key(copy) == before


def test_cache_dir_names_the_version_and_key():
    path = _kernel_cache.kernel_cache_dir(None)
    assert path.parent == Path(platformdirs.user_cache_dir("oddsim", appauthor=False)) / "kernels"
    assert path.name == f"oddsim-{_kernel_cache.package_version()}-{_kernel_cache.source_key()}"
