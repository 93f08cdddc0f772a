"""Several keeps and drops on one term, applied in the order written (``4d6dl1kh3``,
``10d6k1k2k3``, Dice Maiden's ``4d20 k2d1``), Dice Maiden's keep-middle ``km``, and
d20's drops ``ph1``/``pl1`` (issue 26; ``docs/grammar.md``, "Several keeps on a term").
Each rolls given dice as documented and has exact odds equal to brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from brute import brute_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import Dice, Keep, Modifiers
from dicecli.notation.semantics import kept_slice
from dicecli.notation.translations import translated
from dicecli.probability.weights import OddsTooBigError
from dicecli.render.text import result_line


def _exact(text: str) -> dict[int, Fraction]:
    found = dicecli.odds(text).distribution
    assert found is not None
    return found.as_dict()


@pytest.mark.parametrize(
    ("text", "keep", "canonical"),
    [
        ("4d6dl1kh3", Keep("dl", 1, Keep("kh", 3)), "4d6dl1kh3"),
        ("4d20 k2d1", Keep("kh", 2, Keep("dl", 1)), "4d20kh2dl1"),  # Dice Maiden
        ("4d20k2d1", Keep("kh", 2, Keep("dl", 1)), "4d20kh2dl1"),
        ("10d6k1k2k3", Keep("kh", 1, Keep("kh", 2, Keep("kh", 3))), "10d6kh1kh2kh3"),
        ("3d6 km1", Keep("km", 1), "3d6km1"),  # Dice Maiden: keep the middle
        ("8d6km3d2", Keep("km", 3, Keep("dl", 2)), "8d6km3dl2"),
        ("10d6ph1", Keep("dh", 1), "10d6dh1"),  # d20 (Avrae): p drops
        ("4d6PL1", Keep("dl", 1), "4d6dl1"),
    ],
)
def test_keeps_are_kept_in_written_order(text: str, keep: Keep, canonical: str) -> None:
    node = parse(text).body
    assert isinstance(node, Dice)
    assert node.modifiers == Modifiers(keep=keep)
    assert str(node) == canonical
    assert parse(canonical).body == node


def test_other_modifiers_keep_their_place_around_a_chain() -> None:
    # a re-roll between two keeps still re-rolls first (docs/grammar.md, "Modifier order")
    assert str(parse("10d8dh2r!=5kl3")) == "10d8r<>5dh2kl3"
    assert str(parse("4d6 km3d1r1")) == "4d6r1km3dl1"
    assert str(parse("4d6kmax3")) == "4d6max3kh1"  # k, then max3: km needs its number


@pytest.mark.parametrize(
    ("text", "given", "total", "shown"),
    [
        # drop the lowest (1), then keep the highest 3 of the rest: 6 + 4 + 3
        ("4d6dl1kh3", "3,1,6,4", 13, "[3, ~1~, 6, 4]"),
        # keep the highest 2 (6, 4), then drop the lower of those: 6
        ("4d20 k2d1", "3,1,6,4", 6, "[~3~, ~1~, 6, ~4~]"),
        # the middle of 6, 2, 4 is 4
        ("3d6km1", "6,2,4", 4, "[~6~, ~2~, 4]"),
        # five dice, keep 2: of the 3 left out, 1 from the bottom and 2 from the top
        ("5d6 km2", "1,2,3,4,5", 5, "[~1~, 2, 3, ~4~, ~5~]"),
        # keep the middle 3 (2, 3, 4), then drop the lowest 2 of them: 4
        ("6d6km3d2", "1,2,3,4,5,6", 4, "[~1~, ~2~, ~3~, 4, ~5~, ~6~]"),
        # kh5 of ten, kl2 of those, kh1 of those: the second-highest of the top five
        ("10d6kh5kl2kh1", "1,2,3,4,5,6,6,5,4,3", 5, None),
        # d20 ph1: drop the highest
        ("3d6ph1", "6,2,4", 6, "[~6~, 2, 4]"),
        # a group's items: the middle of 2, 5, 3 is 3
        ("{2d6, d6, d4}km1", "1,1,5,3", 3, None),
    ],
)
def test_given_dice(text: str, given: str, total: int, shown: str | None) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    if shown is not None:
        assert shown in result_line(result)


@pytest.mark.parametrize(
    "text",
    [
        "4d6dl1kh3",
        "4d20k2d1",
        "3d6km1",
        "4d6km2",
        "5d4km3dl1",
        "6d4km3",
        "6d3km2",
        "4d6kh3kl2",
        "3d6km1>=4",
        "4d4ro1km2",
        "4d4uokm2",
        "3d4uokh1kl1",
        "4d6pl1",
        "{d6, d6, d6}km1",
        "{4d6}km2",
        "{d4, d6, d8}kh2dl1",
        "{2d4+d6}dl1kh1",
        "d6 + 4d4km2",
    ],
)
def test_exact_odds_equal_brute_force(text: str) -> None:
    assert _exact(text) == brute_distribution(text)


@pytest.mark.parametrize(
    ("count", "sides", "keep"), [(3, 4, "km1"), (4, 6, "km2"), (4, 5, "kh3kl1")]
)
def test_unique_dice_keep_a_window_of_every_set_alike(count: int, sides: int, keep: str) -> None:
    # u: every set of distinct faces is equally likely (docs/grammar.md, "Unique dice"),
    # too many re-rolls for brute force; the window is kept of each sorted set
    node = parse(f"{count}d{sides}u{keep}").body
    assert isinstance(node, Dice)
    assert node.modifiers.keep is not None
    window = kept_slice(node.modifiers.keep, count)
    sets = list(itertools.combinations(range(1, sides + 1), count))
    expected: dict[int, Fraction] = {}
    for chosen in sets:
        total = sum(sorted(chosen)[window])
        expected[total] = expected.get(total, Fraction(0)) + Fraction(1, len(sets))
    assert _exact(str(node)) == expected


@pytest.mark.parametrize("text", ["{d4, d6, d8}km1", "4d3!km2", "{3d6+d4}km2"])
def test_a_middle_window_over_different_or_exploding_dice_has_no_odds(text: str) -> None:
    # the middle of different units is not worked out: refused, never another answer
    with pytest.raises(OddsTooBigError, match=r"middle|several keeps"):
        dicecli.odds(text)


_STEPS = st.sampled_from(["kh", "kl", "dh", "dl", "km"])


@settings(max_examples=examples(150), deadline=None)
@given(
    st.integers(2, 4),
    st.sampled_from([2, 4, 5]),
    st.lists(st.tuples(_STEPS, st.integers(0, 4)), min_size=1, max_size=3),
)
def test_any_chain_round_trips_and_matches_brute_force(
    count: int, sides: int, steps: list[tuple[str, int]]
) -> None:
    text = f"{count}d{sides}" + "".join(f"{kind}{amount}" for kind, amount in steps)
    node = parse(text).body
    assert str(node) == text
    assert parse(str(node)).body == node
    assert _exact(text) == brute_distribution(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("((10d6kh5)kl2)kh1", "10d6kh5kl2kh1"),  # d20 (Avrae)'s test suite
        ("(4d6)kh3", "4d6kh3"),
        ("(4d6) dl1", "4d6dl1"),
        ("((4d6)k3)ph1", "4d6kh3dh1"),
        ("(2d6)d1", "(2d6)d1"),  # a d after brackets stays computed dice
        ("(1d20+5)>=15", "d20 + 5 >= 15"),  # a comparison stays a check
    ],
)
def test_keeps_after_brackets_act_on_the_dice_inside(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


def test_keeps_after_brackets_need_one_dice_term() -> None:
    with pytest.raises(DiceSyntaxError, match="a keep after brackets needs one dice term"):
        parse("(1d20+5)kh1")


def test_d20s_nested_keeps_roll_between_1_and_6() -> None:
    # d20's own test: 1 <= ((10d6kh5)kl2)kh1 <= 6
    found = _exact("((10d6kh5)kl2)kh1")
    assert min(found) >= 1
    assert max(found) <= 6
    assert found == _exact("10d6kh5kl2kh1")


RDR_NOTE = (
    "each keep or drop here takes from the dice the one before kept, as in Dice Maiden "
    "and d20 (Avrae); RPG Dice Roller applies each to all the dice, keeps first: "
    "--dialect rdr"
)


@pytest.mark.parametrize(
    ("text", "noted"),
    [
        ("4d6kh2dl1", True),  # here the higher of the top two; RPG Dice Roller: the top two
        ("10d6kh5kl2kh1", True),
        ("4d6dl1kh3", False),  # both read the top three
        ("2d6kh1kh1", False),
        ("4d6kh3", False),
    ],
)
def test_a_chain_read_otherwise_by_rpg_dice_roller_is_noted(text: str, noted: bool) -> None:
    result = dicecli.roll(text, given=",".join(["3"] * int(text.split("d")[0])))
    assert any(RDR_NOTE in note for note in result.notes) is noted


@pytest.mark.parametrize(
    ("text", "read_as"),
    [
        # RPG Dice Roller: kh2 and dl1 over all four dice, a die kept when none drops it
        ("4d6kh2dl1", "4d6dl2"),
        ("10d8dh2r!=5kl3", "10d8dh7r!=5"),  # its own test: the lowest three
        ("10d6kh5kh2", "10d6dl8"),  # a second kh in place of the first
        ("4d6kh3", "4d6kh3"),  # one keep: as written
    ],
)
def test_the_rdr_dialect_applies_each_keep_to_all_the_dice(text: str, read_as: str) -> None:
    assert translated(text, "rdr") == read_as
