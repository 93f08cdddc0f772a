"""The move's rules with given dice: 10+ strong hit, 7-9 weak hit, 6- miss."""

from __future__ import annotations

import pyparsing as pp
import pytest
from dicecli.game import (
    EMPTY_ENVIRONMENT,
    DiceError,
    GivenFacesError,
    RandomSource,
    Roller,
    plain_line,
)
from hypothesis import given
from hypothesis import strategies as st

from helpers import RULES, parse, roll, rolled
from pbta_game import GAME
from pbta_game.system import Move, verdict

HARD = EMPTY_ENVIRONMENT.with_value("Hard", 2).with_value("Cool", -1)


@pytest.mark.parametrize(
    ("line", "faces", "plain"),
    [
        ("pbta +0", "6,4", "10\tpbta +0\t[6, 4] + 0 => strong hit"),  # 10 is a strong hit
        ("pbta +0", "5,4", "9\tpbta +0\t[5, 4] + 0 => weak hit"),  # 9 the top of 7-9
        ("pbta +0", "3,4", "7\tpbta +0\t[3, 4] + 0 => weak hit"),  # 7 the bottom of 7-9
        ("pbta +0", "3,3", "6\tpbta +0\t[3, 3] + 0 => miss"),  # 6- is a miss
        ("pbta +2", "4,4", "10\tpbta +2\t[4, 4] + 2 => strong hit"),
        ("pbta -1", "6,4", "9\tpbta -1\t[6, 4] - 1 => weak hit"),  # a negative stat
        ("pbta -3", "6,6", "9\tpbta -3\t[6, 6] - 3 => weak hit"),
        ("pbta +4", "1,1", "6\tpbta +4\t[1, 1] + 4 => miss"),
        ("pbta", "6,6", "12\tpbta\t[6, 6] => strong hit"),  # no stat: roll+0
        ("pbta+1", "1,5", "7\tpbta+1\t[1, 5] + 1 => weak hit"),
        ("pbta 2 # act under fire", "2,3", "7\tpbta 2 # act under fire\t[2, 3] + 2 => weak hit"),
    ],
)
def test_the_total_is_2d6_plus_the_stat_read_in_three_bands(
    line: str, faces: str, plain: str
) -> None:
    assert rolled(line, faces) == plain


@pytest.mark.parametrize(
    ("line", "faces", "plain"),
    [
        ("pbta roll+Hard", "4,4", "10\tpbta roll+Hard\t[4, 4] + Hard(2) => strong hit"),
        ("pbta +Hard", "4,3", "9\tpbta +Hard\t[4, 3] + Hard(2) => weak hit"),
        ("PBTA ROLL+cool+1", "4,3", "7\tPBTA ROLL+cool+1\t[4, 3] + cool(-1) + 1 => weak hit"),
    ],
)
def test_a_stat_by_name_counts_as_its_value(line: str, faces: str, plain: str) -> None:
    assert rolled(line, faces, HARD) == plain


def test_a_named_stat_shows_its_sign_as_the_core_shows_a_name() -> None:
    # `pbta Cool` with Cool=-1: the core shows a name as `Cool(-1)`; the sign before it
    # is the stat's own sign as typed (+), so the line must read `+ Cool(-1)`.
    assert rolled("pbta Cool", "4,3", HARD) == "6\tpbta Cool\t[4, 3] + Cool(-1) => miss"


def test_an_unset_name_is_an_error_for_the_player() -> None:
    with pytest.raises(DiceError, match="unknown name 'Weird'"):
        roll("pbta +Weird", "3,4")


def test_a_hit_passes_and_a_miss_fails() -> None:
    strong, weak, miss = roll("pbta +0", "6,4"), roll("pbta +0", "3,4"), roll("pbta +0", "3,3")
    assert strong.outcome is not None
    assert weak.outcome is not None
    assert miss.outcome is not None
    assert (strong.outcome.passed, weak.outcome.passed, miss.outcome.passed) == (
        True,
        True,
        False,
    )
    assert dict(weak.outcome.fields) == {"hit": "weak", "modifier": 0}
    assert dict(miss.outcome.fields) == {"hit": "miss", "modifier": 0}


def test_every_die_is_in_the_result_in_roll_order() -> None:
    result = roll("pbta +d4", "6,1,3")  # a stat with a die: 2d6 first, then its dice
    assert [(d.die, d.value) for d in result.dice] == [("d6", 6), ("d6", 1), ("d4", 3)]
    assert result.total == 10


def test_too_many_or_impossible_given_faces_are_refused() -> None:
    with pytest.raises(GivenFacesError):
        roll("pbta +1", "6,4,3")
    with pytest.raises(GivenFacesError):
        roll("pbta +1", "7,4")


@pytest.mark.parametrize(
    "line", ["pbta 2d6+1", "pbta +2d6", "pbta roll+2D6 + Hard", "pbta (2d6)", "pbta 2d6kh1"]
)
def test_typing_the_2d6_is_refused(line: str) -> None:
    with pytest.raises(pp.ParseBaseException, match="rolls the 2d6 itself"):
        parse(line)


@pytest.mark.parametrize("line", ["pbta +", "pbta ++1", "pbta roll+", "pbta -", "pbta 1 2"])
def test_a_sign_without_a_stat_is_refused(line: str) -> None:
    with pytest.raises(pp.ParseBaseException):
        parse(line)


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("pbta +2", "pbta +2"),
        ("pbta 2", "pbta +2"),
        ("pbta roll+2", "pbta +2"),
        ("pbta roll 2", "pbta +2"),
        ("pbta -1", "pbta -1"),
        ("pbta roll-1", "pbta -1"),
        ("pbta Hard+1", "pbta +Hard + 1"),
        ("pbta", "pbta"),
        ("pbta roll", "pbta"),
        ("pbta roll roll", "pbta +roll"),  # a stat called roll
        ("pbta 1d6+1", "pbta +d6 + 1"),
        ("Pbta  +0", "pbta +0"),
    ],
)
def test_the_canonical_line_parses_back_to_the_same_move(line: str, canonical: str) -> None:
    move = parse(line)
    assert str(move) == canonical
    assert parse(canonical) == move


@given(
    stat=st.integers(-20, 20),
    spelling=st.sampled_from(["pbta {}", "pbta +{}", "pbta roll+{}", "PBTA Roll {}"]),
    first=st.integers(1, 6),
    second=st.integers(1, 6),
)
def test_any_stat_any_spelling(stat: int, spelling: str, first: int, second: int) -> None:
    text = f"{stat}" if stat < 0 or spelling.endswith("+{}") else f"{stat:+d}"
    line = spelling.format(text)
    move = parse(line)
    assert parse(str(move)) == move
    result = roll(line, f"{first},{second}")
    total = first + second + stat
    assert result.total == total
    assert result.outcome is not None
    assert result.outcome.verdict == verdict(total)
    assert result.outcome.passed is (total >= 7)


def test_a_seed_gives_the_same_roll() -> None:
    move = parse("pbta +1")
    lines = {
        plain_line(RULES.roll(move, Roller(RandomSource(7)), EMPTY_ENVIRONMENT, "pbta +1"))
        for _ in range(5)
    }
    assert len(lines) == 1


def test_the_declaration() -> None:
    assert GAME.api_version == 1
    assert GAME.name == Move.system == "pbta"
    assert GAME.keywords == ("pbta",)
    assert isinstance(GAME.rules(), type(RULES))


def test_every_help_example_rolls() -> None:
    assert GAME.help is not None
    for line, _ in (*GAME.help.examples, (GAME.example, "")):
        move = parse(line)
        RULES.roll(move, Roller(RandomSource(1)), HARD, line)


@given(st.text(alphabet="pbta roll+-0123456789dHhk()*/!# ", max_size=30))
def test_any_line_is_a_move_or_a_user_error(tail: str) -> None:
    line = f"pbta {tail}"
    try:
        move = parse(line)
    except pp.ParseBaseException:
        return  # dicecli shows it as a syntax error with a caret, exit status 2
    assert parse(str(move)) == move
    try:
        RULES.roll(move, Roller(RandomSource(0)), HARD, line)
        RULES.odds(move, HARD, line)
    except DiceError:
        pass
