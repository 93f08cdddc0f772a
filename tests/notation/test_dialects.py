"""Dialects (issue 26): each roller's reading, checked with given dice or with exact
odds against brute force over every face, and the ways to ask for one.

The readings and their sources are tabled in docs/grammar.md, "Dialects".
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from dialect_helpers import env_of
from processes import run_in_process

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.dialects import DIALECTS, DialectError, dialect_named
from dicecli.notation.reader import with_repeats
from dicecli.notation.translations import translated
from dicecli.render.text import result_line
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Message, Problem, ReplState, Rolled, start_state
from dicecli.rolling.sources import GivenSource, Roller


def chances(text: str, dialect: str) -> dict[int, Fraction]:
    """The exact distribution of ``text`` read in ``dialect``."""
    found = dicecli.odds(text, environment=env_of(dialect)).distribution
    assert found is not None
    return dict(found.outcomes)


def brute(sides: int, count: int, value: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """The distribution of ``value`` over every way ``count`` dice of ``sides`` fall."""
    tally: Counter[int] = Counter(
        value(faces) for faces in itertools.product(range(1, sides + 1), repeat=count)
    )
    ways = sides**count
    return {total: Fraction(n, ways) for total, n in sorted(tally.items())}


def weighted(pairs: Iterable[tuple[int, Fraction]]) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for total, chance in pairs:
        found[total] = found.get(total, Fraction(0)) + chance
    return {total: chance for total, chance in sorted(found.items()) if chance}


# --- Roll20 -----------------------------------------------------------------------------


def test_roll20_reads_greater_than_as_at_least() -> None:
    """Roll20, Dice Reference, "Target Number / Successes": 3d6>3 counts the dice of
    3 or more."""
    assert chances("3d6>3", "roll20") == brute(6, 3, lambda f: sum(v >= 3 for v in f))
    assert chances("3d6<3", "roll20") == brute(6, 3, lambda f: sum(v <= 3 for v in f))


def test_roll20_success_and_failure_conditions_are_both_inclusive() -> None:
    """Roll20: 10d10>6f<3 is successes of 6 or more minus failures of 3 or less."""
    assert chances("3d10>6f<3", "roll20") == brute(
        10, 3, lambda f: sum(v >= 6 for v in f) - sum(v <= 3 for v in f)
    )


def test_roll20_reroll_below_is_inclusive_and_repeats() -> None:
    """Roll20: 2d8r<2 re-rolls dice of 2 or less, again and again: each die 3 to 8."""
    expected = weighted((a + b, Fraction(1, 36)) for a in range(3, 9) for b in range(3, 9))
    assert chances("2d8r<2", "roll20") == expected


def test_roll20_explodes_on_at_least() -> None:
    """Roll20: 3d6!>4 explodes on 4, 5 and 6 (given dice: 4 explodes into 2)."""
    result = dicecli.roll("1d6!>4", given="4,2", environment=env_of("roll20"))
    assert result.total == 6
    assert result.expression == "d6!>=4"


def test_roll20_one_term_group_counts_its_dice() -> None:
    """Roll20's Shadowrun example {5d6!!}>8: compound the 6s, then count the dice of 8
    or more. Given 6+3 (9), 1, 2, 4, 5: one success."""
    result = dicecli.roll("{5d6!!}>8", given="6,3,1,2,4,5", environment=env_of("roll20"))
    assert result.total == 1
    assert result.expression == "5d6!!6>=8"


@pytest.mark.parametrize(
    ("line", "given", "own", "total", "expression"),
    [
        # 6 explodes into 2: of 6, 2, 3, 4, 5 the 2 is dropped
        ("{4d6!}dl1", "6,2,3,4,5", 0, 18, "4d6!dl1"),
        # 6 and 2 compound into one die of 8: of 8, 3, 4, 5 the three highest
        ("{4d6!!}kh3", "6,2,3,4,5", 20, 17, "4d6!!kh3"),
        ("{4d6min2}dl1", "1,6,3,4", 0, 13, "4d6min2dl1"),  # 1 counts 2: 2 dropped
    ],
)
def test_roll20_one_term_group_keeps_among_its_dice(
    line: str, given: str, own: int, total: int, expression: str
) -> None:
    """Roll20's "Grouped Rolls": a group of one roll keeps or drops among its dice, the
    exploded ones too; dicecli's own reading keeps or drops such a term's sum, one
    value (``own``), and notes Roll20's."""
    assert dicecli.roll(line, given=given).total == own
    result = dicecli.roll(line, given=given, environment=env_of("roll20"))
    assert result.total == total
    assert result.expression == expression
    assert result.notes == (f"read as Roll20 reads it: {expression}",)


def test_roll20_one_term_group_that_keeps_itself_is_left() -> None:
    """A term that keeps or counts on its own is one value in Roll20's group too."""
    for line in ("{4d6kh3}dl1", "{4d6}dl1", "{4d6sd}kh2", "{4d6>5}dl1"):
        assert translated(line, "roll20") == line.replace(">5", ">=5")


def test_roll20_group_of_a_sum_counts_the_sum() -> None:
    """Roll20: {3d20+5}>21 is 1 success if the sum makes 21 or more."""
    result = dicecli.roll("{3d20+5}>21", given="5,5,6", environment=env_of("roll20"))
    assert result.total == 1  # 5+5+6+5 = 21: at least 21
    assert translated("{3d20+5}>21", "roll20") == "{3d20+5}>=21"


def test_roll20_checks_with_spaces_are_left_alone() -> None:
    assert translated("d20 + 5 > 15", "roll20") == "d20 + 5 > 15"


# --- Foundry VTT --------------------------------------------------------------------------


def test_foundry_cs_counts_successes() -> None:
    """Foundry, Dice Modifiers, "Count Successes": 10d20cs>10 counts the dice over 10."""
    assert chances("3d6cs>4", "foundry") == brute(6, 3, lambda f: sum(v > 4 for v in f))
    assert chances("3d6cs=6", "foundry") == brute(6, 3, lambda f: sum(v == 6 for v in f))


def test_foundry_df_deducts_failures() -> None:
    """Foundry, "Deduct Failures": 10d6cs>4df<2, one less for each die under 2."""
    assert chances("3d6cs>4df<2", "foundry") == brute(
        6, 3, lambda f: sum(v > 4 for v in f) - sum(v < 2 for v in f)
    )


def test_foundry_r_rerolls_once_and_rr_again_and_again() -> None:
    """Foundry, "Reroll": r re-rolls once, rr recursively."""
    once = weighted(
        [(v, Fraction(1, 20)) for v in range(10, 21)]
        + [(v, Fraction(9, 20) * Fraction(1, 20)) for v in range(1, 21)]
    )
    assert chances("1d20r<10", "foundry") == once
    assert chances("1d20rr<3", "foundry") == {v: Fraction(1, 18) for v in range(3, 21)}


def test_foundry_x_explodes() -> None:
    """Foundry, "Explode": 5d10x10 rolls another die for each 10. Given 10 then 4."""
    result = dicecli.roll("1d10x10", given="10,4", environment=env_of("foundry"))
    assert result.total == 14
    assert dicecli.roll("2d6x", given="6,1,2", environment=env_of("foundry")).total == 9


def test_foundry_xo_explodes_once() -> None:
    """Foundry, "Explode Once": 5d10xo10 adds one die for each 10, which does not
    explode in turn. Given 10, then 10 (added, no more), then 3."""
    foundry = env_of("foundry")
    assert dicecli.roll("1d10xo10", given="10,10", environment=foundry).total == 20
    assert dicecli.roll("2d6xo", given="6,6,3", environment=foundry).total == 15
    assert str(dicecli.parse("5d10xo10")) == "5d10!o10"  # the same without the dialect


def test_d20_reads_no_dice_as_zero() -> None:
    """d20 (Avrae), tests/test_dice.py: 0d6 rolls nothing and is worth 0."""
    d20 = env_of("d20")
    assert dicecli.roll("0d6", environment=d20).total == 0
    assert dicecli.roll("0d6kh1 + 3", environment=d20).total == 3
    assert dicecli.roll("0d6 + 1d4", given="3", environment=d20).total == 3
    assert dicecli.roll("10d6", given=",".join(["2"] * 10), environment=d20).total == 20
    with pytest.raises(DiceError, match="roll at least one die"):
        dicecli.roll("0d6")  # dicecli's own reading, as RPG Dice Roller and Dice Maiden


# --- Dice Maiden --------------------------------------------------------------------------


def test_dicemaiden_r_rerolls_at_most_once() -> None:
    """Dice Maiden, roll_syntax.md: r2 re-rolls dice of 2 or less, once."""
    die = weighted(
        [(v, Fraction(1, 6)) for v in range(3, 7)]
        + [(v, Fraction(2, 6) * Fraction(1, 6)) for v in range(1, 7)]
    )
    two = weighted(
        (a + b, pa * pb) for (a, pa), (b, pb) in itertools.product(die.items(), repeat=2)
    )
    assert chances("2d6 r2", "dicemaiden") == two


def test_dicemaiden_ir_rerolls_indefinitely() -> None:
    assert chances("1d6 ir2", "dicemaiden") == {v: Fraction(1, 4) for v in range(3, 7)}


def test_dicemaiden_bang_after_a_space_starts_a_comment() -> None:
    result = dicecli.roll("1d6 ! sneak attack", given="6", environment=env_of("dicemaiden"))
    assert result.total == 6  # no explosion: the 6 adds no die
    assert result.comment == "sneak attack"


# --- rolldice, d20, RPG Dice Roller -------------------------------------------------------


def test_rolldice_multiplier_applies_to_the_dice_first() -> None:
    """rolldice README: XdY*Z+A multiplies the dice, then adds, whatever the order."""
    assert chances("2d6-1*10", "rolldice") == brute(6, 2, lambda f: sum(f) * 10 - 1)


def test_rolldice_s_drops_the_lowest() -> None:
    assert chances("3d6s1", "rolldice") == brute(6, 3, lambda f: sum(f) - min(f))


def test_rolldice_repeats_are_dicecli_repeats() -> None:
    assert with_repeats("6x4d6s1", "rolldice") == "4d6s1 -n 6"
    assert with_repeats("6x4d6s1 # stats", "rolldice") == "4d6s1 -n 6 # stats"
    assert with_repeats("6x4d6s1", None) == "6x4d6s1"


def test_d20_literal_keep_is_refused_not_read_as_highest() -> None:
    """d20 (Avrae) README, selectors: k3 keeps the dice showing 3."""
    with pytest.raises(DiceError, match=r"k3 keeps the dice showing 3.*kh3"):
        dicecli.roll("4d6k3", environment=env_of("d20"))
    assert dicecli.roll("2d20kh1", given="3,17", environment=env_of("d20")).total == 17


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("4d6k>3", "k>3 keeps the dice over 3, which dicecli cannot roll"),
        ("4d6p<3", "p<3 drops the dice under 3, which dicecli cannot roll"),
        ("4d6 k<2", "k<2 keeps the dice under 2"),
    ],
)
def test_d20_selector_by_comparison_is_refused(line: str, message: str) -> None:
    """d20 (Avrae) README, selectors: ``>X`` "all values greater than X", ``<X`` less;
    dicecli has no keep by value: refused with d20's reading, not rolled as ``kh1>3``."""
    with pytest.raises(DiceError, match=message):
        dicecli.roll(line, environment=env_of("d20"))


@pytest.mark.parametrize(
    ("line", "given", "expression", "passed"),
    [
        ("3d6>3", "1,1,1", "3d6 > 3", False),  # 3 is not over 3: False in d20
        ("3d6>3", "1,1,2", "3d6 > 3", True),
        ("4d6>=15", "3,4,5,6", "4d6 >= 15", True),
        ("4d6kh1<3", "1,2,2,1", "4d6kh1 < 3", True),
        ("1d20 == 10", "10", "d20 = 10", True),
        ("1d20==10", "9", "d20 = 10", False),
    ],
)
def test_d20_comparison_after_dice_compares_the_total(
    line: str, given: str, expression: str, passed: bool
) -> None:
    """d20 (Avrae) README, operators: ``X > Y``, ``X >= Y``, ``X == Y`` compare totals;
    ``>`` right after dice is no selector there (a selector follows k, p, rr ...): a
    check here, not the count of the dice over 3 that dicecli's own reading makes."""
    result = dicecli.roll(line, given=given, environment=env_of("d20"))
    assert result.expression == expression
    assert result.outcome is not None
    assert result.outcome.passed is passed
    assert dicecli.roll("3d6>3", given="1,1,2").total == 0  # dicecli's own: no die over 3
    assert translated("1d20  +  5", "d20") == "1d20  +  5"  # spaces as written, no note


def test_rdr_reads_as_dicecli_does() -> None:
    for line in ("4d6kh3", "3d6>4", "2d8r<2", "{5d6!!}>8", "5d10x10"):
        assert translated(line, "rdr") == line


def test_a_comment_is_never_rewritten() -> None:
    assert translated("3d6>3 # >3 stays", "roll20") == "3d6>=3 # >3 stays"


# --- asking for a dialect -------------------------------------------------------------------


def test_a_bad_name_lists_the_dialects() -> None:
    with pytest.raises(DialectError) as raised:
        dialect_named("roll21")
    assert str(raised.value) == (
        "no dialect 'roll21' (dialects: roll20, foundry, rdr, d20, dicemaiden, rolldice; "
        "off: dicecli's own)"
    )
    assert dialect_named(" Roll20 ") == "roll20"
    assert set(DIALECTS) == {"roll20", "foundry", "rdr", "d20", "dicemaiden", "rolldice"}


@pytest.mark.parametrize(
    "args",
    [
        ("--dialect", "roll20", "3d6>3"),  # the fast path
        ("--dialect", "roll20", "--given", "1,3,6", "3d6>3"),  # the typer app
        ("--setting", "dialect=roll20", "--given", "1,3,6", "3d6>3"),
    ],
)
def test_the_option_and_the_setting(args: tuple[str, ...]) -> None:
    done = run_in_process("--plain", *args)
    assert done.returncode == 0, done.stderr
    fields = done.stdout.rstrip("\n").split("\t")
    assert fields[1] == "3d6>3"
    assert fields[2].endswith("(read as Roll20 reads it: 3d6>=3)")
    if "--given" in args:
        assert fields[0] == "2"


@pytest.mark.parametrize(
    "args",
    [
        ("--dialect", "nope", "2d6"),
        ("--dialect", "nope", "--seed", "1", "2d6"),
        ("--setting", "dialect=nope", "2d6"),
        ("odds", "--dialect", "nope", "2d6"),
    ],
)
def test_a_bad_dialect_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    done = run_in_process(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: no dialect 'nope' (dialects: roll20, foundry, rdr, d20, dicemaiden, rolldice; "
        "off: dicecli's own)"
    ]


def test_piped_lines_and_json() -> None:
    done = run_in_process("--json", "--dialect", "foundry", stdin="10d6cs>4\n2d6x6\n")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["input"] == "10d6cs>4"
    assert first["expression"] == "10d6>4"
    assert first["notes"] == ["read as Foundry VTT reads it: 10d6>4"]
    assert second["expression"] == "2d6!6"


def test_rolldice_repeats_on_the_command_line() -> None:
    done = run_in_process("--plain", "--dialect", "rolldice", "6x4d6s1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6
    assert all(line.split("\t")[1] == "4d6s1" for line in lines)


def test_odds_in_a_dialect() -> None:
    done = run_in_process("odds", "--plain", "--dialect", "roll20", "1d6>3")
    assert done.returncode == 0, done.stderr
    # >3 read as >=3: 3, 4, 5 and 6 count, so 1 success comes 2 times in 3
    assert "1\t2/3\t66.67%\t66.67%" in done.stdout.splitlines()


def test_character_file_key(tmp_path: Path) -> None:
    sheet = tmp_path / "hero.toml"
    sheet.write_text('dialect = "foundry"\n[rolls]\nblast = "1d10x10"\n', encoding="utf-8")
    done = run_in_process("--plain", "--character", str(sheet), "--given", "10,4", "blast")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\t")[0] == "14"
    wins = run_in_process(
        "--plain", "--character", str(sheet), "--dialect", "roll20", "--given", "3", "1d6>3"
    )
    assert wins.stdout.split("\t")[0] == "1"  # --dialect roll20 wins: 3 counts
    sheet.write_text('dialect = "roll21"\n', encoding="utf-8")
    bad = run_in_process("--character", str(sheet), "2d6")
    assert bad.returncode == 2
    assert "no dialect 'roll21'" in bad.stderr
    assert len(bad.stderr.splitlines()) == 1


def repl(faces: str) -> ReplState:
    return start_state(Roller(GivenSource.from_text(faces)), Environment(), 1)


def test_repl_command() -> None:
    state = repl("3,1")
    state, output = handle_line(state, "dialect")
    assert isinstance(output[0], Message)
    assert output[0].text.startswith("dialect: dicecli's own (dialects: roll20,")
    state, output = handle_line(state, "dialect roll20")
    assert [item.text for item in output if isinstance(item, Message)] == ["dialect: Roll20"]
    state, output = handle_line(state, "1d6>3")
    assert isinstance(output[0], Rolled)
    assert output[0].result.total == 1
    state, output = handle_line(state, "dialect off")
    state, output = handle_line(state, "1d6>3")
    assert isinstance(output[0], Rolled)
    assert output[0].result.total == 0  # 1 is not over 3
    state, output = handle_line(state, "dialect roll21")
    assert isinstance(output[0], Problem)
    assert "dialects: roll20" in output[0].error.message


def test_a_compounded_die_is_one_success_in_the_tally() -> None:
    """5d6!!6>=8 given 6+5 (11), 1, 2, 3, 3: one die of 8 or more, one success, no
    failure (the die compounded into the 6 is part of its score)."""
    result = dicecli.roll("5d6!!6>=8", given="6,5,1,2,3,3")
    assert result.total == 1
    assert result_line(result).split("\t")[2] == "[6!, +5, 1, 2, 3, 3] (1 success)"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--dialect", "rolldice", "1" * 5000 + "x4d6"], ""),
        (["1" * 5000 + " 4d6"], ""),
        (["repeat(4d6, " + "1" * 5000 + ")"], ""),
        (["--dialect", "rolldice", "4d6+1*" + "1" * 5000], ""),
        (["--dialect", "rolldice"], "1" * 5000 + "x4d6\n"),
    ],
)
def test_a_count_of_thousands_of_digits_is_refused_not_an_internal_error(
    args: list[str], stdin: str
) -> None:
    """The fuzz run (issue 24) found repeats and rolldice's counts read with int() past
    Python's 4,300-digit limit: exit 70 instead of the number's own error."""
    done = run_in_process(*args, stdin=stdin)
    assert done.returncode == 2, done.stderr
    assert "number too long" in done.stderr
    assert "internal error" not in done.stderr


@pytest.mark.parametrize(
    ("dialect", "term"),
    [("roll20", "1d6>3+"), ("foundry", "5d10x10+"), ("d20", "4d6e6kh3+"), ("rolldice", "4d6s1+")],
)
def test_an_error_in_a_long_rewritten_line_is_placed_from_its_neighbourhood(
    dialect: str, term: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/limits.md: every input gets an error within bounded time. Matching whole
    # lines of thousands of characters took minutes; past WHOLLY_MATCHED characters
    # rewritten, the caret is placed from MATCHED_AROUND characters each side of it
    import difflib

    from dicecli.notation import translations
    from dicecli.notation.reader import parse_as

    compared: list[tuple[int, int]] = []
    matcher = difflib.SequenceMatcher

    def measured(junk: None, one: str, other: str, autojunk: bool) -> difflib.SequenceMatcher[str]:
        compared.append((len(one), len(other)))
        return matcher(junk, one, other, autojunk=autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", measured)
    line = term * 200 + ")" + term * 200 + "1"  # the ) in the middle, rewritten both sides
    with pytest.raises(DiceError) as caught:
        parse_as(line, dialect)
    assert caught.value.text == line
    assert caught.value.position == line.index(")")
    around = 2 * translations.MATCHED_AROUND
    assert compared
    assert all(one <= around and other <= around for one, other in compared)
