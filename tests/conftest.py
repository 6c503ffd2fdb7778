"""The suite's commands start no background warm-up (``oddsim._runtime.warm``): the many that run on a
fresh kernel cache would each leave one compiling for a minute. tests/test_warm.py turns it on."""

import os

os.environ["ODDSIM_BACKGROUND_WARM"] = "0"
os.environ["ODDSIM_QUICK_START"] = "0"  # answers never depend on the cache (tests of quick starts set it)
