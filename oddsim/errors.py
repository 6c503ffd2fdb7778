"""The exceptions oddsim raises: one base class, one subclass per kind of bad input."""

from __future__ import annotations


def one_line(message: str) -> str:
    """An error message as the one line the CLI prints (and the web API answers); what UTF-8
    cannot encode (a lone surrogate quoted from JSON's ``"\\ud800"`` or from a command-line
    argument that was not UTF-8) is written as its escape, ``\\ud800``, so the line can always
    be printed and sent."""
    line = " ".join(str(message).split())
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


class OddsimError(Exception):
    """Base class of every error oddsim raises on bad input; its message is one line (a line
    break in quoted user input is shown as ``\\n``)."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__("\\n".join(str(message).splitlines()), *args)

    def located(self, where: str) -> OddsimError:
        """The same kind of error, its message prefixed by where the bad input was written
        (``"wave plan plan.toml, wave 2: ..."``)."""
        return type(self)(f"{where}: {self}")


class RulesetError(OddsimError):
    """An unknown edition, or a ruleset file that cannot be read or is invalid."""


class ForceError(OddsimError):
    """An army that cannot be parsed: unknown unit, bad count, empty army."""


class BattleError(OddsimError):
    """A battle that cannot be fought: a unit in the wrong kind of battle, bad options."""


class OrderOfLossError(OddsimError):
    """An order of loss that names an unknown unit or is otherwise malformed."""


class TooLargeError(OddsimError):
    """A battle too large for the method asked for."""
