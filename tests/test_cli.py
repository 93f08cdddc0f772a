"""The command line: typer's runner for options, a real process for pipes and exit codes.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from processes import run_bytes_in_process, run_dicecli, run_in_process
from typer.testing import CliRunner

import dicecli
from dicecli.cli import route, typer_app
from dicecli.cli import run as typer_run
from dicecli.systems import registry

runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(typer_app(), route(list(args)), input=stdin)
    return result.exit_code, result.output


run = run_in_process


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["2d6"], ["roll", "--", "2d6"]),
        (["roll", "2d6"], ["roll", "--", "2d6"]),
        (["odds", "2d6"], ["odds", "--", "2d6"]),
        (["--seed", "3", "2d6"], ["roll", "--seed", "3", "--", "2d6"]),
        (["2d6", "--plain"], ["roll", "--plain", "--", "2d6"]),
        (["--given", "odds", "d6"], ["roll", "--given", "odds", "--", "d6"]),
        (["age", "-1", "vs", "9"], ["roll", "--", "age", "-1", "vs", "9"]),
        (["-7/2", "--seed", "3"], ["roll", "--seed", "3", "--", "-7/2"]),
        (["--seed", "3"], ["roll", "--seed", "3"]),
        (["--help"], ["--help"]),
        (["-n3", "2d6"], ["roll", "-n3", "--", "2d6"]),
        (["4d6kh3", "-n6"], ["roll", "-n6", "--", "4d6kh3"]),
        ([], []),
    ],
)
def test_route_puts_the_command_first_and_the_roll_after_dashes(
    args: list[str], expected: list[str]
) -> None:
    assert route(args) == expected


def test_plain_line_format() -> None:
    code, output = invoke("--plain", "--given", "3,4", "2D6+5")
    assert code == 0
    assert output == "12\t2D6+5\t[3, 4] + 5\n"


def test_words_are_joined_into_one_expression() -> None:
    code, output = invoke("--plain", "--given", "3,4,1,6", "4d6", "kh3")
    assert code == 0
    assert output == "13\t4d6 kh3\t[3, 4, ~1~, 6]\n"


def test_json_lines_schema() -> None:
    code, output = invoke("--json", "--given", "3,4,1,6,2,2,2,2", "--times", "2", "4d6kh3")
    assert code == 0
    first, second = (json.loads(line) for line in output.splitlines())
    assert first["input"] == "4d6kh3"
    assert first["expression"] == "4d6kh3"
    assert first["total"] == 13
    assert first["outcome"] is None
    assert first["dice"][2] == {
        "die": "d6",
        "face": "1",
        "value": 1,
        "kept": False,
        "marks": ["dropped"],
    }
    assert second["total"] == 6


def test_seed_gives_the_same_rolls() -> None:
    assert invoke("--plain", "--seed", "7", "-n", "5", "3d6") == invoke(
        "--plain", "--seed", "7", "-n", "5", "3d6"
    )


def test_set_gives_names_a_value() -> None:
    code, output = invoke(
        "--plain", "--set", "STR=3", "--set", "atk=d20+1", "--given", "9", "STR+atk"
    )
    assert code == 0
    assert output.split("\t")[0] == "13"


def test_bad_set_is_a_usage_error() -> None:
    code, _ = invoke("--set", "STR", "2d6")
    assert code == 2


def test_times_out_of_range() -> None:
    code, _ = invoke("--times", "0", "2d6")
    assert code == 2


def test_syntax_error_exit_2_with_caret_and_no_traceback() -> None:
    done = run_dicecli("2d6+")  # a process of its own: the status the shell sees
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "error: expected a number, dice such as 2d6, '(' or a name at the end\n  2d6+\n      ^\n"
    )


def test_piped_lines_skip_blanks_and_comments_and_go_past_bad_lines() -> None:
    done = run("--given", "1,2,3,4", stdin="2d6\n\n# a comment\nfoo+\n2d6 # again\n")
    assert done.returncode == 2
    assert done.stdout.splitlines() == ["3\t2d6\t[1, 2]", "7\t2d6 # again\t[3, 4] # again"]
    assert done.stderr.startswith("line 4: error: ")


def test_piped_lines_without_options_take_the_fast_path() -> None:
    done = run(stdin="1d1\n2d1+1\n")
    assert done.returncode == 0
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == ["1", "3"]


def modules_loaded_by(*args: str, status: str = "0") -> set[str]:
    """The modules a fresh ``dicecli ARGS`` process has imported when it ends (with the
    exit status ``status``)."""
    code = (
        "import sys\nfrom dicecli.__main__ import main\n"
        f"status = main({list(args)!r})\n"
        "print(status, *sorted(sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    ended, *modules = done.stderr.splitlines()[-1].split()  # after any error it reported
    assert ended == status, done.stderr
    return set(modules)


# What start-up pays for (the benchmark in bench/bench_startup.py): a plain roll must not
# import the CLI framework, the terminal renderer, the REPL, the registry or any game, the
# odds engine or the modules of modifiers it does not use. Checked by module, not by timing.
HEAVY_FOR_A_PLAIN_ROLL = (
    "typer",
    "click",
    "pydantic",
    "rich",
    "prompt_toolkit",
    "importlib.metadata",
    "dicecli.cli",
    "dicecli.repl",
    "dicecli.systems.registry",
    "dicecli.systems.declaration",
    "dicecli.probability",
    "dicecli.rolling.rerolls_and_explosions",
    *registry.BUILT_IN,
)

NOTES_AND_DIALECTS = ("dicecli.notation.translations", "dicecli.notation.other_readings")
"""Loaded for a line in a dialect, or holding a character a noted spelling needs
(issue 26): never for a plain roll such as 2D6+5."""


def test_a_plain_roll_imports_nothing_it_does_not_use() -> None:
    """A common line is read without the grammar (dicecli/notation/common_lines.py)."""
    loaded = modules_loaded_by("2D6+5")
    grammar = {"pyparsing", "dicecli.notation.grammar"}
    # dataclasses (with inspect, ast, dis) is not for dicecli's values (dicecli/frozen.py);
    # pyparsing imports inspect itself
    assert loaded.isdisjoint(
        {*HEAVY_FOR_A_PLAIN_ROLL, *NOTES_AND_DIALECTS, *grammar, "dataclasses", "inspect"}
    )


def test_a_keep_without_a_noted_spelling_does_not_load_the_dialects_rewriting() -> None:
    """``4d6kh3`` holds ``k``, which ``k3`` (a noted spelling) needs, but no noted
    spelling: the notes' module looks and finds none, without the rewriting it reads."""
    loaded = modules_loaded_by("4d6kh3", "-n", "6")
    assert "dicecli.notation.translations" not in loaded
    assert "dicecli.notation.translations" in modules_loaded_by("4d6k3")


@pytest.mark.parametrize("line", ["{2d6, 1d8}kh1", "10% of 51", "3d6!!", "10d10>=7f1"])
def test_common_groups_shares_and_explosions_load_no_grammar(line: str) -> None:
    assert "dicecli.notation.grammar" not in modules_loaded_by(line)


def test_other_lines_load_the_grammar_of_record() -> None:
    loaded = modules_loaded_by("{2d6, 1d8}s")  # a sorted group: not a common line
    assert "dicecli.notation.grammar" in loaded
    assert loaded.isdisjoint(HEAVY_FOR_A_PLAIN_ROLL)


def test_a_roll_starting_with_a_word_reads_only_the_games_declarations() -> None:
    """The registry reads each game's declaration (its package's ``__init__`` and plain
    rule data) to know its keywords; the grammar and rolling of a game wait for its line."""
    loaded = modules_loaded_by("--set", "STR=2", "STR", "+", "d6")
    assert set(registry.BUILT_IN) <= loaded
    working = ("nodes", "grammar", "roll", "odds", "system", "dice")
    game_modules = {f"{game}.{part}" for game in registry.BUILT_IN for part in working}
    assert loaded.isdisjoint(game_modules)
    assert "importlib.metadata" not in loaded  # no plug-in declared: no metadata import


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "STR=2", "1d20+STR"],
        ["--set", "DEX=1", "--set", "dex=2", "d20 + DEX - dex"],
        ["--character", "character", "1d20 + STR"],
        ["--character", "character", "damage"],  # a saved roll alone: 2d6+STR
    ],
)
def test_named_values_load_neither_typer_nor_the_grammar(args: list[str]) -> None:
    """A name given a value (``--set``, a character file, both fast options), then
    added to dice or typed alone, is told to be a name by the quick readers, not by
    pyparsing."""
    loaded = modules_loaded_by(*args)
    assert loaded.isdisjoint({"typer", "pyparsing", "dicecli.notation.grammar"})


def test_a_roll_starting_like_a_die_reads_no_games_declaration() -> None:
    """``D6x5`` and ``d20r1`` start with a letter but read as dice, which no game's
    keyword does (docs/games.md): the games are not asked about them, and the quick
    readers read them without the grammar, as they read ``6x5`` and ``1d20r1``."""
    for line in ("D6x5", "d20r1", "d20-5"):
        loaded = modules_loaded_by(line)
        assert "dicecli.notation.grammar" not in loaded, line
        assert loaded.isdisjoint(registry.BUILT_IN), line
    assert set(registry.BUILT_IN) <= modules_loaded_by("dfx5")  # may be a keyword


def test_modifiers_bring_their_modules_on_first_use() -> None:
    loaded = modules_loaded_by("4d6r1kh3")
    assert "dicecli.rolling.rerolls_and_explosions" in loaded
    assert "typer" not in loaded


@pytest.mark.parametrize("args", [["2D6+5"], ["2d6+"], ["--seed", "1", "d6"]])
def test_start_up_objects_are_frozen_out_of_the_garbage_collector(args: list[str]) -> None:
    """Fast path and typer path alike (see dicecli/entry.py), as the process's entry
    point; the freeze is what spares the collection at exit."""
    code = (
        "import gc, sys\nfrom dicecli.__main__ import main\n"
        "before = gc.get_freeze_count()\n"
        f"sys.argv = ['dicecli', *{args!r}]\n"
        "main()\n"
        "print(before, gc.get_freeze_count())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    before, after = map(int, done.stdout.split()[-2:])
    # Python 3.12 starts with some of its own objects frozen already.
    assert after - before > 1000  # pyparsing's grammar objects and ours


@pytest.mark.parametrize(
    ("args", "runner"),
    [
        (["wfb ld 8"], "dicecli.app:run_once"),
        ([], "dicecli.app:run_lines"),
        (["--seed", "1", "d6"], "dicecli.app:run_once"),
        (["repl", "--seed", "1"], "dicecli.repl.prompt:run_repl"),
        (["--setting", "age.max_rolls=200", "d6"], "dicecli.cli:run"),
    ],
)
def test_the_collector_runs_again_before_rolling(
    args: list[str], runner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """main() pauses the collector for start-up only: one-shot, piped, REPL and typer
    paths roll with it running (a long line's garbage is collected), start-up frozen first."""
    import gc
    import io
    from importlib import import_module

    from dicecli import entry

    module, name = runner.split(":")
    seen: list[tuple[bool, int]] = []

    def record(*_: object) -> int:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return 0

    monkeypatch.setattr(import_module(module), name, record)
    monkeypatch.setattr(sys, "stdin", io.StringIO("d6\n"))
    gc.disable()
    try:
        entry._dispatch(args, paused=True)
    finally:
        gc.enable()
        gc.unfreeze()
    assert len(seen) == 1
    enabled, frozen = seen[0]
    assert enabled
    assert frozen > 0


@pytest.mark.parametrize("blank", ["\f", "\N{EM SPACE}", " \v "])
def test_a_one_shot_line_of_blanks_is_nothing_to_roll(blank: str) -> None:
    # whitespace other than spaces and tabs too: the grammar is loaded for the line
    # before it is rolled, and a line with no word must not trip that
    done = run(blank)
    assert done.returncode == 2
    assert done.stderr.startswith("error: nothing to roll\n")


def test_one_shot_roll_is_plain_when_piped() -> None:
    done = run("2D6+5")
    assert done.returncode == 0
    total, text, _detail = done.stdout.rstrip("\n").split("\t")
    assert 7 <= int(total) <= 17
    assert text == "2D6+5"
    assert "\x1b" not in done.stdout


@pytest.mark.parametrize("args", ["d6 --times 100000", "--plain d6 --times 100000"])
def test_closed_pipe_ends_quietly_with_status_0(args: str) -> None:
    # pipefail: the pipeline's status is dicecli's own when it is not 0
    command = f"set -o pipefail; {sys.executable} -m dicecli {args} | head -1"
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr == ""


def test_given_with_a_typo_is_bad_input() -> None:
    done = run("--given", "3,,4", "2d6")
    assert done.returncode == 2
    assert done.stderr == "error: --given '3,,4' has an empty place between commas\n"


def test_given_left_over_is_an_error_and_the_roll_is_not_printed() -> None:
    done = run("--given", "1,2,3", "2d6")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "too many dice given" in done.stderr


def test_version() -> None:
    code, output = invoke("--version")
    assert code == 0
    assert output.startswith("dicecli ")


def test_setting_reaches_the_game() -> None:
    # age.max_rolls caps an advanced test (rule G7): 3 rolls cannot reach 25
    code, output = invoke(
        "--plain", "--setting", "age.max_rolls=3", "--seed", "1", "age 3 vs 15 until 25"
    )
    assert code == 1
    assert "not reached in 3 rolls" in output


def test_bad_setting_is_a_usage_error() -> None:
    code, _ = invoke("--setting", "nokey", "2d6")
    assert code == 2


@pytest.mark.parametrize(
    ("setting", "total"),
    [("MAG=-1", "-1"), ("MAG=1+2", "3"), ("MAG=\N{MINUS SIGN}2", "-2")],
)
def test_set_works_out_values_without_dice(setting: str, total: str) -> None:
    code, output = invoke("--plain", "--set", setting, "MAG")
    assert code == 0
    assert output.split("\t")[0] == total


@pytest.mark.parametrize("setting", ["d6=3", "é=3", "wfb=3", "x=y", "x=wfb ld"])
def test_set_refuses_names_and_values_that_cannot_work(setting: str) -> None:
    done = run("--set", setting, "1")
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --set {setting}: ")


def test_set_saves_a_game_line_as_a_check() -> None:
    # rule W1: 2d6 at most the Leadership passes; 3 + 2 = 5 <= 8
    done = run("--set", "panic=wfb ld 8", "--given", "3,2", "panic")
    assert (done.returncode, done.stdout) == (0, "5\tpanic\tLd 8: [3, 2] => pass (5 ≤ 8)\n")


def test_a_roll_starting_with_a_minus_is_not_an_option() -> None:
    done = run("-7/2")
    assert done.returncode == 0
    assert done.stdout.startswith("-3\t-7/2\t-7/2 (/ rounds up here")  # rule N3, noted


def test_bad_options_are_one_line_with_exit_2() -> None:
    done = run("--seed", "x", "2d6")
    assert done.returncode == 2
    assert done.stderr == (
        "error: Invalid value for '--seed': 'x' is not a valid int. (see dicecli roll --help)\n"
    )


def test_options_before_a_command_reach_it() -> None:
    assert route(["--set", "STR=1", "odds", "age STR vs 11"]) == [
        "odds",
        "--set",
        "STR=1",
        "--",
        "age STR vs 11",
    ]


def test_unknown_setting_is_refused() -> None:
    done = run("--setting", "warhammer.misfire_onhit=ignore", "wfb scatter artillery")
    assert done.returncode == 2
    assert "warhammer.misfire_onhit: no such setting" in done.stderr


def test_odds_follow_a_setting() -> None:
    # rule W3: with the setting, a MISFIRE on a HIT is ignored, so misfires are rarer
    default = dicecli.odds("wfb scatter artillery").chances
    code, output = invoke(
        "odds", "--plain", "--setting", "warhammer.misfire_on_hit=ignore", "wfb scatter artillery"
    )
    assert code == 0
    assert dict(default)["misfire"] == Fraction(1, 6)
    assert "misfire\t1/9\t" in output


def test_a_byte_order_mark_on_piped_input_is_dropped() -> None:
    done = run("--given", "1,2", stdin="\ufeff2d6\n")
    assert (done.returncode, done.stdout) == (0, "3\t2d6\t[1, 2]\n")


def test_a_saved_roll_may_hold_a_games_die() -> None:
    # rule W1: the artillery die inside a saved roll, used in a Warhammer line
    code, output = invoke("--plain", "--set", "cannon=artillery+1", "--given", "4", "wfb cannon*2")
    assert code == 0
    assert output.split("\t")[0] == "10"


def test_the_core_flags_are_the_apps_own_options() -> None:
    import inspect
    import typing

    from typer.models import OptionInfo

    from dicecli.cli import game_options
    from dicecli.systems.declaration import CORE_FLAGS

    whole = typer_app()
    spellings = {"--help", "-h"}
    callbacks = [command.callback for command in whole.registered_commands]
    assert whole.registered_callback is not None
    callbacks.append(whole.registered_callback.callback)
    for callback in callbacks:
        assert callback is not None
        for parameter in inspect.signature(callback, eval_str=True).parameters.values():
            for extra in typing.get_args(parameter.annotation)[1:]:
                if isinstance(extra, OptionInfo):
                    spellings.update((str(extra.default), *(extra.param_decls or ())))
    assert spellings - {option.flag for option in game_options()} == CORE_FLAGS


CLASHING_GAME = """
from dicecli.game import CliOption, Game, Setting


def rules():
    raise AssertionError("no line of this game is read")


SETTING = Setting("clash.x", "", str)
GAME = Game(
    api_version=1,
    name="clash",
    keywords=("clash",),
    example="clash",
    rules=rules,
    settings=(SETTING,),
    options=(CliOption("--at-least", "clash.x", "takes the odds option"),),
)
"""


def test_a_game_option_that_clashes_is_left_out_and_the_command_line_works(
    tmp_path: Path,
) -> None:
    (tmp_path / "clash_game.py").write_text(CLASHING_GAME)
    code = (
        "from dicecli.systems import registry\n"
        "registry.BUILT_IN = (*registry.BUILT_IN, 'clash_game')\n"
        # as when a plug-in is installed: every typer run reads every game's options (a
        # run of the table's options alone reads none otherwise: docs/startup.md)
        "registry._plugins_declared = lambda: True\n"
        "from dicecli.__main__ import main\n"
        "main(['odds', '--plain', '--at-least', '12', '2d6'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        timeout=60,
        check=False,
    )
    warning = "warning: dicecli game clash: option --at-least left out: the command line has it"
    assert done.stderr.splitlines() == [f"{warning} already"]
    assert "at_least_12\t1/36\t2.78%" in done.stdout.splitlines()


def test_odds_with_fractions_past_pythons_text_limit_are_written() -> None:
    # 6**6000 has 4,669 digits: shown by its value in plain text, exactly in JSON
    done = run("odds", "6000d6kl1", "--json")
    assert done.returncode == 0, done.stderr
    chance = json.loads(done.stdout)["distribution"]["6"]["fraction"]
    assert chance.startswith("1/")
    assert len(chance) == 2 + 4669


# Help and shell completion.


def test_help_with_no_topic_lists_the_topics() -> None:
    done = run("help")
    assert done.returncode == 0
    games = ", ".join(game.topic for game in registry.games())
    assert games.startswith("alkemy, wfb, age, ")  # the built-in games, in BUILT_IN order
    assert f"Help topics: notation, {games}, odds, repl" in done.stdout


@pytest.mark.parametrize(("topic", "title"), [("wfb", "Warhammer"), ("WHFB", "Warhammer")])
def test_help_on_a_game_by_any_of_its_keywords(topic: str, title: str) -> None:
    done = run("help", topic)
    assert done.returncode == 0
    assert done.stdout.startswith(title)
    assert "wfb ld 8" in done.stdout


def test_help_on_an_unknown_topic_says_the_close_one() -> None:
    done = run("help", "alkmey")
    assert done.returncode == 2
    assert done.stderr.startswith("error: no help on 'alkmey': did you mean 'alkemy'?")


def test_alkemy_help_states_the_assumed_faces() -> None:
    # rule A9: the yellow and red faces are an assumption
    assert "are an assumption (rule A9" in run("help", "alkemy").stdout


@pytest.mark.parametrize("args", [["--help"], ["roll", "--help"]])
def test_the_help_lists_each_games_forms(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 0
    for line in ("alkemy 8 vs 15", "wfb artillery", "age STR+2 vs 13"):
        assert line in done.stdout
    for topic in ("alkemy", "wfb", "age"):
        assert f"(dicecli help {topic})" in done.stdout


def _complete(shell: str, typed: str) -> list[str]:
    """What the shell's completion function gets from dicecli for ``typed``."""
    env = {"_DICECLI_COMPLETE": f"complete_{shell}"}
    words = typed.split()
    if shell == "bash":
        env["COMP_WORDS"] = typed
        env["COMP_CWORD"] = str(len(words) if typed.endswith(" ") else len(words) - 1)
    else:
        env["_TYPER_COMPLETE_ARGS"] = typed
        env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    done = run_in_process(env=env)
    assert done.stderr == ""
    return done.stdout.split()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("dicecli wf", ["wfb"]),
        ("dicecli wfb ", ["allocate", "artillery", "break", "ld", "rolloff", "scatter", "test"]),
        ("dicecli age STR vs ch", ["challenging"]),
        ("dicecli odds wfb sc", ["scatter"]),
        ("dicecli help a", ["alkemy", "age"]),
        ("dicecli --se", ["--seed", "--set", "--setting"]),
        ("dicecli 2d6 --se", ["--seed", "--set", "--setting"]),
        ("dicecli odds --fu", ["--full"]),
    ],
)
def test_bash_completion_knows_the_games(typed: str, expected: list[str]) -> None:
    assert _complete("bash", typed) == expected


def test_the_first_word_completes_to_commands_and_keywords() -> None:
    found = _complete("bash", "dicecli ")
    assert {"roll", "odds", "repl", "help", "alkemy", "wfb", "age"} <= set(found)


def test_zsh_and_fish_completion() -> None:
    assert _complete("fish", "dicecli age STR vs h") == ["hard"]
    assert "scatter" in " ".join(_complete("zsh", "dicecli wfb sc"))


@pytest.mark.parametrize(
    "args", [["--show-completion"], ["--install-completion"], ["--show-completion", "zsh"]]
)
def test_the_completion_options_go_to_the_app_not_a_roll(args: list[str]) -> None:
    assert route(args) == args


def test_a_piped_line_may_say_how_many_times() -> None:
    # `-n3` is the --times option everywhere, a piped line too, never a name
    done = run("--given", "1,2,3,4,5", stdin="d6 -n 2\nd6 -n3\n")
    assert done.returncode == 0
    assert done.stdout == "1\td6\t[1]\n2\td6\t[2]\n3\td6\t[3]\n4\td6\t[4]\n5\td6\t[5]\n"


def test_help_in_a_pipe_is_plain_text_without_rich_s_markdown() -> None:
    """Piped or redirected, ``--help`` is click's plain text (no boxes to grep through),
    and rich's markdown and traceback renderers, which typer's rich help imports, are
    never loaded: they were twice the start-up of the grammar."""
    done = run("--help")
    assert done.stdout.startswith("Usage: dicecli [OPTIONS] COMMAND [ARGS]...")
    assert "╭" not in done.stdout
    loaded = modules_loaded_by("--help")
    assert loaded.isdisjoint({"rich.markdown", "markdown_it", "rich.traceback"})


def test_help_at_a_terminal_is_typer_s_rich_help() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "--help"],
        env={**os.environ, "TERM": "xterm", "COLUMNS": "100"},
        encoding="utf-8",
        dimensions=(60, 100),
        timeout=30,
    )
    child.expect(pexpect.EOF)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", child.before)
    assert "╭─ Options" in shown
    assert "╭─ Commands" in shown
    assert "(dicecli help alkemy)" in shown


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--json", "1d1+2"], ""),
        (["1d1", "--plain"], ""),
        (["--plain", "roll", "1d1*3"], ""),
        (["--json", "--plain", "d1"], ""),
        (["--json"], "1d1\n2d1+1 # two\n\n3d1>=1\n"),
        (["--plain"], "1d1\n1d1 >= 2\n"),
        (["--json"], "1d1\n2d6+\nd1\n"),
        (["--json", "2d6+"], ""),
        (["--json", "1d1; 2d1"], ""),
        (["--json", "1d1 >= 2"], ""),
        (["--seed", "7", "3d6", "--json"], ""),
        (["--given", "2,3", "wfb ld 8"], ""),
        (["--given", "2,3,9", "2d6"], ""),
        (["-n", "3", "--seed", "1", "d20"], ""),
        (["-n2", "--given", "1,2,3,4", "2d6"], ""),
        (["--times", "0", "d6"], ""),
        (["--seed", "1", "--times", "2"], "1d6\n2d6+\n"),
        (["--given", "1,2"], "d6\nd6 -n 1\n"),
        (["--set", "STR=1", "--seed", "4", "2D6+STR"], ""),
        (["--set", "A=2", "--set", "B=A+1", "--json", "--seed", "1"], "d6+A+B\nB\n"),
        (["--set", "atk=1d20+5", "--given", "17", "atk >= 15"], ""),
        (["--set", "STR=1", "--set", "STR=4", "--seed", "2", "age STR vs 12"], ""),
        (["--set", "STR", "2d6"], ""),
        (["--set", "d6=1", "--json", "2d6"], ""),
        (["--set", "wfb=2", "2d6"], ""),
        (["--set", "a=a+1d6", "a"], ""),
        (["--set", "A=1", "--dialect", "nope", "2d6"], ""),
        (["--set", "A=1d6", "--dialect", "roll20", "--seed", "3", "3d6>A"], ""),
    ],
)
def test_output_flags_take_the_fast_path_with_the_typer_app_s_output(
    args: list[str], stdin: str
) -> None:
    """``--json`` and ``--plain`` alone do not need the CLI framework (its start-up was a
    fifth of a 20,000-line ``--json`` pipe): the fast path gives what the typer app
    gives, output and exit status, for rolls whose dice cannot vary."""
    fast = run(*args, stdin=stdin)
    typer_app = run_bytes_in_process(args, stdin.encode(), entry=typer_run)
    assert (fast.stdout.encode(), fast.stderr.encode(), fast.returncode) == (
        typer_app.stdout,
        typer_app.stderr,
        typer_app.returncode,
    )
    assert fast.stdout or fast.stderr  # something was rolled or reported


@pytest.mark.parametrize(
    "args",
    [
        ["--json", "2D6+5"],
        ["--seed", "1", "2D6+5"],
        ["2d6", "--given", "3,4", "--plain"],
        ["--times", "2", "--json", "2d6"],
        ["-n", "3", "1d6"],
        ["1d6", "-n3", "--seed", "5"],
        ["roll", "--seed", "2", "1d8"],
    ],
)
def test_a_roll_with_the_fast_options_does_not_load_the_cli_framework(args: list[str]) -> None:
    """``--seed``, ``--given``, ``--times`` (``-n``), ``--json`` and ``--plain`` are the
    table's fast options: such a roll stays on the typer-free path."""
    assert modules_loaded_by(*args).isdisjoint(HEAVY_FOR_A_PLAIN_ROLL)


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "STR=1", "2D6+STR"],
        ["--set", "A=1", "--set", "atk=1d20+A", "atk", "--json", "--seed", "3"],
        ["--set", "STR=1", "--dialect", "roll20", "3d6>STR"],
    ],
)
def test_a_roll_with_named_values_does_not_load_the_cli_framework(args: list[str]) -> None:
    """``--set`` is a fast option too: the names it gives are checked against the games'
    keywords (so the registry is read), but typer is not loaded; the output is the typer
    app's (:func:`test_output_flags_take_the_fast_path_with_the_typer_app_s_output`)."""
    assert modules_loaded_by(*args).isdisjoint({"typer", "click", "dicecli.cli"})


def test_a_bad_fast_option_is_the_typer_app_s_to_report() -> None:
    loaded = modules_loaded_by("--seed", "x", "2d6", status="2")
    assert "dicecli.cli" in loaded


def modules_at_the_first_prompt(*args: str) -> set[str]:
    """The modules a ``dicecli ARGS`` process on a terminal has imported when the REPL
    first asks for a line (it is then given Ctrl-D)."""
    pexpect = pytest.importorskip("pexpect")
    code = (
        "import sys, prompt_toolkit\n"
        "def first_prompt(*args, **options):\n"
        "    print('MODULES', *sorted(sys.modules))\n"
        "    raise EOFError\n"
        "prompt_toolkit.PromptSession.prompt = first_prompt\n"
        "sys.argv = ['dicecli', *sys.argv[1:]]\n"
        "from dicecli.entry import main\n"
        "sys.exit(main())\n"
    )
    child = pexpect.spawn(
        sys.executable,
        ["-c", code, *args],
        env={**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"},
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    listed = [line for line in child.before.splitlines() if line.startswith("MODULES ")]
    assert len(listed) == 1, child.before
    return set(listed[0].split()[1:])


# What the REPL's first prompt does not need: the CLI framework, the terminal renderer
# (rich comes with the first result), the odds engine. Checked by module, not by time.
HEAVY_FOR_THE_FIRST_PROMPT = (
    "typer",
    "click",
    "rich",
    "dicecli.cli",
    "dicecli.render.terminal",
    "dicecli.probability",
)


@pytest.mark.parametrize(
    "args",
    [[], ["repl"], ["repl", "--seed", "1", "-n", "2", "--plain"], ["repl", "--set", "STR=3"]],
)
def test_the_repl_s_first_prompt_loads_neither_typer_nor_rich(args: list[str]) -> None:
    loaded = modules_at_the_first_prompt(*args)
    assert "prompt_toolkit" in loaded
    assert "dicecli.repl.prompt" in loaded
    assert not {m for m in loaded if m.split(".")[0] in ("typer", "click", "rich")}
    assert loaded.isdisjoint(HEAVY_FOR_THE_FIRST_PROMPT)


def test_a_repl_with_another_option_is_the_typer_app_s() -> None:
    """``--setting`` is no fast option: the typer app reads it and opens the REPL."""
    loaded = modules_at_the_first_prompt("repl", "--setting", "age.max_rolls=200")
    assert "dicecli.cli" in loaded


def test_odds_of_a_line_of_several_rolls_in_plain_and_json() -> None:
    done = run("odds", "--plain", "1d20+5 >= 15; 2d6+3")
    assert done.returncode == 0, done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("odds\t")]
    assert heads == ["odds\t1d20+5 >= 15\texact", "odds\t2d6+3\texact"]
    done = run("odds", "--json", "1d20+5 >= 15; 2d6+3")
    assert [json.loads(line)["input"] for line in done.stdout.splitlines()] == [
        "1d20+5 >= 15",
        "2d6+3",
    ]


def test_odds_of_a_saved_check_are_its_lines() -> None:
    # docs/repl.md, "Names": a saved check (--set NAME="wfb ld 8") rolls its line, and
    # its odds are that line's, as in the REPL; worked out here by counting the dice
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    leadership = Fraction(sum(total <= 8 for total in two_d6), len(two_d6))  # roll under
    attack = Fraction(sum(face + 5 >= 15 for face in range(1, 21)), 20)
    for saved, expected in (("wfb ld 8", leadership), ("d20+5 >= 15", attack)):
        done = run("odds", "--json", "--set", f"p={saved}", "p")
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        found = json.loads(done.stdout)
        assert found["input"] == saved
        assert Fraction(found["success"]["fraction"]) == expected
    done = run("odds", "--plain", "--set", "p=wfb ld 8", "p # the standard")
    assert done.returncode == 0, done.stderr
    assert f"success\t{leadership}\t" in done.stdout


# --- the app made for the run (docs/startup.md, "Two ways in, one table") -------------


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["--color", "never", "2D6+5"], "roll"),
        (["2d6", "-n3", "--debug", "--summary"], "roll"),
        (["roll", "--character", "character", "STR+d6"], "roll"),
        (["odds", "--at-least", "10", "--full", "2d6"], "odds"),
        (["table", "tables", "encounters", "--odds"], "table"),
        (["repl", "--setting", "age.max_rolls=200"], "repl"),
        (["examples", "--path", "tables"], "examples"),
        (["games", "--json"], "games"),
        # what shows help, or every command
        ([], None),
        (["--help"], None),
        (["roll", "2d6", "-h"], None),
        (["help"], None),
        (["help", "wfb"], None),
        (["--version"], None),
        (["--show-completion", "bash"], None),
        # an option the table does not give the command: perhaps a game's, or a typo
        (["--wild-die", "d8", "sw d8"], None),
        (["--seed=3", "2d6"], None),
        (["odds", "--seed", "3", "2d6"], None),
        (["roll", "--at-least", "3", "2d6"], None),
        (["roll", "2d6", "--", "--help"], None),  # read as an option, to be safe
    ],
)
def test_a_run_makes_its_command_alone_unless_it_may_show_help(
    args: list[str], command: str | None
) -> None:
    from dicecli.cli import lone_command

    assert lone_command(args) == command


def test_with_a_plugin_or_at_completion_a_run_makes_the_whole_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dicecli.cli import lone_command

    monkeypatch.setattr(registry, "_plugins_declared", lambda: True)
    assert lone_command(["--color", "never", "2d6"]) is None  # a plug-in's options are the app's
    monkeypatch.setattr(registry, "_plugins_declared", lambda: False)
    monkeypatch.setenv("_DICECLI_COMPLETE", "complete_bash")
    assert lone_command(["--color", "never", "2d6"]) is None


@pytest.mark.parametrize(
    "args",
    [
        ["--color", "never", "--seed", "3", "2D6+5"],
        ["--color", "purple", "2d6"],
        ["--seed", "x", "2d6"],
        ["--times", "0", "2d6"],
        ["--setting", "nosuch=1", "--seed", "1", "2d6"],
        ["--setting", "age.max_rolls=200", "--seed", "1", "age 2 vs 13"],
        ["--dice-file", "genesys-dice", "--seed", "1", "2dBoost"],
        ["--seed", "2", "--summary", "-n", "4", "wfb ld 8"],
        ["odds", "--at-least", "x", "2d6"],
        ["odds", "--plain", "--at-least", "10", "2d6+3"],
        ["examples", "--path", "nosuch"],
        ["games", "--json"],
        ["table", "--seed", "1", "tables", "nosuch"],
    ],
)
def test_the_lone_command_says_what_the_whole_app_says(args: list[str]) -> None:
    from dicecli.cli import lone_command

    command = lone_command(args)
    assert command is not None
    alone = runner.invoke(typer_app(command), route(args, ()))
    whole = runner.invoke(typer_app(), route(args))
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)


def test_a_roll_on_the_typer_app_loads_no_game_while_help_loads_every_one() -> None:
    declarations = {*registry.BUILT_IN, "dicecli.systems.declaration"}
    loaded = modules_loaded_by("--color", "never", "2D6+5")
    assert "typer" in loaded
    assert loaded.isdisjoint(declarations)
    assert declarations <= modules_loaded_by("--help")
