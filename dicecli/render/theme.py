"""Styles for the terminal, by semantic role and die mark. Games never name a colour in
their results: they give roles and marks, and this table decides how those look. The
roles and marks a game adds, and their styles, come from its declaration in the
registry (:attr:`~dicecli.systems.registry.Game.marks`)."""

from __future__ import annotations

from dicecli.systems import registry

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
    "exploded": "bold",
    "explosion": "",
    "compounded": "",
    "success": "green",
    "failure": "red",
    "ignored": "dim strike",
}

for _game in registry.games():
    for _role, _style in _game.roles:
        ROLE_STYLES.setdefault(_role, _style)
    for _mark, _style in _game.marks:
        MARK_STYLES.setdefault(_mark, _style)

DISCARDED_STYLE = "dim strike"
TOTAL_STYLE = "bold"
INPUT_STYLE = "dim"
VERDICT_STYLES = {True: "bold green", False: "bold red", None: "bold"}
