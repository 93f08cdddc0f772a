"""Whether a standard stream is a terminal: what decides colour, the REPL's prompt, the
progress line and piped reading. A stream replaced by a test, closed, or detached by
the caller is not a terminal, rather than an error."""

from __future__ import annotations

from typing import Any


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is an open terminal (False for anything without ``isatty``)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
