"""Exact odds of dice from a dice file (docs/dice.md, docs/odds.md): each symbol's count,
each cancelling pair's net, checked against brute force through the real evaluator
(every combination of faces rolled with --given and its symbols counted)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from processes import run_dicecli
from property_counts import examples

import dicecli
from dicecli import DiceError, Environment
from dicecli.dicefiles.load import parse_book, read_book
from dicecli.dicefiles.model import DiceBook
from dicecli.probability.distribution import Odds

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENESYS = EXAMPLES / "genesys-dice.toml"


def brute_force(
    pool: list[tuple[str, int]], book: DiceBook
) -> tuple[dict[str, Counter[int]], dict[str, Counter[int]], Counter[int | None], int]:
    """Roll every combination of faces through :func:`dicecli.roll` with ``--given``:
    how often each symbol shows each count, each pair's net each value, and the total
    each value (None: no total)."""
    env = Environment(dice=book)
    text = " + ".join(f"{count}d{name}" for name, count in pool)
    dice = []
    for name, count in pool:
        die = book.die(name)
        assert die is not None
        dice += [die] * count
    counts: dict[str, Counter[int]] = {}
    nets: dict[str, Counter[int]] = {}
    totals: Counter[int | None] = Counter()
    combinations = 0
    for faces in itertools.product(*(die.faces for die in dice)):
        combinations += 1
        result = dicecli.roll(text, given=",".join(f.name for f in faces), environment=env)
        totals[result.total] += 1
        assert result.outcome is not None
        shown = dict(result.outcome.fields)["symbols"]
        assert isinstance(shown, dict)
        for symbol in book.symbols:
            counts.setdefault(symbol, Counter())[int(str(shown.get(symbol, 0)))] += 1
        for one, other in book.cancels:
            net = int(str(shown.get(one, 0))) - int(str(shown.get(other, 0)))
            nets.setdefault(f"{one} - {other}", Counter())[net] += 1
    return counts, nets, totals, combinations


def tables(found: Odds) -> dict[str, dict[int, Fraction]]:
    return {name: dict(table.outcomes) for name, table in found.tables}


def assert_odds_match_brute_force(pool: list[tuple[str, int]], book: DiceBook) -> None:
    text = " + ".join(f"{count}d{name}" for name, count in pool)
    found = dicecli.odds(text, environment=Environment(dice=book))
    counts, nets, totals, combinations = brute_force(pool, book)
    exact = tables(found)
    if found.distribution is None:  # dice without a number on any face: no total
        assert set(totals) == {None}
    else:
        expected_totals = {value: Fraction(n, combinations) for value, n in totals.items()}
        assert dict(found.distribution.outcomes) == expected_totals
    shown = {symbol for name, _ in pool for f in book.die(name).faces for symbol in f.symbols}  # type: ignore[union-attr]
    for symbol, table in counts.items():
        if symbol in shown or any(symbol in pair for pair in book.cancels):
            expected = {value: Fraction(n, combinations) for value, n in table.items()}
            assert exact[symbol] == expected, symbol
    for name, table in nets.items():
        one = name.split(" - ")[0]
        if name in exact:
            expected = {value: Fraction(n, combinations) for value, n in table.items()}
            assert exact[name] == expected, name
            at_least_one = sum((p for value, p in expected.items() if value >= 1), Fraction(0))
            key = f"net_{one}"
            assert dict(found.chances)[key] == at_least_one


def test_genesys_pool_odds_equal_brute_force() -> None:
    book = read_book(GENESYS)
    assert_odds_match_brute_force([("Ability", 2), ("Difficulty", 1), ("Boost", 1)], book)


def test_proficiency_and_challenge_odds_equal_brute_force() -> None:
    book = read_book(GENESYS)
    assert_odds_match_brute_force([("Proficiency", 1), ("Challenge", 1), ("Setback", 1)], book)


SYMBOLS = ("a", "b", "c")
faces = st.lists(st.sampled_from(SYMBOLS), max_size=2).map(lambda face: '"' + "+".join(face) + '"')
numbered_faces = st.one_of(faces, st.integers(-2, 3).map(str))  # a number or symbols
die_faces = st.lists(faces, min_size=1, max_size=4) | st.lists(
    numbered_faces, min_size=1, max_size=4
)


@settings(max_examples=examples(30), deadline=None)
@given(
    dice=st.lists(die_faces, min_size=1, max_size=2),
    counts=st.lists(st.integers(1, 2), min_size=2, max_size=2),
    cancel=st.booleans(),
)
def test_odds_of_any_symbol_dice_equal_brute_force(
    dice: list[list[str]], counts: list[int], cancel: bool
) -> None:
    """Faces of symbols, and in some dice numbers too (their total is odds as well)."""
    lines = []
    used = {symbol for die in dice for face in die for symbol in face.strip('"').split("+")}
    if cancel and {"a", "b"} <= used:
        lines.append('cancel = [["a", "b"]]')
    for index, die in enumerate(dice):
        written = ", ".join(die)
        lines.append(f'[D{index}]\nfaces = [{written}, "c"]')  # c: every die has a symbol
    book = parse_book("\n".join(lines) + "\n", "h.toml")
    pool = [(f"D{index}", counts[index]) for index in range(len(dice))]
    assert_odds_match_brute_force(pool, book)


def test_a_numbered_die_with_symbols_has_a_total_and_symbol_tables() -> None:
    book = parse_book(
        '[Axe]\nfaces = [1, {value = 2, symbol = "hit"}, {value = 3, symbol = "hit"}]\n',
        "a.toml",
    )
    found = dicecli.odds("2dAxe", environment=Environment(dice=book))
    assert found.distribution is not None
    assert dict(found.distribution.outcomes)[6] == Fraction(1, 9)
    assert dict(tables(found)["hit"]) == {
        0: Fraction(1, 9),
        1: Fraction(4, 9),
        2: Fraction(4, 9),
    }


def test_a_numbered_die_without_symbols_has_the_usual_odds() -> None:
    book = parse_book("[Average]\nfaces = [2, 3, 3, 4, 4, 5]\n", "a.toml")
    found = dicecli.odds("2dAverage kh1", environment=Environment(dice=book))
    assert found.distribution is not None
    assert found.tables == ()
    brute = Counter(max(a, b) for a in (2, 3, 3, 4, 4, 5) for b in (2, 3, 3, 4, 4, 5))
    assert dict(found.distribution.outcomes) == {v: Fraction(n, 36) for v, n in brute.items()}


def test_odds_of_symbols_need_a_sum_of_dice() -> None:
    env = Environment(dice=read_book(GENESYS))
    with pytest.raises(DiceError) as raised:
        dicecli.odds("2dAbility * 2", environment=env)
    assert raised.value.message == (
        "odds of symbols: write a sum of dice without modifiers, such as 2dAbility + 1dDifficulty"
    )


def test_odds_on_the_command_line_in_json() -> None:
    done = run_dicecli("odds", "--dice-file", str(GENESYS), "--json", "dBoost + dSetback")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["distribution"] is None
    # Boost: 2 of 6 faces show a success; Setback: 2 of 6 a failure
    assert data["tables"]["success"]["1"]["fraction"] == "1/3"
    assert data["tables"]["success - failure"]["-1"]["fraction"] == "2/9"
    assert data["net_success"]["fraction"] == "2/9"


MIXED = parse_book(
    '[Mix]\nfaces = [1, 2, {value = 3, symbol = "star"}, '
    '{value = 4, symbols = ["star", "star"]}]\n',
    "mixed.toml",
)


@pytest.mark.parametrize(
    ("line", "mixed", "others"),
    [("2dMix + 1", 2, []), ("2dMix + d2 - 1", 2, [2]), ("dMix[axe] + dMix - d4", 2, [4])],
)
def test_odds_of_numbered_symbol_dice_with_more_on_the_line_equal_brute_force(
    line: str, mixed: int, others: list[int]
) -> None:
    # Dice with a number and symbols on every face roll with anything else on the line;
    # their odds give the total and each symbol, as rolling every combination of faces.
    env = Environment(dice=MIXED)
    die = MIXED.die("Mix")
    assert die is not None
    found = dicecli.odds(line, environment=env)
    symbols: Counter[int] = Counter()
    totals: Counter[int | None] = Counter()
    combinations = 0
    other_faces = [[str(face) for face in range(1, sides + 1)] for sides in others]
    for faces in itertools.product(die.faces, repeat=mixed):
        for extra in itertools.product(*other_faces):
            given = [face.name for face in faces] + list(extra)
            result = dicecli.roll(line, given=",".join(given), environment=env)
            combinations += 1
            totals[result.total] += 1
            assert result.outcome is not None
            shown = dict(result.outcome.fields)["symbols"]
            assert isinstance(shown, dict)
            symbols[int(str(shown.get("star", 0)))] += 1
    assert found.distribution is not None
    assert dict(found.distribution.outcomes) == {
        value: Fraction(count, combinations) for value, count in totals.items()
    }
    assert tables(found)["star"] == {
        count: Fraction(ways, combinations) for count, ways in symbols.items()
    }


def test_odds_of_numbered_symbol_dice_with_modifiers_give_the_total() -> None:
    env = Environment(dice=MIXED)
    found = dicecli.odds("3dMix kh2", environment=env)
    assert found.distribution == dicecli.odds("3d4kh2").distribution
    assert found.tables == ()
    assert found.notes == (
        "the symbols' odds are worked out for dice with symbols added without modifiers "
        "(2dMix + 1); here, the total's only",
    )


def test_odds_of_symbol_dice_without_numbers_in_more_than_a_sum_are_refused() -> None:
    with pytest.raises(DiceError, match="odds of symbols: write a sum of dice without"):
        dicecli.odds("2dAbility + 1", environment=Environment(dice=read_book(GENESYS)))
