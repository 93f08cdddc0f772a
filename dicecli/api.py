"""The public API's functions: :func:`roll`, :func:`reroll` and :func:`odds` (with
:func:`parse`), as the package :mod:`dicecli` offers them on first use (docs/startup.md,
"The package's public names").

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError
from dicecli.frozen import replace
from dicecli.notation.reader import parse, parse_as
from dicecli.results import RollResult
from dicecli.rolling.evaluate import roll as _roll_parsed
from dicecli.rolling.reroll_result import reroll as _reroll
from dicecli.rolling.sources import DEFAULT_BUDGET, DiceSource, GivenSource, RandomSource, Roller
from dicecli.runs import new_run

if TYPE_CHECKING:
    from dicecli.probability.distribution import Odds


_unseeded_source: RandomSource | None = None


def _random_source(seed: int | None) -> RandomSource:
    """A generator seeded with ``seed``, made anew so that a seeded call always rolls
    the same; for calls without a seed, one generator seeded from the operating system
    once and shared by every such call (seeding from the OS costs more than a roll)."""
    global _unseeded_source
    if seed is not None:
        return RandomSource(seed)
    if _unseeded_source is None:
        _unseeded_source = RandomSource()
    return _unseeded_source


def _forget_unseeded_source() -> None:
    """A forked process seeds its own generator, rather than roll what its parent rolls."""
    global _unseeded_source
    _unseeded_source = None


if hasattr(os, "register_at_fork"):  # not on Windows, which does not fork
    os.register_at_fork(after_in_child=_forget_unseeded_source)


def _with_values(environment: Environment | None, values: Mapping[str, int] | None) -> Environment:
    """``environment`` (or none) with ``values`` added: the API's keyword arguments."""
    env = environment or EMPTY_ENVIRONMENT
    if values:
        env = replace(env, values={**env.values, **values})
    return env


def roll(
    text: str,
    *,
    seed: int | None = None,
    given: str | None = None,
    source: DiceSource | None = None,
    values: Mapping[str, int] | None = None,
    environment: Environment | None = None,
    budget: int = DEFAULT_BUDGET,
) -> RollResult:
    """Parse and roll one line.

    Dice come from ``source`` if given, else from the faces in ``given`` (``"3,4,1"``,
    all of which must be used), else from a generator seeded with ``seed`` (when None,
    one generator for the whole process, seeded from the operating system). ``values``
    sets named numbers (``{"STR": 3}``).
    """
    env = _with_values(environment, values)
    new_run()  # each call is a run: files looked for once per run are looked for again
    given_source = GivenSource.from_text(given) if given is not None else None
    dice_source: DiceSource = source or given_source or _random_source(seed)
    result = _roll_parsed(parse_as(text, env.dialect), Roller(dice_source, budget), env, text)
    if given_source is not None and source is None:
        try:
            given_source.check_all_used()
        except DiceError as error:
            raise error.at(text) from None
    return result


def reroll(
    previous: RollResult,
    *,
    seed: int | None = None,
    given: str | None = None,
    environment: Environment | None = None,
) -> RollResult:
    """Re-roll every die of ``previous`` under rule W5: the new result stands; a roll
    already re-rolled, or holding a die that a game's rules forbid re-rolling (rule W4),
    refuses with :class:`RuleError`."""
    new_run()
    given_source = GivenSource.from_text(given) if given is not None else None
    roller = Roller(given_source or _random_source(seed))
    result = _reroll(previous, roller, environment or EMPTY_ENVIRONMENT)
    if given_source is not None:
        given_source.check_all_used()
    return result


def odds(
    text: str,
    *,
    values: Mapping[str, int] | None = None,
    environment: Environment | None = None,
    at_least: int | None = None,
    at_most: int | None = None,
) -> Odds:
    """The exact chances of one line: its distribution, mean and the chances asked for.

    ``at_least=N`` and ``at_most=N`` add those chances; the answer's fields are
    described in ``docs/odds.md``, and ``dicecli odds --json`` writes the same.
    """
    from dicecli.probability.report import odds as exact_odds  # docs/startup.md

    env = _with_values(environment, values)
    new_run()
    return exact_odds(text, env, at_least=at_least, at_most=at_most)


__all__ = ["odds", "parse", "reroll", "roll"]
