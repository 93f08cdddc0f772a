"""A table whose roll reads a name (``roll = "d100+CRITS"``, docs/tables.md): the file
loads without the name, and a draw or its odds use the value in force (``--set
CRITS=10``, ``let CRITS = 10``), checking then that every value has an entry (issue 28).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicecli.cli import route, typer_app
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.repl.commands import handle_line
from dicecli.repl.state import OddsShown, Problem, Rolled, start_state
from dicecli.rolling.sources import GivenSource, Roller
from dicecli.tables.draw import draw
from dicecli.tables.load import parse_book
from dicecli.tables.odds import entry_chances

CRITS = """
[crits]
roll = "d100+CRITS"
[crits.entries]
"1-50" = "a scratch"
"51-100" = "a wound"
"101-200" = "a severed limb"
"""
BOOK = parse_book(CRITS, "crits.toml")


def drawn(faces: str, **values: int) -> str:
    source = GivenSource.from_text(faces)
    result = draw(BOOK, "crits", Roller(source), Environment(values=values))
    source.check_all_used()
    assert result.outcome is not None
    return result.outcome.verdict


def test_a_named_roll_uses_the_value_in_force() -> None:
    assert drawn("95", CRITS=10) == "101-200: a severed limb"  # 95 + 10
    assert drawn("95", CRITS=0) == "51-100: a wound"


def test_an_entry_a_modifier_puts_out_of_reach_is_fine() -> None:
    # with CRITS=60 nothing below 61 is rolled: 1-50 is out of reach, not an error
    assert drawn("1", CRITS=60) == "51-100: a wound"


def test_a_gap_the_modifier_opens_is_an_error_naming_the_table() -> None:
    with pytest.raises(DiceError, match=r"table 'crits': no entry for the values 201-220"):
        drawn("1", CRITS=120)


def test_an_unset_name_says_how_to_set_it() -> None:
    with pytest.raises(
        DiceError,
        match=r"table 'crits': roll 'd100\+CRITS': unknown name 'CRITS': set it with --set CRITS=N",
    ):
        drawn("1")


def test_the_odds_use_the_value_in_force() -> None:
    chances = [
        chance
        for _, chance in entry_chances(BOOK.table("crits"), Environment(values={"CRITS": 10}))
    ]
    assert chances == [Fraction(40, 100), Fraction(50, 100), Fraction(10, 100)]


def test_a_file_still_refuses_overlaps_when_its_roll_reads_names() -> None:
    with pytest.raises(DiceError, match="overlaps entry '1-50' at 50"):
        parse_book(CRITS.replace('"51-100"', '"50-100"'), "crits.toml")


def test_the_command_line_sets_the_name(tmp_path: Path) -> None:
    sheet = tmp_path / "crits.toml"
    sheet.write_text(CRITS, encoding="utf-8")
    runner = CliRunner()
    args = ["--set", "CRITS=10", "table", str(sheet), "crits", "--given", "95", "--plain"]
    done = runner.invoke(typer_app(), route(args))
    assert (done.exit_code, done.output) == (
        0,
        f"105\ttable {sheet} crits\t[95] + CRITS(10) => 101-200: a severed limb\n",
    )
    done = runner.invoke(
        typer_app(), route(["--set", "CRITS=10", "table", str(sheet), "crits", "--odds", "--plain"])
    )
    assert done.exit_code == 0
    assert "101-200: a severed limb\t1/10\t10.00%" in done.output


def test_the_repl_uses_a_let(tmp_path: Path) -> None:
    sheet = tmp_path / "crits.toml"
    sheet.write_text(CRITS, encoding="utf-8")
    state = start_state(Roller(GivenSource.from_text("95")), Environment(), 1)
    _, output = handle_line(state, f"table {sheet} crits")
    assert isinstance(output[0], Problem)
    state, _ = handle_line(state, "let CRITS = 10")
    _, output = handle_line(state, f"table odds {sheet} crits")
    assert isinstance(output[0], OddsShown)
    _, output = handle_line(state, f"table {sheet} crits")
    assert isinstance(output[0], Rolled)
    assert output[0].result.total == 105
