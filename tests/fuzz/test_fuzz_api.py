"""The API under hostile text (short profile): ``parse``, ``roll``, ``odds`` and
``reroll`` on grammar-aware lines, near misses, token soups and byte soups. Only
documented errors (``DiceError`` and its subclasses) may escape, and each call stays
within its step budget (tests/fuzz/harness.py). The long profile runs the same checks
on a million inputs: ``python tests/fuzz/long.py``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import junk_text, line_text, near_miss_text

from fuzz.harness import (
    AREAS,
    VALID_LINES,
    InternalError,
    StepCounter,
    any_input,
    byte_soup,
    exercise,
    mutated,
    odds_friendly,
    token_soup,
)

FUZZ = settings(
    max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
"""The short profile: enough to catch a regression at each run, a few seconds each."""


def exercise_all(text: str) -> None:
    for area in AREAS:
        if area != "odds" or odds_friendly(text):
            exercise(area, text)


@settings(FUZZ, max_examples=examples(40))
@given(line_text(depth=2, names=False))
def test_grammar_aware_lines(text: str) -> None:
    exercise_all(text)


@FUZZ
@given(near_miss_text() | junk_text())
def test_near_misses_and_junk(text: str) -> None:
    exercise_all(text)


@FUZZ
@given(st.randoms(use_true_random=False))
def test_token_soups(rng: random.Random) -> None:
    exercise_all(token_soup(rng))


@FUZZ
@given(st.randoms(use_true_random=False))
def test_byte_soups(rng: random.Random) -> None:
    exercise_all(byte_soup(rng))


@FUZZ
@given(st.randoms(use_true_random=False), st.sampled_from(VALID_LINES))
def test_mutated_lines_of_every_game(rng: random.Random, line: str) -> None:
    exercise_all(mutated(rng, line))


@pytest.mark.parametrize(
    "text",
    [
        "+".join(["1"] * 999),
        "+".join(["d6"] * 999),
        "(" * 100 + "d6" + ")" * 100,
        "9" * 100 + "*" + "9" * 100,
        "1" * 10_000,
        "1" * 10_001,
        "d6 # " + "\udcff" * 5000,
        "{" * 60 + "d6" + "}" * 60,
        "10000d10000",
        "d6!" + "+d6!" * 200,
    ],
)
def test_inputs_at_the_bounds(text: str) -> None:
    """The largest lines within each bound: answered (or refused) within the budget."""
    for area in ("parse", "roll", "reroll"):
        exercise(area, text)


def test_the_budget_catches_a_runaway() -> None:
    """The check can fail: an endless loop under the counter is stopped and reported."""

    def forever() -> None:
        while True:
            len("step")

    with pytest.raises(BaseException, match="more than 1,000 steps"), StepCounter(1_000):
        forever()


def test_an_undocumented_error_fails_the_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a ValueError escaping ``roll`` is an internal error."""
    import dicecli

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(dicecli, "roll", broken)
    with pytest.raises(InternalError, match="ValueError: boom"):
        exercise("roll", "2d6")


@pytest.mark.slow
def test_a_thousand_mixed_inputs() -> None:
    rng = random.Random(17)
    for _ in range(500):
        text = any_input(rng)
        for area in ("parse", "roll"):
            exercise(area, text)
