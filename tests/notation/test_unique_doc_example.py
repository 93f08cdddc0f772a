"""The unique-dice example of docs/grammar.md, as issue 24 asked it fixed: ``6d10>=7u``
counts the unique dice that show 7 or more; ``6d10u>=7`` is unique dice with a
condition (no two sevens, eights, nines or tens), summed."""

from __future__ import annotations

from pathlib import Path

import dicecli

GRAMMAR = Path(__file__).resolve().parents[2] / "docs" / "grammar.md"


def test_the_documented_example_counts_unique_dice_of_seven_or_more() -> None:
    # the second 7 is a repeat, re-rolled (to a 3): 7, 8 and 9 are three successes
    result = dicecli.roll("6d10>=7u", given="7,7,8,9,1,2,3")
    assert result.total == 3
    assert "`6d10>=7u` counts the unique dice that show 7 or more" in GRAMMAR.read_text(
        encoding="utf-8"
    ).replace("\n  ", " ")


def test_unique_with_a_condition_sums_the_dice() -> None:
    # 7 + 8 + 9 + 1 + 2 + 3: no two of 7 or more alike; the dice under 7 may repeat
    assert dicecli.roll("6d10u>=7", given="7,7,8,9,1,2,3").total == 30
    assert dicecli.roll("3d10u>=7", given="1,1,1").total == 3
