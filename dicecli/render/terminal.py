"""Rich output for a terminal: dice shown one by one (discarded dice grey and struck
through, a natural 20 or 1 on a d20 and a game's coloured dice in their colours), the
total prominent, the verdict a coloured badge after a symbol that survives
``NO_COLOR`` (honoured by rich). Each side of an opposed test or roll-off gets its own
line. A note is shown once for a run of rolls of one line (``--times``); a verdict that
says nothing happened (``Outcome.quiet``) is left out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text as RichText

from dicecli.probability.distribution import Odds, fraction_text, percent
from dicecli.render import theme
from dicecli.render.text import face_text, total_text
from dicecli.results import DiceShown, DieRoll, Outcome, RollResult, Segment, Text
from dicecli.tally import Tally

HISTOGRAM_WIDTH = 40


def _die(die: DieRoll) -> RichText:
    return RichText(face_text(die), style=theme.die_style(die))


def breakdown(result: RollResult) -> RichText:
    return _segments(result.breakdown)


def _segments(segments: Sequence[Segment]) -> RichText:
    line = RichText()
    for segment in segments:
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


def verdict(outcome: Outcome) -> RichText:
    """`` ✔ success vs 15 ``: the symbol, then the verdict as a coloured badge."""
    symbol = theme.VERDICT_SYMBOLS[outcome.passed]
    return RichText.assemble(
        (f"{symbol} ", theme.VERDICT_SYMBOL_STYLES[outcome.passed]),
        (f" {outcome.verdict} ", theme.VERDICT_STYLES[outcome.passed]),
    )


def _sides(segments: Sequence[Segment]) -> list[list[Segment]]:
    """The breakdown cut at each ``side`` separator (one part when there is none)."""
    parts: list[list[Segment]] = [[]]
    for segment in segments:
        if isinstance(segment, Text) and segment.role == "side":
            parts.append([])
        else:
            parts[-1].append(segment)
    return parts


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unwrapped(segments: Sequence[Segment], typed: str) -> Sequence[Segment]:
    """A saved roll typed alone, ``attack:(...)``, without the name and brackets the
    line already shows: ``attack: [17] + 5``."""
    if len(segments) < 3:
        return segments
    first, opening, closing = segments[0], segments[1], segments[-1]
    if (
        isinstance(first, Text)
        and first.text.casefold() == f"{typed}:".casefold()
        and isinstance(opening, Text)
        and opening.text == "("
        and isinstance(closing, Text)
        and closing.text == ")"
    ):
        return segments[2:-1]
    return segments


class TerminalRenderer:
    """``echo_input``: start each roll with the line as typed (one-shot mode); the REPL
    turns it off (the line is on the screen already), except for a saved roll's name
    (``attack: [17] + 5 = 22``)."""

    def __init__(
        self, stream: TextIO, console: Console | None = None, echo_input: bool = True
    ) -> None:
        self.console = console or Console(file=stream, highlight=False)
        self.echo_input = echo_input
        self._noted: tuple[str, set[str]] = ("", set())

    def result(self, result: RollResult) -> None:
        head = RichText()
        typed = result.input.partition("#")[0].strip() if result.comment else result.input.strip()
        if self.echo_input or _NAME.fullmatch(typed):
            head.append(typed, style=theme.INPUT_STYLE)
            head.append(": ")
        segments: Sequence[Segment] = result.breakdown
        if head:
            segments = _unwrapped(segments, typed)
        sides = _sides(segments)
        outcome = result.outcome
        shown = outcome if outcome is not None and not outcome.quiet else None
        comment = RichText(f"  # {result.comment}", style=theme.ROLE_STYLES["note"])
        if len(sides) > 1:  # each side on its own line; the sides carry their totals
            if shown is not None:
                head.append_text(verdict(shown))
            if result.comment:
                head.append_text(comment)
            if head:
                self.console.print(head)
            for side in sides:
                self.console.print(RichText("  ").append_text(_segments(side)))
        else:
            line = head.append_text(_segments(segments))
            if result.total is not None:  # a MISFIRE has no number: the verdict says it
                line.append(" = ")
                line.append(total_text(result), style=theme.TOTAL_STYLE)
            if shown is not None:
                line.append("  ")
                line.append_text(verdict(shown))
            if result.comment:
                line.append_text(comment)
            self.console.print(line)
        if outcome is not None:
            self._notes(result.input, outcome.notes)

    def _notes(self, line: str, notes: Sequence[str]) -> None:
        """Each note once for a run of rolls of the same line (``--times``)."""
        last, noted = self._noted
        if line != last:
            noted = set()
            self._noted = (line, noted)
        for note in notes:
            if note not in noted:
                noted.add(note)
                self.console.print(RichText(f"  {note}", style=theme.ROLE_STYLES["note"]))

    def summary(self, tally: Tally) -> None:
        self.console.print(RichText(tally.line(), style="bold"))

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
