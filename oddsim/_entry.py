"""The ``oddsim`` command's entry point: Ctrl-C while the command line itself is still loading
(click, the subcommands: the first tenth of a second) exits as Ctrl-C does later, with one line
and status 130, not a traceback. Kept apart from ``oddsim.cli`` so that nothing is imported
before the guard is in place."""

from __future__ import annotations

import sys

from oddsim._runtime.exits import EXIT_INTERRUPTED, INTERRUPTED

__all__ = ["EXIT_INTERRUPTED", "INTERRUPTED", "main"]


def main() -> None:
    """Load the command line, then run it (``oddsim.cli.main``)."""
    try:
        from oddsim.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED + "\n")
        sys.exit(EXIT_INTERRUPTED)
    run()


if __name__ == "__main__":
    main()
