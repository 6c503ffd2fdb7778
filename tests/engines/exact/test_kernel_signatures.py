"""The exact engine's kernels take and return declared records (NamedTuples of arrays and
scalars, as ``montecarlo/_layout.py`` declares the Monte Carlo kernel's), never long positional
lists: no Numba kernel in ``oddsim.engines.exact`` has more than ``MAX_PARAMETERS`` parameters.

Run as a script (``python tests/engines/exact/test_kernel_signatures.py``) it prints the widest
kernels, on any checkout."""

import importlib
import inspect
import pkgutil

import pytest
from numba.core.dispatcher import Dispatcher

import oddsim.engines.exact

MAX_PARAMETERS = 12


def kernel_widths() -> list[tuple[int, str]]:
    """(parameters, module.name) of every Numba kernel defined in ``oddsim.engines.exact``, widest
    first."""
    package = oddsim.engines.exact
    widths = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
                widths.append((len(inspect.signature(value.py_func).parameters), f"{info.name}.{name}"))
    return sorted(widths, reverse=True)


def test_the_walk_finds_the_kernels():
    names = {name for _, name in kernel_widths()}
    if not names:
        pytest.skip("Numba's JIT is off: no dispatchers to walk")
    assert {"_kernel.solve_kernel", "_kernel._dp", "_plain.solve_plain", "_tables.both_side_tables"} <= names


def test_no_kernel_takes_more_than_twelve_parameters():
    wide = [(n, name) for n, name in kernel_widths() if n > MAX_PARAMETERS]
    assert wide == []


if __name__ == "__main__":
    for parameters, name in kernel_widths()[:8]:
        print(f"{parameters:3d}  {name}")
