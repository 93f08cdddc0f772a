"""The way in (:mod:`dicecli.entry`, :mod:`dicecli.command_line`): the one table of
commands and options against the typer app, the router, the one function from an
exception to an exit status, and the process's hostile surroundings (issue 24): a closed
stdout, a full disk, an output encoding that cannot carry every character, a plug-in
that ends the program on import, the shell's start-up file."""

from __future__ import annotations

import errno
import gc
import inspect
import json
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from processes import run_dicecli, run_in_process

from dicecli import entry, shell_completion
from dicecli.app import RunOptions
from dicecli.cli import ABORT, USAGE_ERROR, command_names, game_options, typer_app
from dicecli.command_line import (
    APP_OPTIONS,
    COMMANDS,
    COMPLETION_OPTIONS,
    OPTIONS,
    SPELLINGS,
    is_option,
    route,
)
from dicecli.status import ExitStatus, Interrupted, Terminated
from dicecli.systems import registry
from dicecli.systems.declaration import CORE_FLAGS

DICECLI = [sys.executable, "-m", "dicecli"]

# --- the one table and the typer app --------------------------------------------------


def _command_params(name: str) -> list[Any]:
    group: Any = typer.main.get_command(typer_app())
    return list(group.commands[name].params)


def _spellings(param: Any) -> set[str]:
    return {*param.opts, *param.secondary_opts}


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_exactly_the_options_the_table_gives_it(command: str) -> None:
    game_flags = {option.flag for option in game_options()}
    params = [p for p in _command_params(command) if p.param_type_name == "option"]
    declared = {s for p in params for s in _spellings(p)} - game_flags - {"-h", "--help"}
    listed = {s for option in OPTIONS if command in option.commands for s in option.spellings}
    assert declared == listed


@pytest.mark.parametrize("command", COMMANDS)
def test_the_table_says_which_options_take_a_value(command: str) -> None:
    by_spelling = {s: option for option in OPTIONS for s in option.spellings}
    for param in _command_params(command):
        for spelling in _spellings(param) & set(by_spelling):
            assert by_spelling[spelling].takes_value == (not param.is_flag), spelling


def test_the_table_lists_the_commands_and_the_programs_own_options() -> None:
    assert command_names() == COMMANDS
    group: Any = typer.main.get_command(typer_app())
    own = {s for p in group.params for s in _spellings(p)}
    assert own | set(group.context_settings["help_option_names"]) == set(APP_OPTIONS)


def test_the_flags_a_game_may_not_take_are_the_tables() -> None:
    assert set(SPELLINGS - set(COMPLETION_OPTIONS)) == CORE_FLAGS


@pytest.mark.parametrize(
    ("word", "option"),
    [
        ("--seed", True),
        ("--sedd", True),  # a typo is an option, reported as unknown
        ("--times=3", True),
        ("-n", True),
        ("-n3", True),
        ("-h", True),
        ("--15", False),
        ("--(d6)", False),
        ("-7/2", False),
        ("-1", False),
        ("2d6", False),
    ],
)
def test_what_reads_as_an_option(word: str, option: bool) -> None:
    assert is_option(word) is option


def test_a_roll_with_two_minuses_is_a_roll_on_every_path() -> None:
    """README: a roll that starts with a minus works as it is (issue 24)."""
    assert route(["--15"]).words == ["--15"]
    for args in (["--15"], ["--plain", "--15"], ["--seed", "1", "--15"], ["roll", "--15"]):
        done = run_in_process(*args)
        assert (done.returncode, done.stdout, done.stderr) == (0, "15\t--15\t-(-15)\n", "")
    assert run_in_process("odds", "--plain", "--15").stdout.startswith("odds\t--15\texact\n")


def test_a_mistyped_option_is_still_a_usage_error() -> None:
    done = run_in_process("--sedd", "3", "2d6")
    assert done.returncode == ExitStatus.BAD_INPUT
    assert done.stderr.startswith("error: No such option: --sedd")


@pytest.mark.parametrize(
    ("args", "fast"),
    [
        (["2d6"], {}),
        (["--json", "2d6"], {"json": True}),
        (["roll", "--plain", "2d6"], {"plain": True}),
        (["-7/2"], {}),
        (["--seed", "1", "2d6"], {"seed": 1}),
        (["2d6", "--given", "3,4", "--json"], {"given": "3,4", "json": True}),
        (["2d6", "-n", "3"], {"times": 3}),
        (["2d6", "-n3"], {"times": 3}),
        (["--times", "2", "2d6", "-n", "4"], {"times": 4}),  # the last one counts
        (["--seed", "1", "--seed", "2", "2d6"], {"seed": 2}),
        (["--seed", "x", "2d6"], None),  # the typer app reports it
        (["--seed", "-1", "2d6"], None),
        (["--given", "--json", "2d6"], None),  # a value missing
        (["2d6", "--times"], None),
        (["--seed=1", "2d6"], None),
        (["--set", "STR=1", "2d6"], {"sets": ["STR=1"]}),
        (["--set", "A=1", "2d6+A+B", "--set", "B=A+1"], {"sets": ["A=1", "B=A+1"]}),
        (["--set", "--json", "2d6"], None),  # a value missing
        (["--setting", "age.max_rolls=200", "2d6"], None),
        (["odds", "2d6"], None),
        (["repl", "--seed", "1"], None),
        (["--help"], None),
        (["--dialect", "roll20", "2d6"], {"dialect": "roll20"}),
        (["2d6", "--json", "--dialect", "foundry"], {"json": True, "dialect": "foundry"}),
        (["--dialect", "roll20", "--seed", "1", "2d6"], {"dialect": "roll20", "seed": 1}),
        (["2d6", "--dialect"], None),  # no value: the typer app says so
        (["--character", "character", "d20+STR"], {"character": "character"}),
        (["--character", "a.toml", "2d6", "--character", "b"], {"character": "b"}),
        (["--character", "c", "--set", "A=1", "d6"], {"character": "c", "sets": ["A=1"]}),
        (["2d6", "--character"], None),  # no value: the typer app says so
        (["--character", ".", "2d6"], None),  # a folder: the app refuses it, as click does
    ],
)
def test_the_typer_free_path_reads_the_fast_options_of_the_table(
    args: list[str], fast: dict[str, object] | None
) -> None:
    assert route(args).fast_options() == fast


def test_every_fast_option_is_a_run_option_read_as_the_typer_app_reads_it() -> None:
    """The typer-free path gives each fast option to ``RunOptions`` under its name (or
    to the environment), reads a whole number where the app's parameter is one, and
    keeps every value of an option the app takes more than once."""
    fields = set(inspect.signature(RunOptions).parameters)
    for option in OPTIONS:
        for command in option.commands:
            params = {p.name: p for p in _command_params(command)}
            assert (params[option.name].type.name == "int") is option.number, option.name
            assert params[option.name].multiple is option.repeatable, option.name
            if option.fast:  # a file's path the app refuses is left to the app
                refuses_folders = getattr(params[option.name].type, "dir_okay", True) is False
                assert refuses_folders is option.file, option.name
        if option.fast and not option.in_environment:
            assert option.name in fields, option.name
        if option.fast:
            assert "roll" in option.commands, option.name


# --- one function from an exception to an exit status ---------------------------------


def _exit_via_pipe() -> SystemExit:
    try:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")
    except BrokenPipeError:
        try:
            sys.exit(1)  # as the CLI framework ends when the reader left
        except SystemExit as done:
            return done
    raise AssertionError("unreachable")


def _usage_error() -> Exception:
    return USAGE_ERROR("No such option: --sedd")


@pytest.mark.parametrize(
    ("error", "status", "message"),
    [
        (BrokenPipeError(errno.EPIPE, "Broken pipe"), 0, ""),
        (_exit_via_pipe(), 0, ""),
        (KeyboardInterrupt(), 130, ""),
        (Interrupted(), 130, ""),
        (ABORT(), 130, ""),
        (Terminated(), 143, ""),
        (OSError(errno.ENOSPC, "No space left on device"), 74, "error: cannot write the "),
        (SystemExit(5), 5, ""),
        (SystemExit(None), 0, ""),
        (SystemExit("gone"), 1, "gone\n"),
        (_usage_error(), 2, "error: No such option: --sedd (see dicecli --help)\n"),
        (RuntimeError("boom"), 70, "internal error (RuntimeError: boom); please report it"),
    ],
)
def test_every_ending_has_its_exit_status(
    error: BaseException, status: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # capsys: stdout is no real file, so a closed pipe's /dev/null is not the test run's
    assert entry.exit_status(error) == status
    told = capsys.readouterr().err
    assert told.startswith(message)
    assert (told == "") is (message == "")


def test_debug_shows_the_traceback_of_an_internal_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        entry.exit_status(RuntimeError("boom"), debug=True)


# --- the process's streams ------------------------------------------------------------


def _run_closed(args: list[str], descriptor: int, **env: str) -> subprocess.CompletedProcess[str]:
    """``dicecli ARGS`` with the standard stream ``descriptor`` closed."""
    return subprocess.run(
        [*DICECLI, *args],
        stdin=subprocess.DEVNULL if descriptor != 0 else None,
        capture_output=descriptor not in (1, 2),
        stdout=subprocess.PIPE if descriptor == 2 else None,
        stderr=subprocess.PIPE if descriptor == 1 else None,
        text=True,
        env={**os.environ, **env},
        preexec_fn=lambda: os.close(descriptor),
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [["2d6"], ["roll", "2d6"], ["--seed", "1", "2d6"], ["odds", "2d6"], ["--help"], ["--json"]],
)
def test_a_closed_stdout_is_a_write_error_in_one_line(args: list[str]) -> None:
    """Issue 24: an AttributeError on None (exit 70) on every path."""
    done = _run_closed(args, 1)
    assert done.returncode == ExitStatus.WRITE_ERROR
    assert done.stderr == "error: cannot write the output: stdout is closed\n"


def test_a_closed_stdin_reads_as_empty_and_a_closed_stderr_is_silent() -> None:
    assert _run_closed([], 0).returncode == ExitStatus.OK
    given = _run_closed(["--given", "2,3", "2d6"], 0)
    assert (given.returncode, given.stdout) == (0, "5\t2d6\t[2, 3]\n")
    bad = _run_closed(["2d6+"], 2)
    assert (bad.returncode, bad.stdout) == (ExitStatus.BAD_INPUT, "")


@pytest.mark.parametrize(
    "args",
    [["odds", "2d6"], ["odds", "--json", "2d6"], ["2d6"], ["help"], ["table", "--help"]],
)
def test_a_full_disk_is_74_with_python_buffering_the_output(args: list[str]) -> None:
    """Issue 24: with stdout buffered (no PYTHONUNBUFFERED) odds ended as 120 and
    Python's "Exception ignored"."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*DICECLI, *args], stdout=full, stderr=subprocess.PIPE, env=environ, timeout=60
        )
    assert done.returncode == ExitStatus.WRITE_ERROR
    assert done.stderr == b"error: cannot write the output: No space left on device\n"


# --- encodings that cannot carry every character --------------------------------------


def _encoded(args: list[str], **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*DICECLI, *args],
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1", **env},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_plain_output_on_an_encoding_without_the_symbols(encoding: str) -> None:
    """Issue 24: UnicodeEncodeError (exit 70). Rule W1: 5 is at most Ld 8, a pass."""
    done = _encoded(["--given", "2,3", "wfb ld 8 # é≤"], PYTHONIOENCODING=encoding)
    assert (done.returncode, done.stderr) == (0, b"")
    e_acute = "é".encode(encoding, "backslashreplace")
    assert done.stdout == b"5\twfb ld 8 # %s<=\tLd 8: [2, 3] => pass (5 <= 8) # %s<=\n" % (
        e_acute,
        e_acute,
    )


def test_json_on_an_ascii_output_is_the_same_json() -> None:
    args = ["--json", "--given", "2,3", "wfb ld 8 # é≤ 😀"]
    ascii_run = _encoded(args, PYTHONIOENCODING="ascii")
    utf8_run = _encoded(args, PYTHONIOENCODING="utf-8")
    assert ascii_run.returncode == 0
    assert ascii_run.stdout.isascii()
    assert json.loads(ascii_run.stdout) == json.loads(utf8_run.stdout)


def test_odds_and_errors_on_an_ascii_output() -> None:
    odds = _encoded(["odds", "--plain", "2d6 # ≤"], PYTHONIOENCODING="ascii")
    assert (odds.returncode, odds.stderr) == (0, b"")
    assert odds.stdout.startswith(b"odds\t2d6 # <=\texact\n")
    error = _encoded(["2d6+ # ⚠"], PYTHONIOENCODING="ascii")
    assert error.returncode == ExitStatus.BAD_INPUT
    assert error.stderr.isascii()
    assert b"2d6+ # !" in error.stderr


def test_a_c_locale_with_other_bytes_in_a_comment() -> None:
    """Issue 24: ``LC_ALL=C PYTHONUTF8=0`` and a comment with bytes that are not ASCII."""
    done = subprocess.run(
        [*DICECLI, "--given", "4", "d6 # caf\N{LATIN SMALL LETTER E WITH ACUTE}".encode()],
        capture_output=True,
        env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == b"4\td6 # caf\\xe9\t[4] # caf\\xe9\n"


def test_the_terminal_on_an_ascii_output() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "--given", "2,3", "wfb ld 8 # é≤"],
        env={**os.environ, "PYTHONIOENCODING": "ascii", "TERM": "xterm", "COLUMNS": "100"},
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = child.before
    assert shown.isascii()
    assert b"5 <= 8" in shown
    assert b"\\xe9<=" in shown


# --- plug-ins that end the program on import ------------------------------------------

ENDS_ON_IMPORT = {
    "exits": "import sys\nsys.exit(5)\n",
    "interrupts": "raise KeyboardInterrupt\n",
}


@pytest.fixture(params=sorted(ENDS_ON_IMPORT))
def ending_plugin(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """A folder on PYTHONPATH holding a plug-in distribution whose game module ends
    the program on import; the environment to run dicecli with it."""
    name = f"ends_{request.param}"
    (tmp_path / f"{name}.py").write_text(ENDS_ON_IMPORT[request.param])
    info = tmp_path / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[dicecli.games]\n{name} = {name}:GAME\n")
    return {"PYTHONPATH": str(tmp_path), "plugin": name}


def test_a_plugin_that_ends_the_program_on_import_is_left_out(
    ending_plugin: dict[str, str],
) -> None:
    """Issue 24: ``--help`` and every line starting with an unknown word exited 5 (or
    130) in silence."""
    name = ending_plugin.pop("plugin")
    help_run = run_dicecli("--help", env=ending_plugin)
    assert help_run.returncode == ExitStatus.OK
    assert "Usage: dicecli" in help_run.stdout
    warnings = help_run.stderr.splitlines()
    assert len(warnings) == 1
    assert warnings[0].startswith(
        f"warning: dicecli game plug-in {name} ({name}:GAME, from {name} 0.1) left out"
    )
    word = run_dicecli("--plain", "foo 2d6", env=ending_plugin)
    assert word.returncode == ExitStatus.BAD_INPUT
    assert word.stderr.startswith(
        f"warning: dicecli game plug-in {name} ({name}:GAME, from {name} 0.1)"
    )
    assert word.stderr.splitlines()[1] == "error: unexpected '2d6'"
    game = run_dicecli("--given", "2,3", "wfb ld 8", env=ending_plugin)
    assert (game.returncode, game.stdout) == (0, "5\twfb ld 8\tLd 8: [2, 3] => pass (5 ≤ 8)\n")


class _Point:
    """An entry point whose load raises ``error``."""

    def __init__(self, error: BaseException) -> None:
        self.name, self.value, self.error = "stops", "stops:GAME", error

    def load(self) -> object:
        raise self.error


@pytest.fixture
def plugin_raising(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """Plug-ins found in-process whose load raises what the test puts in the list."""
    import importlib.metadata

    errors: list[BaseException] = []
    monkeypatch.setattr(registry, "_plugins_declared", lambda: True)
    monkeypatch.setattr(
        importlib.metadata, "entry_points", lambda group: [_Point(e) for e in errors]
    )
    registry.reset()
    yield errors
    registry.reset()


def test_ctrl_c_while_plugins_load_still_ends_the_run(
    plugin_raising: list[BaseException],
) -> None:
    plugin_raising.append(Interrupted())
    with pytest.raises(Interrupted):
        registry.games()


def test_a_plugins_own_keyboard_interrupt_leaves_the_built_in_games(
    plugin_raising: list[BaseException], capsys: pytest.CaptureFixture[str]
) -> None:
    plugin_raising.append(KeyboardInterrupt())
    assert len(registry.games()) == len(registry.BUILT_IN)
    assert "left out: it could not be loaded (KeyboardInterrupt" in capsys.readouterr().err


# --- the shell's start-up file --------------------------------------------------------


def _install(home: Path, shell: str) -> subprocess.CompletedProcess[str]:
    return run_dicecli(
        "--install-completion",
        shell,
        env={"HOME": str(home), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"},
    )


def _typer_install(home: Path, shell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What typer's own installer writes into ``home``."""
    monkeypatch.setenv("HOME", str(home))
    shell_completion._TYPER_INSTALL(
        shell=shell, prog_name="dicecli", complete_var="_DICECLI_COMPLETE"
    )


def _files(home: Path) -> dict[str, str]:
    return {
        str(path.relative_to(home)): path.read_text().replace(str(home), "~")
        for path in sorted(home.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_is_installed_as_typer_installs_it(
    shell: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, typers = tmp_path / "ours", tmp_path / "typers"
    for home in (ours, typers):
        home.mkdir()
        (home / ".bashrc").write_text("alias ll='ls -l'\n")
        (home / ".zshrc").write_text("setopt autocd\n")
    done = _install(ours, shell)
    assert done.returncode == 0, done.stderr
    assert "completion installed in" in done.stdout
    _typer_install(typers, shell, monkeypatch)
    assert _files(ours) == _files(typers)


def test_the_start_up_file_keeps_its_mode_and_its_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "bashrc"
    real.write_text("export EDITOR=vi\n")
    real.chmod(0o600)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").symlink_to(real)
    assert _install(home, "bash").returncode == 0
    assert (home / ".bashrc").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert real.read_text().startswith("export EDITOR=vi\n")
    assert "source '" in real.read_text()


def test_a_full_disk_leaves_the_start_up_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: a full disk left ~/.bashrc with a stray line and an empty block."""
    rc = tmp_path / ".bashrc"
    rc.write_text("alias ll='ls -l'\n")
    monkeypatch.setenv("HOME", str(tmp_path))

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        shell_completion.install("bash")
    assert rc.read_text() == "alias ll='ls -l'\n"
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [".bashrc"]


# --- the garbage collector ------------------------------------------------------------


def test_the_entry_point_collects_young_objects_less_often_after_start_up() -> None:
    code = textwrap.dedent(
        """
        import gc, sys
        sys.argv = ["dicecli", "--plain", "1d1"]
        from dicecli.entry import main
        status = main()
        print(status, gc.get_threshold()[0], gc.isenabled(), file=sys.stderr)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stderr.split() == ["0", str(entry.YOUNG_OBJECTS_PER_COLLECTION), "True"]


def test_called_with_arguments_the_collector_is_left_as_it_was(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    assert entry.main(["--plain", "1d1"]) == 0
    assert capsys.readouterr().out == "1\t1d1\t[1]\n"
    assert gc.get_threshold() == before
    assert gc.isenabled()
    # nothing frozen: in the fuzz run's workers each call froze its garbage for good
    assert gc.get_freeze_count() == frozen


def test_called_in_process_over_and_over_the_garbage_is_collected(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24's fuzz run calls the entry point a million times in one process: its
    peak memory grew by gigabytes while each call froze what it left behind. No call
    in-process freezes anything (counted at ``gc.freeze`` itself: the process-wide
    count of frozen objects is the whole test run's, which other tests move)."""
    freezes: list[None] = []
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(None))
    for line in ("2d6", "1d20+5 # attack", "odds 3d6", "4d6kh3 -n 2"):
        assert entry.main(["--plain", *line.split()]) == 0
    for _ in range(50):
        assert entry.main(["--json", "--seed", "1", "{2d6, 1d8}kh1 + 3"]) == 0
    capsys.readouterr()
    assert freezes == []
