"""``python -m oddsim.cli.warm``: the background warm-up process (``oddsim._runtime.warm.start``),
running its small commands through the ``oddsim`` group (not a command: it may import the group)."""

from oddsim._runtime.warm import run
from oddsim.cli import cli

if __name__ == "__main__":
    run(lambda args: cli.main(args, prog_name="oddsim"))
