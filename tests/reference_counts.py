"""Counting Numba's atomic reference counts (``NRT_incref``/``NRT_decref`` calls) in compiled
kernels, for the tests that keep them out of hot loops. The IR is read with ``inspect_llvm``
(public), which needs a fresh compile: the kernels compile in a child process with an empty cache."""

import json
import os
import subprocess
import sys

_COUNT = """
import importlib, json, re, sys
counts = {}
for module, names in json.loads(sys.argv[1]).items():
    for name in names:
        tag = f"{len(name)}{name}B"
        for ir in getattr(importlib.import_module(module), name).inspect_llvm().values():
            own = [d for d in ir.split("\\ndefine ")
                   if re.match(r"[^@]*@_ZN(?!7cpython)\\S*" + re.escape(tag), d)]
            assert own, (module, name)
            ops = sum(d.count("call void @NRT_incref") + d.count("call void @NRT_decref") for d in own)
            counts[name] = counts.get(name, 0) + ops
print(json.dumps(counts))
"""


def reference_counts(compile_them: str, kernels: dict[str, list[str]], cache_dir) -> dict[str, int]:
    """The reference-count calls in each kernel of ``kernels`` (module path: names), summed over
    the signatures it was compiled for by running the code ``compile_them`` in a child process
    whose kernel cache is the empty ``cache_dir``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "ODDSIM_QUICK_START": "0"}
    done = subprocess.run([sys.executable, "-c", compile_them + _COUNT, json.dumps(kernels)], env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(counts) == {name for names in kernels.values() for name in names}
    return counts
