"""Entry point of ``dicecli`` and ``python -m dicecli``.

A plain roll (``dicecli 2D6+5``, or lines piped in with no options) is rolled here
without importing typer, the CLI framework: typer (and the pydantic that typer 0.29
loads on every call) cost more start-up time than the grammar itself, and a player
waits for every roll. Anything with an option, a command or ``--help`` goes to the
typer app in :mod:`dicecli.cli`.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import Any, TextIO

from dicecli.status import ExitStatus, Terminated

COMMANDS = ("roll", "odds", "table", "repl", "help")
"""The commands of the typer app (:mod:`dicecli.cli`): a word here is a command, not a
roll (a test checks the two lists agree)."""


def _plain_roll_words(args: list[str]) -> list[str] | None:
    """The words of a roll that needs no option parsing, else None."""
    if args and args[0] == "roll":
        args = args[1:]
    if not args or args[0] in COMMANDS or any(arg.startswith("-") for arg in args):
        return None
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the program with ``argv`` (else the process's arguments); the exit status.

    Meant as the process's entry point: it freezes what start-up built out of the
    garbage collector's reach for the rest of the process (:func:`_freeze_start_up`),
    and as the process's own entry (no ``argv``) freezes what the run built too before
    returning: the grammar a game line or an uncommon line loads after start-up, which
    the full collection Python makes at exit would otherwise walk (about 20 million
    instructions for a game line).
    """
    from dicecli.app import readable

    args = [readable(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    if argv is None:
        _own_process()
    try:
        return _dispatch(args)
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
        _tell(
            f"internal error ({type(error).__name__}: {error}); please report it "
            "(--debug shows the traceback)\n"
        )
        return ExitStatus.INTERNAL_ERROR
    finally:
        if argv is None:  # the process ends: the collection at exit has nothing to scan
            gc.freeze()


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


def _dispatch(args: list[str]) -> int:
    words = _plain_roll_words(args)
    completing = "_DICECLI_COMPLETE" in os.environ  # the shell asks typer for completions
    if not completing and (words is not None or (not args and not sys.stdin.isatty())):
        from dicecli.app import RunOptions, Streams, run_lines, run_once

        _freeze_start_up()
        if words is not None:
            return int(run_once(" ".join(words), RunOptions(), Streams()))
        return int(run_lines(sys.stdin, RunOptions(), Streams()))
    from dicecli.cli import run

    _freeze_start_up()
    return run(args)


def _freeze_start_up() -> None:
    """Move what the imports built (pyparsing's grammar objects and ours, which live as
    long as the process) out of the garbage collector's reach: later collections skip
    them, those of a long piped run and the full one Python makes at exit alike (see
    "Start-up" in the README).
    """
    gc.freeze()


if __name__ == "__main__":
    sys.exit(main())
