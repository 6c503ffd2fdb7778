"""The exit statuses and the interrupted line of the ``oddsim`` command, imported by its entry point
before anything else loads (so this module imports nothing)."""

EXIT_BAD_INPUT = 2
"""The exit status of a command refused for its input (one line on stderr says why)."""
EXIT_INTERRUPTED = 130
"""The exit status of a command that Ctrl-C stopped (128 + SIGINT, as shells report it)."""
INTERRUPTED = "oddsim: interrupted"
"""The line it prints on stderr."""
