"""Call of Cthulhu 7e rules C1-C5 with given dice, and exact odds against brute-force
enumeration (Hypothesis over skill, bonus and penalty dice).

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError
from dicecli.game import plain_line
from dicecli.hints import advise
from dicecli.results import JSONValue, RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def verdict(result: RollResult) -> str:
    assert result.outcome is not None
    return result.outcome.verdict


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


# -- rules C1, C2: the levels ---------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "said"),
    [
        ("1", "critical success"),  # rule C2: 01
        ("9", "extreme success"),  # rule C2: 45 // 5 = 9
        ("10", "hard success"),
        ("22", "hard success"),  # rule C2: 45 // 2 = 22
        ("23", "regular success"),
        ("45", "regular success"),  # rule C1: at the skill
        ("46", "failure"),
        ("95", "failure"),
        ("96", "fumble"),  # rule C2: 96-100 under skill 50
        ("100", "fumble"),
    ],
)
def test_the_levels_of_a_skill_of_45(face: str, said: str) -> None:
    result = roll("coc 45", face)
    assert verdict(result) == said
    assert result.total == int(face)
    assert result.outcome is not None
    assert result.outcome.passed is (said not in ("failure", "fumble"))


def test_a_skill_of_50_or_more_fumbles_on_100_only() -> None:
    # rule C2
    assert verdict(roll("coc 50", "96")) == "failure"
    assert verdict(roll("coc 50", "100")) == "fumble"
    assert verdict(roll("coc 97", "97")) == "regular success"
    assert verdict(roll("coc 49", "96")) == "fumble"


def test_01_is_critical_whatever_the_skill() -> None:
    # rule C2 (an assumption for a skill of 0)
    assert verdict(roll("coc 0", "1")) == "critical success"


def test_a_named_skill_and_a_rolled_one() -> None:
    # rule C1: Spot 40 + 10 = 50, a roll of 50 is regular; 40 + d10 (3) = 43, dice first
    assert verdict(roll("coc Spot+10", "50", Spot=40)) == "regular success"
    result = roll("coc 40+d10", "3,43")
    assert verdict(result) == "regular success"
    assert fields(result)["skill"] == 43


# -- rule C3: difficulty --------------------------------------------------------------


def test_a_hard_roll_needs_a_hard_success() -> None:
    # rule C3: 30 is a regular success of 45, which fails a hard roll; 20 passes it
    result = roll("coc 45 hard", "30")
    assert verdict(result) == "regular success: the hard roll fails"
    assert fields(result)["level"] == "regular success"
    assert result.outcome is not None
    assert result.outcome.passed is False
    assert roll("coc 45 hard", "20").outcome.passed is True  # type: ignore[union-attr]
    assert roll("coc 45 extreme", "9").outcome.passed is True  # type: ignore[union-attr]
    assert roll("coc 45 extreme", "1").outcome.passed is True  # type: ignore[union-attr]
    assert roll("coc 45 extreme", "10").outcome.passed is False  # type: ignore[union-attr]


# -- rule C4: bonus and penalty dice --------------------------------------------------


def test_a_bonus_die_keeps_the_lower_result() -> None:
    # rule C4: units 5, tens 40 and 10: 45 or 15, the bonus die keeps 15 (hard)
    result = roll("coc 45 bonus", "5,40,10")
    assert result.total == 15
    assert verdict(result) == "hard success"
    assert [die.kept for die in result.dice] == [True, False, True]


def test_a_penalty_die_keeps_the_higher_result() -> None:
    # rule C4: the same dice with a penalty die: 45 (regular)
    assert roll("coc 45 penalty", "5,40,10").total == 45


def test_00_and_0_make_100_under_a_penalty_die() -> None:
    # rules C1, C4: units 0, tens 00 and 90: 100 or 90; the penalty die keeps 100
    assert verdict(roll("coc 45 penalty", "0,00,90")) == "fumble"
    assert roll("coc 45 bonus", "0,00,90").total == 90


def test_bonus_and_penalty_dice_cancel() -> None:
    # rule C4: one of each is a plain d100
    result = roll("coc 45 bonus penalty", "30")
    assert len(result.dice) == 1
    # two bonus and one penalty: one bonus die left, so two tens dice
    assert len(roll("coc 45 2 bonus penalty", "5,40,10").dice) == 3


@pytest.mark.parametrize(
    ("line", "same_as"),
    [
        ("coc 45 +1 bonus", "coc 45 bonus"),  # as Alkemy's lines write a bonus die
        ("coc 45 + 1 bonus", "coc 45 bonus"),
        ("coc 45+2 penalty dice", "coc 45 2 penalty"),
        ("coc Spot-5 +1 bonus hard", "coc Spot-5 bonus hard"),
        ("coc 45 +1 bonus vs coc 40 +1 penalty", "coc 45 bonus vs coc 40 penalty"),
    ],
)
def test_a_signed_count_is_the_bonus_dice(line: str, same_as: str) -> None:
    # rule C4: +1 bonus is one bonus die, not a skill of 46
    assert dicecli.parse(line).body == dicecli.parse(same_as).body


@pytest.mark.parametrize(("line", "same_as"), [("coc 45+2 hard bonus", "coc 47 hard bonus")])
def test_a_plus_before_the_difficulty_is_the_skills(line: str, same_as: str) -> None:
    # rule C4: the + N goes to the dice only right before them; once 45 and two dice
    assert dicecli.parse(line).body == dicecli.parse(same_as.replace("47", "(45+2)")).body


def test_the_difficulty_may_come_before_the_dice() -> None:
    # rule C4 and C2 in either order: coc 45 hard bonus was refused ("unexpected 'bonus'")
    assert dicecli.parse("coc 45 hard bonus").body == dicecli.parse("coc 45 bonus hard").body
    penalty = dicecli.parse("coc 45 2 penalty hard").body
    assert dicecli.parse("coc 45 hard 2 penalty").body == penalty


def test_a_bonus_die_written_signed_rolls_as_one() -> None:
    # rule C4: units 5, tens 40 and 10 against 45: the bonus die keeps 15 (hard)
    result = roll("coc 45 +1 bonus", "5,40,10")
    assert (result.total, verdict(result)) == (15, "hard success")
    assert plain_line(result).endswith("[5, ~40~, 10] 15 vs 45 => hard success")


@pytest.mark.parametrize("line", ["coc (45+1) penalty", "coc 45 +1 1 penalty"])
def test_a_bracketed_or_counted_plus_stays_in_the_skill(line: str) -> None:
    # rule C4: 46 (units 6, tens 40 and 10, the penalty die keeps 46) passes a skill of
    # 46 only
    assert verdict(roll(line, "6,40,10")) == "regular success"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("coc 45 +11 bonus", r"\(45\+11\) bonus; a roll takes 1 to 10 bonus dice"),
        # rule C4: a skill of Spot+10 and a bonus die, or ten bonus dice? Once read as
        # ten bonus dice without a word
        ("coc Spot+10 bonus", r"\(Spot\+10\) bonus; 10 bonus dice are Spot 10 bonus"),
        ("coc 45 +3 penalty", r"\(45\+3\) penalty; 3 penalty dice are 45 3 penalty"),
        ("coc 45+0 bonus", r"\(45\+0\) bonus; a roll takes 1 to 10 bonus dice"),
    ],
)
def test_a_signed_count_past_two_says_both_readings(line: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError, match=message) as caught:
        dicecli.parse(line)
    assert caught.value.position == line.index("+")


def test_two_penalty_dice_roll_three_tens_dice() -> None:
    # rule C4: 7 with 0, 20, 60: 7, 27, 67: the worst, 67, fails
    result = roll("coc 45 2 penalty dice", "7,0,20,60")
    assert result.total == 67
    assert verdict(result) == "failure"


# -- rule C5: opposed rolls -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "faces", "winner"),
    [
        ("coc 45 vs coc 60", "20,35", 1),  # rule C5: hard beats regular
        ("coc 45 vs coc 60", "40,25", 2),  # regular vs hard
        ("coc 45 vs coc 60", "40,50", 2),  # both regular: the higher skill
        ("coc 60 vs coc 60", "40,50", None),  # level and skill equal: no winner
        ("coc 45 vs coc 60", "80,90", None),  # both fail: no winner
        ("coc 45 vs coc 60", "1,2", 1),  # critical beats extreme
    ],
)
def test_opposed_rolls(line: str, faces: str, winner: int | None) -> None:
    result = roll(line, faces)
    assert fields(result)["winner"] == winner
    assert result.outcome is not None
    assert result.outcome.passed is None


def test_an_opposed_roll_names_no_difficulty() -> None:
    # rule C5
    with pytest.raises(DiceSyntaxError, match="names no difficulty"):
        dicecli.parse("coc 45 hard vs coc 60")


def test_the_plain_line() -> None:
    # rules C1, C4
    result = roll("coc 45 bonus", "5,40,10")
    assert plain_line(result) == "15\tcoc 45 bonus\t[5, ~40~, 10] 15 vs 45 => hard success"


# -- odds against brute force ---------------------------------------------------------


def by_count(skill: int, bonus: int, penalty: int) -> dict[str, Fraction]:
    """Every units die with every tens dice, counted (rules C1, C2, C4)."""
    net = bonus - penalty
    if net == 0:
        rolls = list(range(1, 101))
    else:
        rolls = []
        for units in range(10):
            for tens in itertools.product(range(0, 100, 10), repeat=abs(net) + 1):
                results = [(t + units) or 100 for t in tens]
                rolls.append(min(results) if net > 0 else max(results))
    count: Counter[str] = Counter()
    for r in rolls:
        if r == 1:
            count["critical_success"] += 1
        elif r == 100 or (skill < 50 and r >= 96):
            count["fumble"] += 1
        elif r <= skill // 5:
            count["extreme_success"] += 1
        elif r <= skill // 2:
            count["hard_success"] += 1
        elif r <= skill:
            count["regular_success"] += 1
        else:
            count["failure"] += 1
    names = ("critical_success", "extreme_success", "hard_success", "regular_success")
    found = {name: Fraction(count[name], len(rolls)) for name in (*names, "failure", "fumble")}
    return {"success": sum((found[n] for n in names), Fraction(0)), **found}


@settings(max_examples=examples(100))
@given(st.integers(0, 120), st.integers(0, 2), st.integers(0, 2))
def test_skill_odds_equal_the_count(skill: int, bonus: int, penalty: int) -> None:
    # rules C1, C2, C4
    line = f"coc {skill}" + " bonus" * bonus + " penalty" * penalty
    assert dict(dicecli.odds(line).chances) == by_count(skill, bonus, penalty)


@settings(max_examples=examples(50))
@given(st.integers(0, 99), st.sampled_from(["hard", "extreme"]))
def test_a_difficulty_counts_only_the_levels_it_passes(skill: int, difficulty: str) -> None:
    # rule C3
    counted = by_count(skill, 0, 0)
    passing = ["critical_success", "extreme_success"]
    if difficulty == "hard":
        passing.append("hard_success")
    found = dict(dicecli.odds(f"coc {skill} {difficulty}").chances)
    assert found["success"] == sum((counted[n] for n in passing), Fraction(0))


@settings(max_examples=examples(30))
@given(st.integers(1, 99), st.integers(1, 99))
def test_opposed_odds_equal_the_count(first: int, second: int) -> None:
    # rule C5: all 100 x 100 rolls
    order = ["fumble", "failure", "regular", "hard", "extreme", "critical"]

    def rank(r: int, skill: int) -> int:
        if r == 1:
            return 5
        if r == 100 or (skill < 50 and r >= 96):
            return 0
        if r <= skill // 5:
            return 4
        if r <= skill // 2:
            return 3
        return 2 if r <= skill else 1

    wins = Counter[int]()
    for a in range(1, 101):
        for b in range(1, 101):
            ra, rb = rank(a, first), rank(b, second)
            if max(ra, rb) < order.index("regular"):
                continue
            if ra != rb:
                wins[1 if ra > rb else 2] += 1
            elif first != second:
                wins[1 if first > second else 2] += 1
    odds = dicecli.odds(f"coc {first} vs coc {second}")
    assert dict(odds.wins) == {"#1": Fraction(wins[1], 10000), "#2": Fraction(wins[2], 10000)}


# -- lines ----------------------------------------------------------------------------


@settings(max_examples=examples(100))
@given(
    st.integers(0, 99),
    st.integers(0, 3),
    st.integers(0, 3),
    st.sampled_from(["", "regular", "hard", "extreme"]),
)
def test_a_line_parses_back(skill: int, bonus: int, penalty: int, difficulty: str) -> None:
    words = [f"coc {skill}"]
    if bonus:
        words.append(f"{bonus} bonus dice")
    if penalty:
        words.append(f"{penalty} penalty")
    line = " ".join([*words, difficulty])
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [
        ("coc d100 45", "coc 45"),
        ("coc 45 vs 60", "coc 45 vs coc 60"),
        ("coc 45 +1b", "coc 45 1 bonus"),
        ("coc 45 -2p", "coc 45 2 penalty"),
    ],
)
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint


def test_too_many_bonus_dice_are_refused() -> None:
    with pytest.raises(DiceSyntaxError, match="1 to 10 bonus or penalty dice"):
        dicecli.parse("coc 45 11 bonus")
