"""The Alkemy rules that rolling and odds share: extra dice, which dice are kept, notes.

:func:`prepare` turns a typed side into a :class:`PreparedSide`: its characteristic
looked up, its dice (by health-state colour, rules A3 and A8), the bonus and penalty
dice netted (rule A6) and capped (rule A7), and the keep choice checked (rules A4, A5).
:meth:`PreparedSide.kept` says which of the rolled faces count; the roller and the odds
both use it, so the two can never disagree.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecli.environment import Environment
from dicecli.errors import RuleError, UnknownNameError
from dicecli.frozen import frozen
from dicecli.notation.nodes import Name
from dicecli.systems.alkemy.dice import ColourDice, DiceSet
from dicecli.systems.alkemy.nodes import AlkemySide, KeepChoice

KEPT = 2
"""Dice kept, always (rule A7)."""
MAX_EXTRA = 2
"""Most bonus or penalty dice that count: at most 4 dice are rolled (rule A7)."""


def look_up(value: int | Name, env: Environment) -> int:
    """A characteristic or difficulty: a number, or a named value (``--set Mind=8``)."""
    if isinstance(value, int):
        return value
    number = env.value(value.name)
    if number is None:
        raise UnknownNameError.unset(value.name, value.position)
    return number


def net_extra_dice(bonus: int, penalty: int) -> tuple[int, int]:
    """``(net, lost)``: bonus minus penalty (rule A6), positive for bonus dice, capped at
    ±2 (rule A7); ``lost`` counts the dice the cap took away."""
    net = bonus - penalty
    capped = max(-MAX_EXTRA, min(MAX_EXTRA, net))
    return capped, abs(net) - abs(capped)


def extra_dice_text(net: int) -> str:
    """``2 bonus dice``, ``1 penalty die``, ``no extra dice``."""
    if net == 0:
        return "no extra dice"
    kind = "bonus" if net > 0 else "penalty"
    return f"{abs(net)} {kind} {'die' if abs(net) == 1 else 'dice'}"


def best_two(values: Sequence[int], net: int) -> tuple[int, int]:
    """The positions (0-based, in roll order) of the two dice the rules keep: the
    highest with bonus dice (the usual choice, rule A4), the lowest with penalty dice
    (forced, rule A5). Of equal faces, the one rolled first is kept."""
    # A stable sort keeps equal faces in roll order, descending too: the first rolled wins.
    order = sorted(range(len(values)), key=values.__getitem__, reverse=net > 0)
    first, second = order[0], order[1]
    return (first, second) if first < second else (second, first)


@frozen
class PreparedSide:
    """One side, ready to roll or to count: everything but the faces."""

    number: int
    node: AlkemySide
    characteristic: int
    dice: ColourDice
    net: int
    lost: int

    @property
    def label(self) -> str | None:
        """The typed label, else the characteristic's name (``alkemy Mind vs 15``)."""
        characteristic = self.node.characteristic
        if self.node.label is not None:
            return self.node.label
        return characteristic.name if isinstance(characteristic, Name) else None

    @property
    def title(self) -> str:
        """``side 2 (Reflex 5)``, or ``side 2`` unlabelled: how an opposed roll names
        the side."""
        label = self.label
        named = f" ({label} {self.characteristic})" if label else ""
        return f"side {self.number}{named}"

    @property
    def count(self) -> int:
        """Dice rolled: 2, plus one per bonus or penalty die that counts."""
        return KEPT + abs(self.net)

    @property
    def fixed_kept(self) -> tuple[int, int] | None:
        """The positions of the kept dice when the faces do not decide them: the
        player's choice with bonus dice (rule A4), or the only two dice; else None."""
        keep = self.node.keep
        if keep is not None and self.net > 0:
            return keep.indices
        return (0, 1) if self.net == 0 else None

    def kept(self, values: Sequence[int]) -> tuple[int, int]:
        """The positions (0-based) of the kept dice among ``values``, in roll order."""
        return self.fixed_kept or best_two(values, self.net)

    def notes(self) -> list[str]:
        """What the player should know: netting, the cap, the choice, assumptions."""
        node = self.node
        notes: list[str] = []
        if node.bonus and node.penalty:
            net = extra_dice_text(node.bonus - node.penalty)
            notes.append(f"{node.bonus} bonus - {node.penalty} penalty = {net} (rule A6)")
        if self.lost:
            kind = "bonus" if self.net > 0 else "penalty"
            notes.append(
                f"{self.lost} {kind} {'die' if self.lost == 1 else 'dice'} lost to the cap: "
                f"at most {KEPT + MAX_EXTRA} dice are rolled, extra dice are not saved "
                "(rule A7)"
            )
        if node.keep is not None:
            notes.append(f"kept dice {node.keep.first} and {node.keep.second} by choice (rule A4)")
        if self.dice.assumed:
            notes.append(
                f"{self.dice.colour} dice faces {self.dice.describe()} are an assumption "
                "(rule A9): set your own with --dice-file"
            )
        return notes


def check_keep(keep: KeepChoice | None, net: int) -> None:
    """Refuse a keep choice the rules do not allow (rules A4, A5, A6)."""
    if keep is None:
        return
    position = keep.position if keep.position >= 0 else None
    if net < 0:
        raise RuleError(
            "penalty dice always keep the two lowest (rule A5): no keep choice", position=position
        )
    if net == 0:
        raise RuleError(
            "keep chooses among bonus dice, and this roll has none once bonus and penalty "
            "dice cancel (rule A6)",
            position=position,
        )
    rolled = KEPT + net
    if keep.first == keep.second:
        raise RuleError(f"{keep}: keep two different dice", position=position)
    for choice in (keep.first, keep.second):
        if not 1 <= choice <= rolled:
            raise RuleError(
                f"{keep}: {rolled} dice are rolled, numbered 1 to {rolled} in roll order",
                position=position,
            )


def prepare(node: AlkemySide, number: int, env: Environment, dice: DiceSet) -> PreparedSide:
    """Side ``number`` (1-based) of a roll, its rules applied."""
    return prepare_side(node, number, look_up(node.characteristic, env), dice)


def prepare_side(node: AlkemySide, number: int, characteristic: int, dice: DiceSet) -> PreparedSide:
    """Side ``number`` (1-based) with its ``characteristic`` already looked up."""
    net, lost = net_extra_dice(node.bonus, node.penalty)
    check_keep(node.keep, net)
    return PreparedSide(number, node, characteristic, dice[node.colour], net, lost)
