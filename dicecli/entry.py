"""The way into dicecli: the program's entry point and every concern of the process as
a whole, each explained in docs/startup.md.

- Which way a command line goes (:func:`main`): a roll, piped lines or the REPL, with
  no option but the common ones the table marks ``fast``, is run here without loading
  typer; anything else goes to the typer app (:mod:`dicecli.cli`). Both read the one
  table of commands and options, :mod:`dicecli.command_line`.
- The garbage collector: paused through start-up, what start-up built frozen out of its
  reach, and the youngest objects collected less often while rolling.
- The standard streams: a closed stdout, stdin or stderr, an output encoding that
  cannot carry every character, Ctrl-C and SIGTERM.
- One function from an exception to an exit status (:func:`exit_status`): a broken
  pipe, a full disk, Ctrl-C, a usage error, an internal error.
- The package's public names, imported on first use (:func:`public_name`).
- The games, handed to the stages that hand a game's line to its game
  (:func:`stage_games`).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gc
import os
import signal
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any, TextIO

from dicecli.command_line import Route, route
from dicecli.escape import readable
from dicecli.handed_games import hand
from dicecli.status import SIGNAL_GUARD, ExitStatus, Interrupted, Terminated
from dicecli.terminals import is_terminal

if TYPE_CHECKING:
    from dicecli.app import RunOptions
    from dicecli.systems.registry import StageGames

# --- the entry point ------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the program with ``argv`` (else the process's arguments); the exit status.

    As the process's entry point (no ``argv``) it also looks after the process: its
    streams and signals (:func:`_own_process`) and the garbage collector, paused through
    start-up (:func:`_start_up_over`) and, at the end, what the run built frozen, which
    the full collection Python makes at exit would otherwise walk.
    """
    own = argv is None
    paused = own and gc.isenabled()
    if paused:
        gc.disable()  # until start-up is over
    args = [readable(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    try:
        if own:
            _own_process("--json" in args)
        status = _dispatch(args, paused)
        sys.stdout.flush()  # a full disk is told here, not by the interpreter at exit
        if own and status != 2:
            _tell_of_a_redirect(args)
        return status
    except BaseException as error:  # every ending is given its status in one place
        return int(exit_status(error, debug="--debug" in args, json="--json" in args))
    finally:
        if own:
            gc.freeze()  # the process ends: the collection at exit has nothing to scan
        if paused:
            gc.enable()


def _dispatch(args: list[str], paused: bool) -> int:
    """Roll or run the command ``args`` ask for; ``paused``: :func:`main` paused the
    garbage collector for start-up."""
    line = route(args)
    completing = "_DICECLI_COMPLETE" in os.environ  # the shell asks typer for completions
    fast = None if completing else line.fast_options()
    piped = line.command is None and not is_terminal(sys.stdin)
    rolls = fast is not None and bool(line.words or piped)
    wanted = fast if rolls else None if completing else _repl_options(line)
    if wanted is not None:  # a roll, piped lines or the REPL, without typer
        # Imported here, not at the top: after the collector was paused (see main).
        from dicecli.app import Streams, run_lines, run_once  # docs/startup.md
        from dicecli.errors import DiceError  # docs/startup.md

        try:
            options = _run_options(wanted)
        except DiceError as error:  # --dialect of no roller
            sys.stderr.write(error.reported(bool(wanted.get("json"))))
            return int(ExitStatus.BAD_INPUT)
        if not rolls:
            from dicecli.repl.prompt import run_repl  # docs/startup.md

            _start_up_over(paused)
            return int(run_repl(options, Streams()))
        if line.words:
            text = " ".join(line.words)
            _read_ahead(text)  # start-up lasts until its grammar is loaded
            _start_up_over(paused)
            return int(run_once(text, options, Streams()))
        _start_up_over(paused)
        return int(run_lines(sys.stdin, options, Streams()))
    # The typer app, only on this path: loading typer costs more than the grammar.
    from dicecli.cli import app_for, run  # docs/startup.md

    app_for(args)  # made while the collector is paused: it lives as long as the run
    _start_up_over(paused)
    return run(args)


def _run_options(fast: dict[str, Any]) -> RunOptions:
    """The typer-free path's :class:`RunOptions` from the fast options: each under its
    name, but those the table puts in the environment the line is read in: ``--dialect
    NAME``, then ``--character FILE``, then ``--set`` (in that order, as the typer app
    gives them: saved rolls are read in the dialect, a ``--set`` wins over the file); a
    :class:`DiceError` for a ``--set`` that cannot be given, a dialect of no name or a
    character file that cannot be read."""
    from dicecli.app import RunOptions  # docs/startup.md
    from dicecli.environment import EMPTY_ENVIRONMENT  # docs/startup.md

    options = dict(fast)
    sets = options.pop("sets", None)
    given = options.pop("dialect", None)
    character = options.pop("character", None)
    if sets is None and given is None and character is None:
        return RunOptions(**options)
    environment = EMPTY_ENVIRONMENT
    if given is not None:
        from dicecli.notation.dialects import dialect_named  # docs/startup.md

        environment = environment.with_dialect(dialect_named(given))
    if character is not None:
        from pathlib import Path  # docs/startup.md

        from dicecli.bundled import example_or_path  # docs/startup.md
        from dicecli.character import load_character  # docs/startup.md

        # as a path, as the typer app reads it (examples//character.toml is one)
        environment = load_character(example_or_path(str(Path(character))), environment)
    if sets is not None:
        from dicecli.naming import with_sets  # docs/startup.md

        environment = with_sets(environment, sets)
    return RunOptions(**options, environment=environment)


def _repl_options(line: Route) -> dict[str, Any] | None:
    """The options of a REPL the typer-free path opens: ``dicecli repl`` with fast
    options only, or ``dicecli`` alone at a terminal; None for any other line."""
    if line.words:
        return None
    if line.command == "repl":
        return line.fast_options(commands=("repl",))
    if line.command is None and not line.options:
        return {} if is_terminal(sys.stdin) and is_terminal(sys.stdout) else None
    return None


def _tell_of_a_redirect(args: list[str]) -> None:
    """At a terminal, say so when the shell took an unquoted ``>=`` for a redirect and
    the rolls went into a file named ``=...`` (:mod:`dicecli.shell_redirect`)."""
    if not is_terminal(sys.stderr):
        return
    from dicecli import shell_redirect  # only on this path (docs/startup.md)

    line = route(args)
    told = (
        shell_redirect.hint(line.words) if line.command in (None, "roll") and line.words else None
    )
    if told is not None:
        sys.stderr.write(f"note: {told}\n")


def _read_ahead(text: str) -> None:
    """Load the grammar a one-shot roll's line needs while start-up lasts: a game's
    line or an uncommon one loads it on first parse, and it lives as long as the
    process. The line itself is read when rolled, with the collector running (reading
    a long line makes garbage)."""
    # Imported here: the fast path's modules come after the collector's pause.
    from dicecli.notation.lines import split_rolls  # docs/startup.md
    from dicecli.notation.reader import load_grammar_for

    for _, piece in split_rolls(text):
        load_grammar_for(piece)


# --- the garbage collector ------------------------------------------------------------


YOUNG_OBJECTS_PER_COLLECTION = 10_000
"""After start-up, the garbage collector looks at the youngest objects after this many
more were made (Python's default is 700). A roll's own objects die young; a new piped
line leaves its tree and steps in the caches, which the default scanned several times
over while the caches filled."""


def _start_up_over(paused: bool) -> None:
    """When :func:`main` paused the garbage collector for start-up (``paused``): move
    what start-up built (pyparsing's grammar objects and ours, which live as long as the
    process) out of its reach, collect the youngest objects less often from now on, and
    let it run again. Called in-process (``main(argv)``, from tests or a program that
    embeds dicecli) the collector is the caller's and is left alone: freezing on every
    call would keep each call's garbage for good."""
    if not paused:
        return
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *gc.get_threshold()[1:])
    gc.enable()


# --- the process's streams and signals ------------------------------------------------


def _own_process(json: bool) -> None:
    """As the process's entry point: a closed stdin reads as empty and a closed stderr
    drops what is written to it; a closed stdout ends the run (:func:`exit_status`:
    status 74). Errors that cannot be written (``2> /dev/full``) are dropped rather than
    ending the run with another status; an output encoding that cannot carry every
    character gets replacements (:func:`_carry_every_character`; ``json``: JSON
    escapes). SIGTERM ends the run as Ctrl-C does (the rolls made are written first,
    status 143)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's own, open to the end
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115
    _carry_every_character(sys.stderr, json=False)
    sys.stderr = QuietStream(sys.stderr)
    if sys.stdout is None:
        raise OSError(errno.EBADF, "stdout is closed")
    _carry_every_character(sys.stdout, json)
    with contextlib.suppress(ValueError, OSError):  # not the main thread
        signal.signal(signal.SIGTERM, SIGNAL_GUARD.handle)
        signal.signal(signal.SIGINT, SIGNAL_GUARD.handle)


class QuietStream:
    """A text stream whose write and flush errors are dropped (for stderr: an error
    that cannot be written must not change the exit status)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


ASCII_FALLBACKS = {
    "≤": "<=",
    "≥": ">=",
    "≈": "~",
    "→": "->",
    "←": "<-",
    "↑": "^",
    "↓": "v",
    "↗": "/",
    "↘": "\\",
    "↙": "/",
    "↖": "\\",
    "×": "x",
    "…": "...",
    "–": "-",
    "—": "-",
    "−": "-",
    "±": "+/-",
    "°": "deg",
    "✔": "v",
    "✘": "x",
    "▶": ">",
    "⚠": "!",
    "█": "#",
}
"""What dicecli's own symbols become on an output that cannot carry them."""

_FALLBACK = "dicecli-fallback"
_JSON_ESCAPE = "dicecli-json-escape"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler: dicecli's symbols as ASCII (``≤`` as ``<=``), any other
    character as a backslash escape (``\\u2264``)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    shown = (ASCII_FALLBACKS.get(c) or c.encode("ascii", "backslashreplace").decode() for c in text)
    return "".join(shown), error.end


def _json_escape(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler for JSON: each character as JSON writes it with
    ``ensure_ascii`` (``\\u2264``; a pair of surrogates above U+FFFF), the same value
    to a JSON reader."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    units = error.object[error.start : error.end].encode("utf-16-be", "surrogatepass")
    escapes = (f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return "".join(escapes), error.end


def _carry_every_character(stream: TextIO, json: bool) -> None:
    """When ``stream`` is encoded in something other than UTF (``PYTHONIOENCODING=ascii``,
    ``LC_ALL=C``), write what it cannot carry as ASCII replacements (for JSON, ``json``:
    as JSON escapes) rather than failing."""
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower()
    reconfigure = getattr(stream, "reconfigure", None)
    if encoding.startswith("utf") or reconfigure is None:
        return
    codecs.register_error(_FALLBACK, _fallback)
    codecs.register_error(_JSON_ESCAPE, _json_escape)
    with contextlib.suppress(OSError, ValueError):
        reconfigure(errors=_JSON_ESCAPE if json else _FALLBACK)


# --- how a run ends -------------------------------------------------------------------


def exit_status(error: BaseException, debug: bool = False, json: bool = False) -> int:
    """The exit status of a run that raised ``error``, once what needs saying is said on
    stderr: the one place where an exception becomes an exit status (docs/startup.md).

    A reader that left (``| head -1``) ends the run quietly with 0, as shell tools do; an
    output that cannot be written (a full disk, a closed stdout) is one line and 74;
    Ctrl-C 130, SIGTERM 143; a bad option one line and 2 (with ``json``, ``--json``: one
    JSON object, as every error of such a run); any other exception is a bug
    in dicecli: one line and 70, or the traceback with ``debug`` (``--debug``), except
    a game plug-in's fault (:class:`~dicecli.errors.PluginError`): one line naming the
    plug-in (with ``json``, the JSON object of an error), and 3.
    """
    cli = sys.modules.get("dicecli.cli")  # the typer app's errors come only once it ran
    if _closed_pipe(error):
        _discard_output()
        return ExitStatus.OK
    if isinstance(error, KeyboardInterrupt) or (cli is not None and isinstance(error, cli.ABORT)):
        return ExitStatus.INTERRUPTED
    if isinstance(error, Terminated):
        return ExitStatus.TERMINATED
    if isinstance(error, SystemExit):
        return _system_exit_status(error)
    if cli is not None and isinstance(error, cli.EXIT):
        return int(error.exit_code)
    if isinstance(error, OSError):
        _discard_output()
        _tell(f"error: cannot write the output: {error.strerror or error}\n")
        return ExitStatus.WRITE_ERROR
    if cli is not None and isinstance(error, cli.USAGE_ERROR):
        _tell(cli.usage_line(error, json) + "\n")
        return ExitStatus.BAD_INPUT
    if debug:
        raise error
    from dicecli.errors import PluginError  # docs/startup.md

    if isinstance(error, PluginError):  # a bug in a game plug-in, not in dicecli
        _tell(error.reported(json))
        return ExitStatus.PLUGIN_FAILED
    from dicecli.escape import clipped  # docs/startup.md

    _tell(
        f"internal error ({type(error).__name__}: {clipped(str(error))}); please report "
        "it (--debug shows the traceback)\n"
    )
    return ExitStatus.INTERNAL_ERROR


def _closed_pipe(error: BaseException) -> bool:
    """A write to a reader that left: the error itself, or the exit the CLI framework
    makes of it (status 1, which here means a failed check)."""
    if isinstance(error, SystemExit):
        error = error.__context__ or error
    return isinstance(error, OSError) and error.errno == errno.EPIPE


def _system_exit_status(error: SystemExit) -> int:
    """The status ``sys.exit(code)`` asks for, as Python gives it."""
    if error.code is None or isinstance(error.code, int):
        return error.code or 0
    _tell(f"{error.code}\n")
    return 1


def _tell(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass


def _discard_output() -> None:
    """Point stdout at /dev/null: what is still buffered for an output that cannot be
    written is dropped, so the interpreter's last flush does not complain."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a real file (tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


# --- the package's public names -------------------------------------------------------


PUBLIC_NAMES = {
    "odds": "dicecli.api",
    "parse": "dicecli.api",
    "reroll": "dicecli.api",
    "roll": "dicecli.api",
    "Environment": "dicecli.environment",
    "DiceError": "dicecli.errors",
    "DiceSyntaxError": "dicecli.errors",
    "GivenFacesError": "dicecli.errors",
    "RollLimitError": "dicecli.errors",
    "RuleError": "dicecli.errors",
    "UnknownNameError": "dicecli.errors",
    "RollResult": "dicecli.results",
    "DEFAULT_BUDGET": "dicecli.rolling.sources",
    "DiceSource": "dicecli.rolling.sources",
    "GivenSource": "dicecli.rolling.sources",
    "RandomSource": "dicecli.rolling.sources",
    "Roller": "dicecli.rolling.sources",
}
"""Where each public name of :mod:`dicecli` is defined: imported from there when first
asked for (PEP 562), so that the program loads only what it uses, after the collector's
pause."""


def public_name(name: str) -> object:
    """``dicecli.NAME``: a public name, imported from its module on first use and kept
    as an attribute of the package; a submodule (``dicecli.errors``) as ``import
    dicecli.errors`` gives it."""
    home = PUBLIC_NAMES.get(name)
    if home is None:
        try:
            return import_module(f"dicecli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"dicecli.{name}":
                raise
        raise AttributeError(f"module 'dicecli' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    setattr(sys.modules["dicecli"], name, value)  # asked once: later uses find it at once
    return value


def public_names() -> list[str]:
    """``dir(dicecli)``: the package's attributes and its public names."""
    return sorted({*vars(sys.modules["dicecli"]), *PUBLIC_NAMES})


# --- the games, handed to the stages ---------------------------------------------------


def stage_games() -> StageGames:
    """The games as the notation, rolling and odds stages ask for them, from the
    registry, which sits above the stages and is imported when one first asks
    (docs/startup.md, "The games handed to the stages")."""
    from dicecli.systems.registry import STAGE_GAMES  # docs/startup.md

    return STAGE_GAMES


hand(stage_games)


__all__ = [
    "PUBLIC_NAMES",
    "Interrupted",
    "QuietStream",
    "exit_status",
    "main",
    "public_name",
    "public_names",
    "stage_games",
]
