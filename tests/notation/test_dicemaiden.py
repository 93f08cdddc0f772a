"""Dice Maiden's notation (issue 26): its plain forms read by default on a refused line,
and ``--dialect dicemaiden``'s readings and game aliases, each checked with given dice
and with exact odds against brute force: over every face by hand (the meaning Dice
Maiden documents, roll_syntax.md) and by :mod:`brute` (dicecli's evaluator).

The aliases and their meanings are tabled in docs/grammar.md, "Dialects".
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from brute import brute_distribution
from processes import run_in_process

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.dicemaiden import ALIASES, alias_line, plain_forms, with_sets
from dicecli.notation.reader import with_repeats
from dicecli.notation.translations import translated

MAIDEN = Environment(settings={"dialect": "dicemaiden"})


def by_hand(
    dice: Sequence[Sequence[int]], value: Callable[[tuple[int, ...]], int]
) -> dict[int, Fraction]:
    """The distribution of ``value`` over every way dice with these faces fall."""
    tally: Counter[int] = Counter(value(faces) for faces in itertools.product(*dice))
    ways = sum(tally.values())
    return {total: Fraction(n, ways) for total, n in sorted(tally.items())}


def d(sides: int) -> range:
    return range(1, sides + 1)


def odds_of(line: str, environment: Environment | None = None) -> dict[int, Fraction]:
    found = dicecli.odds(line, environment=environment).distribution
    assert found is not None
    return dict(found.outcomes)


def maiden_odds(line: str) -> dict[int, Fraction]:
    """The odds of ``line`` in the dialect, checked against :mod:`brute` as well."""
    found = odds_of(line, MAIDEN)
    assert found == brute_distribution(translated(line, "dicemaiden"))
    return found


# --- plain forms: by default, on a line the grammar refuses -----------------------------


@pytest.mark.parametrize(
    ("line", "given", "total"),
    [
        ("p s 2d6", "3,4", 7),  # display flags: private, simple
        ("nr ul 2d6 + 1", "3,4", 8),
        ("(Attack) p 1d20 + 5", "12", 17),  # flags after a label
        ("1d6++5", "2", 7),
        ("(Math) 2d6 + + 5", "1,1", 7),
        ("6d10 tl7", "1,7,8,10,3,2", 4),  # count the dice of 7 or less
        ("4d6 t6ds", "6,6,1,5", 4),  # ds beside t doubles on the target
        ("4d6 tl2ds", "1,2,3,6", 4),
        ("1d10 t8 c", "9", 1),  # c cancels failures: without f it does nothing
        ("6d10c", "1,2,3,4,5,6", 21),
    ],
)
def test_plain_forms_read_by_default(line: str, given: str, total: int) -> None:
    assert dicecli.roll(line, given=given).total == total


def test_plain_forms_leave_other_lines_alone() -> None:
    for line in ("2d6", "4d6kh3 + 2", "d20 c", "sr 6", "ps 2d6"):
        assert plain_forms(line) == (line if line != "d20 c" else "d20")


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("3d6 tl3", lambda f: sum(x <= 3 for x in f)),
        ("3d6 t5ds", lambda f: sum(2 if x >= 5 else 0 for x in f)),
        ("2d6 ++ 3", lambda f: sum(f) + 3),
    ],
)
def test_plain_forms_odds_are_exact(line: str, value: Callable[[tuple[int, ...]], int]) -> None:
    count = int(line[0])
    found = odds_of(line)
    assert found == by_hand([d(6)] * count, value)
    assert found == brute_distribution(plain_forms(line))


def test_roll_sets_after_flags_repeat_by_default() -> None:
    done = run_in_process("--given", "1,2,3,4,5,6", "--plain", "p s 3 2d6")
    assert done.returncode == 0
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == ["3", "7", "11"]


# --- the dialect: readings that collide ---------------------------------------------------


def test_minus_d20_is_disadvantage_in_the_dialect_and_noted_by_default() -> None:
    """roll_syntax.md, D&D/Pathfinder: ``-d20`` is 2d20 kl1, ``+d20`` 2d20 k1."""
    assert maiden_odds("-d20 - 2") == by_hand([d(20), d(20)], lambda f: min(f) - 2)
    assert maiden_odds("+d20 + 5") == by_hand([d(20), d(20)], lambda f: max(f) + 5)
    assert dicecli.roll("-d20", given="3,17", environment=MAIDEN).total == 3
    plain = dicecli.roll("-d20", given="3")
    assert plain.total == -3
    assert any("Dice Maiden" in note and "2d20kl1" in note for note in plain.notes)
    assert dicecli.roll("1 - d20", given="3").notes == ()


def test_percentile_advantage_keeps_the_better_tens_die() -> None:
    """roll_syntax.md: ``+d%`` is 2d10 kl1 * 10 + 1d10 - 10, ``-d%`` keeps the higher."""
    better = by_hand([d(10), d(10), d(10)], lambda f: min(f[:2]) * 10 + f[2] - 10)
    worse = by_hand([d(10), d(10), d(10)], lambda f: max(f[:2]) * 10 + f[2] - 10)
    assert maiden_odds("+d%") == better
    assert maiden_odds("-d%") == worse
    assert (min(better), max(better)) == (1, 100)
    doubled = dicecli.roll("+d% * 2", given="3,7,5", environment=MAIDEN)
    assert doubled.total == (3 * 10 + 5 - 10) * 2  # the whole roll doubled


def test_numbers_beside_a_target_are_comparisons() -> None:
    """``t6ds10``: 10s count double; ``f2``: dice of 2 or less cost a success."""
    assert maiden_odds("2d10 t6ds10") == by_hand(
        [d(10)] * 2, lambda f: sum(2 if x >= 10 else 1 if x >= 6 else 0 for x in f)
    )
    assert maiden_odds("3d6 t5f2") == by_hand(
        [d(6)] * 3, lambda f: sum(1 if x >= 5 else -1 if x <= 2 else 0 for x in f)
    )


def test_zero_dice_are_refused_as_dice_maiden_refuses_them() -> None:
    """roller.rs, roll_dice: "Cannot roll 0 dice"; unit_tests.rs lists 0d6 as invalid."""
    with pytest.raises(DiceError, match="roll at least one die"):
        dicecli.roll("0d6 + 3", environment=MAIDEN)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("sil5", "Dice Maiden's sil5 has rules"),
        ("vtm7h2", "Dice Maiden's vtm7h2 has rules"),
        ("ol5a1", "Dice Maiden's ol5a1 has rules"),
        ("0d6l", "D6 Legends rolls at least the wild die"),
        ("ess1d7", "Essence20 has no skill die 1d7"),
    ],
)
def test_forms_dicecli_cannot_roll_are_refused_by_name(line: str, named: str) -> None:
    with pytest.raises(DiceError, match=named):
        dicecli.roll(line, environment=MAIDEN)


def test_explode_once_adds_one_die_for_each_die_at_or_over_the_number() -> None:
    """roll_syntax.md: ``e6`` rolls one more die for each die of 6 or more, and the dice
    it adds do not explode again (``ie`` does); a bare ``e`` explodes on the highest
    face. Given dice, then exact odds over every face by hand."""
    result = dicecli.roll("2d6 e5", given="5,6,2", environment=MAIDEN)  # 5 adds the 6
    assert [die.value for die in result.dice] == [5, 6, 2]
    assert result.total == 13
    assert result.notes == ("read as Dice Maiden reads it: 2d6 !o>=5",)
    assert dicecli.roll("1d4e", given="4,4", environment=MAIDEN).total == 8

    def once(faces: tuple[int, ...]) -> int:
        first, added = faces
        return first + (added if first >= 3 else 0)

    assert maiden_odds("1d4 e3") == by_hand([d(4), d(4)], once)


def test_explode_indefinitely_and_rerolls_are_not_refused() -> None:
    for line in ("4d6 ie6", "4d6 ir1", "4d6 irg5", "4d6 ie", "5d6 rg6"):
        dicecli.roll(line, seed=1, environment=MAIDEN)


def test_botches_are_marked_and_leave_the_total() -> None:
    """roll_syntax.md: ``b1`` counts botches (dice of 1 or less), told apart."""
    result = dicecli.roll("3d10 t7 b1", given="1,7,10", environment=MAIDEN)
    assert result.total == 2
    assert ["critical-failure" in die.marks for die in result.dice] == [True, False, False]
    chance = dict(dicecli.odds("2d10 t7 b", environment=MAIDEN).chances)["critical_failure"]
    assert chance == 1 - Fraction(9, 10) ** 2


def test_a_bang_at_the_end_is_an_empty_comment() -> None:
    result = dicecli.roll("2d6 !", given="6,6", environment=MAIDEN)
    assert (result.total, result.comment) == (12, None)


def test_the_dialect_notes_what_it_rolled() -> None:
    result = dicecli.roll("sw8", given="3,4", environment=MAIDEN)
    assert result.notes == ("read as Dice Maiden reads it: (1d8!, 1d6!)kh1",)


# --- the dialect: roll sets ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "spelt"),
    [
        ("6 4d6 k3", "4d6 k3 -n 6"),
        ("p s 5 4d6 k3 ! Character stats", "4d6 k3 ! Character stats -n 5"),
        ("3 alien4s2", "alien4s2 -n 3"),
        ("dndstats", "4d6 k3 -n 6"),
        ("p 2d6", "2d6"),
        ("3 +d20", "3 +d20"),  # a sum, not a set
        ("2d6 # 3 4d6", "2d6 # 3 4d6"),
    ],
)
def test_roll_sets_are_dicecli_repeats(line: str, spelt: str) -> None:
    assert with_repeats(line, "dicemaiden") == spelt
    assert with_sets(line) == spelt


def test_roll_sets_roll_each_set_in_the_command_line() -> None:
    done = run_in_process(
        "--dialect", "dicemaiden", "--given", "1,2,3,4,5,6", "--plain", "3 2d6 ! Damage"
    )
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == ["3", "7", "11"]


# --- the dialect: game aliases -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "dice", "value"),
    [
        # Level Up A5E: ex1 d4, ex2 d6, ex3 d8 expertise dice
        ("a5e +3 ex2", [d(20), d(6)], lambda f: f[0] + 3 + f[1]),
        ("+a5e +5 ex1", [d(20), d(20), d(4)], lambda f: max(f[:2]) + 5 + f[2]),
        ("-a5e ex3", [d(20), d(20), d(8)], lambda f: min(f[:2]) + f[2]),
        # Essence20: the d20 and the skill die; s adds every die below it, the highest counts
        ("ess1d8 + 3", [d(20), d(8)], lambda f: f[0] + f[1] + 3),
        ("ess1d6s", [d(20), d(6), d(4), d(2)], lambda f: f[0] + max(f[1:])),
        ("-ess1d4", [d(20), d(20), d(4)], lambda f: min(f[:2]) + f[2]),
        # World of Darkness: successes at the difficulty, 1s cancel one each
        ("3wod8", [d(10)] * 3, lambda f: sum(1 if x >= 8 else -1 if x == 1 else 0 for x in f)),
        ("3wh4+", [d(6)] * 3, lambda f: sum(x >= 4 for x in f)),
        ("cpd3 + 2", [d(6)] * 3, lambda f: sum(f) + 2),
        ("dd34", [d(3), d(4)], lambda f: f[0] * 10 + f[1]),
        ("2hsn", [d(6)] * 2, sum),
        ("ex2t8", [d(10)] * 2, lambda f: sum(2 if x == 10 else x >= 8 for x in f)),
        ("tdh4", [d(6)] * 2, lambda f: sum(f) + 4),
        ("tdh4b", [d(6)] * 3, lambda f: sum(f) - min(f) + 4),
        ("tdh4nc +1", [d(6)] * 4, lambda f: sum(f[:3]) - max(f[:3]) + f[3] + 5),
        ("2lf4", [d(6)] * 2, lambda f: sum(x <= 4 for x in f)),
        ("2lf4f", [d(6)] * 2, lambda f: sum(x >= 4 for x in f)),
        ("alien2s1", [d(6)] * 3, lambda f: sum(x == 6 for x in f)),
        ("alien1s1p", [d(6)] * 3, lambda f: sum(x == 6 for x in f)),
        # Conan's combat dice: 1=1, 2=2, 3-4=0, 5-6=1
        ("cd3", [d(6)] * 3, lambda f: sum((0, 1, 2, 0, 0, 1, 1)[x] for x in f)),
        # Godbound's chart: 1-=0, 2-5=1, 6-9=2, 10+=4
        (
            "gb 2d10",
            [d(10)] * 2,
            lambda f: sum(0 if x <= 1 else 1 if x <= 5 else 2 if x <= 9 else 4 for x in f),
        ),
        ("gbs 2d10 +5", [d(10)] * 2, lambda f: sum(f) + 5),
        # Wrath & Glory: 4-5 an icon, 6 two; !soak takes the total
        ("wng w2 3d6", [d(6)] * 3, lambda f: sum(2 if x == 6 else x >= 4 for x in f)),
        ("wng 3d6 !soak", [d(6)] * 3, sum),
        ("attack +5", [d(20)], lambda f: f[0] + 5),
        ("skill -2", [d(20)], lambda f: f[0] - 2),
    ],
)
def test_alias_odds(line: str, dice: list[range], value: Callable[[tuple[int, ...]], int]) -> None:
    assert maiden_odds(line) == by_hand(dice, value)


@pytest.mark.parametrize(
    ("line", "given", "total"),
    [
        ("sw8", "8,3,2", 11),  # the trait die aces: 8 + 3; the wild die 2
        ("sw4", "2,6,1", 7),  # the wild die aces and is kept
        ("sp4", "10,9,1,8,2", 3),  # 4d10 t8 ie10: 10 (and its 9), 8
        ("sp4t6", "6,1,1,1", 1),
        ("snm2", "6,4,3", 2),  # 2d6 ie6 t4
        ("d6s2", "6,6,6,2", 20),  # 2d6 + 1d6 ie: 6 + 6, then the wild 6 and 2
        ("8d6l", "4,4,4,4,1,1,1,1", 3),  # 7d6 t4, then the wild die's 1 costs one
        ("1d6l", "6,6,4", 3),  # the wild die explodes: three successes
        ("ol5", "20,3,6,2,1", 32),  # 1d20 ie20 + 2d6 ie6
        ("ol0", "7", 7),
        ("dh 4d10", "10,1,2,3,4", 20),
        ("wfrp67 + 20", "87", 87),
    ],
)
def test_alias_given_dice(line: str, given: str, total: int) -> None:
    assert dicecli.roll(line, given=given, environment=MAIDEN).total == total


def test_roll_under_aliases_and_difficulties_are_checks() -> None:
    """wfrp67 + 20: the modifier moves the target (87); cs 3: a level 3 task, 9+;
    ms45: 1d100 at most 45; wng dn3: three icons pass."""
    assert dict(dicecli.odds("ms45", environment=MAIDEN).chances)["success"] == Fraction(45, 100)
    assert dicecli.roll("wng dn3 2d6", given="6,4", environment=MAIDEN).failed is False
    assert dicecli.roll("wng dn3 2d6", given="5,4", environment=MAIDEN).failed is True
    assert dicecli.roll("wfrp67 + 20", given="87", environment=MAIDEN).failed is False
    assert dicecli.roll("wfrp67 - 30", given="38", environment=MAIDEN).failed is True
    assert dicecli.roll("cs 3", given="9", environment=MAIDEN).failed is False
    assert dicecli.roll("cs 3", given="8", environment=MAIDEN).failed is True
    chance = dicecli.odds("cs 3", environment=MAIDEN).chances
    assert dict(chance)["success"] == Fraction(12, 20)


def test_games_dicecli_has_read_dice_maidens_spelling_as_their_own_line() -> None:
    """4cod, sr6, 6yz, ex5, fitd2: the games' own lines, in the dialect or not."""
    for line, own in (
        ("4cod", "cod 4"),
        ("sr6", "sr 6"),
        ("6yz", "yz 6"),
        ("ex5", "ex 5"),
        ("fitd2", "blades 2"),
        ("fitd0", "blades 0"),
    ):
        assert alias_line(line) is None
        expected = dicecli.odds(own).chances
        assert dicecli.odds(line).chances == expected
        assert dicecli.odds(line, environment=MAIDEN).chances == expected


def test_every_alias_example_reads() -> None:
    for alias in ALIASES:
        assert alias_line(alias.example) is not None, alias.example
        dicecli.roll(alias.example, seed=1, environment=MAIDEN)


def test_aliases_are_the_dialects_alone() -> None:
    """By default an alias stays what it was: a name with no value."""
    with pytest.raises(DiceError, match="unknown name 'sw8'"):
        dicecli.roll("sw8")


def test_every_alias_is_tabled_in_the_docs() -> None:
    """docs/grammar.md, "Dialects": one row per alias, its example and its reading."""
    docs = (Path(__file__).parents[2] / "docs" / "grammar.md").read_text(encoding="utf-8")
    for alias in ALIASES:
        assert f"| `{alias.example}` | `{alias_line(alias.example)}` |" in docs, alias.example


def test_an_alias_refused_by_default_hints_at_the_dialect() -> None:
    done = run_in_process("sw8")
    assert done.returncode == 2
    assert "Dice Maiden's alias: --dialect dicemaiden reads it as (1d8!, 1d6!)kh1" in done.stderr
    done = run_in_process("swx")
    assert "Dice Maiden" not in done.stderr


@pytest.mark.parametrize(
    "line",
    [
        "2d64keepklkeepartilleryrolloffkhf1>=5!p>=+lost by",  # fuzz seed 10, case 26716
        "4d6 " + "keep" * 18 + "!",
    ],
)
def test_a_long_run_of_letters_after_dice_is_one_word(line: str) -> None:
    """Issue 24: the pattern of Dice Maiden's failures without a target (``4d6 f1``)
    split a run of letters after the dice into words in exponentially many ways before
    failing (over a minute for the first line, the time doubling with each letter
    more). A word now runs to the end of its letters: the line is read at once, left
    as typed, and refused by the grammar at the run."""
    assert translated(line, "dicemaiden") == line.replace(" by", " cf<=1y")  # b: a botch
    with pytest.raises(DiceError, match="unexpected 'keep"):
        dicecli.roll(line, environment=MAIDEN)
