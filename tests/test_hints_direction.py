"""Issue 28, the next step offered: hints that pointed the wrong way (``reroll`` ->
``rolloff``, ``stunt`` -> ``until``, ``max`` -> ``MAG``, ``2d6 scatter`` -> ``scatter``)
now name the form meant. Expected hints written from the issue and the rules cited."""

from __future__ import annotations

import pytest

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.hints import advise


def hint_for(line: str) -> str | None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(line, seed=1)
    return advise(caught.value, Environment()).hint


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        (
            "wfb ld 8 reroll",
            "did you mean: wfb ld 8  (rule W5: re-rolling is the REPL's reroll, typed after "
            "the roll)",
        ),
        (
            "wfb 2d6 scatter",
            "did you mean: wfb scatter 2d6  (rule W3: the scatter die comes first, then the "
            "distance)",
        ),
        (
            "age 3 vs 11 stunt",
            "did you mean: age 3 vs 11  (rule G6: stunt points come with a success on "
            "doubles, no word needed)",
        ),
        (
            "age STR+2 vs 13 until 15 max 5",
            "did you mean: age STR+2 vs 13 until 15  (the most rolls of an advanced test is "
            "a setting: --setting age.max_rolls=N)",
        ),
    ],
)
def test_the_hint_names_the_form_meant(line: str, hint: str) -> None:
    assert hint_for(line) == hint


def test_the_fixed_lines_are_lines_that_roll() -> None:
    for line in ("wfb ld 8", "wfb scatter 2d6", "age 3 vs 11", "age STR+2 vs 13 until 15"):
        dicecli.roll(line, seed=1)  # no error
