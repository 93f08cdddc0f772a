"""A check on any expression (``d20 + 5 >= 15``): grammar, roll, outcome, exit status.

Success counting on dice (``10d10>=7``, a modifier written against the dice) is a
different form; the tests here pin which one a line is (``docs/grammar.md``, "Checks").
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from processes import run_in_process

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import (
    BinaryOp,
    CheckOp,
    Comparison,
    Condition,
    Dice,
    Explode,
    Group,
    Modifiers,
    Name,
    Number,
)

D20_PLUS_5 = BinaryOp("+", Dice(1, 20), Number(5))


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("1d20+5 >= 15", Comparison(D20_PLUS_5, ">=", Number(15))),
        ("1d20+5>=15", Comparison(D20_PLUS_5, ">=", Number(15))),  # after a number
        ("1d20+5 vs 15", Comparison(D20_PLUS_5, ">=", Number(15))),  # meets or beats
        ("1d20+5 VS 15", Comparison(D20_PLUS_5, ">=", Number(15))),
        ("3d6 <= 11", Comparison(Dice(3, 6), "<=", Number(11))),
        ("d20 > 10", Comparison(Dice(1, 20), ">", Number(10))),
        ("d20 < 10", Comparison(Dice(1, 20), "<", Number(10))),
        ("2d6 = 7", Comparison(Dice(2, 6), "=", Number(7))),
        ("2d6 != 7", Comparison(Dice(2, 6), "!=", Number(7))),
        ("2d6 \N{NOT EQUAL TO} 7", Comparison(Dice(2, 6), "!=", Number(7))),
        ("d20 \N{GREATER-THAN OR EQUAL TO} 10", Comparison(Dice(1, 20), ">=", Number(10))),
        ("d20 vs 10 + STR", Comparison(Dice(1, 20), ">=", BinaryOp("+", Number(10), Name("STR")))),
        ("d20 vs d20", Comparison(Dice(1, 20), ">=", Dice(1, 20))),
        # a comparison against dice with a number right after it counts successes:
        ("10d10>=7", Dice(10, 10, Modifiers(success=Condition(">=", 7)))),
        ("6d6 >4", Dice(6, 6, Modifiers(success=Condition(">", 4)))),
        ("{1d20+5}>=15", Group((D20_PLUS_5,), Modifiers(success=Condition(">=", 15)))),
        # ... and with a space after it, it is a check
        ("{1d20+5} >= 15", Comparison(Group((D20_PLUS_5,)), ">=", Number(15))),
        # "!=" right against dice, a number after it, is still "explode on 6"
        ("d6!=6", Dice(1, 6, Modifiers(explode=Explode("!", Condition("=", 6))))),
    ],
)
def test_which_lines_are_checks(text: str, node: object) -> None:
    assert parse(text).body == node


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1D20+5>=15", "d20 + 5 >= 15"),
        ("d20 vs 15", "d20 >= 15"),
        ("{1d20+5} >= 15", "{d20 + 5} >= 15"),
        ("d6! != 3", "d6! != 3"),
        ("3D6 <=  11 # roll under", "3d6 <= 11 # roll under"),
    ],
)
def test_canonical_check_parses_back(text: str, canonical: str) -> None:
    line = parse(text)
    assert str(line) == canonical
    assert parse(canonical) == line


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("d20 >=", "expected a number, dice such as 2d6, '(' or a name at the end", 6),
        (  # d20 (Avrae) reads (d20 >= 5) >= 6: 1 or 0, never 6 or more
            "d20 >= 5 >= 6",
            "a check is one comparison here; d20 (Avrae) compares d20 >= 5, 1 when true "
            "and 0 when false, with 6, always false: write one comparison",
            9,
        ),
        ("(d20 >= 5)", "expected ')', found '>='", 5),
    ],
)
def test_malformed_checks_are_refused(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


@pytest.mark.parametrize(
    ("text", "given", "total", "passed", "margin", "verdict"),
    [
        ("1d20+5 >= 15", "10", 15, True, 0, "pass (>= 15), margin +0"),
        ("1d20+5 >= 15", "9", 14, False, -1, "fail (>= 15), margin -1"),
        ("1d20+5 vs 15", "19", 24, True, 9, "pass (>= 15), margin +9"),
        ("d20 > 15", "15", 15, False, 0, "fail (> 15), margin +0"),
        ("3d6 <= 11", "1,2,3", 6, True, 5, "pass (<= 11), margin +5"),  # roll-under: target - total
        ("3d6 <= 11", "6,5,1", 12, False, -1, "fail (<= 11), margin -1"),
        ("3d6 < 11", "5,5,1", 11, False, 0, "fail (< 11), margin +0"),
        ("2d6 = 7", "3,4", 7, True, 0, "pass (= 7), margin +0"),
        ("2d6 != 7", "3,4", 7, False, 0, "fail (!= 7), margin +0"),
    ],
)
def test_a_check_says_pass_or_fail_and_the_margin(
    text: str, given: str, total: int, passed: bool, margin: int, verdict: str
) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    assert result.outcome is not None
    assert result.outcome.verdict == verdict
    assert result.outcome.passed is passed
    assert dict(result.outcome.fields)["margin"] == margin
    assert result.failed is not passed


def test_a_target_with_dice_is_rolled_after_the_total_and_shown() -> None:
    result = dicecli.roll("d20 vs d6 + 10", given="14,3")
    assert [die.face for die in result.dice] == ["14", "3"]
    assert result.total == 14
    assert result.outcome is not None
    assert dict(result.outcome.fields)["target"] == 13
    assert result.outcome.passed is True
    assert result.outcome.verdict == "pass (>= 13), margin +1"


def test_a_check_as_json_gives_success_and_margin() -> None:
    data = dicecli.roll("1d20+5 >= 15 # attack", given="12").as_dict()
    assert data["expression"] == "d20 + 5 >= 15"
    assert data["total"] == 17
    assert data["comment"] == "attack"
    assert data["outcome"] == {
        "verdict": "pass (>= 15), margin +2",
        "passed": True,
        "success": True,
        "target": 15,
        "margin": 2,
        "compare": ">=",
    }


def test_success_counting_is_not_a_check() -> None:
    result = dicecli.roll("10d10>=7", given="7,1,9,2,3,4,5,6,10,8")
    assert result.total == 4
    assert result.outcome is None  # a count of dice, never a failed check


_run = run_in_process


def test_a_failed_check_exits_with_status_1_like_a_games_check() -> None:
    failed = _run("1d20+5 >= 15", "--given", "3")
    assert failed.returncode == 1
    assert failed.stdout == "8\t1d20+5 >= 15\t[3] + 5 => fail (>= 15), margin -7\n"
    assert _run("1d20+5 >= 15", "--given", "10").returncode == 0
    piped = _run("--json", stdin="d20 vs 15\n")
    assert json.loads(piped.stdout)["outcome"]["compare"] == ">="
    assert piped.returncode in (0, 1)
    assert _run(stdin="2d6 = 13\n").returncode == 1  # never passes


def test_a_check_is_saved_whole_and_rolled_anew_at_each_use() -> None:
    # a saved check, as a game line is (docs/repl.md): the name alone is the line
    done = _run("--given", "10,9,3", "--set", "attack=d20+5 >= 15", "attack", "-n", "3")
    assert done.returncode == 1  # one of the three failed
    assert done.stdout.splitlines() == [
        "15\tattack\t[10] + 5 => pass (>= 15), margin +0",
        "14\tattack\t[9] + 5 => fail (>= 15), margin -1",
        "8\tattack\t[3] + 5 => fail (>= 15), margin -7",
    ]


@pytest.mark.parametrize(
    ("op", "faces"),
    [(">=", 3), ("<=", 4), (">", 2), ("<", 3), ("=", 1), ("!=", 5)],
)
def test_odds_of_a_check_name_the_chance_of_success(op: CheckOp, faces: int) -> None:
    # faces of a d6 that pass against 4
    found = dicecli.odds(f"d6 {op} 4")
    assert dict(found.chances)["success"] == Fraction(faces, 6)
    assert found.distribution is not None
    assert found.distribution.as_dict() == {face: Fraction(1, 6) for face in range(1, 7)}


@pytest.mark.parametrize(
    ("text", "passing"),
    [
        ("1d20+5 >= 15", (15, None)),
        ("d20 vs 12", (12, None)),
        ("2d6 > 7", (8, None)),
        ("3d6 <= 11", (None, 11)),
        ("3d6 < 11", (None, 10)),
        ("2d6 = 7", (7, 7)),
        ("2d6 != 7", None),
        ("d20 >= d20", None),
    ],
)
def test_odds_of_a_check_say_which_totals_pass(
    text: str, passing: tuple[int | None, int | None] | None
) -> None:
    # the terminal colours these rows (and adds an "at most" column for roll-under)
    found = dicecli.odds(text)
    assert found.passing == passing
    assert found.distribution is not None
    passed = sum(chance for value, chance in found.distribution.outcomes if found.passes(value))
    if passing is not None:
        assert passed == dict(found.chances)["success"]
