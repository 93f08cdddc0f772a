"""Sorting a group, RPG Dice Roller's ``{4d6, 2d10}s``/``sa``/``sd`` (issue 26): the
items shown by value and the dice in each sorted; the total, the odds and the dice of
the result (in roll order, for ``--given``) do not change (docs/grammar.md, "What each
piece means"), also for a dice term sorted inside a group that keeps among its dice
(docs/grammar.md, "Groups")."""

from __future__ import annotations

import pytest

import dicecli
from dicecli import parse
from dicecli.notation.nodes import Dice, Group, Modifiers
from dicecli.render.text import result_line


@pytest.mark.parametrize(
    ("text", "sort", "canonical"),
    [
        ("{4d6, 2d10}s", "a", "{4d6, 2d10}s"),
        ("{4d6, 2d10}sa", "a", "{4d6, 2d10}s"),
        ("{4d6}sd", "d", "{4d6}sd"),
        ("{4d6, 2d10}kh1s", "a", "{4d6, 2d10}kh1s"),
    ],
)
def test_a_group_takes_a_sort(text: str, sort: str, canonical: str) -> None:
    node = parse(text).body
    assert isinstance(node, Group)
    assert node.modifiers.sort == sort
    assert str(node) == canonical
    assert parse(canonical).body == node


@pytest.mark.parametrize(
    ("text", "unsorted", "given", "shown"),
    [
        ("{4d6, 2d10}s", "{4d6, 2d10}", "1,5,2,3,9,10", "{[1, 2, 3, 5] (=11), [9, 10] (=19)}"),
        ("{4d6, 2d10}sd", "{4d6, 2d10}", "1,5,2,3,9,10", "{[10, 9] (=19), [5, 3, 2, 1] (=11)}"),
        ("{2d10, 4d6}s", "{2d10, 4d6}", "9,10,1,5,2,3", "{[1, 2, 3, 5] (=11), [9, 10] (=19)}"),
        ("{4d6}sa", "{4d6}", "5,1,3,2", "{[1, 2, 3, 5] (=11)}"),
        # a dropped item keeps its mark wherever it is shown
        (
            "{4d6, 2d10}kh1s",
            "{4d6, 2d10}kh1",
            "1,5,2,3,9,10",
            "{[~1~, ~2~, ~3~, ~5~] ~(=11)~, [9, 10] (=19)}",
        ),
        # a pooled group (one item, keep/drop among its dice): its dice sorted
        ("{4d6}kh3sd", "{4d6}kh3", "5,1,3,2", "{[5, 3, 2, ~1~] (=10)}"),
        # a pooled group whose dice term sorts itself: still among its dice, the total
        # that of the unsorted term (it was once one item, and dropping it gave 0)
        ("{4d6sd}dl1", "{4d6}dl1", "2,5,1,3", "{[5, 3, 2, ~1~] (=10)}"),
        ("{4d6s+1d8}kh2", "{4d6+1d8}kh2", "2,5,1,3,7", "{[~1~, ~2~, ~3~, 5] + [7] (=12)}"),
        # equal items stay in roll order
        ("{d6, d6, d6}sd", "{d6, d6, d6}", "2,5,2", "{[5] (=5), [2] (=2), [2] (=2)}"),
    ],
)
def test_the_items_and_their_dice_are_shown_sorted(
    text: str, unsorted: str, given: str, shown: str
) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == dicecli.roll(unsorted, given=given).total
    assert [die.value for die in result.dice] == [int(face) for face in given.split(",")]
    assert result_line(result).split("\t")[2] == shown


@pytest.mark.parametrize(
    ("text", "unsorted"),
    [
        ("{4d6, 2d10}s", "{4d6, 2d10}"),
        ("{3d4}sd", "{3d4}"),
        ("{d6, d8}kh1sa", "{d6, d8}kh1"),
        ("{4d6sd}dl1", "4d6dl1"),
        ("{3d6s+1d8}kh2", "{3d6+1d8}kh2"),
    ],
)
def test_the_odds_are_those_of_the_unsorted_group(text: str, unsorted: str) -> None:
    assert dicecli.odds(text).distribution == dicecli.odds(unsorted).distribution


def test_sorting_a_die_inside_a_group_stays_the_dice_terms() -> None:
    node = parse("{4d6s, 2d10}").body
    assert isinstance(node, Group)
    assert node.items[0] == Dice(4, 6, Modifiers(sort="a"))
