"""Rich output for a terminal: dice shown one by one, discarded dice dim and struck
through, the total prominent, the verdict coloured. ``NO_COLOR`` is honoured by rich."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text as RichText

from dicecli.probability.distribution import Odds, fraction_text, percent
from dicecli.render import theme
from dicecli.render.text import face_text, summary_line, total_text
from dicecli.results import CRITICAL_FAILURE, CRITICAL_SUCCESS, DiceShown, DieRoll, RollResult

HISTOGRAM_WIDTH = 40


def _die(die: DieRoll) -> RichText:
    style = " ".join(theme.mark_style(mark) for mark in die.marks).strip()
    if not die.kept:
        style = theme.DISCARDED_STYLE
    text = face_text(die)
    if CRITICAL_SUCCESS in die.marks or CRITICAL_FAILURE in die.marks:
        text += CRITICAL_SIGN  # seen without colour too
    return RichText(text, style=style)


CRITICAL_SIGN = "*"
"""After a die marked critical (``20*``), beside its style."""


def breakdown(result: RollResult) -> RichText:
    line = RichText()
    for segment in result.breakdown:
        if isinstance(segment, DiceShown):
            line.append("[")
            for index, die in enumerate(segment.dice):
                if index:
                    line.append(", ")
                line.append_text(_die(die))
            line.append("]")
        else:
            line.append(segment.text, style=theme.role_style(segment.role))
    return line


class TerminalRenderer:
    def __init__(self, stream: TextIO, console: Console | None = None) -> None:
        self.console = console or Console(file=stream, highlight=False)

    def result(self, result: RollResult) -> None:
        line = RichText()
        line.append(result.input.strip(), style=theme.INPUT_STYLE)
        line.append(": ")
        line.append_text(breakdown(result))
        if result.total is not None:  # a MISFIRE has no number: the verdict says it
            line.append(" = ")
            line.append(total_text(result), style=theme.TOTAL_STYLE)
        outcome = result.outcome
        if outcome is not None:
            line.append("  ")
            line.append(outcome.verdict, style=theme.VERDICT_STYLES[outcome.passed])
        if result.comment:
            line.append(f"  # {result.comment}", style=theme.ROLE_STYLES["note"])
        self.console.print(line)
        if outcome is not None:
            for note in outcome.notes:
                self.console.print(RichText(f"  {note}", style=theme.ROLE_STYLES["note"]))

    def summary(self, results: Sequence[RollResult]) -> None:
        self.console.print(RichText(summary_line(results), style="bold"))

    def odds(self, odds: Odds) -> None:
        console = self.console
        console.print(
            RichText.assemble((odds.input.strip(), "bold"), (f"  ({odds.kind()})", "dim"))
        )
        for name, chance in odds.chances:
            console.print(_figure(name, percent(chance), chance))
        for label, chance in odds.wins:
            console.print(_figure(f"{label} wins", percent(chance), chance))
        for name, value in odds.expectations:
            console.print(_figure(name, f"{float(value):.4f}", value))
        dist = odds.distribution
        if dist is not None:
            console.print(f"  range {dist.min}..{dist.max}, stdev {dist.stdev():.4f}")
            console.print(_histogram(dist.outcomes, "value"))
        for name, table in odds.tables:
            console.print(_histogram(table.outcomes, name))
        for note in odds.notes:
            console.print(RichText(f"  {note}", style=theme.ROLE_STYLES["note"]))


def _figure(name: str, shown: str, exact: Fraction) -> RichText:
    """``  success: 50.00%  1/2``: the figure bold, the exact fraction dim."""
    label = name.replace("_", " ")  # at_least_10 -> at least 10
    return RichText.assemble(f"  {label}: ", (shown, "bold"), "  ", (fraction_text(exact), "dim"))


def _histogram(outcomes: Sequence[tuple[int, Fraction]], heading: str) -> Table:
    table = Table(box=None, show_header=True, pad_edge=False)
    table.add_column(heading, justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("")
    chances = list(outcomes)
    peak = max((chance for _, chance in chances), default=Fraction(1))
    remaining = sum((chance for _, chance in chances), Fraction(0))
    for value, chance in chances:
        bar = "█" * max(1, round(HISTOGRAM_WIDTH * chance / peak)) if chance else ""
        table.add_row(str(value), percent(chance), percent(remaining), RichText(bar, "cyan"))
        remaining -= chance
    return table
