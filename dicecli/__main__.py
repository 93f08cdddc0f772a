"""Entry point of ``dicecli`` and ``python -m dicecli``.

A plain roll (``dicecli 2D6+5``, or lines piped in with no options) is rolled here
without importing typer, the CLI framework: typer (and the pydantic that typer 0.29
loads on every call) cost more start-up time than the grammar itself, and a player
waits for every roll. Anything with an option, a command or ``--help`` goes to the
typer app in :mod:`dicecli.cli`.
"""

from __future__ import annotations

import gc
import os
import sys

from dicecli.status import ExitStatus

COMMANDS = ("roll", "odds", "repl", "help")
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
    garbage collector's reach for the rest of the process (:func:`_freeze_start_up`).
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        return _dispatch(args)
    except BrokenPipeError:
        from dicecli.app import quiet_broken_pipe

        quiet_broken_pipe()
        return ExitStatus.OK
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except Exception as error:
        if "--debug" in args:
            raise
        sys.stderr.write(
            f"internal error ({type(error).__name__}: {error}); please report it "
            "(--debug shows the traceback)\n"
        )
        return ExitStatus.INTERNAL_ERROR


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
