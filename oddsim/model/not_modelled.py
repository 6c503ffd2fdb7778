"""What a ruleset read from another format (a TripleA game file) says that oddsim does not
compute, named so that answers can say it and battles it would change can be refused."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NotModelled:
    """Something a ruleset read from another format (a TripleA map) says that oddsim does not
    compute: ``subject`` names a unit (``unit``) or a property, ``reason`` says what; when
    ``refuses``, a battle with that unit in it is refused, else the answer stands and names it."""

    subject: str
    reason: str
    refuses: bool = False
    unit: bool = False

    def describe(self) -> str:
        return f"{self.subject}: {self.reason}"
