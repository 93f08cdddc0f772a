"""The exact odds of a ``yz`` line (rules Y1-Y3), from the same rule decisions as the
rolling (:mod:`dicecli.systems.yearzero.rules`): each die's chances of a success and of
a 1 that counts, pushed or not, combined over the dice.

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.game import ZERO, Distribution, Odds, expression_odds
from dicecli.systems.yearzero.roll import count
from dicecli.systems.yearzero.rules import SUCCESS, is_bane, kept_on_push
from dicecli.systems.yearzero.settings import KINDS

if TYPE_CHECKING:
    from dicecli.game import Environment
    from dicecli.systems.yearzero.checks import YearZeroCheck

Joint = dict[tuple[int, int], Fraction]
"""Chances of (successes, 1s that count) pairs."""


def one_die(kind: str, push: bool) -> Joint:
    """One die of a kind: its success and its counted 1, after the push if any."""
    found: Joint = {}
    sixth = Fraction(1, 6)
    for face in range(1, 7):
        faces = [face]
        if push and not kept_on_push(kind, face):
            faces = list(range(1, 7))
        for final in faces:
            p = sixth if len(faces) == 1 else sixth * sixth  # rolled again: 1/6 of 1/6
            key = (int(final == SUCCESS), int(is_bane(kind, final)))
            found[key] = found.get(key, ZERO) + p
    return found


def _add(left: Joint, right: Joint) -> Joint:
    out: Joint = {}
    for (s1, o1), p in left.items():
        for (s2, o2), q in right.items():
            key = (s1 + s2, o1 + o2)
            out[key] = out.get(key, ZERO) + p * q
    return out


def kind_joint(kind: str, dice: int, push: bool) -> Joint:
    total: Joint = {(0, 0): Fraction(1)}
    die = one_die(kind, push)
    for _ in range(dice):
        total = _add(total, die)
    return total


def odds(check: YearZeroCheck, env: Environment, text: str) -> Odds:
    """The exact chances of a ``yz`` line."""
    counts: list[tuple[str, Distribution]] = []
    notes: tuple[str, ...] = ()
    for kind, expr in zip(KINDS, (check.base, check.skill, check.gear), strict=True):
        if expr is not None:
            found, more = expression_odds(expr, env)
            counts.append((kind, found))
            notes += more
    successes: dict[int, Fraction] = {}
    base_one = gear_one = ZERO
    # every combination of the counts (numbers, or dice that size them)
    combos: list[tuple[dict[str, int], Fraction]] = [({}, Fraction(1))]
    for kind, found in counts:
        combos = [
            ({**c, kind: count(v, kind)}, p * q) for c, p in combos for v, q in found.outcomes
        ]
    for sizes, p in combos:
        by_kind = {kind: kind_joint(kind, n, check.push) for kind, n in sizes.items()}
        none_base = sum(
            (q for (_, o), q in by_kind.get("base", {(0, 0): Fraction(1)}).items() if o == 0), ZERO
        )
        none_gear = sum(
            (q for (_, o), q in by_kind.get("gear", {(0, 0): Fraction(1)}).items() if o == 0), ZERO
        )
        base_one += p * (1 - none_base)
        gear_one += p * (1 - none_gear)
        total: Joint = {(0, 0): Fraction(1)}
        for joint in by_kind.values():
            only_successes: Joint = {}
            for (s, _), q in joint.items():
                only_successes[(s, 0)] = only_successes.get((s, 0), ZERO) + q
            total = _add(total, only_successes)
        for (s, _), q in total.items():
            successes[s] = successes.get(s, ZERO) + p * q
    distribution = Distribution.from_probabilities(successes)
    chances = (
        ("success", 1 - successes.get(0, ZERO)),
        ("base_one", base_one),
        ("gear_one", gear_one),
    )
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=chances,
        notes=notes,
        passing=(1, None),
    )
