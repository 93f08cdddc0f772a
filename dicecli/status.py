"""The exit statuses of dicecli, one enum for every entry path (documented in the README),
and how Ctrl-C and SIGTERM stop a run (:class:`SignalGuard`)."""

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


class SignalGuard:
    """Holds back Ctrl-C and SIGTERM while output is written, raising them after.

    The process's entry point installs :meth:`handle` for SIGINT and SIGTERM: outside
    a ``with SIGNAL_GUARD`` block it raises at once (KeyboardInterrupt, as
    :class:`Interrupted`, or
    :class:`Terminated`), as Python would; inside, it waits for the
    block's end, so no result is cut in the middle.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.pending: int | None = None

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth == 0 and self.pending is not None:
            signal_number, self.pending = self.pending, None
            self.raise_for(signal_number)

    def handle(self, signal_number: int, frame: object) -> None:
        if self.depth:
            self.pending = signal_number
            return
        self.raise_for(signal_number)

    @staticmethod
    def raise_for(signal_number: int) -> None:
        if signal_number == SIGINT:
            raise Interrupted
        raise Terminated


SIGINT = 2
"""The signal number of Ctrl-C (the same on every platform Python runs on)."""
SIGNAL_GUARD = SignalGuard()
