"""Steps with few outcomes share their result trees between rolls, and nothing a player
or a script can see changes: the same dice drawn in the same order, the same trees, the
same errors at the same point (:mod:`dicecli.rolling.shared_outcomes`).

The properties roll each line with the tables and without them (``MAX_OUTCOMES`` set
to 0, which gives no step a table), from the same dice: seeded, and faces given one by
one, so that running out of faces mid-line shows whether a table drew a die early.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import line_text

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation import grammar
from dicecli.notation.nodes import Check, Comparison
from dicecli.render.text import breakdown_text
from dicecli.results import RollResult, SharedBreakdown
from dicecli.rolling import dice_steps, evaluate, shared_outcomes
from dicecli.rolling.evaluate import Evaluation
from dicecli.rolling.sources import DiceSource, GivenSource, RandomSource, Roller

_SETTINGS = settings(
    max_examples=examples(1000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ROLLS = 12
"""Rolls of each line from one seeded source: enough for a table to be hit."""


def _forget_steps() -> None:
    """Forget the tables and the steps kept across lines (a lone die's), so that steps
    are made anew under the setting in force."""
    shared_outcomes.forget_all()
    dice_steps._LONE_DIE_STEPS.clear()


@contextmanager
def _without_tables() -> Iterator[None]:
    kept = shared_outcomes.MAX_OUTCOMES
    shared_outcomes.MAX_OUTCOMES = 0
    _forget_steps()
    try:
        yield
    finally:
        shared_outcomes.MAX_OUTCOMES = kept
        _forget_steps()


@st.composite
def _small_terms(draw: st.DrawFn) -> str:
    """A dice term with few outcomes, of every kind a table is made for: summed, kept
    or dropped, counted, sorted, marked critical."""
    count = draw(st.integers(1, 4))
    sides = draw(st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "F", "%"]))
    modifier = draw(
        st.sampled_from(["", "kh1", "kl1", "dl1", "dh1", ">4", ">=3f1", "s", "sd", "cs>5", "cf<2"])
    )
    return f"{count}d{sides}{modifier}"


@st.composite
def _small_lines(draw: st.DrawFn, depth: int = 3) -> str:
    """Parts with few outcomes put together as tables put them: numbers, brackets,
    labels, signs, every operator (divisions by a die that may land on 0 included)."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.one_of(_small_terms(), st.integers(0, 12).map(str)))
    kind = draw(st.sampled_from(["op", "op", "op", "brackets", "label", "minus"]))
    inner = draw(_small_lines(depth - 1))
    if kind == "brackets":
        return f"({inner})"
    if kind == "label":
        return f"({inner})[fire]"
    if kind == "minus":
        return f"-({inner})"
    op = draw(st.sampled_from(["+", "-", "*", "/", "%", "//", "^"]))
    right = draw(st.one_of(_small_lines(depth - 1), st.just("(1d2-1)")))
    return f"{inner} {op} {right}"


def _rolls(text: str, source: DiceSource, times: int) -> list[RollResult | str]:
    """``text`` parsed anew (so its steps are made anew) and rolled ``times`` times from
    ``source``; an error as its text, and the dice left in the budget after each roll."""
    tree = grammar.parse(text)
    roller = Roller(source)
    rolls: list[RollResult | str] = []
    for _ in range(times):
        try:
            rolls.append(evaluate.roll(tree, roller, Environment(), text))
        except DiceError as error:
            rolls.append(f"{type(error).__name__}: {error} at {error.position}")
        rolls.append(f"{roller.remaining} dice left in the budget")
    return rolls


def _same_with_and_without_tables(text: str, seed: int, faces: list[str]) -> None:
    _forget_steps()
    with_tables = _rolls(text, RandomSource(seed), ROLLS)
    given = _rolls(text, GivenSource(faces), 6)
    with _without_tables():
        assert _rolls(text, RandomSource(seed), ROLLS) == with_tables, text
        assert _rolls(text, GivenSource(faces), 6) == given, text


_FACES = st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6", "+", "-"]), max_size=30)


@_SETTINGS
@given(_small_lines(), st.integers(0, 2**32), _FACES)
def test_lines_of_few_outcomes_roll_the_same_with_tables(
    text: str, seed: int, faces: list[str]
) -> None:
    _same_with_and_without_tables(text, seed, faces)


@_SETTINGS
@given(line_text(names=False), st.integers(0, 2**32), _FACES)
def test_any_line_rolls_the_same_with_tables(text: str, seed: int, faces: list[str]) -> None:
    tree = grammar.parse(text)
    if isinstance(tree.body, Check):
        return  # a game's check: its game rolls it
    _same_with_and_without_tables(text, seed, faces)


def _trees(text: str, rolls: int) -> list[object]:
    body = grammar.parse(text).body
    assert not isinstance(body, (Check, Comparison))
    step = evaluate.step_of(body)
    source = RandomSource(1)
    return [step(Evaluation(Roller(source), Environment())) for _ in range(rolls)]


@pytest.mark.parametrize(
    ("text", "outcomes"),
    [
        ("2d6 + 5", 36),
        ("d20 + 7", 20),
        ("4d6kh3", 1296),
        ("(1d4 + 1) * 2", 4),
        ("2d6[fire] + 1d4[cold]", 144),
        ("-3dF", 81),
        ("2d20kh1 + 5", 400),
    ],
)
def test_an_outcome_that_comes_again_is_one_tree(text: str, outcomes: int) -> None:
    """A tree is kept the second time its faces come: from the third, every roll of
    those faces is the kept tree, and the trees built are at most two per outcome."""
    trees = _trees(text, 3000)
    assert len({id(tree) for tree in trees}) <= 2 * outcomes
    comings: dict[object, list[int]] = {}
    for tree in trees:
        comings.setdefault(tree, []).append(id(tree))
    again = [ids for ids in comings.values() if len(ids) >= 3]
    assert again  # some outcomes came three times or more
    for ids in again:
        assert len(set(ids[1:])) == 1  # the second coming's tree, kept


def test_a_step_of_many_outcomes_builds_each_roll_anew() -> None:
    trees = _trees("8d6", 50)  # 1,679,616 outcomes: no table
    assert len({id(tree) for tree in trees}) == 50


def test_an_error_comes_before_the_dice_after_it_are_drawn() -> None:
    """``6 / (1d2 - 1)`` on the left may be refused (a division by 0). Its second roll,
    the first by the line's table, draws a 1 and has no face left for the ``1d6``: it
    fails on the division, as without tables, not for want of a die after it."""
    text = "6 / (1d2 - 1) + 1d6"
    _forget_steps()
    with_tables = _rolls(text, GivenSource(["2", "3", "1"]), 2)
    assert "division by zero" in str(with_tables[2])
    with _without_tables():
        assert _rolls(text, GivenSource(["2", "3", "1"]), 2) == with_tables


def test_the_tables_hold_at_most_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the tables hold, by weight (a tree its nodes and dice, faces that came once
    1), stays within the bound, and every tree kept is in a table."""
    monkeypatch.setattr(shared_outcomes, "MAX_SHARED", 200)
    _forget_steps()
    for count in range(1, 4):
        for sides in (4, 6, 8, 10, 12, 20):
            _trees(f"{count}d{sides} + {sides}", 60)
            assert shared_outcomes._held <= 200
            tables = shared_outcomes._tables
            kept = [tree for table in tables for tree in table.values() if tree is not None]
            assert len(kept) == len(shared_outcomes._kept)
            assert all(shared_outcomes.is_kept(tree) for tree in kept)
    _forget_steps()


def test_a_line_of_heavy_trees_gets_no_table() -> None:
    """A tree of more than ``MAX_WEIGHT`` nodes and dice is built anew at each roll: a
    long line would fill the tables with a few trees."""
    short, long = grammar.parse("4d6 + 1").body, grammar.parse("4d6" + " + 1" * 300).body
    assert not isinstance(short, (Check, Comparison))
    assert not isinstance(long, (Check, Comparison))
    assert evaluate.prepared(short)[2] is True
    assert evaluate.prepared(long)[2] is False


def test_a_shared_breakdown_pickles_as_a_tuple() -> None:
    text = "2d6 + 5"
    tree = grammar.parse(text)
    roller = Roller(GivenSource(["3", "4"] * 3))
    result = [evaluate.roll(tree, roller, Environment(), text) for _ in range(3)][-1]
    assert type(result.breakdown) is SharedBreakdown
    loaded = pickle.loads(pickle.dumps(result))
    assert loaded == result
    assert type(loaded.breakdown) is tuple
    assert b"SharedBreakdown" not in pickle.dumps(result)


def test_a_kept_breakdown_is_spelt_as_any_breakdown() -> None:
    """The same faces four times: the first roll has no step, the second's tree is
    built, the third's kept; the fourth reads the kept tree, its breakdown shared."""
    text = "2d6 + 5"
    tree = grammar.parse(text)
    roller = Roller(GivenSource(["3", "4"] * 4))
    results = [evaluate.roll(tree, roller, Environment(), text) for _ in range(4)]
    assert [type(result.breakdown) for result in results] == [
        tuple,
        tuple,
        SharedBreakdown,
        SharedBreakdown,
    ]
    assert results[2].breakdown is results[3].breakdown
    plain = tuple(results[3].breakdown)
    assert breakdown_text(results[3].breakdown) == breakdown_text(plain) == "[3, 4] + 5"
    kept = breakdown_text(results[3].breakdown)
    shared = results[3].breakdown
    assert isinstance(shared, SharedBreakdown)
    assert shared.texts == {"plain": kept}  # its text is kept with it
    assert breakdown_text(results[3].breakdown) is kept
    assert results == [results[0]] * 4  # equal all the same
