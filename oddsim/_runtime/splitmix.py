"""splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
the hash that seeds both Monte Carlo engines' random streams. One place for its constants."""

from __future__ import annotations

import numpy as np

from oddsim._runtime.jit import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""The stream's increment: 2**64 divided by the golden ratio, odd."""
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@jit
def mix64(z):
    """The splitmix64 finaliser: a bijection of 64-bit words that scrambles every bit."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@jit
def splitmix64(counter):
    """Output number ``counter`` of the splitmix64 stream that starts at 0."""
    return mix64(counter * GOLDEN)
