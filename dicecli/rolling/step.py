"""A step: one part of an expression made ready to roll, and what it reads of the roll
in progress.

The walker (:mod:`dicecli.rolling.evaluate`) turns each node of a syntax tree into a
step once (per parsed line), so that rolling a line again skips all dispatch on node
types. A step draws its dice from the roll in progress and returns the node of the
result tree it rolled (:mod:`dicecli.result_tree`), its value included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook
    from dicecli.environment import Environment
    from dicecli.notation.nodes import Name
    from dicecli.result_tree import Rolled, RolledDice
    from dicecli.rolling.sources import Roller


class InProgress(Protocol):
    """What a step reads of the roll in progress
    (:class:`~dicecli.rolling.evaluate.Evaluation`)."""

    roller: Roller
    env: Environment
    dice_book: DiceBook | None
    """Set when dice of a dice file with symbols were rolled: their symbols are counted
    (:func:`dicecli.dicefiles.symbols.symbol_outcome`)."""

    def name(self, node: Name) -> Rolled:
        """The roll of a name: a named number, a saved roll, or a game's word."""
        ...


Step = Callable[[InProgress], "Rolled"]
"""A node made ready to roll."""

DiceStep = Callable[[InProgress], "RolledDice"]
"""A dice term made ready to roll."""
