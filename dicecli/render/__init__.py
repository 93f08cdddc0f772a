"""Renderers: a result or odds -> text for a terminal (rich), a pipe (plain) or JSON.

Only :mod:`dicecli.render.terminal` imports rich, and it is imported only when output
goes to a terminal, so piped rolls never pay for rich.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, TextIO

if TYPE_CHECKING:
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.tally import Tally

Mode = Literal["terminal", "plain", "json"]


class Renderer(Protocol):
    def result(self, result: RollResult) -> None:
        """Write one roll."""

    def summary(self, tally: Tally) -> None:
        """Write the summary of several rolls of one expression (``--times``)."""

    def odds(self, odds: Odds, full: bool = False) -> None:
        """Write the exact odds of one line (``full``: every row of long tables, where
        a renderer shortens them)."""


def make_renderer(mode: Mode, stream: TextIO) -> Renderer:
    if mode == "json":
        from dicecli.render.jsonlines import JsonRenderer  # docs/startup.md

        return JsonRenderer(stream)
    if mode == "terminal":
        from dicecli.render.terminal import TerminalRenderer  # docs/startup.md

        return TerminalRenderer(stream)
    from dicecli.render.plain import PlainRenderer  # docs/startup.md

    return PlainRenderer(stream)
