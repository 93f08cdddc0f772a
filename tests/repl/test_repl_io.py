"""The REPL around handle_line: rendering, completion, the history file, and
``run_repl`` reading a script when stdin is not a terminal."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, InMemoryHistory

from dicecli.app import RunOptions, Streams
from dicecli.environment import Environment
from dicecli.errors import DiceSyntaxError
from dicecli.render.plain import PlainRenderer
from dicecli.repl.commands import handle_line
from dicecli.repl.completion import completions, current_word
from dicecli.repl.prompt import (
    MAX_HISTORY_BYTES,
    ReplCompleter,
    _Current,
    history_path,
    open_history,
    run_repl,
)
from dicecli.repl.state import (
    Message,
    Problem,
    ReplState,
    Summary,
    render_output,
    start_state,
)
from dicecli.rolling.sources import GivenSource, Roller
from dicecli.status import ExitStatus


def session(env: Environment | None = None) -> ReplState:
    return start_state(Roller(GivenSource([])), env or Environment())


# Rendering.


def test_render_output_writes_rolls_messages_and_errors() -> None:
    state = start_state(Roller(GivenSource(["3", "4"])))
    _, output = handle_line(state, "2d6+1")
    out, err = io.StringIO(), io.StringIO()
    items = (
        *output,
        Message("STR = 3"),
        Problem(DiceSyntaxError("expected a number", "2d6+", 4)),
    )
    render_output(items, PlainRenderer(out), out, err)
    assert out.getvalue() == "8\t2d6+1\t[3, 4] + 1\nSTR = 3\n"
    assert err.getvalue() == "error: expected a number\n  2d6+\n      ^\n"


def test_summaries_show_only_when_asked() -> None:
    state = start_state(Roller(GivenSource(["1", "2"])), times=2)
    _, output = handle_line(state, "d6")
    assert isinstance(output[-1], Summary)
    quiet, loud = io.StringIO(), io.StringIO()
    render_output(output, PlainRenderer(quiet), quiet, quiet, summaries=False)
    render_output(output, PlainRenderer(loud), loud, loud, summaries=True)
    assert "2 rolls" not in quiet.getvalue()
    assert "2 rolls: total 3, min 1, max 2" in loud.getvalue()


# Tab completion.


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("ag", ["again", "age"]),
        ("AL", ["alkemy"]),
        ("re", ["reroll"]),
        ("age STR+2 vs ch", ["challenging"]),
        ("age St", ["STR"]),
        ("wfb ar", ["artillery"]),
        ("wfb roll", ["rolloff"]),
        ("alkemy 8 ye", ["yellow"]),
        ("alkemy 8 +1 bo", ["bonus"]),
        ("age DEX+fo", ["focus", "formidable"]),
        ("help a", ["age", "alkemy"]),
        ("load ", []),
        ("save x", []),
        ("let ", []),
    ],
)
def test_completions(typed: str, expected: list[str]) -> None:
    assert completions(session(), typed) == expected


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("age ", ["ACC", "COM", "CON", "CUN", "DEX", "FGT", "INT", "MAG", "PER", "STR", "WIL"]),
        ("age STR+2 vs i", ["imposing"]),
        ("age STR+2 vs a", ["age", "average"]),  # a difficulty, or an opposed side
        ("wfb ", ["allocate", "artillery", "break", "ld", "rolloff", "scatter", "test"]),
        ("wfb scatter ", ["artillery"]),
        ("alkemy 8 vs ", ["alkemy"]),
        ("odds wfb ar", ["artillery"]),
        ("let hit = age STR vs ch", ["challenging"]),
        ("let shot = 2d6+ar", ["artillery"]),  # a saved roll may hold a game's die
        ("2d6+ar", []),  # a plain roll cannot
        ("age STR vs ye", []),  # Alkemy's health state: another game's word
        ("alkemy 8 vs ha", []),  # an AGE difficulty
        ("wfb v", []),
    ],
)
def test_completions_know_the_game_and_the_word_before(typed: str, expected: list[str]) -> None:
    assert completions(session(), typed) == expected


def test_completions_offer_the_users_names() -> None:
    state, _ = handle_line(session(), "let attack = 1d20+5")
    state, _ = handle_line(state, "let Armour = 3")
    assert completions(state, "2d6+att") == ["attack"]
    assert completions(state, "unlet ") == ["Armour", "attack"]
    assert completions(state, "a") == ["again", "age", "alkemy", "Armour", "attack"]


def test_completions_of_an_empty_line_start_with_commands_and_games() -> None:
    words = completions(session(), "")
    for word in ("let", "again", "reroll", "keep", "help", "quit", "alkemy", "wfb", "age"):
        assert word in words


def test_the_current_word() -> None:
    assert current_word("2d6+att") == "att"
    assert current_word("age STR+2 vs nigh-im") == "nigh-im"
    assert current_word("2d6 ") == ""


def test_the_completer_replaces_the_word_being_typed() -> None:
    completer = ReplCompleter(_Current(session()))
    found = list(completer.get_completions(Document("wfb scat"), CompleteEvent()))
    assert [(c.text, c.start_position) for c in found] == [("scatter", -4)]


def test_the_completer_completes_paths_after_load(tmp_path: Path) -> None:
    (tmp_path / "hero.toml").write_text("")
    completer = ReplCompleter(_Current(session()))
    typed = f"load {tmp_path}/he"
    found = list(completer.get_completions(Document(typed), CompleteEvent()))
    assert [c.text for c in found] == ["ro.toml"]


def test_the_completer_offers_no_name_a_terminal_would_show_raw(tmp_path: Path) -> None:
    # docs/limits.md: file text never reaches the terminal raw; a right-to-left
    # override or a line separator in a file's name was written by the menu as it was
    for odd in ("he\u202ex.toml", "he\u2028y.toml"):
        (tmp_path / odd).write_text("")
    (tmp_path / "hero.toml").write_text("")
    completer = ReplCompleter(_Current(session()))
    found = list(completer.get_completions(Document(f"load {tmp_path}/he"), CompleteEvent()))
    assert [c.text for c in found] == ["ro.toml"]


# The history file.


def test_history_follows_xdg_state_home() -> None:
    path = history_path({"XDG_STATE_HOME": "/state"}, "linux", Path("/home/me"))
    assert path == Path("/state/dicecli/history")


@pytest.mark.parametrize("state_home", [None, "", "relative/path"])
def test_history_defaults_to_local_state(state_home: str | None) -> None:
    environ = {} if state_home is None else {"XDG_STATE_HOME": state_home}
    path = history_path(environ, "linux", Path("/home/me"))
    assert path == Path("/home/me/.local/state/dicecli/history")


def test_history_on_macos() -> None:
    path = history_path({}, "darwin", Path("/Users/me"))
    assert path == Path("/Users/me/Library/Application Support/dicecli/history")


def test_history_on_windows() -> None:
    path = history_path({"LOCALAPPDATA": "/appdata"}, "win32", Path("/home/me"))
    assert path == Path("/appdata/dicecli/history")


def test_open_history_creates_the_folder(tmp_path: Path) -> None:
    path = tmp_path / "state" / "dicecli" / "history"
    history, why = open_history(path)
    assert isinstance(history, FileHistory)
    assert why is None
    assert path.parent.is_dir()


def test_history_falls_back_to_memory_when_the_folder_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    history, why = open_history(blocker / "dicecli" / "history")
    assert isinstance(history, InMemoryHistory)
    assert why is not None
    assert "history not saved" in why


def test_a_new_history_file_is_readable_by_the_user_only(tmp_path: Path) -> None:
    path = tmp_path / "dicecli" / "history"
    open_history(path)
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_history_path_that_is_not_a_regular_file_is_set_aside(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (tmp_path, fifo, Path("/dev/zero"), Path("/dev/null")):
        history, why = open_history(path)
        assert isinstance(history, InMemoryHistory)
        assert why == f"history not saved: {path} is not a regular file"


def test_a_huge_history_file_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "history"
    with path.open("wb") as file:
        file.truncate(MAX_HISTORY_BYTES + 1)
    history, why = open_history(path)
    assert isinstance(history, InMemoryHistory)
    assert why == f"history not saved: {path} is larger than 16,777,216 bytes"


# run_repl with a script on stdin.


def run_script(text: str, options: RunOptions) -> tuple[ExitStatus, str, str]:
    streams = Streams(io.StringIO(text), io.StringIO(), io.StringIO())
    status = run_repl(options, streams)
    assert isinstance(streams.stdout, io.StringIO)
    assert isinstance(streams.stderr, io.StringIO)
    return status, streams.stdout.getvalue(), streams.stderr.getvalue()


def test_a_script_is_handled_line_by_line() -> None:
    script = "let STR = 3\nd6+STR\nagain\n"
    status, out, err = run_script(script, RunOptions(given="2,5"))
    assert status == ExitStatus.OK
    assert out.splitlines() == ["STR = 3", "5\td6+STR\t[2] + STR(3)", "8\td6+STR\t[5] + STR(3)"]
    assert err == ""


def test_a_bad_line_in_a_script_is_reported_and_the_rest_runs() -> None:
    status, out, err = run_script("d6\n\n2d6+\nd6\n", RunOptions(given="3,4"))
    assert status == ExitStatus.BAD_INPUT
    assert out == "3\td6\t[3]\n4\td6\t[4]\n"
    assert err.startswith("line 3: error: expected")  # blank lines count, as in piped mode


def test_quit_ends_a_script() -> None:
    status, out, _ = run_script("d6\nquit\nd6\n", RunOptions(given="4"))
    assert status == ExitStatus.OK
    assert out == "4\td6\t[4]\n"


def test_given_faces_left_over_are_reported() -> None:
    status, _, err = run_script("d6\n", RunOptions(given="4,5"))
    assert status == ExitStatus.BAD_INPUT
    assert "too many dice given" in err


def test_json_mode_keeps_stdout_json() -> None:
    _status, out, err = run_script("let STR = 3\nd6\n", RunOptions(given="4", json=True))
    assert [json.loads(line)["total"] for line in out.splitlines()] == [4]
    assert err == "STR = 3\n"


def test_json_mode_reports_each_error_as_a_json_object() -> None:
    # docs/json.md: with --json, an error is one JSON object on its own line on stderr
    status, out, err = run_script("d6\nbad+\n", RunOptions(given="4", json=True))
    assert status == ExitStatus.BAD_INPUT
    assert [json.loads(line)["total"] for line in out.splitlines()] == [4]
    assert json.loads(err) == {
        "error": "expected a number, dice such as 2d6, '(' or a name at the end",
        "input": "bad+",
        "position": 4,
        "hint": None,
        "line": 2,
    }


def test_a_bad_times_is_refused() -> None:
    status, _, err = run_script("d6\n", RunOptions(times=0))
    assert status == ExitStatus.BAD_INPUT
    assert "--times" in err


def test_names_from_the_options_are_known() -> None:
    options = RunOptions(given="1", environment=Environment(values={"Ld": 8}))
    _status, out, _ = run_script("d6+Ld\n", options)
    assert out.startswith("9\t")


class _TerminalOut(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_script_to_a_terminal_shows_each_line_it_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    # `dicecli repl < evening.txt` at a terminal: the lines are not on the screen, so
    # each result starts with its line (typed at the prompt, it would not).
    monkeypatch.delenv("TERM", raising=False)
    out, err = _TerminalOut(), io.StringIO()
    status = run_repl(RunOptions(given="3,4"), Streams(io.StringIO("2d6\n"), out, err))
    assert status == ExitStatus.OK
    assert re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()) == "2d6: [3, 4] = 7\n"


def test_an_existing_history_file_open_to_others_is_made_the_users_only(tmp_path: Path) -> None:
    path = tmp_path / "history"
    path.write_text("\n# earlier\n+2d6\n", encoding="utf-8")
    path.chmod(0o644)
    history, why = open_history(path)
    assert why is None
    assert path.stat().st_mode & 0o777 == 0o600
    assert list(history.load_history_strings()) == ["2d6"]  # kept, not emptied


def test_a_symlinked_history_file_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("mine\n", encoding="utf-8")
    target.chmod(0o644)
    path = tmp_path / "history"
    path.symlink_to(target)
    history, why = open_history(path)
    assert isinstance(history, InMemoryHistory)
    assert why == f"history not saved: {path} is a symbolic link"
    history.append_string("2d6")
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert target.stat().st_mode & 0o777 == 0o644


def test_a_history_file_swapped_for_a_symlink_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "history"
    history, _ = open_history(path)
    history.append_string("2d6")
    target = tmp_path / "notes.txt"
    target.write_text("mine\n", encoding="utf-8")
    path.unlink()
    path.symlink_to(target)  # after the file was checked: the write must not follow it
    history.append_string("3d6")
    history.append_string("4d6")
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert capsys.readouterr().err.count("history not saved: cannot write") == 1  # once


def test_history_written_is_read_back_as_prompt_toolkit_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "history"
    history, _ = open_history(path)
    history.append_string("2d6 # one")
    history.append_string("let a = 1\nd6")
    again, _ = open_history(path)
    assert list(again.load_history_strings()) == ["let a = 1\nd6", "2d6 # one"]
    assert path.stat().st_mode & 0o777 == 0o600
