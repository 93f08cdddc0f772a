"""Pure Warhammer rule decisions, shared by rolling and by the exact odds.

Nothing here rolls: each function takes dice already rolled (natural faces, rule N5)
and says what the rules make of them, so the roller and the odds engine cannot drift
apart.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.errors import RuleError
from dicecli.frozen import frozen

D6_SIDES = 6


@frozen
class Verdict:
    """Pass or fail, and why in a few words (``7 ≤ 8``, ``natural 6 always fails``)."""

    passed: bool
    reason: str


def _compare(natural: int, target: int) -> Verdict:
    if natural <= target:
        return Verdict(True, f"{natural} ≤ {target}")
    return Verdict(False, f"{natural} > {target}")


def characteristic_verdict(natural: int, characteristic: int) -> Verdict:
    """Rule W8: pass if the D6 is at most the characteristic; a natural 6 always fails,
    a natural 1 always passes, a characteristic of 0 always fails.

    *Assumption*: a characteristic below 0 (after modifiers) fails like 0.
    """
    if characteristic <= 0:
        return Verdict(False, f"a characteristic of {characteristic} always fails")
    if natural == D6_SIDES:
        return Verdict(False, "a natural 6 always fails")
    if natural == 1:
        return Verdict(True, "a natural 1 always passes")
    return _compare(natural, characteristic)


def leadership_verdict(first: int, second: int, leadership: int) -> Verdict:
    """Rules W9, W10: pass if 2D6 is at most the Leadership; a natural double 1 always
    passes (Insane Courage), whatever the modifiers."""
    total = first + second
    if first == second == 1 and total > leadership:
        return Verdict(True, "a double 1 always passes")
    return _compare(total, leadership)


def leaders(values: list[int]) -> list[int]:
    """Rule W6: the positions holding the highest value (more than one: a tie)."""
    top = max(values)
    return [index for index, value in enumerate(values) if value == top]


@frozen
class AllocationPlan:
    """How a candidate is picked among ``candidates`` with D6s (rule W7).

    Each round rolls ``dice`` D6s, read as the base-6 digits of a number
    ``1 + sum((d - 1) * 6**place)``, the first die the most significant; the round
    stands if the number is at most ``accepted``, else every die of the round is
    re-rolled. The candidate is ``(number - 1) % candidates + 1``.

    - 1 candidate: no dice (it is the one);
    - 2 to 6: one D6, re-rolling results above the number of candidates (the rulebook);
    - 7 or more: as many D6s as make 6**dice >= candidates, accepting the largest
      multiple of ``candidates`` so that each candidate has the same share.
    """

    candidates: int
    dice: int
    accepted: int

    @classmethod
    def for_candidates(cls, candidates: int) -> AllocationPlan:
        if candidates < 1:
            raise RuleError("allocate among at least 1 candidate")
        if candidates == 1:
            return cls(1, 0, 1)
        if candidates <= D6_SIDES:
            return cls(candidates, 1, candidates)
        dice = 1
        while D6_SIDES**dice < candidates:
            dice += 1
        outcomes = int(D6_SIDES**dice)
        return cls(candidates, dice, outcomes - outcomes % candidates)

    @property
    def outcomes(self) -> int:
        """How many equally likely numbers one round can give."""
        return int(D6_SIDES**self.dice)

    def number(self, faces: list[int]) -> int:
        """The number the D6 faces of one round spell (1 .. 6**dice)."""
        number = 0
        for face in faces:
            number = number * D6_SIDES + (face - 1)
        return number + 1

    def candidate(self, number: int) -> int | None:
        """The candidate (1-based) a round's number picks; None: re-roll the round."""
        if number > self.accepted:
            return None
        return (number - 1) % self.candidates + 1

    def share(self, candidate: int) -> int:
        """How many accepted numbers pick ``candidate``."""
        return (self.accepted - candidate) // self.candidates + 1
