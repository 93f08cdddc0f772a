"""The summary of several rolls of one line (``--times``), kept as running tallies.

A :class:`Tally` is fed one result at a time and keeps only counts, sums and extremes,
so ``--times 100000`` at a terminal uses as little memory as ``--times 10``. Its
:meth:`Tally.line` fits what was rolled:

- plain rolls: ``total 84, min 3, max 11, mean 7.00``;
- checks: ``7 of 12 passed``;
- rolls with no number, by verdict: ``1 MISFIRE``;
- facts a game reports as true or false, counted when true (``3 hit``, ``4 doubles``);
- opposed tests and roll-offs: the wins of each side (``wins: Bob 6, Alice 4``);
- stunt points: ``stunt points: 40 in 12 rolls``;
- rolls with a die marked critical: ``2 with a critical success``;
- dice with symbols (``docs/dice.md``), each symbol summed: ``symbols: 7 success, 3 threat``.

Totals of opposed rolls and roll-offs (a winner's total or seat) are not summed: they
mean nothing together. The tally reads an outcome's fields by name, the names every
game's JSON output documents (``winner``, ``stunt_points``); it names no game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from dicecli.results import CRITICAL_FAILURE, CRITICAL_SUCCESS, RollResult

_CRITICAL_MARKS = (CRITICAL_SUCCESS, CRITICAL_FAILURE)
_NOT_COUNTED = frozenset({"success"})
"""True-or-false fields the tally leaves out: ``success`` is the pass count already."""


class Tally:
    """Running counts of the rolls of one line."""

    def __init__(self) -> None:
        self.rolls = 0
        self.plain = 0
        self.total = 0
        self.low: int | None = None
        self.high: int | None = None
        self.checks = 0
        self.passed = 0
        self.no_number: Counter[str] = Counter()
        self.facts: Counter[str] = Counter()
        self.wins: Counter[str] = Counter()
        self.stunt_points = 0
        self.stunt_rolls = 0
        self.criticals: Counter[str] = Counter()
        self.symbols: Counter[str] = Counter()

    @classmethod
    def of(cls, results: Iterable[RollResult]) -> Tally:
        tally = cls()
        for result in results:
            tally.add(result)
        return tally

    def add(self, result: RollResult) -> None:
        """Count one more roll."""
        self.rolls += 1
        for mark in _CRITICAL_MARKS:
            if any(mark in die.marks for die in result.dice):
                self.criticals[mark] += 1
        outcome = result.outcome
        total = result.total
        if outcome is None:
            if total is not None:
                self._add_total(total)
            return
        if outcome.passed is not None:
            self.checks += 1
            self.passed += outcome.passed
        fields = outcome.fields
        if fields and fields[0][0] == "symbols" and isinstance(fields[0][1], dict):
            for symbol, count in fields[0][1].items():  # dice of a dice file: sum each symbol
                if isinstance(count, int):
                    self.symbols[symbol] += count
            if total is not None:  # numbers too: a total as a plain roll's
                self._add_total(total)
            return
        if total is None:
            winner = dict(fields).get("winner", _NO_WINNER_FIELD)
            if winner is _NO_WINNER_FIELD:
                self.no_number[outcome.verdict] += 1
            elif winner is not None:  # an opposed test told by levels of success
                self.wins[_side(winner)] += 1
            return
        for name, value in fields:
            if value is True and name not in _NOT_COUNTED:
                self.facts[name] += 1
            elif name == "winner" and value is not None:
                self.wins[_side(value)] += 1
            elif name == "stunt_points" and isinstance(value, int) and value:
                self.stunt_points += value
                self.stunt_rolls += 1

    def _add_total(self, total: int) -> None:
        self.plain += 1
        self.total += total
        self.low = total if self.low is None else min(self.low, total)
        self.high = total if self.high is None else max(self.high, total)

    def line(self) -> str:
        """``12 rolls: total 84, min 3, max 11, mean 7.00`` and what else was counted."""
        parts: list[str] = []
        if self.plain:
            mean = self.total / self.plain
            parts.append(f"total {self.total}, min {self.low}, max {self.high}, mean {mean:.2f}")
        if self.checks:
            parts.append(f"{self.passed} of {self.checks} passed")
        parts.extend(f"{count} {verdict}" for verdict, count in self.no_number.items())
        parts.extend(f"{count} {fact.replace('_', ' ')}" for fact, count in self.facts.items())
        if self.wins:
            tally = ", ".join(f"{side} {count}" for side, count in self.wins.most_common())
            parts.append(f"wins: {tally}")
        if self.stunt_rolls:
            rolls = "roll" if self.stunt_rolls == 1 else "rolls"
            parts.append(f"stunt points: {self.stunt_points} in {self.stunt_rolls} {rolls}")
        parts.extend(
            f"{self.criticals[mark]} with a {mark.replace('-', ' ')}"
            for mark in _CRITICAL_MARKS
            if self.criticals[mark]
        )
        if self.symbols:
            counted = ", ".join(f"{count} {symbol}" for symbol, count in self.symbols.items())
            parts.append(f"symbols: {counted}")
        head = f"{self.rolls} rolls"
        return f"{head}: {'; '.join(parts)}" if parts else head


_NO_WINNER_FIELD = object()
"""An outcome without a ``winner`` field (not None: a tie's winner is None)."""


def _side(winner: object) -> str:
    """A winner as the summary names it: a name as typed, or ``#2`` for a number."""
    return f"#{winner}" if isinstance(winner, int) else str(winner)
