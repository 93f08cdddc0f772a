"""``dicecli odds --svg FILE``: the odds as the terminal shows them, histogram and
colours included, saved as an SVG picture (rich's own export), to put in a blog post
or a rules summary. The picture is the same whatever the output or ``NO_COLOR`` say:
it is a file asked for by name."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from dicecli.escape import escaped
from dicecli.probability.distribution import Odds
from dicecli.render.terminal import TerminalRenderer

PICTURE_WIDTH = 80
"""Columns of the picture: the histogram's bars and figures fit with room to spare."""


def odds_svg(found: Sequence[Odds], full: bool = False) -> str:
    """The SVG text of the odds of each roll in ``found`` (``full``: every row of long
    tables)."""
    console = Console(
        file=io.StringIO(),
        record=True,
        force_terminal=True,
        color_system="truecolor",
        width=PICTURE_WIDTH,
        highlight=False,
        markup=False,  # text from users and files is never read as rich's [markup]
    )
    renderer = TerminalRenderer(io.StringIO(), console)
    for odds in found:
        renderer.odds(odds, full)
    # the lines as typed, escaped: a control character would make the file no SVG, and
    # reach the terminal of whoever cats it
    title = "dicecli odds " + " ; ".join(escaped(odds.input.strip()) for odds in found)
    return console.export_svg(title=title)


def save_odds_svg(found: Sequence[Odds], path: Path, full: bool = False) -> None:
    """Write the picture of ``found`` to ``path``; raises OSError when it cannot."""
    path.expanduser().write_text(odds_svg(found, full), encoding="utf-8")
