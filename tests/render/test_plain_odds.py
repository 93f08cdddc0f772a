"""Issue 28: ``odds --plain``'s fourth field, the chance of a value or more, is a
number a script reads as it reads the chance beside it (``58.33%``), not ``>= 58.33%``."""

from __future__ import annotations

from fractions import Fraction

import dicecli
from dicecli.render.plain import odds_lines


def test_the_at_least_field_is_a_percentage() -> None:
    # rule N1: 2d6 rolls 7 or more 21 times in 36
    lines = odds_lines(dicecli.odds("2d6"))
    assert "7\t1/6\t16.67%\t58.33%" in lines
    assert "2\t1/36\t2.78%\t100.00%" in lines
    assert "12\t1/36\t2.78%\t2.78%" in lines


def test_every_at_least_field_reads_as_a_number() -> None:
    # rule N1: 3d6; the chance of each value or more, 216ths
    rows = [line.split("\t") for line in odds_lines(dicecli.odds("3d6"))]
    values = [row for row in rows if row[0].isdigit()]
    assert len(values) == 16
    for value, _, _, at_least in values:
        ways = sum(
            1
            for a in range(1, 7)
            for b in range(1, 7)
            for c in range(1, 7)
            if a + b + c >= int(value)
        )
        assert at_least.endswith("%")
        assert float(at_least[:-1]) == round(float(Fraction(ways, 216) * 100), 2)
