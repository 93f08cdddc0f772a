"""Brute force for a line's distribution: every sequence of faces its roll can draw,
rolled by the evaluator (not the odds engine) with each sequence's chance. The oracle
the tests of other rollers' spellings (issue 26) hold :func:`dicecli.odds` to."""

from __future__ import annotations

from fractions import Fraction

from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.dice import Die
from dicecli.notation.nodes import Expr
from dicecli.notation.reader import parse
from dicecli.rolling.evaluate import Evaluation
from dicecli.rolling.sources import Roller


class NeedFaceError(Exception):
    """A sequence of faces ran out: the roll asks for a face of ``die``."""

    def __init__(self, die: Die) -> None:
        super().__init__(die.name)
        self.die = die


class Replay:
    """A dice source handing out a fixed sequence of face indexes, then asking for more."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def draw(self, die: Die) -> int:
        if self.used == len(self.faces):
            raise NeedFaceError(die)
        self.used += 1
        return self.faces[self.used - 1]


def brute_distribution(text: str, max_dice: int = 8) -> dict[int, Fraction]:
    """The total's chances for the expression ``text``, following at most ``max_dice``
    dice; raises AssertionError if some sequence needs more (pick lines that end)."""
    expr = parse(text).body
    assert isinstance(expr, Expr)
    outcomes: dict[int, Fraction] = {}
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        try:
            total = Evaluation(Roller(Replay(faces)), EMPTY_ENVIRONMENT).value(expr)
        except NeedFaceError as need:
            assert len(faces) < max_dice, f"{text} needs more than {max_dice} dice"
            pending.extend(
                ((*faces, index), chance * ways) for index, ways in _distinct_faces(need.die)
            )
            continue
        outcomes[total] = outcomes.get(total, Fraction(0)) + chance
    return outcomes


def _distinct_faces(die: Die) -> list[tuple[int, Fraction]]:
    """The index of each distinct face of ``die`` and its chance. Faces of the same
    value and symbols (the D3's faces 1 and 2 both count 1) roll alike, whatever they
    are named: each such group is followed once, with its faces' chances added."""
    first: dict[tuple[object, ...], int] = {}
    ways: dict[int, int] = {}
    for index, face in enumerate(die.faces):
        place = first.setdefault((face.value, face.symbols), index)
        ways[place] = ways.get(place, 0) + 1
    return [(index, Fraction(count, len(die.faces))) for index, count in ways.items()]
