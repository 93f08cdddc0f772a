"""Styles for the terminal, by semantic role and die mark. Games never name a colour in
their results: they give roles and marks, and this table decides how those look.

The core's roles and marks are in the tables below. A role or mark a game adds is styled
as its declaration says (:attr:`~dicecli.systems.declaration.Game.marks`), looked up the
first time one is met, so a plain roll never loads the games.
"""

from __future__ import annotations

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
    PENETRATED,
    REROLL,
    REROLLED,
    SUCCESS,
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
}

MARK_STYLES: dict[str, str] = {
    EXPLODED: "bold",
    EXPLOSION: "",
    COMPOUNDED: "",
    PENETRATED: "",
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

DISCARDED_STYLE = "dim strike"
TOTAL_STYLE = "bold"
INPUT_STYLE = "dim"
VERDICT_STYLES = {True: "bold green", False: "bold red", None: "bold"}


def role_style(role: str) -> str:
    """The style of a breakdown role: the core's, else the game's that declares it."""
    style = ROLE_STYLES.get(role)
    return style if style is not None else _game_styles()[0].get(role, "")


def mark_style(mark: str) -> str:
    """The style of a die mark: the core's, else the game's that declares it."""
    style = MARK_STYLES.get(mark)
    return style if style is not None else _game_styles()[1].get(mark, "")


@cache
def _game_styles() -> tuple[dict[str, str], dict[str, str]]:
    """The roles and marks the games add, with their styles (the first game wins)."""
    from dicecli.systems import registry

    roles: dict[str, str] = {}
    marks: dict[str, str] = {}
    for game in registry.games():
        for role, style in game.roles:
            roles.setdefault(role, style)
        for mark, style in game.marks:
            marks.setdefault(mark, style)
    return roles, marks
