"""The function the declaration names for the REPL's ``keep`` (rule A4).

It imports :mod:`~dicecli.systems.alkemy.commands`, and the REPL's state with it, only
when the command is first run, so that declaring the game stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicecli.repl.state import Invocation, Output, ReplState


def keep(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    """Keep the chosen dice of the last roll with bonus dice (rule A4)."""
    from dicecli.systems.alkemy.commands import keep as keep_chosen_dice  # docs/startup.md

    return keep_chosen_dice(state, invocation)
