"""splitmix64, the seeding hash of both Monte Carlo engines, against its published reference."""

import numpy as np

from oddsim._runtime.splitmix import splitmix64


def test_first_outputs_of_the_stream_from_zero():
    # The reference generator seeded with 0 (state += golden; finalise) starts with these words.
    assert int(splitmix64(np.uint64(1))) == 0xE220A8397B1DCDAF
    assert int(splitmix64(np.uint64(2))) == 0x6E789E6AA1B965F4
