"""The interactive REPL: a prompt_toolkit loop around :func:`dicecli.repl.commands.handle_line`.

This module only does what needs a terminal: the prompt, line editing, the history file,
tab completion and Ctrl-C / Ctrl-D. What a line means lives in
:mod:`dicecli.repl.state` and :mod:`dicecli.repl.commands`, tested without a terminal.
prompt_toolkit (slow to import) is imported here only, and this module is
imported only for ``dicecli repl``, so a plain roll never pays for it.

When stdin is not a terminal (``dicecli repl < evening.txt``), the lines are read
without prompt_toolkit and handled the same way: a script of REPL lines.
"""

from __future__ import annotations

import datetime
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from dicecli.app import RunOptions, Session, Streams, batches, open_session
from dicecli.command_line import VERSION
from dicecli.errors import DiceError, PluginError
from dicecli.escape import escaped, readable
from dicecli.repl.commands import handle_line
from dicecli.repl.completion import completions, current_word
from dicecli.repl.state import Output, Problem, ReplState, render_output, start_state
from dicecli.status import ExitStatus
from dicecli.systems import registry

PROMPT = "dice> "

OUTPUT_CANCELLED = "cancelled: the rest of the output is not shown (the rolls were made)"
"""Said when Ctrl-C stops a long output: the session, its names and its rolls go on."""


BANNER_GAMES = 3
"""How many built-in games the banner shows an example line of; ``help`` lists all."""


def banner() -> str:
    """The first line of an interactive session: an example line of the first built-in
    games and of every plug-in's game (escaped), and how many more games there are."""
    games = registry.games()
    built_in = len(registry.BUILT_IN)
    shown = (*games[:BANNER_GAMES], *games[built_in:])
    examples = ["2d6+5", *(escaped(game.example) for game in shown)]
    more = len(games) - len(shown)
    if more:
        examples.append(f"{more} more game{'s' if more > 1 else ''}")
    return f"dicecli {VERSION}: type a roll ({', '.join(examples)}), help, or Ctrl-D to leave."


PATH_COMMANDS = ("load", "save")


def history_path(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """Where the line history is kept: the platform's per-user state folder, never the
    current folder. Linux and others: ``$XDG_STATE_HOME/dicecli/history`` (default
    ``~/.local/state``); macOS: ``~/Library/Application Support/dicecli/history``;
    Windows: ``%LOCALAPPDATA%\\dicecli\\history``."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform == "win32":
        base = Path(environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        state_home = environ.get("XDG_STATE_HOME", "")
        # The XDG spec: a relative path is invalid and must be ignored.
        base = Path(state_home) if os.path.isabs(state_home) else home / ".local" / "state"
    return base / "dicecli" / "history"


MAX_HISTORY_BYTES = 16 << 20
"""Largest history file read at start (16 MiB, hundreds of thousands of lines)."""


_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Opening a symbolic link fails (POSIX); Windows has no such flag, and its links need
rights a user seldom has."""


def open_history(path: Path) -> tuple[History, str | None]:
    """The history file, its folder created, the file readable by the user only (what
    is typed is nobody else's business: a file found with wider permissions is made
    0600); in memory (and why) when it cannot be used: a symbolic link (never followed:
    it could point at any file of the user's), not a regular file (a folder, a device,
    a FIFO: never opened), too large, or not creatable."""
    shown = escaped(str(path))
    not_regular = f"history not saved: {shown} is not a regular file"
    try:
        if path.exists() and not path.is_file():
            return InMemoryHistory(), not_regular
        if path.is_symlink():
            return InMemoryHistory(), f"history not saved: {shown} is a symbolic link"
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        flags = os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK | _NO_FOLLOW
        descriptor = os.open(path, flags, 0o600)
        try:
            found = os.fstat(descriptor)
            wider = stat.S_ISREG(found.st_mode) and stat.S_IMODE(found.st_mode) & 0o077
            if wider and hasattr(os, "fchmod"):
                os.fchmod(descriptor, 0o600)
        finally:
            os.close(descriptor)
    except OSError as error:
        why = f"history not saved: cannot use {shown} ({error.strerror or error})"
        return InMemoryHistory(), why
    if not stat.S_ISREG(found.st_mode):
        return InMemoryHistory(), not_regular
    if found.st_size > MAX_HISTORY_BYTES:
        why = f"history not saved: {shown} is larger than {MAX_HISTORY_BYTES:,} bytes"
        return InMemoryHistory(), why
    return PrivateFileHistory(str(path)), None


class PrivateFileHistory(FileHistory):
    """prompt_toolkit's history file, appended to without following a symbolic link put
    in its place after it was opened, and created 0600 if it went away. When it cannot
    be written, the session goes on and says so once."""

    failed = False

    def store_string(self, string: str) -> None:
        if self.failed:
            return
        # The format FileHistory reads back: a dated comment, then "+" before each line.
        entry = f"\n# {datetime.datetime.now()}\n" + "".join(
            f"+{line}\n" for line in string.split("\n")
        )
        try:
            descriptor = os.open(
                self.filename, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NO_FOLLOW, 0o600
            )
            with os.fdopen(descriptor, "ab") as file:
                file.write(entry.encode("utf-8", errors="replace"))
        except OSError as error:
            self.failed = True
            shown = escaped(os.fsdecode(self.filename))
            sys.stderr.write(f"history not saved: cannot write {shown} ({error.strerror})\n")


class _Current:
    """The state of the running session, for the completer to read."""

    def __init__(self, state: ReplState) -> None:
        self.state = state


class ReplCompleter(Completer):
    """Words from :func:`dicecli.repl.completion.completions`; paths after load/save."""

    def __init__(self, current: _Current) -> None:
        self.current = current
        self.paths = PathCompleter(expanduser=True)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        before = document.text_before_cursor
        words = before.split()
        if (
            words
            and words[0].casefold() in PATH_COMMANDS
            and (len(words) > 1 or before[-1:] == " ")
        ):
            argument = before.lstrip()[len(words[0]) :].lstrip()
            path_document = Document(argument, len(argument))
            for found in self.paths.get_completions(path_document, complete_event):
                if escaped(found.text) == found.text:  # see below
                    yield found
            return
        start = -len(current_word(before))
        for word in completions(self.current.state, before):
            # a word shown escaped (a file's or a plug-in's, with a bidirectional override
            # or a line separator) is not offered: the menu and the line would show it raw
            if escaped(word) == word:
                yield Completion(word, start_position=start)


def run_repl(options: RunOptions, streams: Streams) -> ExitStatus:
    """``dicecli repl``: an interactive session (a script of lines when stdin is not a
    terminal). One dice source for the whole session (``--seed``, ``--given``)."""
    # At a terminal the typed line is on the screen above its result.
    typed = streams.stdin_is_terminal
    session = open_session(options, streams, buffered=False, echo_input=not typed)
    if session is None:
        return ExitStatus.BAD_INPUT
    state = start_state(session.roller, options.environment, options.times)
    if typed:
        _interactive(state, session)
        return session.finish()
    bad = _script(state, session, streams.stdin)
    status = session.finish()
    return ExitStatus.BAD_INPUT if bad else status


def _show(output: Output, session: Session, line: int | None = None) -> None:
    """Render ``output``; with ``--json`` messages go to stderr, so stdout stays JSON,
    and errors are JSON objects there. An error names its ``line`` of a script."""
    streams = session.streams
    mode = session.mode
    json = mode == "json"
    messages = streams.stderr if json else streams.stdout
    summaries = mode == "terminal"
    width = _terminal_width() if mode == "terminal" else 0
    render_output(output, session.renderer, messages, streams.stderr, summaries, line, width, json)


def _terminal_width() -> int:
    """The terminal's columns (``COLUMNS`` first, as rich reads it)."""
    import shutil  # docs/startup.md

    return shutil.get_terminal_size().columns


def _handle(state: ReplState, line: str, debug: bool) -> tuple[ReplState, Output]:
    """:func:`handle_line`, but a bug costs the line, never the evening's session
    (with ``--debug`` the traceback is shown instead)."""
    try:
        return handle_line(state, line)
    except PluginError as error:  # the plug-in's bug: it costs the line, named as its
        if debug:
            raise
        return state, (Problem(DiceError(error.message)),)
    except Exception as error:
        if debug:
            raise
        message = f"internal error ({type(error).__name__}: {error}); please report it"
        return state, (Problem(DiceError(message)),)


def _script(state: ReplState, session: Session, lines: Iterable[str]) -> int:
    """Handle ``lines`` as if typed; the number of lines that failed. Lines are split
    and decoded as piped rolls are (:func:`dicecli.app.batches`); an error names its
    line, as in piped mode (``line 3: error: ...``)."""
    bad = 0
    number = 0
    for batch in batches(lines):
        for line in batch:
            number += 1
            state, output = _handle(state, line, session.options.debug)
            bad += any(isinstance(item, Problem) for item in output)
            _show(output, session, number)
            if state.finished:
                return bad
    return bad


def _interactive(state: ReplState, session: Session) -> None:
    streams = session.streams
    history, why = open_history(history_path())
    current = _Current(state)
    prompt: PromptSession[str] = PromptSession(
        history=history,
        completer=ReplCompleter(current),
        complete_while_typing=False,
        auto_suggest=AutoSuggestFromHistory(),
    )
    if session.mode != "json":
        from dicecli.repl.fit import fitted  # docs/startup.md

        streams.stdout.write(fitted(banner(), _terminal_width()) + "\n")
    if why:
        streams.stderr.write(why + "\n")
    streams.stdout.flush()
    while not current.state.finished:
        try:
            typed = prompt.prompt(PROMPT)
        except KeyboardInterrupt:  # Ctrl-C: drop the line, keep the session
            continue
        except EOFError:  # Ctrl-D
            break
        # Lines pasted at once (2d6, a newline, 3d6) are handled one after another, as
        # typed; Ctrl-C stops the rest of them.
        for line in readable(typed).split("\n"):
            if current.state.finished or not _typed_line(current, session, line):
                break


def _typed_line(current: _Current, session: Session, line: str) -> bool:
    """Handle and show one line typed at the prompt; False when Ctrl-C stopped it."""
    streams = session.streams
    try:
        current.state, output = _handle(current.state, line, session.options.debug)
    except KeyboardInterrupt:
        streams.stderr.write("cancelled\n")
        return False
    try:
        _show(output, session)
    except KeyboardInterrupt:  # a long run shown (d6 -n 20000): stop showing it
        streams.stdout.flush()
        streams.stderr.write(f"\n{OUTPUT_CANCELLED}\n")
        return False
    return True
