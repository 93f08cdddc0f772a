"""Re-rolling a roll that was already made (rule W5, W4).

Under rule W5, which dicecli applies to every re-roll: the whole roll is rolled again
(all of a 2D6's dice), the new result stands even if worse, no die is re-rolled twice,
and dice that a game's rules forbid re-rolling (rule W4: ``Die(rerollable=False)``,
which each of its :class:`~dicecli.results.DieRoll` carries) refuse.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.environment import Environment, saved_line
from dicecli.errors import RuleError
from dicecli.frozen import replace
from dicecli.notation.nodes import (
    Check,
    Comparison,
    ComputedDice,
    Dice,
    Expr,
    Name,
    children,
)
from dicecli.notation.reader import parse_as
from dicecli.results import REROLL, RollResult
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import Roller


def check_rerollable(previous: RollResult) -> None:
    """Raise :class:`RuleError` when ``previous`` may not be re-rolled."""
    if previous.reroll:
        raise RuleError(
            f"'{previous.input.strip()}' was already re-rolled: no die may be re-rolled "
            "more than once (rule W5)"
        )
    if any(REROLL in die.marks for die in previous.dice):
        raise RuleError(
            f"'{previous.input.strip()}' already re-rolled a die (r, ro, u, uo): no die "
            "may be re-rolled more than once (rule W5)"
        )
    fixed = sorted({die.die for die in previous.dice if not die.rerollable})
    if fixed:
        names = " and ".join(f"the {name} die" for name in fixed)
        raise RuleError(f"{names} may not be re-rolled unless a rule says so (rule W4)")


def reroll(previous: RollResult, roller: Roller, env: Environment) -> RollResult:
    """Roll ``previous`` again, all its dice; the new result stands (rule W5)."""
    check_rerollable(previous)
    # A saved check typed by its name (``hit``) is the line it was saved as.
    parsed = parse_as(saved_line(previous.input, env) or previous.input, env.dialect)
    modifier = own_reroll(parsed.body, env)
    if modifier is not None:
        raise RuleError(
            f"'{previous.input.strip()}' re-rolls its own dice ({modifier}): re-rolled "
            "again, a die could be re-rolled twice (rule W5)"
        )
    result = roll(parsed, roller, env, previous.input)
    return replace(result, reroll=True)


def own_reroll(body: Expr | Comparison | Check, env: Environment) -> str | None:
    """The first modifier that re-rolls dice (``r``/``ro``, and ``u``/``uo``, which
    re-roll repeats) in ``body`` or the saved rolls it names, on dice of a fixed or a
    computed count or size (``d(2*3)ro1``, ``(d2)d6r1``) alike, as typed (``ro1``);
    else None: a line that re-rolls dice by itself (rule W5)."""
    stack: list[Expr]
    if isinstance(body, Comparison):
        stack = [body.left, body.right]
    else:
        stack = [body] if isinstance(body, Expr) else []
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, (Dice, ComputedDice)):
            rerolling = node.modifiers.reroll or node.modifiers.unique
            if rerolling is not None:
                return str(rerolling)
        if isinstance(node, Name) and node.name.casefold() not in seen:
            seen.add(node.name.casefold())
            saved = env.roll(node.name)
            if saved is not None:
                stack.append(saved)
        stack.extend(children(node))
    return None
