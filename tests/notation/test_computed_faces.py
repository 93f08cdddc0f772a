"""Dice of other sizes than the usual ones have computed faces
(:class:`~dicecli.notation.dice.NumberedFaces`): a ``d743`` must read, roll, take
``--given`` faces and have odds exactly as the same die with its faces built one by
one, and what is kept of such dice between lines stays bounded whatever their sizes.

Each comparison here is against a die built face by face in the test (the faces 1..N
written out), not against the code under test.
"""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli.frozen import field_names, replace
from dicecli.notation import dice as dice_module
from dicecli.notation.dice import (
    MAX_DICE_SHARING_ROLLS,
    MAX_OTHER_SIDES,
    MAX_SHARED_ROLLS,
    Die,
    Face,
    NumberedFaces,
    die_for_sides,
)
from dicecli.render.text import result_line
from dicecli.results import (
    DROPPED,
    DiceShown,
    DieRoll,
    NumberedDice,
    NumberedResult,
    RollResult,
)
from dicecli.rolling import dice_steps, evaluate
from dicecli.rolling.sources import RandomSource, Roller

USUAL = {2, 4, 6, 8, 10, 12, 20, 100}
other_sides = st.integers(1, 10_000).filter(lambda sides: sides not in USUAL and sides != 3)
"""Sides of a die with computed faces: ``d3`` is the D3 of rule N4 (a d6 halved)."""


def built(sides: int) -> Die:
    """The ``dN`` with every face built, as a tuple."""
    return Die(f"d{sides}", tuple(Face(str(value), value) for value in range(1, sides + 1)))


@settings(max_examples=examples(200))
@given(st.integers(1, 3_000), st.data())
def test_computed_faces_are_the_faces_one_to_n(sides: int, data: st.DataObject) -> None:
    faces = NumberedFaces(sides)
    written = built(sides).faces
    assert len(faces) == sides
    assert faces == written
    assert written == faces
    assert hash(faces) == hash(written)
    assert tuple(faces) == written
    index = data.draw(st.integers(-sides, sides - 1))
    assert faces[index] == written[index]
    start, stop = data.draw(st.integers(-sides, sides)), data.draw(st.integers(-sides, sides))
    assert faces[start:stop] == written[start:stop]
    assert NumberedFaces(sides) != NumberedFaces(sides + 1)


@pytest.mark.parametrize("index", [7, -8])
def test_a_face_past_the_last_is_an_index_error_as_for_a_tuple(index: int) -> None:
    with pytest.raises(IndexError):
        NumberedFaces(7)[index]


@settings(max_examples=examples(200))
@given(other_sides)
def test_a_die_of_other_sides_computes_what_a_built_one_lists(sides: int) -> None:
    die, written = die_for_sides(sides), built(sides)
    assert isinstance(die.faces, NumberedFaces)
    assert die == written
    assert list(die.values) == list(written.values)
    assert list(die.face_values) == list(written.face_values)
    assert die.face_names() == written.face_names()
    for index in {0, sides // 2, sides - 1}:
        assert die.kept_rolls[index] == written.kept_rolls[index]
        marked = die.roll_of(index, False, (DROPPED,))
        assert marked == written.roll_of(index, False, (DROPPED,))


@settings(max_examples=examples(300))
@given(
    other_sides,
    st.one_of(
        st.integers(-5, 10_005).map(str),
        st.sampled_from(["", "x", "0", "+3", "07", " 5 ", "1_0", "٣", "3.0", "-1", "d6"]),
    ),
)
def test_a_typed_face_is_found_as_on_a_built_die(sides: int, typed: str) -> None:
    assert die_for_sides(sides).face_index(typed) == built(sides).face_index(typed)


@settings(max_examples=examples(200))
@given(other_sides, st.integers(1, 40), st.integers(0, 2**32))
def test_computed_dice_roll_as_built_ones_for_the_same_seed(
    sides: int, count: int, seed: int
) -> None:
    computed = dice_steps._plain_dice_step(die_for_sides(sides), count)
    written = built(sides)
    listed = dice_steps._summed_dice_step(written, count, written.face_values)

    class Rolling:
        def __init__(self) -> None:
            self.roller = Roller(RandomSource(seed))

    assert computed(Rolling()) == listed(Rolling())  # type: ignore[arg-type]


@settings(max_examples=examples(100))
@given(other_sides, st.integers(1, 5), st.data())
def test_given_faces_of_a_big_die_are_the_dice_rolled(
    sides: int, count: int, data: st.DataObject
) -> None:
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    result = dicecli.roll(f"{count}d{sides}", given=",".join(map(str, faces)))
    assert [die.value for die in result.dice] == faces
    assert [die.face for die in result.dice] == [str(face) for face in faces]
    assert result.total == sum(faces)


def test_a_face_a_big_die_lacks_is_refused_with_its_faces_listed() -> None:
    with pytest.raises(dicecli.DiceError, match="1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …, 743"):
        dicecli.roll("1d743", given="744")


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from([3, 5, 7, 9, 11, 13, 17, 37]), st.integers(1, 3))
def test_odds_of_computed_dice_equal_counting_every_roll(sides: int, count: int) -> None:
    ways: dict[int, int] = {}
    for roll in product(range(1, sides + 1), repeat=count):
        ways[sum(roll)] = ways.get(sum(roll), 0) + 1
    every = sides**count
    expected = tuple((total, Fraction(n, every)) for total, n in sorted(ways.items()))
    distribution = dicecli.odds(f"{count}d{sides}").distribution
    assert distribution is not None
    assert distribution.outcomes == expected


def test_dice_of_many_sizes_keep_few_dice_and_no_faces_built() -> None:
    rng = random.Random(5)
    for _ in range(300):
        sides = rng.randint(101, 10_000)
        dicecli.roll(f"{rng.randint(1, 20)}d{sides}kh1 + 1d{sides}!")
    kept = dice_module._OTHER_SIDES
    assert 0 < len(kept) <= MAX_OTHER_SIDES
    sharing = 0
    for die in kept.values():
        assert isinstance(die.faces, NumberedFaces)
        held = vars(die)
        variants, rolls = held.get("_variants"), held.get("kept_rolls")
        sharing += variants is not None or rolls is not None
        assert variants is None or len(variants) <= MAX_SHARED_ROLLS
        assert rolls is None or len(rolls._made) <= MAX_SHARED_ROLLS
    assert 0 < sharing <= MAX_DICE_SHARING_ROLLS
    assert evaluate.prepared._held <= evaluate.PREPARED_FACES


def _made_alike(result: RollResult) -> RollResult:
    """``result`` as it would be with its dice made as they were rolled: a DieRoll per
    die, built here from the numbers its breakdown shows."""
    shown = result.breakdown[0]
    assert isinstance(shown, NumberedDice)
    dice = tuple(
        DieRoll(shown.die, str(value), value, True, (), (), True) for value in shown.numbers
    )
    return RollResult(
        result.input,
        result.expression,
        result.total,
        dice,
        (DiceShown(dice), *result.breakdown[1:]),
        result.outcome,
        result.comment,
        result.reroll,
        result.notes,
    )


@settings(max_examples=examples(200))
@given(other_sides, st.integers(1, 40), st.integers(0, 999), st.integers(0, 2**32))
def test_dice_of_computed_faces_are_made_only_when_read(
    sides: int, count: int, number: int, seed: int
) -> None:
    result = dicecli.roll(f"{count}d{sides}+{number}", seed=seed)
    assert isinstance(result, NumberedResult)
    shown = result.breakdown[0]
    assert isinstance(shown, NumberedDice)
    assert len(shown.numbers) == count
    assert all(1 <= value <= sides for value in shown.numbers)
    assert result.total == sum(shown.numbers) + number
    # written out as a pipe reads it, without a DieRoll made
    made = _made_alike(result)
    assert result_line(result) == result_line(made)
    assert "dice" not in vars(result)
    assert "dice" not in vars(shown)
    # and equal to the result with its dice made, read or not, pickled or not
    unread = pickle.loads(pickle.dumps(result))
    assert unread == made
    assert made == result
    assert hash(result) == hash(made)
    assert result.dice == made.dice
    assert result.as_dict() == made.as_dict()
    assert unread.as_dict() == made.as_dict()
    assert type(replace(result, notes=("a note",))) is RollResult


def test_a_numbered_result_holds_every_field_of_a_roll() -> None:
    result = dicecli.roll("3d743 + 2", seed=1)
    assert isinstance(result, NumberedResult)
    assert set(field_names(RollResult)) - {"dice"} <= set(vars(result))
    assert {name: getattr(result, name) for name in field_names(RollResult)} == {
        name: getattr(_made_alike(result), name) for name in field_names(RollResult)
    }
