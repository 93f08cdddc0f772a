"""Runs: what is looked for once per run is looked for again in a new one.

A program run (a command line, a REPL session, a pipe of lines) is one run. Each call of
the API (:func:`dicecli.roll`, :func:`dicecli.odds`, :func:`dicecli.reroll`) is a run of
its own. Files looked for once per run (the per-user dice file, a game's dice file in
force and its changes) are looked for at the first roll of a run that needs them, never
at each roll: a game line piped a million times looks at no file per roll.
"""

from __future__ import annotations

_run = 0


def new_run() -> None:
    """Start a new run: files looked for once per run are looked for again."""
    global _run
    _run += 1


def run_number() -> int:
    """Which run this is (see :func:`new_run`)."""
    return _run
