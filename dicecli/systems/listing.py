"""``dicecli games``: every game dicecli knows, where it comes from and its version.

Built-in games come from dicecli itself (``built-in`` and dicecli's version); a
plug-in from its distribution (its name and version, from the installed metadata).
A plug-in's name, keywords and distribution are text from a file on the user's
machine, so they are escaped before they reach a terminal.
"""

from __future__ import annotations

import json

from dicecli.errors import escaped
from dicecli.systems import registry

HEADINGS = ("game", "keywords", "from", "version")


def rows() -> list[tuple[str, str, str, str]]:
    """One row per game, built-in games first: name, keywords, origin, version."""
    found = []
    for game in registry.games():
        source, version = registry.origin(game)
        found.append((game.name, ", ".join(game.keywords), source, version))
    return found


def listing(as_json: bool = False) -> str:
    """The games as aligned columns under headings, or as a JSON array of objects."""
    found = rows()
    if as_json:
        keys = ("name", "keywords", "from", "version")
        objects = [
            {**dict(zip(keys, row, strict=True)), "keywords": list(game.keywords)}
            for row, game in zip(found, registry.games(), strict=True)
        ]
        return json.dumps(objects)
    table = [HEADINGS, *((escaped(cell) for cell in row) for row in found)]
    cells = [tuple(row) for row in table]
    widths = [max(len(row[column]) for row in cells) for column in range(len(HEADINGS))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    )
