"""What a name in an expression may stand for, as the notation stage sees it.

The notation reads names (``STR``, ``attack``) against a table it does not own: the
environment of a roll (:class:`dicecli.environment.Environment`), which also holds dice
files and game settings and so sits above this stage. This protocol is the part of it
that the notation asks about, so that the notation names no type of a later stage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dicecli.notation.nodes import Expr


class Names(Protocol):
    """A table of named numbers and saved rolls, looked up case-insensitively."""

    def value(self, name: str) -> int | None:
        """The number called ``name``, or None."""

    def roll(self, name: str) -> Expr | None:
        """The saved roll called ``name``, or None."""
