"""``python -m oddsim.cli.warm``: the background warm-up process ``oddsim._runtime.warm`` starts,
running its small commands through the ``oddsim`` group. Not a command: the one module here that
imports the group, which it runs."""

from __future__ import annotations

from oddsim._runtime.warm import run


def main() -> None:
    """Run the warm-up's commands (``oddsim._runtime.warm.COMMANDS``) into the kernel cache."""
    from oddsim.cli import cli

    run(lambda args: cli.main(args, prog_name="oddsim"))


if __name__ == "__main__":
    main()
