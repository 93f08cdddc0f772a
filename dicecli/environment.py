"""What a roll may look up besides its dice.

``values`` are named numbers (``STR = 3``, from ``--set``, ``let`` or a character
file); ``rolls`` are saved rolls (``attack = 1d20+5``), rolled anew each time they are
used; ``checks`` are saved game lines (a game keyword and its form), rolled anew when
the name is a whole line; ``settings`` are per-game options (``game.key``). Names are matched
case-insensitively: keys are stored casefolded. ``dice`` are the named dice of dice
files (``docs/dice.md``); ``character`` says whether a character file was loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from dicecli.frozen import field, frozen, replace
from dicecli.notation.nodes import Expr

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook


def _folded(mapping: Mapping[str, object]) -> dict[str, object]:
    return {key.casefold(): value for key, value in mapping.items()}


@frozen
class Environment:
    """Named numbers (``--set STR=3``), saved rolls (``let``) and game settings."""

    values: Mapping[str, int] = field(default_factory=dict)
    rolls: Mapping[str, Expr] = field(default_factory=dict)
    settings: Mapping[str, str] = field(default_factory=dict)
    checks: Mapping[str, str] = field(default_factory=dict)
    """Saved game lines by name: the line's text (a game keyword and its form)."""
    dice: DiceBook | None = None
    """The dice of dice files (``3dBoost``, ``docs/dice.md``): from ``--dice-file``, the
    REPL's ``load`` or a character file; None: the per-user dice file, if any."""
    character: str | None = None
    """Who the loaded character file describes (its ``name``, else its file name), or
    None when none is loaded. With a character loaded, a game's name for an ability
    that the sheet does not set is an error: the sheet was meant to hold it, so
    counting it as 0 would give a wrong result with only a note."""

    dialect_chosen: bool = False
    """Whether the player named the dialect for this run or session (``--dialect``,
    ``--dialect off``, the REPL's ``dialect``): then a character file's ``dialect`` key
    does not replace it, and the file's saved rolls are read in it (docs/grammar.md,
    "Asking for a dialect")."""

    def __post_init__(self) -> None:
        for name in ("values", "rolls", "settings", "checks"):
            object.__setattr__(self, name, MappingProxyType(_folded(getattr(self, name))))

    @property
    def dialect(self) -> str | None:
        """The roller whose readings apply (the ``dialect`` setting: ``--dialect
        roll20``); None: dicecli's own (docs/grammar.md, "Dialects")."""
        return self.settings.get("dialect")

    def with_dialect(self, dialect: str | None, chosen: bool = True) -> Environment:
        """``env`` reading lines in ``dialect`` (None: dicecli's own); ``chosen``: named
        by the player, so that a character file's dialect does not replace it."""
        settings = {key: value for key, value in self.settings.items() if key != "dialect"}
        if dialect is not None:
            settings["dialect"] = dialect
        return replace(self, settings=settings, dialect_chosen=chosen)

    def value(self, name: str) -> int | None:
        return self.values.get(name.casefold())

    def roll(self, name: str) -> Expr | None:
        return self.rolls.get(name.casefold())

    def setting(self, name: str) -> str | None:
        return self.settings.get(name.casefold())

    def check(self, name: str) -> str | None:
        """The saved game line called ``name``, or None."""
        return self.checks.get(name.casefold())

    def with_value(self, name: str, value: int) -> Environment:
        without = self.without(name)
        return replace(without, values={**without.values, name: value})

    def with_roll(self, name: str, expr: Expr) -> Environment:
        without = self.without(name)
        return replace(without, rolls={**without.rolls, name: expr})

    def with_check(self, name: str, line: str) -> Environment:
        """``name`` standing for the game line ``line``, rolled anew at each use."""
        without = self.without(name)
        return replace(without, checks={**without.checks, name: line})

    def with_names(
        self,
        values: Mapping[str, int],
        rolls: Mapping[str, Expr],
        checks: Mapping[str, str] | None = None,
    ) -> Environment:
        """``env`` with many values, saved rolls and saved checks at once (a character
        file), each replacing the same name; one copy of the tables, however many names."""
        checks = checks or {}
        replaced = {key.casefold() for key in (*values, *rolls, *checks)}
        kept_values = {k: v for k, v in self.values.items() if k not in replaced}
        kept_rolls = {k: v for k, v in self.rolls.items() if k not in replaced}
        kept_checks = {k: v for k, v in self.checks.items() if k not in replaced}
        kept_values.update((key.casefold(), value) for key, value in values.items())
        kept_rolls.update((key.casefold(), expr) for key, expr in rolls.items())
        kept_checks.update((key.casefold(), line) for key, line in checks.items())
        return replace(self, values=kept_values, rolls=kept_rolls, checks=kept_checks)

    def without(self, name: str) -> Environment:
        key = name.casefold()
        return replace(
            self,
            values={k: v for k, v in self.values.items() if k != key},
            rolls={k: v for k, v in self.rolls.items() if k != key},
            checks={k: v for k, v in self.checks.items() if k != key},
        )


EMPTY_ENVIRONMENT = Environment()


def saved_line(line: str, env: Environment) -> str | None:
    """The game line that ``line`` rolls when it is the name of a saved check, alone
    but for a ``# comment`` (``hit``, ``hit # the orc``); else None."""
    if not env.checks:
        return None
    code, hash_sign, comment = line.partition("#")
    saved = env.check(code.strip())
    if saved is None:
        return None
    return saved + (f" {hash_sign}{comment}" if hash_sign else "")
