"""``dicecli help TOPIC`` at the terminal: a topic's examples and its guide (Markdown
from ``docs/``, :mod:`dicecli.bundled`), styled by rich at a terminal, the Markdown
text as it is elsewhere (a pipe, ``--color never``, ``NO_COLOR``), and paged when it
is longer than the screen.

Paging: ``$PAGER`` when set (an empty value or ``cat``: no pager), else ``less`` with
``LESS=FRX`` unless ``LESS`` is set, as git does: colour passes through (``R``), a
text that fits the screen is not paged after all (``F``), and the screen keeps it after
the pager quits (``X``).
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
from typing import TextIO

from dicecli.render import Colour
from dicecli.terminals import is_terminal

WIDEST = 100
"""Columns a guide is set in, at most: longer lines are hard to read."""


def show_help(stream: TextIO, examples: str | None, markdown: str | None, colour: Colour) -> None:
    """Write a topic's ``examples`` (plain text) and its guide's ``markdown`` to
    ``stream``: styled at a terminal (``colour``: :func:`~dicecli.render.colour_choice`'s
    answer), paged there when long."""
    at_terminal = is_terminal(stream) and os.environ.get("TERM") != "dumb"
    styled = colour == "always" or (colour == "auto" and at_terminal)
    pieces = [piece for piece in (examples, markdown) if piece]
    if styled:
        text = _styled(examples, markdown)
    else:
        text = "\n\n".join(piece.rstrip("\n") for piece in pieces) + "\n"
    if at_terminal:
        page(text, stream)
    else:
        stream.write(text)


def _styled(examples: str | None, markdown: str | None) -> str:
    """The text as rich sets it for a terminal: colour and all, as a string to page."""
    # Imported here: only help at a terminal needs rich's Markdown (docs/startup.md).
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.text import Text

    buffer = io.StringIO()
    width = min(shutil.get_terminal_size().columns, WIDEST)
    console = Console(file=buffer, force_terminal=True, width=width, highlight=False)
    if examples:
        console.print(Text(examples))
    if examples and markdown:
        console.print()
    if markdown:
        console.print(Markdown(markdown, hyperlinks=False))
    return buffer.getvalue()


def page(text: str, stream: TextIO) -> None:
    """Show ``text`` through the pager when it is longer than the terminal, else write
    it; a pager that cannot be started leaves the text written as it is."""
    lines = text.count("\n")
    command = os.environ.get("PAGER", "less" if shutil.which("less") else "")
    if lines < shutil.get_terminal_size().lines or command.strip() in ("", "cat"):
        stream.write(text)
        return
    environment = dict(os.environ)
    environment.setdefault("LESS", "FRX")
    stream.flush()
    try:
        subprocess.run(shlex.split(command), input=text, text=True, env=environment, check=False)
    except (OSError, ValueError):  # no such program, or an unreadable $PAGER
        stream.write(text)
