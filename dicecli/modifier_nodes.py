"""The parts of a dice term's modifiers: syntax-tree nodes for ``>=5``, ``kh3``, ``r1``, ``!``.

:class:`~dicecli.nodes.Modifiers` holds them by kind. They live apart from
:mod:`dicecli.nodes` so that a line without modifiers (``2D6+5``) never creates these
classes: the grammar and the evaluator import this module on the first modifier they
meet. Each frozen dataclass costs about 3M instructions (1 ms) to create on Python 3.11,
and start-up is the one cost every roll from the command line pays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CompareOp = Literal["=", "<", "<=", ">", ">="]
KeepKind = Literal["kh", "kl", "dh", "dl"]
ExplodeKind = Literal["!", "!!", "!p"]


@dataclass(frozen=True)
class Condition:
    """A comparison against a die's face value: ``>=5``, ``<3``, ``=1``."""

    op: CompareOp
    value: int

    def matches(self, number: int) -> bool:
        op = self.op
        if op == "=":
            return number == self.value
        if op == ">=":
            return number >= self.value
        if op == "<=":
            return number <= self.value
        if op == ">":
            return number > self.value
        return number < self.value

    def __str__(self) -> str:
        return f"{self.op}{self.value}"

    def bare(self) -> str:
        """Spelling after ``r``, ``!`` and ``f``, where ``=`` may be left out."""
        return str(self.value) if self.op == "=" else str(self)


@dataclass(frozen=True)
class Keep:
    """Keep or drop the highest or lowest ``count`` dice: ``kh3``, ``kl1``, ``dh1``, ``dl1``."""

    kind: KeepKind
    count: int

    def __str__(self) -> str:
        return f"{self.kind}{self.count}"


@dataclass(frozen=True)
class Reroll:
    """Re-roll a die while ``condition`` holds (``r1``), or once (``ro1``)."""

    condition: Condition
    once: bool

    def __str__(self) -> str:
        return f"{'ro' if self.once else 'r'}{self.condition.bare()}"


@dataclass(frozen=True)
class Explode:
    """Roll another die on ``condition``: ``!`` adds it, ``!!`` compounds it, ``!p`` penetrates."""

    kind: ExplodeKind
    condition: Condition | None  # None: the die's highest face

    def __str__(self) -> str:
        return self.kind + (self.condition.bare() if self.condition else "")
