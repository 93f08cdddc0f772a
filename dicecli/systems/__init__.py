"""The game systems and their registry.

A game is one module in this package that defines a module-level ``SYSTEM`` object
satisfying :class:`GameSystem`. The registry below maps each keyword to that module;
the module is imported only when a line starts with one of its keywords, so plain rolls
never pay for the games. Adding a game: write its module and tests, add its line here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.dice import Roller


class GameSystem(Protocol):
    """What a game module provides."""

    name: str
    keywords: tuple[str, ...]

    def line_grammar(self) -> pp.ParserElement:
        """The grammar of a whole line of this game (built with
        :func:`dicecli.notation.grammar.whole_line`), producing a
        :class:`~dicecli.notation.nodes.Roll` whose body is this game's
        :class:`~dicecli.notation.nodes.Check`."""
        ...

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        """Roll ``check`` with ``roller`` and apply the rules. ``text`` is the line as
        typed (the result's ``input``)."""
        ...

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        """The exact chances of ``check`` (``dicecli odds``)."""
        ...


# One line per game: its name (``Check.system``) -> its module, and its keywords.
SYSTEMS: dict[str, str] = {
    "alkemy": "dicecli.systems.alkemy.roll",
    "warhammer": "dicecli.systems.warhammer.system",
    "age": "dicecli.systems.age.system",
}
KEYWORDS: dict[str, str] = {
    "alkemy": "alkemy",
    "wfb": "warhammer",
    "whfb": "warhammer",
    "warhammer": "warhammer",
    "age": "age",
}


# Words a game gives a meaning inside its own expressions (``wfb 2D6 + artillery``):
# they may stand in saved rolls, which then work in that game's lines.
WORDS: dict[str, str] = {"artillery": "warhammer"}

# The settings the games read (``--setting KEY=VALUE``), one line each, with what they do.
SETTINGS: dict[str, str] = {
    "alkemy.dice_file": "a TOML file of Alkemy dice faces and symbols (also --dice-file)",
    "age.max_rolls": "most rolls an advanced test makes (default 100)",
    "age.max_rerolls": "most re-rolls of a fully tied opposed test (default 20)",
    "warhammer.misfire_on_hit": "'misfire' (default) or 'ignore': a MISFIRE on a HIT",
}


def by_name(name: str) -> GameSystem:
    """The game named ``name``, imported on first use."""
    system: GameSystem = importlib.import_module(SYSTEMS[name]).SYSTEM
    return system


def for_keyword(word: str) -> GameSystem | None:
    """The game a line's first word names (any case); None when it names no game."""
    name = KEYWORDS.get(word.casefold())
    return None if name is None else by_name(name)
