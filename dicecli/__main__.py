"""Entry point of ``dicecli`` and ``python -m dicecli``.

A plain roll (``dicecli 2D6+5``, or lines piped in, with no option but ``--json`` or
``--plain``) is rolled here without importing typer, the CLI framework: typer (and the
pydantic that typer 0.29 loads on every call) cost more start-up time than the grammar
itself, and a player waits for every roll. Anything with another option, a command or
``--help`` goes to the typer app in :mod:`dicecli.cli`.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import Any, NamedTuple, TextIO

from dicecli.status import ExitStatus, Terminated

COMMANDS = ("roll", "odds", "table", "repl", "help")
"""The commands of the typer app (:mod:`dicecli.cli`): a word here is a command, not a
roll (a test checks the two lists agree)."""


OUTPUT_FLAGS = ("--json", "--plain")
"""The options a plain roll may carry: flags that choose the output, which the typer app
takes anywhere on the line (:func:`dicecli.cli.route`)."""


class PlainRoll(NamedTuple):
    """A command line the fast path rolls: its roll's words (none: the lines of stdin)
    and its output flags."""

    words: list[str]
    json: bool
    plain: bool


def _plain_roll(args: list[str]) -> PlainRoll | None:
    """What a command line asks when it needs no option parsing, else None."""
    rest = [arg for arg in args if arg not in OUTPUT_FLAGS]
    if rest and rest[0] == "roll":
        rest = rest[1:]
    if (rest and rest[0] in COMMANDS) or any(arg.startswith("-") for arg in rest):
        return None
    if not rest and (sys.stdin.isatty() or (args and args[0] == "roll")):
        return None  # the REPL, or `dicecli roll` alone: the typer app says what to do
    return PlainRoll(rest, "--json" in args, "--plain" in args)


def main(argv: list[str] | None = None) -> int:
    """Run the program with ``argv`` (else the process's arguments); the exit status.

    Meant as the process's entry point (no ``argv``), it also keeps the garbage
    collector off the objects that live as long as the process: paused through start-up
    (for a one-shot roll, until its line is parsed, which loads a game's grammar), then
    what start-up built is frozen out of its reach and the collector runs again
    (:func:`_start_up_over`); what the run built is frozen before returning, which the
    full collection Python makes at exit would otherwise walk (about 20 million
    instructions for a game line).
    """
    paused = argv is None and gc.isenabled()
    if paused:
        gc.disable()  # until start-up is over: see _start_up_over
    from dicecli.app import readable

    args = [readable(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    if argv is None:
        _own_process()
    try:
        return _dispatch(args, paused)
    except BrokenPipeError:
        _output_closed()
        return ExitStatus.OK
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except Terminated:
        return ExitStatus.TERMINATED
    except OSError as error:  # writing the output failed: a full disk, an I/O error
        _output_closed()
        _tell(f"error: cannot write the output: {error.strerror or error}\n")
        return ExitStatus.WRITE_ERROR
    except Exception as error:
        if "--debug" in args:
            raise
        from dicecli.escape import clipped

        _tell(
            f"internal error ({type(error).__name__}: {clipped(str(error))}); please report "
            "it (--debug shows the traceback)\n"
        )
        return ExitStatus.INTERNAL_ERROR
    finally:
        if argv is None:  # the process ends: the collection at exit has nothing to scan
            gc.freeze()
        if paused:
            gc.enable()


def _own_process() -> None:
    """As the process's entry point: SIGTERM ends the run as Ctrl-C does (the rolls
    made are written first, status 143), and errors that cannot be written (``2>
    /dev/full``) are dropped rather than ending the run with another status."""
    import signal  # no cost: pyparsing's import of unittest loaded it

    from dicecli.app import SIGNAL_GUARD

    with contextlib.suppress(ValueError, OSError):  # not the main thread
        signal.signal(signal.SIGTERM, SIGNAL_GUARD.handle)
        signal.signal(signal.SIGINT, SIGNAL_GUARD.handle)
    sys.stderr = QuietStream(sys.stderr)


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


def _tell(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _output_closed() -> None:
    """The output cannot be written (the reader left, or the disk is full): point
    stdout at /dev/null so that the interpreter's last flush does not complain."""
    from dicecli.app import quiet_broken_pipe

    quiet_broken_pipe()


def _dispatch(args: list[str], paused: bool = False) -> int:
    """Roll or run the command ``args`` ask for; ``paused``: :func:`main` paused the
    garbage collector for start-up."""
    completing = "_DICECLI_COMPLETE" in os.environ  # the shell asks typer for completions
    roll = None if completing else _plain_roll(args)
    if roll is not None:
        from dicecli.app import RunOptions, Streams, run_lines, run_once

        options = RunOptions(plain=roll.plain, json=roll.json)
        if roll.words:
            text = " ".join(roll.words)
            _read_ahead(text)  # start-up lasts until its grammar is loaded
            _start_up_over(paused)
            return int(run_once(text, options, Streams()))
        _start_up_over(paused)
        return int(run_lines(sys.stdin, options, Streams()))
    from dicecli.cli import run

    _start_up_over(paused)
    return run(args)


def _read_ahead(text: str) -> None:
    """Load the grammar a one-shot roll's line needs while start-up lasts: a game's
    line or an uncommon one loads it on first parse, and it lives as long as the
    process. The line itself is read when rolled, with the collector running (reading
    a long line makes garbage)."""
    from dicecli.notation.lines import split_rolls
    from dicecli.notation.reader import load_grammar_for

    for _, piece in split_rolls(text):
        load_grammar_for(piece)


def _start_up_over(paused: bool) -> None:
    """Move what start-up built (pyparsing's grammar objects and ours, which live as long
    as the process) out of the garbage collector's reach, and let it run again: later
    collections skip them, those of a long piped run or session and the full one Python
    makes at exit alike (see "Start-up" in the README). When ``paused``, :func:`main`
    paused it for start-up (a collection amid start-up would only walk what start-up
    keeps) and it runs again from here.
    """
    gc.freeze()
    if paused:
        gc.enable()


if __name__ == "__main__":
    sys.exit(main())
