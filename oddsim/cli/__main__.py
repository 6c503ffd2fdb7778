"""``python -m oddsim.cli``: the ``oddsim`` command."""

from oddsim.cli import main

main()
