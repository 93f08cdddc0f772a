"""Steps with few outcomes: each outcome's result tree is built once, then shared.

A result tree is a frozen value, so two rolls of one step that drew the same faces can
share one tree. For the steps whose tree follows from the faces they draw alone, this
module keeps a table from the faces drawn to the tree those faces built:

- a dice term whose dice are summed, or kept, dropped and counted by their faces
  (:mod:`dicecli.rolling.dice_steps`): ``3d6``, ``4d6kh3``, ``2d20kh1``; a lone die
  already looks its tree up by face;
- a part made of such parts and numbers: ``2d6 + 5``, ``(1d4 + 1) * 2``,
  ``1d8 + 1d6 + 3``, ``2d6[fire]``.

A roll draws every die it drew before, in the same order, and then looks its tree up;
the first roll of those faces builds it. Only a step with at most :data:`MAX_OUTCOMES`
outcomes has a table (the dice of ``8d6`` seldom land the same way twice), and the tables
hold at most :data:`MAX_SHARED` trees between them: past that they are all emptied, so
what they hold stays bounded whatever the lines rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from dicecli.frozen import frozen

if TYPE_CHECKING:
    from dicecli.result_tree import Rolled
    from dicecli.rolling.step import InProgress, Step

Part = TypeVar("Part", bound="Rolled")
Whole = TypeVar("Whole", bound="Rolled")

MAX_OUTCOMES = 1296
"""Most outcomes a step with a table may have: those of ``4d6``."""

MAX_SHARED = 8192
"""Most trees all the tables hold together."""


@frozen
class Outcomes:
    """How the tree of a step follows from the faces it draws.

    ``draw`` draws the step's dice (as the step draws them, in the same order) and
    returns the faces drawn, as a key; ``build`` builds the tree of a key; ``count``
    is how many keys there can be. ``draw`` is None for a step that draws nothing (a
    number: its one tree is ``build(None)``). ``raises`` is True when ``build`` may
    refuse a key (a product with too many digits, a division by zero): such a part is
    never followed by another part's draws in one table, so its error comes before the
    dice after it are drawn, as it does without tables.
    """

    draw: Callable[[InProgress], Hashable] | None
    build: Callable[[Any], Rolled]
    count: int
    raises: bool = False


_OUTCOMES = "outcomes"
"""The attribute of a step function that holds its :class:`Outcomes`."""


def known(step: Step, outcomes: Outcomes) -> Step:
    """``step``, marked as rolling as ``outcomes`` say, so that a step made of it can
    have a table (:func:`mapped`, :func:`combined`). The mark is an attribute of the
    step function itself: it lives as long as the step, wherever the step is kept."""
    step.__dict__[_OUTCOMES] = outcomes
    return step


def outcomes_of(step: Step) -> Outcomes | None:
    """How ``step``'s tree follows from its faces, if it is marked (:func:`known`)."""
    found = getattr(step, "__dict__", {}).get(_OUTCOMES)
    return found if isinstance(found, Outcomes) else None


def few_outcomes(sides: int, count: int) -> int | None:
    """How many ways ``count`` dice of ``sides`` faces can land, in order, if at most
    :data:`MAX_OUTCOMES` (else None; worked out without a large power)."""
    outcomes = 1
    for _ in range(count):
        outcomes *= sides
        if outcomes > MAX_OUTCOMES:
            return None
    return outcomes


_held = 0
_tables: list[dict[Hashable, Rolled]] = []
"""The tables holding trees, and how many trees they hold together."""


def _share(table: dict[Hashable, Rolled], key: Hashable, rolled: Rolled) -> None:
    global _held
    if _held >= MAX_SHARED:
        for full in _tables:
            full.clear()
        _tables.clear()
        _held = 0
    if not table:
        _tables.append(table)
    table[key] = rolled
    _held += 1


def tabled_step(outcomes: Outcomes) -> Step:
    """A step that rolls as ``outcomes`` say, with a table of the trees it built."""
    draw, build = outcomes.draw, outcomes.build
    if draw is None:
        raise ValueError("a step that draws nothing needs no table")
    made: dict[Hashable, Rolled] = {}

    def tabled(ev: InProgress) -> Rolled:
        key = draw(ev)
        rolled = made.get(key)
        if rolled is None:
            rolled = build(key)
            _share(made, key, rolled)
        return rolled

    return known(tabled, outcomes)


def mapped(
    inner: Callable[[InProgress], Part], wrap: Callable[[Part], Whole], raises: bool = False
) -> Callable[[InProgress], Whole] | None:
    """A step with a table whose tree is ``wrap`` of ``inner``'s (``inner`` in brackets,
    a number added to it), when ``inner`` draws dice and its outcomes are known; else
    None. ``raises``: whether ``wrap`` may refuse a tree."""
    outcomes = outcomes_of(inner)
    if outcomes is None or outcomes.draw is None or outcomes.count > MAX_OUTCOMES:
        return None
    build = cast("Callable[[Any], Part]", outcomes.build)  # inner's trees: Part

    def wrapped(key: Any) -> Whole:
        return wrap(build(key))

    tabled = tabled_step(
        Outcomes(outcomes.draw, wrapped, outcomes.count, outcomes.raises or raises)
    )
    return cast("Callable[[InProgress], Whole]", tabled)


def combined(
    left: Step, right: Step, combine: Callable[[Rolled, Rolled], Rolled], raises: bool = False
) -> Step | None:
    """A step with a table whose tree is ``combine`` of ``left``'s and ``right``'s (rolled
    in that order), when both outcomes are known, together few, and ``left``'s tree is
    never refused; else None. ``raises``: whether ``combine`` may refuse a pair."""
    first, second = outcomes_of(left), outcomes_of(right)
    if first is None or second is None or first.raises:
        return None
    count = first.count * second.count
    if count > MAX_OUTCOMES:
        return None
    draw_first, draw_second = first.draw, second.draw
    build_first, build_second = first.build, second.build
    refused = first.raises or second.raises or raises
    if draw_first is None and draw_second is None:
        return None  # numbers alone: nothing drawn, nothing to share
    if draw_second is None:

        def after_number(key: Any) -> Rolled:
            return combine(build_first(key), build_second(None))

        return tabled_step(Outcomes(draw_first, after_number, count, refused))
    if draw_first is None:

        def before_number(key: Any) -> Rolled:
            return combine(build_first(None), build_second(key))

        return tabled_step(Outcomes(draw_second, before_number, count, refused))

    def draw_both(ev: InProgress) -> tuple[Hashable, Hashable]:
        return draw_first(ev), draw_second(ev)

    def both(key: tuple[Hashable, Hashable]) -> Rolled:
        return combine(build_first(key[0]), build_second(key[1]))

    return tabled_step(Outcomes(draw_both, both, count, refused))
