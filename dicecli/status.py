"""The exit statuses of dicecli, one enum for every entry path (documented in the README)."""

from __future__ import annotations

from enum import IntEnum


class Terminated(BaseException):
    """Raised by the SIGTERM handler of the entry point: like Ctrl-C, the rolls made
    are written, then the run ends (:attr:`ExitStatus.TERMINATED`)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, as the entry point's signal handler raises it: a KeyboardInterrupt that
    a plug-in raises itself while it is imported is not one, and is contained."""


class ExitStatus(IntEnum):
    """What the process's exit status says to a shell or a script."""

    OK = 0
    """Rolled (or answered) as asked."""
    CHECK_FAILED = 1
    """A game check was rolled and failed (a test above its target)."""
    BAD_INPUT = 2
    """Bad input: a roll, an option or a file that could not be used."""
    PLUGIN_FAILED = 3
    """A game plug-in failed (a bug in it, not in dicecli): the error names it."""
    INTERNAL_ERROR = 70
    """A bug in dicecli (EX_SOFTWARE): one line, the traceback with ``--debug``."""
    WRITE_ERROR = 74
    """The output could not be written, a full disk for one (EX_IOERR)."""
    INTERRUPTED = 130
    """Ctrl-C (128 + SIGINT)."""
    TERMINATED = 143
    """SIGTERM (128 + 15): the rolls made were written first."""
