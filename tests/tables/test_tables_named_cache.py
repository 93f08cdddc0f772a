"""The values of a table's roll that reads names (``roll = "100d1000+X"``) are worked
out once for the names' values, not on every draw (docs/tables.md): twenty draws took
8 s, each working out the 99,901 values of ``100d1000+X`` again."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicecli.cli import route, typer_app
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.nodes import Check, Comparison
from dicecli.notation.reader import parse_as
from dicecli.probability import engine
from dicecli.probability.distribution import Distribution
from dicecli.tables import load
from dicecli.tables.load import check_named_cover, load_book

FILE = Path(__file__).with_name("named_rolls.toml")


@pytest.fixture
def worked_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rolls whose distribution the engine works out (not those it refuses, as
    loading the file does without the names' values). Each test uses values of its
    own, so that no other test has had their values worked out."""
    calls: list[str] = []
    real: Callable[..., Distribution] = engine.distribution

    def counted(expr: object, env: Environment | None = None) -> Distribution:
        found = real(expr, env)
        calls.append(str(expr))
        return found

    monkeypatch.setattr(engine, "distribution", counted)
    return calls


def _covers(key: str, value: int) -> bool:
    low, high = (int(part) for part in re.fullmatch(r"(\d+)-(\d+)", key).groups())  # type: ignore[union-attr]
    return low <= value <= high


def test_twenty_draws_work_the_values_out_once(worked_out: list[str]) -> None:
    args = ["--set", "X=5", "table", str(FILE), "hoard", "-n", "20", "--seed", "3", "--json"]
    done = CliRunner().invoke(typer_app(), route(args))
    assert done.exit_code == 0, done.output
    draws = [json.loads(line) for line in done.output.splitlines()]
    assert len(draws) == 20
    for found in draws:
        total = found["total"]
        assert total == sum(die["value"] for die in found["dice"]) + 5
        assert _covers(found["outcome"]["key"], total)
    assert worked_out == ["100d1000 + X"]


def test_other_values_are_worked_out_and_checked_again(worked_out: list[str]) -> None:
    book = load_book(FILE)
    table = book.table("small")
    for bonus in (0, 1, 0, 1, 8):
        check_named_cover(book.source, table, Environment(values={"BONUS": bonus}))
    assert len(worked_out) == 3  # 0, 1 and 8, each once
    # BONUS at 990 gives 992-1002: no entry past 1000, though 0 and 1 were fine
    with pytest.raises(DiceError, match="no entry for the values 1001-1002"):
        check_named_cover(book.source, table, Environment(values={"BONUS": 990}))
    with pytest.raises(DiceError, match="unknown name 'BONUS'"):
        check_named_cover(book.source, table, Environment())


def test_names_the_roll_does_not_read_do_not_matter(worked_out: list[str]) -> None:
    book = load_book(FILE)
    table = book.table("small")
    for other in range(5):
        env = Environment(values={"BONUS": 2, "OTHER": other})
        check_named_cover(book.source, table, env)
    assert len(worked_out) == 1


def test_a_saved_roll_is_kept_by_what_it_rolls(worked_out: list[str]) -> None:
    book = load_book(FILE)
    table = book.table("small")

    def saved(text: str) -> Environment:
        body = parse_as(text, None).body
        assert not isinstance(body, (Comparison, Check))
        return Environment(rolls={"BONUS": body})

    check_named_cover(book.source, table, saved("d6"))
    check_named_cover(book.source, table, saved("d6"))
    assert len(worked_out) == 1
    # 2d6 + d8 reaches 20: fine; 2d6 + d1000 reaches 1012, past the last entry
    check_named_cover(book.source, table, saved("d8"))
    with pytest.raises(DiceError, match="no entry for the values 1001-1012"):
        check_named_cover(book.source, table, saved("d1000"))
    assert len(worked_out) == 3


def test_the_cache_is_bounded(worked_out: list[str]) -> None:
    book = load_book(FILE)
    table = book.table("small")
    for bonus in range(10, 20):
        for other in range(10):  # a name the roll does not read: the same entry
            check_named_cover(book.source, table, Environment(values={"BONUS": bonus, "O": other}))
    assert len(worked_out) == 10
    for bonus in range(-500, -100):
        check_named_cover(book.source, table, Environment(values={"BONUS": bonus}))
    assert 0 < len(load._NAMED_VALUES) <= 64
    assert load._NAMED_VALUES.held <= 16 << 20
