"""Styles for the terminal, by semantic role and die mark. Games never name a colour:
they give roles and marks, and this table decides how those look."""

from __future__ import annotations

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
    "misfire": "bold white on red",
    "hit": "bold yellow",
    "note": "italic dim",
}

MARK_STYLES: dict[str, str] = {
    "exploded": "bold",
    "explosion": "",
    "compounded": "",
    "success": "green",
    "failure": "red",
    "dragon": "bold magenta",
    "misfire": "bold white on red",
    "hit": "bold yellow",
    "ignored": "dim strike",
}

DISCARDED_STYLE = "dim strike"
TOTAL_STYLE = "bold"
INPUT_STYLE = "dim"
VERDICT_STYLES = {True: "bold green", False: "bold red", None: "bold"}
