"""What the tests expect of a refused command: status 2, one exact line, nothing on stdout."""

from click.testing import CliRunner

from oddsim.cli import cli


def refused(args, line: str) -> None:
    """The CLI exits with status 2 and exactly ``line`` on stderr, nothing on stdout."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"oddsim: error: {line}\n"
    assert result.stdout == ""
