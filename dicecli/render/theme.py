"""Styles for the terminal, by semantic role and die mark. Games never name a colour in
their results: they give roles and marks, and this table decides how those look.

The core's roles and marks are in the tables below. A role or mark a game adds is styled
as its declaration says (:attr:`~dicecli.systems.declaration.Game.marks`), looked up the
first time one is met, so a plain roll never loads the games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from dicecli.results import (
    COMPOUNDED,
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    DOUBLE_SUCCESS,
    DROPPED,
    EXPLODED,
    EXPLOSION,
    FAILURE,
    IGNORED,
    IMPLOSION,
    PENETRATED,
    REROLL,
    REROLLED,
    SUCCESS,
    DieRoll,
)

ROLE_STYLES: dict[str, str] = {
    "plain": "",
    "op": "dim",
    "label": "cyan",
    "number": "",
    "dropped": "dim strike",
    "target": "bold",
    "value": "dim",
    "success": "bold green",
    "failure": "bold red",
    "note": "italic dim",
    "side": "",
}

MARK_STYLES: dict[str, str] = {
    EXPLODED: "bold",
    EXPLOSION: "",
    COMPOUNDED: "",
    PENETRATED: "",
    IMPLOSION: "red",
    REROLLED: "",
    REROLL: "",
    DROPPED: "",
    SUCCESS: "green",
    FAILURE: "red",
    IGNORED: "dim strike",
    CRITICAL_SUCCESS: "bold reverse green",
    DOUBLE_SUCCESS: "bold green",
    CRITICAL_FAILURE: "bold reverse red",
}
"""Every mark of the core (:mod:`dicecli.results`), styled or not."""

DISCARDED_STYLE = "strike grey62"
"""A die that does not count: struck through, but grey rather than dim, to stay
readable."""
TOTAL_STYLE = "bold"
INPUT_STYLE = "dim"
VERDICT_STYLES = {True: "bold black on green", False: "bold white on red", None: "bold reverse"}
"""The verdict is the most visible thing on the line: a coloured badge."""
VERDICT_SYMBOLS = {True: "✔", False: "✘", None: "▶"}
VERDICT_SYMBOL_STYLES = {True: "bold green", False: "bold red", None: "bold"}
"""Before the verdict: pass, fail, neither (a winner, a direction). A symbol survives
``NO_COLOR`` and a screen reader's loss of colour."""
WARNING_STYLE = "bold yellow"
WARNING_SYMBOL = "⚠"
"""A note that may mean the result is not what the player meant (a name counted as 0,
a line read one of two ways) stands out, after a sign that survives ``NO_COLOR``."""
WARNING_NOTES = re.compile(r"\bis not set\b")
"""Notes of a game that say a value was missing and a default stood in for it."""
_CORE_DIE = re.compile(r"d(?:\d+|%|F|\{[^{}]*\})")  # d{-1,0,1}: custom faces


def role_style(role: str) -> str:
    """The style of a breakdown role: the core's, else the game's that declares it."""
    style = ROLE_STYLES.get(role)
    return style if style is not None else _game_styles()[0].get(role, "")


def die_style(die: DieRoll) -> str:
    """The style of a die as it landed: its kind's (a game's coloured die), then its
    marks' (a critical one, a lone d20's natural 20 or 1 among them, stands out)."""
    if not die.kept:
        return DISCARDED_STYLE
    kind = "" if _CORE_DIE.fullmatch(die.die) else _game_styles()[2].get(die.die, "")
    return " ".join(filter(None, (kind, *(mark_style(mark) for mark in die.marks))))


EVENT_SYMBOL = "⚠"
"""Before a verdict that names an event a game marks on its dice (MISFIRE)."""


def event_style(fields: Iterable[tuple[str, object]]) -> str:
    """The style of the first true fact of an outcome that is also a die mark a game
    styles (``misfire``), else ``""``."""
    marks = _game_styles()[1]
    for name, value in fields:
        if value is True and marks.get(name):
            return marks[name]
    return ""


def mark_style(mark: str) -> str:
    """The style of a die mark: the core's, else the game's that declares it."""
    style = MARK_STYLES.get(mark)
    return style if style is not None else _game_styles()[1].get(mark, "")


@cache
def _game_styles() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The roles, marks and die kinds the games add, with their styles (the first game
    wins)."""
    from dicecli.systems import registry  # docs/startup.md

    roles: dict[str, str] = {}
    marks: dict[str, str] = {}
    dice: dict[str, str] = {}
    for game in registry.games():
        for role, style in game.roles:
            roles.setdefault(role, style)
        for mark, style in game.marks:
            marks.setdefault(mark, style)
        for kind, style in game.dice:
            dice.setdefault(kind, style)
    return roles, marks, dice
