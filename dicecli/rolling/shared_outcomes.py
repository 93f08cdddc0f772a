"""Steps with few outcomes: each outcome's result tree is built once, then shared.

A result tree is a frozen value, so two rolls of one step that drew the same faces can
share one tree. For the steps whose tree follows from the faces they draw alone, this
module keeps a table from the faces drawn to the tree those faces built:

- a dice term whose dice are summed, or kept, dropped and counted by their faces
  (:mod:`dicecli.rolling.dice_steps`): ``d20``, ``3d6``, ``4d6kh3``, ``2d20kh1``;
- a whole line made of such parts and numbers (:func:`with_table`): ``2d6 + 5``,
  ``(1d4 + 1) * 2``, ``1d8 + 1d6 + 3``, ``2d6[fire]``. Each part says how its tree
  follows from its faces (:class:`Outcomes`, worked out only when a line asks), and
  the line's table builds the whole tree from them.

A roll draws every die it drew before, in the same order, and then looks its tree up.
A tree is kept the second time its faces come (:func:`is_kept`); the first time, only
the faces are remembered. Only a step with at most :data:`MAX_OUTCOMES` outcomes has a
table (the dice of ``8d6`` seldom land the same way twice), and the tables hold at
most :data:`MAX_SHARED` of weight between them, each tree by its size: past that they
are all emptied, so what they hold stays bounded whatever the lines rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from dicecli.frozen import frozen

if TYPE_CHECKING:
    from dicecli.result_tree import Rolled
    from dicecli.rolling.step import InProgress, Step

Part = TypeVar("Part", bound="Rolled")
T = TypeVar("T")
S = TypeVar("S", bound="Callable[[InProgress], Rolled]")

MAX_OUTCOMES = 1296
"""Most outcomes a step with a table may have: those of ``4d6``."""

MAX_SHARED = 32_768
"""Most weight all the tables hold together: each tree kept weighs its nodes and dice
(with what is read of it), each faces that came once 1."""

MAX_WEIGHT = 256
"""The heaviest tree a line's table keeps: a longer line is built anew at each roll."""


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
    weight: int
    """The nodes and dice of a tree it builds, about: what keeping one costs."""
    raises: bool = False


_OUTCOMES = "outcomes"
_DESCRIBE = "describe_outcomes"
_SHARES = "shares_trees"
"""The attributes of a step function that say how its tree follows from the faces it
draws (:class:`Outcomes`, or a function that works them out), and whether it shares
its trees between rolls."""


def known(step: S, outcomes: Outcomes, shares: bool = False) -> S:
    """``step``, marked as rolling as ``outcomes`` say, so that a step made of it can say
    how its own tree follows from the faces (:func:`mapped`, :func:`combined`), and a
    line made of it can have a table (:func:`with_table`); ``shares``: whether ``step``
    already looks its trees up in a table of its own. The marks are attributes
    of the step function itself: they live as long as the step, wherever it is kept."""
    step.__dict__[_OUTCOMES] = outcomes
    if shares:
        step.__dict__[_SHARES] = True
    return step


def described(step: S, describe: Callable[[], Outcomes | None]) -> S:
    """``step``, marked with how to work out its :class:`Outcomes` (None: they are not
    known), which is done when they are first asked for: a step made for one roll
    (:func:`dicecli.rolling.evaluate.roll`'s first roll of a line) never works them
    out."""
    step.__dict__[_DESCRIBE] = describe
    return step


def outcomes_of(step: Callable[[InProgress], Rolled]) -> Outcomes | None:
    """How ``step``'s tree follows from its faces, if it is marked (:func:`known`,
    :func:`described`)."""
    marks: dict[str, Any] | None = getattr(step, "__dict__", None)
    if marks is None:
        return None
    found = marks.get(_OUTCOMES)
    if found is None and _DESCRIBE in marks:
        found = marks[_OUTCOMES] = marks.pop(_DESCRIBE)() or False  # False: not known
    return found if isinstance(found, Outcomes) else None


def shares_trees(step: Callable[[InProgress], Rolled]) -> bool:
    """Whether ``step`` looks its trees up, sharing them between rolls."""
    return getattr(step, "__dict__", {}).get(_SHARES) is True


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
_tables: list[dict[Hashable, Rolled | None]] = []
_kept: dict[int, list[Any]] = {}
"""The tables with entries; what they hold together, by weight (:data:`MAX_SHARED`);
and the trees they keep, by identity, each with what is read of it once kept
(:func:`read_of_kept`)."""


def _admit(
    table: dict[Hashable, Rolled | None], key: Hashable, rolled: Rolled, weight: int
) -> None:
    """``rolled``, just built for ``key``: kept if ``key`` came before, else ``key`` is
    remembered without it. A tree is kept from the second time its faces come: in a
    short run most of a line's outcomes come once, and keeping their trees would only
    weigh on memory."""
    global _held
    kept = key in table
    added = weight if kept else 1
    if _held + added > MAX_SHARED:
        forget_all()
        kept = False
        added = 1
    if not table:
        _tables.append(table)
    if kept:
        table[key] = rolled
        _kept[id(rolled)] = [rolled, None]
    else:
        table[key] = None
    _held += added


def forget_all() -> None:
    """Empty every table: the trees kept and what was read of them."""
    global _held
    for table in _tables:
        table.clear()
    _tables.clear()
    _kept.clear()
    _held = 0


def is_kept(tree: Rolled) -> bool:
    """Whether ``tree`` is kept by a table, to come again in later rolls."""
    entry = _kept.get(id(tree))
    return entry is not None and entry[0] is tree


def read_of_kept(tree: Rolled, read: Callable[[Rolled], T]) -> T | None:
    """What ``read`` reads of ``tree`` (its dice and breakdown), read once and kept with
    it when a table keeps ``tree``; None for a tree no table keeps."""
    entry = _kept.get(id(tree))
    if entry is None or entry[0] is not tree:
        return None
    found: T | None = entry[1]
    if found is None:
        found = entry[1] = read(tree)
    return found


def tabled_step(outcomes: Outcomes) -> Step:
    """A step that rolls as ``outcomes`` say, with a table of the trees it built."""
    draw, build, weight = outcomes.draw, outcomes.build, outcomes.weight
    if draw is None:
        raise ValueError("a step that draws nothing needs no table")
    made: dict[Hashable, Rolled | None] = {}

    def tabled(ev: InProgress) -> Rolled:
        key = draw(ev)
        rolled = made.get(key)
        if rolled is None:
            rolled = build(key)
            _admit(made, key, rolled, weight)
        return rolled

    return known(tabled, outcomes, shares=True)


def with_table(step: Step) -> tuple[Step, bool]:
    """``step`` with a table of its trees when its outcomes are known and few, and
    whether the step returned shares its trees. Made for a whole line (or a part rolled
    on its own), not for each part of it: a part's tree is built by the line's table."""
    if shares_trees(step):
        return step, True
    outcomes = outcomes_of(step)
    if (
        outcomes is None
        or outcomes.draw is None
        or outcomes.count > MAX_OUTCOMES
        or outcomes.weight > MAX_WEIGHT
    ):
        return step, False
    return tabled_step(outcomes), True


def mapped(
    inner: Callable[[InProgress], Part], wrap: Callable[[Part], Rolled], raises: bool = False
) -> Outcomes | None:
    """How the tree ``wrap`` makes of ``inner``'s (``inner`` in brackets, a number added
    to it) follows from the faces ``inner`` draws, when that is known for ``inner``;
    else None. ``raises``: whether ``wrap`` may refuse a tree."""
    outcomes = outcomes_of(inner)
    if outcomes is None or outcomes.draw is None or outcomes.count > MAX_OUTCOMES:
        return None
    build = cast("Callable[[Any], Part]", outcomes.build)  # inner's trees: Part

    def wrapped(key: Any) -> Rolled:
        return wrap(build(key))

    return Outcomes(
        outcomes.draw, wrapped, outcomes.count, outcomes.weight + 1, outcomes.raises or raises
    )


def combined(
    left: Step, right: Step, combine: Callable[[Rolled, Rolled], Rolled], raises: bool = False
) -> Outcomes | None:
    """How the tree ``combine`` makes of ``left``'s and ``right``'s (rolled in that
    order) follows from the faces they draw, when that is known for both, their
    outcomes are together few, and ``left``'s tree is never refused; else None.
    ``raises``: whether ``combine`` may refuse a pair."""
    first, second = outcomes_of(left), outcomes_of(right)
    if first is None or second is None or first.raises:
        return None
    count = first.count * second.count
    if count > MAX_OUTCOMES:
        return None
    weight = first.weight + second.weight + 1
    draw_first, draw_second = first.draw, second.draw
    build_first, build_second = first.build, second.build
    refused = first.raises or second.raises or raises
    if draw_first is None and draw_second is None:
        return None  # numbers alone: nothing drawn, nothing to share
    if draw_second is None:

        def after_number(key: Any) -> Rolled:
            return combine(build_first(key), build_second(None))

        return Outcomes(draw_first, after_number, count, weight, refused)
    if draw_first is None:

        def before_number(key: Any) -> Rolled:
            return combine(build_first(None), build_second(key))

        return Outcomes(draw_second, before_number, count, weight, refused)

    def draw_both(ev: InProgress) -> tuple[Hashable, Hashable]:
        return draw_first(ev), draw_second(ev)

    def both(key: tuple[Hashable, Hashable]) -> Rolled:
        return combine(build_first(key[0]), build_second(key[1]))

    return Outcomes(draw_both, both, count, weight, refused)
