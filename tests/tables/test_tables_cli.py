"""``dicecli table`` on the command line and ``table`` in the REPL (docs/tables.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from processes import run_in_process
from typer.testing import CliRunner

from dicecli.cli import route, typer_app
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.repl.commands import handle_line
from dicecli.repl.state import OddsShown, Problem, ReplState, Rolled, Summary, start_state
from dicecli.rolling.sources import GivenSource, RandomSource, Roller

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "tables.toml")
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(typer_app(), route(list(args)))
    return result.exit_code, result.output


run = run_in_process


def test_route_sends_table_words_to_the_table_command() -> None:
    assert route(["table", "loot", "--times", "3"]) == ["table", "--times", "3", "--", "loot"]
    assert route(["table", "f.toml", "loot", "--odds"]) == [
        "table",
        "--odds",
        "--",
        "f.toml",
        "loot",
    ]


def test_a_draw_with_given_dice_in_the_plain_format() -> None:
    status, output = invoke("table", EXAMPLE, "encounters", "--given", "3,4", "--plain")
    assert status == 0
    assert output == f"7\ttable {EXAMPLE} encounters\t[3, 4] => 7: Nothing but birdsong\n"


def test_json_carries_the_key_and_the_resolved_text() -> None:
    status, output = invoke("table", EXAMPLE, "encounters", "--given", "1,2,2,3", "--json")
    assert status == 0
    data = json.loads(output)
    assert data["total"] == 3
    assert data["outcome"]["key"] == "3-4"
    assert data["outcome"]["text"] == "5 goblins ambush the party"
    assert data["outcome"]["rolls"][0]["roll"] == "2d4"
    assert [die["face"] for die in data["dice"]] == ["1", "2", "2", "3"]


def test_times_draws_that_many() -> None:
    status, output = invoke("table", EXAMPLE, "loot", "--times", "4", "--given", "10,6,7,8")
    assert status == 0
    assert [line.split("\t")[2] for line in output.splitlines()] == [
        "[10] => map: a treasure map",
        "[6] => potion: a potion of healing",
        "[7] => potion: a potion of healing",
        "[8] => potion: a potion of healing",
    ]


def test_the_same_seed_draws_the_same_in_separate_runs() -> None:
    args = ("table", EXAMPLE, "encounters", "--seed", "42", "--times", "20", "--json")
    first, second, other = run(*args), run(*args), run(*args[:4], "43", *args[5:])
    assert first.returncode == 0
    assert first.stdout == second.stdout
    assert len(first.stdout.splitlines()) == 20
    assert first.stdout != other.stdout


def test_odds_in_plain_text() -> None:
    status, output = invoke("table", EXAMPLE, "loot", "--odds", "--plain")
    assert status == 0
    assert output.splitlines() == [
        "odds\ttable loot\texact",
        "coins: [[3d6]] gold pieces\t1/2\t50.00%",
        "potion: a potion of healing\t3/10\t30.00%",
        "gem: a gem: [[table: gems]]\t1/10\t10.00%",
        "map: a treasure map\t1/10\t10.00%",
    ]


def test_odds_in_json() -> None:
    status, output = invoke("table", EXAMPLE, "encounters", "--odds", "--json")
    assert status == 0
    data = json.loads(output)
    assert [entry["probability"]["fraction"] for entry in data["entries"]] == [
        "1/36",
        "5/36",
        "1/4",
        "1/6",
        "1/4",
        "5/36",
        "1/36",
    ]


def test_odds_on_a_table_is_the_same_as_table_odds() -> None:
    spelled_as_odds = invoke("odds", "table", EXAMPLE, "gems", "--plain")
    assert spelled_as_odds == invoke("table", EXAMPLE, "gems", "--odds", "--plain")
    assert (
        spelled_as_odds[1].splitlines()[-1]
        == "100: a flawless diamond worth 1000 gold\t1/100\t1.00%"
    )


def test_the_user_file_is_the_default(tmp_path: Path) -> None:
    folder = tmp_path / "dicecli"
    folder.mkdir()
    (folder / "tables.toml").write_text(Path(EXAMPLE).read_text())
    done = run("table", "loot", "--given", "9,100", env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\t")[:2] == ["9", "table loot"]
    assert "a flawless diamond" in done.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["table", EXAMPLE, "dragons"],
            f"error: table file {EXAMPLE} has no table 'dragons' (tables: encounters, loot, "
            "gems)\n",
        ),
        (
            ["table", "no-such.toml", "loot"],
            "error: table file no-such.toml: cannot read it: No such file or directory\n",
        ),
        (
            ["table"],
            "error: table: give a table's name (dicecli table NAME), or a table file and a "
            "name (FILE NAME)\n",
        ),
        (
            ["table", "a", "b", "c"],
            "error: table: give a table's name (dicecli table NAME), or a table file and a "
            "name (FILE NAME) (got 3 words)\n",
        ),
        (
            ["table", EXAMPLE, "loot", "--given", "1"],
            "error: not enough dice given: the roll needs more than the 1 given\n",
        ),
        (
            ["table", EXAMPLE, "loot", "--given", "10,3"],
            "error: too many dice given: 1 of the 2 given was not used (3)\n",
        ),
        (["table", EXAMPLE, "loot", "--times", "0"], "error: --times takes 1 to 100,000\n"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], error: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr == error
    assert done.stdout == ""


def test_a_bad_file_is_refused_before_a_die_is_rolled(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[ok.entries]\nx = "fine"\n[bad]\nroll = "d6"\n[bad.entries]\n"1-5" = "x"\n')
    done = run("table", str(path), "ok", "--given", "1")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: table file {path}: table 'bad': no entry for the value 6 (d6 gives 1-6; "
        "every value the roll can give needs an entry)\n"
    )


def test_a_plain_roll_does_not_import_the_tables() -> None:
    code = (
        "import sys; from dicecli.__main__ import main; main(['2d6']); "
        "print(any(m.startswith('dicecli.tables') for m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stderr.strip() == "False"


# The REPL.


def session(faces: str | None = None, times: int = 1) -> ReplState:
    source = GivenSource.from_text(faces) if faces is not None else RandomSource(1)
    return start_state(Roller(source), Environment(), times)


def test_the_repl_draws_from_a_table_file() -> None:
    state, output = handle_line(session("3,4"), f"table {EXAMPLE} encounters")
    assert len(output) == 1
    assert isinstance(output[0], Rolled)
    assert output[0].result.outcome is not None
    assert output[0].result.outcome.verdict == "7: Nothing but birdsong"
    assert state.rolls == (output[0].result,)


def test_the_repl_draws_times_times_with_a_summary_and_again_draws_again() -> None:
    state, output = handle_line(session("6,7,10,8", times=2), f"TABLE {EXAMPLE} loot")
    assert [type(item) for item in output] == [Rolled, Rolled, Summary]
    state, output = handle_line(state, "again")
    assert [type(item) for item in output] == [Rolled, Rolled, Summary]
    assert [item.result.total for item in output if isinstance(item, Rolled)] == [10, 8]
    assert len(state.rolls) == 4


def test_the_repl_gives_a_tables_odds() -> None:
    _, output = handle_line(session(), f"table odds {EXAMPLE} loot")
    assert isinstance(output[0], OddsShown)
    assert output[0].odds.chances[3][0] == "map: a treasure map"


def test_odds_table_in_the_repl_is_table_odds() -> None:
    _, as_odds = handle_line(session(), f"odds table {EXAMPLE} loot")
    _, as_table = handle_line(session(), f"table odds {EXAMPLE} loot")
    assert as_odds == as_table
    assert isinstance(as_odds[0], OddsShown)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("odds table", "table: give a table's name (dicecli table NAME), or a table file"),
        (f"table {EXAMPLE} dragons", f"table file {EXAMPLE} has no table 'dragons'"),
        ("table", "expected a table: give a table's name (dicecli table NAME), or a "),
    ],
)
def test_the_repl_reports_table_errors_and_goes_on(line: str, message: str) -> None:
    state, output = handle_line(session(), line)
    assert isinstance(output[0], Problem)
    assert output[0].error.message.startswith(message)
    assert not state.finished


def test_reroll_refuses_a_draw() -> None:
    state, _ = handle_line(session("3,4"), f"table {EXAMPLE} encounters")
    _, output = handle_line(state, "reroll")
    assert isinstance(output[0], Problem)
    assert isinstance(output[0].error, DiceError)
    assert output[0].error.message == (
        "reroll re-rolls a roll, not a draw from a table: again draws again"
    )
