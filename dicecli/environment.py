"""What a roll may look up besides its dice.

``values`` are named numbers (``STR = 3``, from ``--set``, ``let`` or a character
file); ``rolls`` are saved rolls (``attack = 1d20+5``), rolled anew each time they are
used; ``settings`` are per-game options (``game.key``). Names are matched
case-insensitively: keys are stored casefolded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from dicecli.notation.nodes import Expr


def _folded(mapping: Mapping[str, object]) -> dict[str, object]:
    return {key.casefold(): value for key, value in mapping.items()}


@dataclass(frozen=True)
class Environment:
    """Named numbers (``--set STR=3``), saved rolls (``let``) and game settings."""

    values: Mapping[str, int] = field(default_factory=dict)
    rolls: Mapping[str, Expr] = field(default_factory=dict)
    settings: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("values", "rolls", "settings"):
            object.__setattr__(self, name, MappingProxyType(_folded(getattr(self, name))))

    def value(self, name: str) -> int | None:
        return self.values.get(name.casefold())

    def roll(self, name: str) -> Expr | None:
        return self.rolls.get(name.casefold())

    def setting(self, name: str) -> str | None:
        return self.settings.get(name.casefold())

    def with_value(self, name: str, value: int) -> Environment:
        rolls = {k: v for k, v in self.rolls.items() if k != name.casefold()}
        return replace(self, values={**self.values, name: value}, rolls=rolls)

    def with_roll(self, name: str, expr: Expr) -> Environment:
        values = {k: v for k, v in self.values.items() if k != name.casefold()}
        return replace(self, values=values, rolls={**self.rolls, name: expr})

    def with_names(self, values: Mapping[str, int], rolls: Mapping[str, Expr]) -> Environment:
        """``env`` with many values and saved rolls at once (a character file), each
        replacing the same name; one copy of the tables, however many names."""
        replaced = {key.casefold() for key in (*values, *rolls)}
        kept_values = {k: v for k, v in self.values.items() if k not in replaced}
        kept_rolls = {k: v for k, v in self.rolls.items() if k not in replaced}
        kept_values.update((key.casefold(), value) for key, value in values.items())
        kept_rolls.update((key.casefold(), expr) for key, expr in rolls.items())
        return replace(self, values=kept_values, rolls=kept_rolls)

    def without(self, name: str) -> Environment:
        key = name.casefold()
        return replace(
            self,
            values={k: v for k, v in self.values.items() if k != key},
            rolls={k: v for k, v in self.rolls.items() if k != key},
        )


EMPTY_ENVIRONMENT = Environment()
