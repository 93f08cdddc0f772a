"""Exact odds of the symbols shown by dice with a number and symbols on every face when
the line does more than add them (``3dMix kh2``, ``{3dMix}kh1``, ``2dMix r1``): every
way the line's dice can fall, rolled.

Rolling counts a symbol on every kept die (``docs/dice.md``); which dice are kept, and
which are re-rolled, depends on the numbers on the faces and on the rest of the line.
Rather than a second model of each modifier, the line is rolled once for each way its
dice can fall, by the roller itself, with a source (:class:`_Ways`) that walks every
sequence of faces in turn: a draw past the walked part takes the first face, and the
next way is the last draw that has a face left, moved on by one. Each way's chance is
the product of one over its dice's number of faces, so the chances are exact, and the
counts are those a roll shows, by construction.

A line whose dice can fall in more than :data:`MAX_WAYS` ways, or whose ways draw more
than :data:`MAX_DRAWS` dice between them (an explosion has no end of ways), is not
walked: :func:`symbol_ways` returns None, and the odds give the total's with a note that
says why.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from dicecli.dicefiles.model import DiceBook
from dicecli.dicefiles.symbols import symbol_counts
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.dice import Die
from dicecli.notation.nodes import Check, Comparison, ComputedDice, Dice, Expr, children
from dicecli.notation.sides import DieName
from dicecli.probability.weights import check_work
from dicecli.rolling.sources import Roller

MAX_WAYS = 4_096
"""Most ways a line's dice may fall for its symbols' odds to be walked."""

MAX_DRAWS = 32_768
"""Most dice drawn over all the ways walked: an explosion's ways grow longer one die at
a time, so ways alone would not bound the work."""

WAY_WORK = 100_000
"""Work of rolling one way (:data:`~dicecli.probability.weights.MAX_WORK`'s units,
about a nanosecond): a roll of a few dice through the roller."""


class _TooManyDrawsError(Exception):
    """The ways walked drew more than :data:`MAX_DRAWS` dice."""


class _Ways:
    """A dice source that draws the faces of one way, then gives the next way."""

    def __init__(self) -> None:
        self.walked: list[int] = []
        self.drawn: list[tuple[int, int]] = []  # (face index, faces) of each draw
        self.draws = 0

    def draw(self, die: Die) -> int:
        self.draws += 1
        if self.draws > MAX_DRAWS:
            raise _TooManyDrawsError
        place = len(self.drawn)
        index = self.walked[place] if place < len(self.walked) else 0
        self.drawn.append((index, len(die.faces)))
        return index

    def chance(self) -> Fraction:
        return Fraction(1, prod(faces for _, faces in self.drawn))

    def next_way(self) -> bool:
        """Move on to the next way; False when every way was walked."""
        drawn = self.drawn
        while drawn and drawn[-1][0] == drawn[-1][1] - 1:
            drawn.pop()
        if not drawn:
            return False
        self.walked = [index for index, _ in drawn[:-1]] + [drawn[-1][0] + 1]
        self.drawn = []
        return True


def fewest_ways(body: Expr, book: DiceBook) -> int | None:
    """How many ways the dice of ``body`` fall at the least (re-rolls and explosions
    add more), or None when a count is itself rolled."""
    ways: int = 1
    stack = [body]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ComputedDice):
            return None
        if isinstance(expr, Dice):
            sides = expr.sides
            die = book.die(sides.name) if isinstance(sides, DieName) else None
            faces = len(die.faces) if die is not None else _faces(expr)
            if faces is None:
                return None
            count = max(expr.count, 0)
            if faces > 1 and count > MAX_WAYS.bit_length():  # a 100-digit count: no power
                return MAX_WAYS + 1
            ways *= int(faces**count)
            if ways > MAX_WAYS:
                return ways
        stack.extend(children(expr))
    return ways


def _faces(expr: Dice) -> int | None:
    """The faces of a die that is not of the dice file (``d6``, ``dF``, ``d{1,2}``)."""
    from dicecli.notation.dice import die_for_sides  # docs/startup.md

    sides = expr.sides
    if isinstance(sides, int) and sides > MAX_WAYS:  # more than can be walked: no die made
        return sides
    try:
        return len(die_for_sides(sides).faces)
    except DiceError:
        return None


def symbol_ways(
    text: str, env: Environment, book: DiceBook
) -> tuple[dict[str, dict[int, Fraction]], dict[str, Fraction]] | None:
    """Each symbol's count and each cancelling pair's net (``success - failure``) as
    exact odds, from rolling ``text`` every way its dice can fall; with the chance of
    a net of 1 or more for each pair. None when there are more than :data:`MAX_WAYS`
    ways, or some way cannot be rolled (it goes past the roll limit)."""
    from dicecli.notation.reader import parse  # docs/startup.md
    from dicecli.rolling.evaluate import roll

    parsed = parse(text)
    if isinstance(parsed.body, (Check, Comparison)):
        return None
    fewest = fewest_ways(parsed.body, book)
    if fewest is None or fewest > MAX_WAYS:
        return None
    check_work(fewest * WAY_WORK, "the symbols of these dice")
    counts: dict[str, dict[int, Fraction]] = {symbol: {} for symbol in book.symbols}
    nets: dict[str, dict[int, Fraction]] = {f"{one} - {other}": {} for one, other in book.cancels}
    ways = _Ways()
    walked = 0
    while True:
        walked += 1
        if walked > MAX_WAYS:
            return None
        try:
            result = roll(parsed, Roller(ways), env, text)
        except (DiceError, _TooManyDrawsError):
            return None
        chance = ways.chance()
        shown = symbol_counts(result.dice, book)
        for symbol, count in shown.items():
            table = counts.setdefault(symbol, {})
            table[count] = table.get(count, Fraction(0)) + chance
        for one, other in book.cancels:
            net = nets[f"{one} - {other}"]
            value = shown.get(one, 0) - shown.get(other, 0)
            net[value] = net.get(value, Fraction(0)) + chance
        if not ways.next_way():
            break
    net_chances = {
        one: sum((p for value, p in nets[f"{one} - {other}"].items() if value >= 1), Fraction(0))
        for one, other in book.cancels
    }
    return {**counts, **nets}, net_chances
