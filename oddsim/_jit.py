"""One place that sets how every Numba kernel is compiled: cached on disk, NumPy error model."""

from __future__ import annotations

import numba

jit = numba.njit(cache=True, error_model="numpy", nogil=True)
"""Decorator for serial kernels."""

parallel_jit = numba.njit(cache=True, error_model="numpy", nogil=True, parallel=True)
"""Decorator for kernels that split work over threads with ``numba.prange``."""
