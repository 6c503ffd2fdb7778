"""What best casualties answer besides the outcome: the goal under best play beside the fixed
orders, and the advice a player uses at the table (which units to lose for each number of hits)."""

from __future__ import annotations

from dataclasses import dataclass

GOAL_WORDS = {"take": "takes the territory", "win": "wins", "tuv": "TUV swing", "value": "value"}


@dataclass(frozen=True)
class Advice:
    """One row of advice: with ``hits`` hits (their chance ``probability``), lose ``lose``; for the
    attacker, ``given``: what the defender lost that round (its likeliest loss)."""

    hits: int
    probability: float
    lose: str
    given: str | None = None

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"hits": self.hits, "probability": float(self.probability),
                                   "lose": self.lose}
        if self.given is not None:
            data["defender_lost"] = self.given
        return data


@dataclass(frozen=True)
class CasualtyPolicy:
    """Best casualties' figures: the goal's value under best play (``value``) and with every side
    by its order of loss (``fixed``), which sides choose, and round 1's advice: the attacker's
    aircraft lost to AA fire, the defender's losses, the attacker's (after no AA hit)."""

    goal: str
    value: float
    fixed: float
    attacker_best: bool
    defender_best: bool
    aa: tuple[Advice, ...]
    defender: tuple[Advice, ...]
    attacker: tuple[Advice, ...]

    @property
    def chooser(self) -> str:
        sides = [side for side, best in (("attacker", self.attacker_best), ("defender", self.defender_best))
                 if best]
        return " and ".join(sides)

    def summary(self) -> str:
        """"takes 76.3% choosing each loss; 57.8% by the order of loss"."""
        def figure(x: float) -> str:
            return f"{100 * x:.1f}%" if self.goal in ("take", "win") else f"{x:+.2f} IPC"
        what = GOAL_WORDS[self.goal]
        return (f"{what} {figure(self.value)} with the {self.chooser} choosing each loss; "
                f"{figure(self.fixed)} by the order of loss")

    def lines(self) -> list[str]:
        """The summary and the advice tables as text lines."""
        out = ["Best casualties (goal " + self.goal + "): " + self.summary()]
        for title, rows in (("AA hits before round 1, the attacker loses", self.aa),
                            ("Round 1, the defender takes hits and loses", self.defender),
                            ("Round 1, the attacker takes hits and loses", self.attacker)):
            if rows:
                out.append(f"  {title}:")
                for row in rows:
                    given = f"   (defender lost {row.given})" if row.given else ""
                    hits = f"{row.hits:>2} hit{'s' if row.hits != 1 else ' '}"
                    out.append(f"    {hits} ({100 * row.probability:5.1f}%): {row.lose}{given}")
        return out

    def to_dict(self) -> dict[str, object]:
        return {"goal": self.goal, "value": float(self.value), "fixed_order_value": float(self.fixed),
                "attacker_best": self.attacker_best, "defender_best": self.defender_best,
                "aa": [r.to_dict() for r in self.aa], "defender": [r.to_dict() for r in self.defender],
                "attacker": [r.to_dict() for r in self.attacker]}
