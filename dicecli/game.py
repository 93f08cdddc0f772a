"""The game API: everything a game imports, built in or a plug-in (``docs/games.md``).

A game is a declaration, :class:`Game` (plain data: its name, keywords, help,
settings ...), and a subclass of :class:`Rules` (its grammar, rolling and odds), which
the declaration's ``rules`` function makes when a line of the game is first read. This
module is the whole contract: a game that imports only from here keeps working across
dicecli releases that keep :data:`API_VERSION`.

- declaring: :class:`Game`, :class:`Setting`, :class:`CliOption`, :class:`HelpTopic`,
  :class:`Hint`, :data:`API_VERSION`;
- rules: :class:`Rules`, :data:`CheckStep`, :class:`Check` (base of a game's forms),
  :func:`assert_never`;
- grammar (pyparsing): :func:`keyword`, :data:`integer`, :data:`expression`,
  :func:`whole_line`, :func:`parse_failure`;
- rolling: :class:`Roller`, :class:`Die`, :class:`Face`, :func:`die_for_sides`,
  :data:`D6`, :func:`roll_expression` (and :class:`Evaluation` to give words a meaning
  in expressions, whose :meth:`~Evaluation.name` returns a node of the result tree:
  :data:`Rolled`, :class:`RolledDice`, :class:`NamedNumber`), :class:`Environment`,
  :func:`setting_value`;
- results: :class:`RollResult`, :class:`DieRoll`, :class:`Outcome`, :class:`Text`,
  :class:`DiceShown`, :data:`Segment`, :data:`JSONValue`, :class:`GameRole` and the die
  marks (:data:`DROPPED`, :data:`EXPLODED` ...);
- odds: :class:`Odds`, :class:`Distribution`, :data:`ONE`, :data:`ZERO`,
  :data:`PRECISION`, :func:`expression_odds`;
- errors: :class:`DiceError`, :class:`RuleError`, :class:`GivenFacesError`;
- values: :func:`frozen`, the class decorator for a game's frozen values (checks,
  parts of checks), which a game inside dicecli must use in place of :mod:`dataclasses`;
- testing a game: :class:`GivenSource`, :class:`RandomSource`, :class:`Roll` (a parsed
  line), :func:`plain_line`.

The declaration types are imported with this module; everything else when a game first
asks for it (PEP 562), because the registry imports every game's declaration to learn
the keywords of a line that starts with a word.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from dicecli.frozen import frozen
from dicecli.systems.declaration import (
    API_VERSION,
    OLDEST_API_VERSION,
    CliOption,
    Game,
    HelpTopic,
    Hint,
    Rules,
    Setting,
)

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import EMPTY_ENVIRONMENT as EMPTY_ENVIRONMENT
    from dicecli.environment import Environment as Environment
    from dicecli.errors import DiceError as DiceError
    from dicecli.errors import GivenFacesError as GivenFacesError
    from dicecli.errors import RuleError as RuleError
    from dicecli.notation.dice import D6 as D6
    from dicecli.notation.dice import Die as Die
    from dicecli.notation.dice import Face as Face
    from dicecli.notation.dice import die_for_sides as die_for_sides
    from dicecli.notation.grammar import expression as expression
    from dicecli.notation.grammar import integer as integer
    from dicecli.notation.grammar import keyword as keyword
    from dicecli.notation.grammar import whole_line as whole_line
    from dicecli.notation.nodes import Check as Check
    from dicecli.notation.nodes import Expr as Expr
    from dicecli.notation.nodes import Roll as Roll
    from dicecli.notation.nodes import assert_never as assert_never
    from dicecli.probability.distribution import ONE as ONE
    from dicecli.probability.distribution import ZERO as ZERO
    from dicecli.probability.distribution import Distribution as Distribution
    from dicecli.probability.distribution import Odds as Odds
    from dicecli.probability.engine import PRECISION as PRECISION
    from dicecli.result_tree import NamedNumber as NamedNumber
    from dicecli.result_tree import Rolled as Rolled
    from dicecli.result_tree import RolledDice as RolledDice
    from dicecli.results import CRITICAL_FAILURE as CRITICAL_FAILURE
    from dicecli.results import CRITICAL_SUCCESS as CRITICAL_SUCCESS
    from dicecli.results import DROPPED as DROPPED
    from dicecli.results import EXPLODED as EXPLODED
    from dicecli.results import EXPLOSION as EXPLOSION
    from dicecli.results import IGNORED as IGNORED
    from dicecli.results import REROLL as REROLL
    from dicecli.results import REROLLED as REROLLED
    from dicecli.results import DiceShown as DiceShown
    from dicecli.results import DieRoll as DieRoll
    from dicecli.results import GameRole as GameRole
    from dicecli.results import JSONValue as JSONValue
    from dicecli.results import Outcome as Outcome
    from dicecli.results import RollResult as RollResult
    from dicecli.results import Segment as Segment
    from dicecli.results import Text as Text
    from dicecli.rolling.evaluate import Evaluation as Evaluation
    from dicecli.rolling.games import CheckStep as CheckStep
    from dicecli.rolling.sources import GivenSource as GivenSource
    from dicecli.rolling.sources import RandomSource as RandomSource
    from dicecli.rolling.sources import Roller as Roller

_LAZY: dict[str, str] = {
    "EMPTY_ENVIRONMENT": "dicecli.environment",
    "Environment": "dicecli.environment",
    "DiceError": "dicecli.errors",
    "GivenFacesError": "dicecli.errors",
    "RuleError": "dicecli.errors",
    "D6": "dicecli.notation.dice",
    "Die": "dicecli.notation.dice",
    "Face": "dicecli.notation.dice",
    "die_for_sides": "dicecli.notation.dice",
    "expression": "dicecli.notation.grammar",
    "integer": "dicecli.notation.grammar",
    "keyword": "dicecli.notation.grammar",
    "whole_line": "dicecli.notation.grammar",
    "Check": "dicecli.notation.nodes",
    "Expr": "dicecli.notation.nodes",
    "Roll": "dicecli.notation.nodes",
    "assert_never": "dicecli.notation.nodes",
    "ONE": "dicecli.probability.distribution",
    "ZERO": "dicecli.probability.distribution",
    "Distribution": "dicecli.probability.distribution",
    "Odds": "dicecli.probability.distribution",
    "PRECISION": "dicecli.probability.engine",
    "CRITICAL_FAILURE": "dicecli.results",
    "CRITICAL_SUCCESS": "dicecli.results",
    "DROPPED": "dicecli.results",
    "EXPLODED": "dicecli.results",
    "EXPLOSION": "dicecli.results",
    "IGNORED": "dicecli.results",
    "REROLL": "dicecli.results",
    "REROLLED": "dicecli.results",
    "DiceShown": "dicecli.results",
    "DieRoll": "dicecli.results",
    "GameRole": "dicecli.results",
    "JSONValue": "dicecli.results",
    "Outcome": "dicecli.results",
    "RollResult": "dicecli.results",
    "Segment": "dicecli.results",
    "Text": "dicecli.results",
    "NamedNumber": "dicecli.result_tree",
    "Rolled": "dicecli.result_tree",
    "RolledDice": "dicecli.result_tree",
    "Evaluation": "dicecli.rolling.evaluate",
    "CheckStep": "dicecli.rolling.games",
    "GivenSource": "dicecli.rolling.sources",
    "RandomSource": "dicecli.rolling.sources",
    "Roller": "dicecli.rolling.sources",
}
"""The names imported when a game first asks for one: name -> the module defining it."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


@frozen
class ExpressionRoll:
    """An expression rolled inside a game's roll (:func:`roll_expression`): its value,
    the dice it drew in roll order, and its breakdown, to place in the game's own.

    ``shown`` holds the spaces between terms: for ``2d6-1`` it is ``(DiceShown(...),
    Text(" - ", "op"), Text("1", "number"))``; a name shows with its value
    (``Text("Hard(2)", "label")``)."""

    value: int
    dice: tuple[DieRoll, ...]
    shown: tuple[Segment, ...]


def roll_expression(expr: Expr, roller: Roller, env: Environment) -> ExpressionRoll:
    """Roll an ordinary expression (``d6+STR``, parsed by :data:`expression`) as part of
    a game's roll: dice from ``roller``, names from ``env``, the core's arithmetic
    (``/`` rounds up) and breakdown. A name set to a number counts as that number; a
    name with no value is a :class:`DiceError` (``unknown name``)."""
    from dicecli.rolling.evaluate import Evaluation  # docs/startup.md

    evaluation = Evaluation(roller, env)
    value = evaluation.value(expr)
    return ExpressionRoll(value, evaluation.dice, evaluation.segments)


def expression_odds(expr: Expr, env: Environment) -> tuple[Distribution, tuple[str, ...]]:
    """The exact distribution of an ordinary expression's value, and notes the reader
    must see (a cut-off of exploding dice): for the odds of a game's form whose parts
    are expressions."""
    from dicecli.probability.engine import distribution_and_notes  # docs/startup.md

    return distribution_and_notes(expr, env)


def setting_value(env: Environment, setting: Setting) -> object:
    """The value of one of the game's :class:`Setting` in ``env``: its ``read``
    applied to the text set (None when unset)."""
    return setting.value(env)


def parse_failure(text: str, position: int, message: str) -> pp.ParseFatalException:
    """The error a parse action raises for a line that cannot be right (``raise
    parse_failure(text, loc, "a trait die is d4 to d12")``): the user sees ``message``
    with a caret at ``position``, exit status 2."""
    import pyparsing as pp  # docs/startup.md

    return pp.ParseFatalException(text, position, message)


def plain_line(result: RollResult) -> str:
    """``result`` as a line of dicecli's piped output (``TOTAL<TAB>INPUT<TAB>DETAIL``):
    what a player reading plain text sees, for a game's tests."""
    from dicecli.render.text import result_line  # docs/startup.md

    return result_line(result)


__all__ = [
    "API_VERSION",
    "CRITICAL_FAILURE",
    "CRITICAL_SUCCESS",
    "D6",
    "DROPPED",
    "EMPTY_ENVIRONMENT",
    "EXPLODED",
    "EXPLOSION",
    "IGNORED",
    "OLDEST_API_VERSION",
    "ONE",
    "PRECISION",
    "REROLL",
    "REROLLED",
    "ZERO",
    "Check",
    "CheckStep",
    "CliOption",
    "DiceError",
    "DiceShown",
    "Die",
    "DieRoll",
    "Distribution",
    "Environment",
    "Evaluation",
    "Expr",
    "ExpressionRoll",
    "Face",
    "Game",
    "GameRole",
    "GivenFacesError",
    "GivenSource",
    "HelpTopic",
    "Hint",
    "JSONValue",
    "NamedNumber",
    "Odds",
    "Outcome",
    "RandomSource",
    "Roll",
    "RollResult",
    "Rolled",
    "RolledDice",
    "Roller",
    "RuleError",
    "Rules",
    "Segment",
    "Setting",
    "Text",
    "assert_never",
    "die_for_sides",
    "expression",
    "expression_odds",
    "frozen",
    "integer",
    "keyword",
    "parse_failure",
    "plain_line",
    "roll_expression",
    "setting_value",
    "whole_line",
]
