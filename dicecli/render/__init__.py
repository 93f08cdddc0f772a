"""Renderers: a result or odds -> text for a terminal (rich), a pipe (plain) or JSON.

Only :mod:`dicecli.render.terminal` imports rich, and it is imported only when output
goes to a terminal, so piped rolls never pay for rich.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, TextIO

if TYPE_CHECKING:
    from dicecli.environment import Environment
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.tally import Tally

Mode = Literal["terminal", "plain", "json"]
Colour = Literal["auto", "always", "never"]
COLOURS: tuple[Colour, ...] = ("auto", "always", "never")
"""The values of ``--color``."""


def colour_choice(flag: str = "auto", environ: Mapping[str, str] = os.environ) -> Colour:
    """Whether output is coloured: ``always``, ``never``, or ``auto`` (at a terminal).

    The first of these that speaks decides (docs/output.md, "Colour"): ``--color
    always|never`` (``flag``); ``NO_COLOR`` set to any non-empty value: never;
    ``FORCE_COLOR`` non-empty: always; ``CLICOLOR_FORCE`` non-empty and not ``0``:
    always; ``CLICOLOR=0``: never. An empty variable says nothing.
    """
    if flag in ("always", "never"):
        return "always" if flag == "always" else "never"
    if environ.get("NO_COLOR"):
        return "never"
    if environ.get("FORCE_COLOR"):
        return "always"
    if environ.get("CLICOLOR_FORCE", "0") not in ("", "0"):
        return "always"
    if environ.get("CLICOLOR") == "0":
        return "never"
    return "auto"


class Renderer(Protocol):
    def result(self, result: RollResult) -> None:
        """Write one roll."""

    def summary(self, tally: Tally) -> None:
        """Write the summary of several rolls of one expression (``--times``)."""

    def align(self, results: Sequence[RollResult]) -> None:
        """Before ``results`` (a run of ``--times`` rolls) are written one by one: lay
        them out alike (a terminal's verdict badges in one column)."""

    def odds(self, odds: Odds, full: bool = False) -> None:
        """Write the exact odds of one line (``full``: every row of long tables, where
        a renderer shortens them)."""


def make_renderer(
    mode: Mode,
    stream: TextIO,
    colour: Colour = "auto",
    *,
    echo_input: bool = True,
    odds_environment: Environment | None = None,
) -> Renderer:
    """The renderer of ``mode`` writing to ``stream``; ``colour``: the terminal
    renderer's, as :func:`colour_choice` decided it. The terminal renderer's own
    settings: ``echo_input`` (start each roll with the line as typed) and
    ``odds_environment`` (``--odds``: the chance beside each result, with these names)."""
    if mode == "json":
        from dicecli.render.jsonlines import JsonRenderer  # docs/startup.md

        return JsonRenderer(stream)
    if mode == "terminal":
        return TerminalOnFirstUse(stream, colour, echo_input, odds_environment)
    from dicecli.render.plain import PlainRenderer  # docs/startup.md

    return PlainRenderer(stream)


class TerminalOnFirstUse:
    """The terminal renderer (:class:`dicecli.render.terminal.TerminalRenderer`), made
    when it first writes: it brings rich, which the REPL's first prompt does not need
    (docs/startup.md)."""

    def __init__(
        self,
        stream: TextIO,
        colour: Colour,
        echo_input: bool,
        odds_environment: Environment | None,
    ) -> None:
        self._settings = (stream, colour, echo_input, odds_environment)
        self._made: Renderer | None = None

    def made(self) -> Renderer:
        """The terminal renderer, made on the first call."""
        if self._made is None:
            from dicecli.render.terminal import TerminalRenderer  # docs/startup.md

            stream, colour, echo_input, odds_environment = self._settings
            renderer = TerminalRenderer(stream, echo_input=echo_input, colour=colour)
            renderer.odds_environment = odds_environment
            self._made = renderer
        return self._made

    def result(self, result: RollResult) -> None:
        self.made().result(result)

    def summary(self, tally: Tally) -> None:
        self.made().summary(tally)

    def align(self, results: Sequence[RollResult]) -> None:
        self.made().align(results)

    def odds(self, odds: Odds, full: bool = False) -> None:
        self.made().odds(odds, full)
