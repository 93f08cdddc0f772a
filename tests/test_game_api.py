"""The game API (``dicecli.game``, ``docs/games.md``) as a plug-in meets it.

Plug-ins here are folders on ``PYTHONPATH`` with a ``*.dist-info`` beside them (its
``METADATA`` and ``entry_points.txt``): what an installed distribution looks like to
:mod:`importlib.metadata`, without building one (``tests/test_plugins.py`` installs
the Savage Worlds example for real). Each is run through ``python -m dicecli``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import dicecli.game
from dicecli.notation.nodes import Check, Comparison, Name

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "savage-worlds"
GAMES_DOC = ROOT / "docs" / "games.md"


def _plugin(folder: Path, package: str, code: str, distribution: str, version: str) -> None:
    """``package`` (one module, ``code``) in ``folder``, as if installed by the
    distribution ``distribution`` at ``version``, with its entry point naming ``GAME``."""
    (folder / package).mkdir(parents=True)
    (folder / package / "__init__.py").write_text(textwrap.dedent(code), encoding="utf-8")
    info = folder / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    metadata = f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    entry_points = f"[dicecli.games]\n{package} = {package}:GAME\n"
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def _dicecli(
    folder: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(folder), "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "dicecli", *args],
        input=stdin or "",
        capture_output=True,
        text=True,
        cwd=folder,
        env=environ,
        timeout=60,
        check=False,
    )


def _documented_game() -> str:
    """The complete small game of ``docs/games.md``: its first Python block."""
    blocks = re.findall(r"```python\n(.*?)```", GAMES_DOC.read_text(encoding="utf-8"), re.S)
    return str(blocks[0])


# --- the public module --------------------------------------------------------------


def test_every_public_name_of_the_game_api_is_there() -> None:
    missing = [name for name in dicecli.game.__all__ if not hasattr(dicecli.game, name)]
    assert missing == []


def test_a_games_word_is_a_node_of_the_result_tree() -> None:
    """A word a game gives a meaning (``Evaluation.name``, docs/games.md) returns its
    node of the result tree: the value, the dice and the breakdown all come from it."""
    from dicecli.game import (
        DiceShown,
        Die,
        Environment,
        Evaluation,
        Face,
        GivenSource,
        Rolled,
        RolledDice,
        Roller,
        Text,
    )

    boom = Die("boom", (Face("BOOM", 10), Face("fizz", 0)))

    class BoomEvaluation(Evaluation):
        def name(self, node: Name) -> Rolled:
            if node.name == "Boom":
                roll = self.roller.roll(boom)
                return RolledDice(roll.value or 0, DiceShown((roll,)))
            return super().name(node)

    body = dicecli.parse("Boom + d6 + STR").body
    assert not isinstance(body, (Check, Comparison))
    env = Environment(values={"STR": 3})
    evaluation = BoomEvaluation(Roller(GivenSource(["BOOM", "4"])), env)
    assert evaluation.value(body) == 17
    assert [(die.die, die.face) for die in evaluation.dice] == [("boom", "BOOM"), ("d6", "4")]
    shown = [
        segment.text if isinstance(segment, Text) else [die.face for die in segment.dice]
        for segment in evaluation.segments
    ]
    assert shown == [["BOOM"], " + ", ["4"], " + ", "STR(3)"]
    assert isinstance(evaluation.dice, tuple)  # read from the tree: nothing to append to


def test_importing_the_game_api_loads_no_grammar_or_rolling() -> None:
    """A game's declaration imports ``dicecli.game``, and the registry imports every
    game's declaration: it must stay cheap (pyparsing and the rolling load when a line
    of the game is read)."""
    code = (
        "import sys, dicecli.game\n"
        "heavy = ('pyparsing', 'dicecli.results', 'dicecli.rolling', 'dicecli.probability')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _dicecli_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {node.module}
        elif isinstance(node, ast.Import):
            names = {alias.name for alias in node.names}
        else:
            continue
        found.update(name for name in names if name.split(".")[0] == "dicecli")
    return found


def test_the_example_game_imports_only_the_game_api() -> None:
    package = sorted((EXAMPLE / "savage_worlds").glob("*.py"))
    assert package
    for path in package:
        assert _dicecli_imports(path) <= {"dicecli.game"}, path.name


def test_the_example_games_tests_import_the_game_api() -> None:
    """Its tests too, but for the one that asks dicecli's registry what it makes of
    the declaration."""
    for path in sorted((EXAMPLE / "tests").glob("*.py")):
        allowed = {"dicecli.game"}
        if path.name == "test_savage_worlds_plugin.py":
            allowed |= {"dicecli", "dicecli.systems"}
        assert _dicecli_imports(path) <= allowed, path.name


def test_the_built_in_games_declare_themselves_on_the_game_api() -> None:
    for package in ("age", "alkemy", "warhammer"):
        for module in ("__init__.py", "system.py", "settings.py"):
            imports = _dicecli_imports(ROOT / "dicecli" / "systems" / package / module)
            outside = {name for name in imports if not name.startswith("dicecli.systems.")}
            assert outside <= {"dicecli.game"}, f"{package}/{module}"


MISSING_ODDS = """
from __future__ import annotations

from typing import Any

import pyparsing as pp

from dicecli.game import Check, Environment, Game, Roller, RollResult, Rules


class Half(Rules[Check]):
    def line_grammar(self) -> pp.ParserElement:
        raise NotImplementedError

    def roll(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        raise NotImplementedError


def rules() -> Rules[Any]:
    return Half()


GAME = Game(api_version=1, name="half", keywords=("half",), example="half", rules=rules)
"""


@pytest.mark.slow  # a run of mypy; CI runs mypy --strict over the tests as well
def test_mypy_names_the_method_a_game_is_missing(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    module = tmp_path / "half_game.py"
    module.write_text(MISSING_ODDS, encoding="utf-8")
    cache = ROOT / ".mypy_cache"
    out, _, status = api.run(["--strict", "--cache-dir", str(cache), str(module)])
    assert status == 1
    assert 'Cannot instantiate abstract class "Half" with abstract attribute "odds"' in out


# --- the documented game, as a plug-in ---------------------------------------------


@pytest.fixture(scope="module")
def documented(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("documented")
    _plugin(folder, "pct_game", _documented_game(), "dicecli-pct", "0.1.0")
    return folder


def test_the_documented_game_rolls_as_the_docs_show(documented: Path) -> None:
    done = _dicecli(documented, "--plain", "--seed", "3", "pct 40+d10")
    assert (done.returncode, done.stderr) == (1, "")  # a failure: exit status 1
    assert done.stdout == "55\tpct 40+d10\t[55] vs 40 + [3] => failure\n"
    assert "55\tpct 40+d10\t[55] vs 40 + [3] => failure" in GAMES_DOC.read_text()


@pytest.mark.parametrize(
    ("given", "verdict"),
    [("9", "extreme success"), ("10", "hard success"), ("22", "hard success"),
     ("45", "success"), ("46", "failure")],
)  # fmt: skip
def test_the_documented_game_judges_a_skill_of_45(
    documented: Path, given: str, verdict: str
) -> None:
    done = _dicecli(documented, "--json", "--given", given, "pct 45")
    outcome = json.loads(done.stdout)["outcome"]
    assert (outcome["verdict"], outcome["skill"]) == (verdict, 45)


def test_the_documented_games_odds_are_exact(documented: Path) -> None:
    done = _dicecli(documented, "odds", "--json", "pct 40+d10")
    chances = json.loads(done.stdout)
    # brute force: every d10 of the skill, every d100
    counts = {"extreme_success": 0, "hard_success": 0, "success": 0}
    for bonus in range(1, 11):
        skill = 40 + bonus
        for roll in range(1, 101):
            counts["extreme_success"] += roll <= skill // 5
            counts["hard_success"] += roll <= skill // 2
            counts["success"] += roll <= skill
    for name, count in counts.items():
        assert chances[name]["fraction"] == str(_fraction(count, 1000)), name


def _fraction(numerator: int, denominator: int) -> object:
    from fractions import Fraction

    return Fraction(numerator, denominator)


def test_dicecli_games_lists_where_each_game_comes_from(documented: Path) -> None:
    done = _dicecli(documented, "games")
    assert done.returncode == 0
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows[0] == ["game", "keywords", "from", "version"]
    assert rows[1][0] == "alkemy"
    assert rows[1][-2] == "built-in"
    assert rows[-1] == ["pct", "pct", "dicecli-pct", "0.1.0"]
    as_json = json.loads(_dicecli(documented, "games", "--json").stdout)
    assert as_json[-1] == {
        "name": "pct",
        "keywords": ["pct"],
        "from": "dicecli-pct",
        "version": "0.1.0",
    }
    assert {game["from"] for game in as_json[:-1]} == {"built-in"}


# --- faults in a plug-in ---------------------------------------------------------------

FAULTY = """
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pyparsing as pp
from dicecli.game import (
    Check, DiceShown, Distribution, Game, Odds, RollResult, Rules, die_for_sides, keyword,
    whole_line,
)

FAULT = "{fault}"


@dataclass(frozen=True)
class Flip(Check):
    system: ClassVar[str] = "faulty"

    def __str__(self) -> str:
        return "faulty"


def _action(tokens: Any) -> Any:
    if FAULT == "parse":
        raise KeyError("no such key")
    if FAULT == "node":
        return "a string"
    return Flip()


class FaultyRules(Rules[Flip]):
    def line_grammar(self) -> pp.ParserElement:
        if FAULT == "grammar":
            raise RuntimeError("no grammar today")
        form = keyword("faulty").set_parse_action(_action)
        return whole_line(form)

    def roll(self, check: Flip, roller: Any, env: Any, text: str) -> RollResult:
        if FAULT == "roll":
            return 1 // 0
        if FAULT == "result":
            return "seven"  # type: ignore[return-value]
        if FAULT == "drawn":
            roller.roll(die_for_sides(6))
            raise OverflowError("after a die")
        die = roller.roll(die_for_sides(6))
        return RollResult(text, str(check), die.value, (die,), (DiceShown((die,)),))

    def odds(self, check: Flip, env: Any, text: str) -> Odds:
        if FAULT == "odds":
            raise ValueError("odds\\nacross lines")
        if FAULT == "odds-type":
            return 0.5  # type: ignore[return-value]
        return Odds(text, str(check), Distribution.uniform(range(1, 7)))


def rules() -> Rules[Any]:
    if FAULT == "rules":
        raise ImportError("cannot import name 'FaultyRules'")
    return FaultyRules()


GAME = Game(api_version=1, name="faulty", keywords=("faulty",), example="faulty", rules=rules)
"""


def _faulty(folder: Path, fault: str) -> Path:
    _plugin(folder, "faulty_game", FAULTY.replace("{fault}", fault), "dicecli-faulty", "2.5")
    return folder


FAULTS = [
    ("rules", ["faulty"], "its rules function raised ImportError: cannot import name"),
    ("grammar", ["faulty"], "its line_grammar raised RuntimeError: no grammar today"),
    ("parse", ["faulty"], "its grammar raised KeyError: 'no such key'"),
    ("node", ["faulty"], "its grammar read a line as a str, not one of its checks"),
    ("roll", ["faulty"], "its roll raised ZeroDivisionError: integer division or modulo"),
    ("result", ["faulty"], "its roll gave a str, not a RollResult"),
    ("drawn", ["faulty"], "its roll raised OverflowError: after a die"),
    ("odds", ["odds", "faulty"], "its odds raised ValueError: odds\\nacross lines"),
    ("odds-type", ["odds", "faulty"], "its odds gave a float, not an Odds"),
]


@pytest.mark.parametrize(("fault", "args", "problem"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_in_a_plugin_is_reported_as_the_plugins(
    tmp_path: Path, fault: str, args: list[str], problem: str
) -> None:
    folder = _faulty(tmp_path, fault)
    done = _dicecli(folder, *args)
    assert done.returncode == 3  # ExitStatus.PLUGIN_FAILED, not 70
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("error: the game plug-in 'faulty' (dicecli-faulty 2.5) failed: ")
    assert problem in line
    assert line.endswith("; report it to the plug-in's authors")
    assert "please report it" not in line  # not dicecli's internal error


@pytest.mark.parametrize(("fault", "args", "problem"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_in_a_plugin_is_json_under_json(
    tmp_path: Path, fault: str, args: list[str], problem: str
) -> None:
    # docs/json.md, "Errors": with --json every error is one JSON object on stderr, the
    # exit status that of the run without --json (3: the plug-in failed)
    folder = _faulty(tmp_path, fault)
    done = _dicecli(folder, *args, "--json")
    assert done.returncode == 3
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    error = json.loads(line)
    assert set(error) == {"error", "input", "position", "hint", "line"}
    message = error["error"]
    assert message.startswith("the game plug-in 'faulty' (dicecli-faulty 2.5) failed: ")
    assert problem.replace("\\n", "\n") in message  # the message itself, unescaped
    assert message.endswith("; report it to the plug-in's authors")
    assert (error["input"], error["position"], error["hint"], error["line"]) == (None,) * 4


@pytest.mark.parametrize("fault", ["roll", "parse"])
def test_the_built_in_games_work_beside_a_faulty_plugin(tmp_path: Path, fault: str) -> None:
    folder = _faulty(tmp_path, fault)
    done = _dicecli(folder, "--plain", "--given", "3,4", "wfb ld 8")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("7\twfb ld 8\t")


LINE_FAULTS = [fault for fault in FAULTS if fault[1] == ["faulty"]]
"""The faults a line of rolls meets (not ``odds``'s)."""
PIPED = "2d6\nfaulty\n3d6\n"
PIPED_ROLLS = "7\t2d6\t[3, 4]\n6\t3d6\t[1, 2, 3]\n"  # --given 3,4,1,2,3
"""The faulty line's roll rolled nothing a player saw: a face it took (``drawn``) is
the next roll's, as after a bad line (docs/output.md)."""


@pytest.mark.parametrize("command", [[], ["roll", "--times", "1"]], ids=["fast", "typer"])
@pytest.mark.parametrize(("fault", "args", "problem"), LINE_FAULTS, ids=[f[0] for f in LINE_FAULTS])
def test_a_fault_in_a_plugin_costs_a_pipe_the_line_only(
    tmp_path: Path, command: list[str], fault: str, args: list[str], problem: str
) -> None:
    # docs/output.md, "Exit status": the other lines are rolled and written in order,
    # the faulty line reported with its number (no traceback), and the run ends with 3
    folder = _faulty(tmp_path, fault)
    done = _dicecli(folder, *command, "--plain", "--given", "3,4,1,2,3", stdin=PIPED)
    assert (done.returncode, done.stdout) == (3, PIPED_ROLLS)
    [line] = done.stderr.splitlines()
    assert line.startswith("line 2: error: the game plug-in 'faulty' (dicecli-faulty 2.5) failed: ")
    assert problem in line
    assert line.endswith("; report it to the plug-in's authors")


def test_a_fault_in_a_plugin_on_a_piped_line_is_json_with_its_line(tmp_path: Path) -> None:
    folder = _faulty(tmp_path, "roll")
    done = _dicecli(folder, "--json", "--given", "3,4,1,2,3", stdin=PIPED)
    assert done.returncode == 3
    assert [json.loads(line)["total"] for line in done.stdout.splitlines()] == [7, 6]
    [line] = done.stderr.splitlines()
    error = json.loads(line)
    assert error["error"].startswith("the game plug-in 'faulty' (dicecli-faulty 2.5) failed: ")
    assert (error["input"], error["position"], error["hint"], error["line"]) == (
        None,
        None,
        None,
        2,
    )


def test_a_pipe_with_a_plugin_fault_and_a_bad_line_ends_with_3(tmp_path: Path) -> None:
    # docs/output.md: 3 when a plug-in failed on any line, whatever else was bad
    folder = _faulty(tmp_path, "roll")
    done = _dicecli(folder, "--plain", "--given", "3,4,1,2,3", stdin="3d6+\n" + PIPED)
    assert (done.returncode, done.stdout) == (3, PIPED_ROLLS)
    errors = done.stderr.splitlines()  # the bad line's error is 3 lines (its caret)
    assert len(errors) == 4
    assert errors[0].startswith("line 1: error: ")
    assert errors[3].startswith("line 3: error: the game plug-in 'faulty' (dicecli-faulty 2.5)")


def test_debug_shows_a_piped_plugin_fault_after_the_rolls_before_it(tmp_path: Path) -> None:
    # --debug: the fault's traceback ends the run, as in the REPL; the lines before are written
    folder = _faulty(tmp_path, "roll")
    done = _dicecli(folder, "--plain", "--debug", "--seed", "1", stdin="1d1\nfaulty\n2d1\n")
    assert done.returncode not in (0, 2, 3)
    assert done.stdout == "1\t1d1\t[1]\n"
    assert "ZeroDivisionError" in done.stderr
    assert "PluginError" in done.stderr


def test_a_fault_in_a_plugin_costs_the_repl_the_line_only(tmp_path: Path) -> None:
    folder = _faulty(tmp_path, "roll")
    done = _dicecli(folder, "repl", "--plain", "--given", "3,4", stdin="faulty\nwfb ld 8\n")
    assert done.stderr == (
        "line 1: error: the game plug-in 'faulty' (dicecli-faulty 2.5) failed: its roll raised "
        "ZeroDivisionError: integer division or modulo by zero; report it to the plug-in's "
        "authors\n"
    )
    assert done.stdout == "7\twfb ld 8\tLd 8: [3, 4] => pass (7 ≤ 8)\n"  # the session goes on


def test_a_plugin_without_a_fault_rolls(tmp_path: Path) -> None:
    folder = _faulty(tmp_path, "none")
    done = _dicecli(folder, "--plain", "--given", "5", "faulty")
    assert (done.returncode, done.stdout, done.stderr) == (0, "5\tfaulty\t[5]\n", "")


# --- versions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ("api_version=2,", "it is written for game API version 2; this dicecli runs version 1"),
        ("api_version=0,", "it is written for game API version 0; this dicecli runs version 1"),
    ],
)
def test_a_plugin_for_another_api_version_is_left_out_with_one_warning(
    tmp_path: Path, declared: str, problem: str
) -> None:
    code = FAULTY.replace("{fault}", "none").replace("api_version=1,", declared)
    _plugin(tmp_path, "faulty_game", code, "dicecli-faulty", "2.5")
    warning = (
        "warning: dicecli game plug-in faulty_game (faulty_game:GAME, from dicecli-faulty 2.5) "
        f"left out: {problem}"
    )
    rolled = (0, "7\twfb ld 8\tLd 8: [3, 4] => pass (7 ≤ 8)\n")
    # --color: the typer app, which looks at every game (docs/startup.md, "Plug-ins")
    done = _dicecli(tmp_path, "--plain", "--color", "never", "--given", "3,4", "wfb ld 8")
    assert (done.returncode, done.stdout) == rolled
    assert done.stderr.splitlines() == [warning]
    done = _dicecli(tmp_path, "--plain", "--given", "3,4", "wfb ld 8")  # typer-free: no look
    assert (done.returncode, done.stdout, done.stderr) == (*rolled, "")
    done = _dicecli(tmp_path, "--plain", "faulty")
    assert done.stderr.splitlines()[0] == warning
    assert done.returncode == 2  # then the line is no game's: bad input
    assert done.stderr.splitlines()[1].startswith("error: ")


def test_a_plugin_that_declares_no_api_version_is_left_out(tmp_path: Path) -> None:
    code = "GAME = object()\n"
    _plugin(tmp_path, "old_game", code, "dicecli-old", "0.1")
    done = _dicecli(tmp_path, "games")
    assert done.returncode == 0
    assert done.stderr == (
        "warning: dicecli game plug-in old_game (old_game:GAME, from dicecli-old 0.1) left out: "
        "it declares no game API version (api_version); this dicecli runs version 1\n"
    )
    assert "old_game" not in done.stdout
