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

from dicecli.environment import Environment
from dicecli.escape import escaped
from dicecli.probability.distribution import Odds, fraction_text, percent
from dicecli.render import theme
from dicecli.render.text import chance_text, face_text, total_text
from dicecli.results import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    DiceShown,
    DieRoll,
    Outcome,
    RollResult,
    Segment,
    Text,
)
from dicecli.tally import Tally

HISTOGRAM_WIDTH = 40


def _die(die: DieRoll) -> RichText:
    text = escaped(face_text(die))  # a dice file's symbol
    if CRITICAL_SUCCESS in die.marks or CRITICAL_FAILURE in die.marks:
        text += CRITICAL_SIGN  # seen without colour too
    return RichText(text, style=theme.die_style(die))


CRITICAL_SIGN = "*"
"""After a die marked critical (``20*``), beside its style."""


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
            line.append(escaped(segment.text), style=theme.role_style(segment.role))
    return line


def verdict(outcome: Outcome) -> RichText:
    """`` ✔ success vs 15 ``: the symbol, then the verdict as a coloured badge. An
    event a game marks on its dice (a MISFIRE, a HIT: a true fact of the outcome named
    like a die mark the game styles) takes that mark's style and a warning sign."""
    symbol = theme.VERDICT_SYMBOLS[outcome.passed]
    symbol_style = theme.VERDICT_SYMBOL_STYLES[outcome.passed]
    style = theme.VERDICT_STYLES[outcome.passed]
    if outcome.passed is None:
        event = theme.event_style(outcome.fields)
        if event:
            symbol, symbol_style, style = theme.EVENT_SYMBOL, "bold", event
    return RichText.assemble((f"{symbol} ", symbol_style), (f" {escaped(outcome.verdict)} ", style))


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
_POSITION_FIELDS = frozenset({"chosen"})
"""Outcome fields whose presence makes the total a position (a random allocation's
candidate), by the field names the games' JSON output documents."""


def _names_a_position(outcome: Outcome | None) -> bool:
    return outcome is not None and any(name in _POSITION_FIELDS for name, _ in outcome.fields)


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
        self.odds_environment: Environment | None = None
        """Set (``--odds``): the chance is shown beside each result, worked out with
        these names."""
        self._chances: dict[str, Odds | None] = {}

    def result(self, result: RollResult) -> None:
        head = RichText()
        typed = result.input.partition("#")[0].strip() if result.comment else result.input.strip()
        if self.echo_input or _NAME.fullmatch(typed):
            head.append(escaped(typed), style=theme.INPUT_STYLE)
            head.append(": ")
        segments: Sequence[Segment] = result.breakdown
        if head:
            segments = _unwrapped(segments, typed)
        sides = _sides(segments)
        if len(sides) > 1:
            self._sided(result, head, sides)
        else:
            self._one_line(result, head, segments)
        if result.outcome is not None:
            self._notes(result.input, result.outcome.notes)

    def _tail(self, result: RollResult, chance: bool, gap: str = "  ") -> RichText:
        """What follows the breakdown: the verdict (unless quiet) after ``gap``, the
        chance (``--odds``), the comment."""
        tail = RichText()
        outcome = result.outcome
        if outcome is not None and not outcome.quiet:
            tail.append(gap)
            tail.append_text(verdict(outcome))
        if chance and self.odds_environment is not None:
            tail.append_text(self._chance(result))
        if result.comment:
            tail.append(f"  # {escaped(result.comment)}", style=theme.ROLE_STYLES["note"])
        return tail

    def _sided(self, result: RollResult, head: RichText, sides: list[list[Segment]]) -> None:
        """The verdict first, then each side on its own line with its own total."""
        head.append_text(self._tail(result, chance=False, gap=""))
        if head:
            self.console.print(head)
        for side in sides:
            self.console.print(RichText("  ").append_text(_segments(side)))

    def _one_line(self, result: RollResult, head: RichText, segments: Sequence[Segment]) -> None:
        """The breakdown, the total and the verdict on one line; the verdict on a line
        of its own when they do not fit, never cut in two."""
        line = head.append_text(_segments(segments))
        # A MISFIRE has no number (the verdict says it); a candidate's number is a
        # position, not a score: the verdict names the candidate.
        if result.total is not None and not _names_a_position(result.outcome):
            line.append(" = ")
            line.append(total_text(result), style=theme.TOTAL_STYLE)
        tail = self._tail(result, chance=True)
        if line.cell_len + tail.cell_len <= self.console.width:
            self.console.print(line.append_text(tail))
        else:
            self.console.print(line)
            self.console.print(tail)

    def _chance(self, result: RollResult) -> RichText:
        """``(72.22% to pass)``; for a total, the chance of it or more."""
        from dicecli.errors import DiceError
        from dicecli.probability.report import odds

        if result.expression not in self._chances:
            try:
                found: Odds | None = odds(result.expression, self.odds_environment)
            except DiceError:  # too big to work out: the roll is shown without it
                found = None
            self._chances[result.expression] = found
        found = self._chances[result.expression]
        text = chance_text(result, found) if found is not None else ""
        return RichText(f"  ({text})", style="dim") if text else RichText("")

    def _notes(self, line: str, notes: Sequence[str]) -> None:
        """Each note once for a run of rolls of the same line (``--times``)."""
        last, noted = self._noted
        if line != last:
            noted = set()
            self._noted = (line, noted)
        for note in notes:
            if note not in noted:
                noted.add(note)
                self.console.print(RichText(f"  {escaped(note)}", style=theme.ROLE_STYLES["note"]))

    def summary(self, tally: Tally) -> None:
        self.console.print(RichText(escaped(tally.line()), style="bold"))

    def odds(self, odds: Odds, full: bool = False) -> None:
        """The answer first, on one line (the chance to pass, each side's chance to
        win, or the mean), then the other figures and the tables; a long table is
        shortened to its likeliest rows unless ``full``."""
        console = self.console
        console.print(
            RichText.assemble((escaped(odds.input.strip()), "bold"), (f"  ({odds.kind()})", "dim"))
        )
        console.print(headline(odds))
        chances = dict(odds.chances)
        for name, chance in odds.chances:
            if name != "success":
                console.print(_figure(name, percent(chance), chance))
        if "success" in chances:  # the headline gave the chance to pass, not the wins
            for label, chance in odds.wins:
                console.print(_figure(f"{escaped(label)} wins", percent(chance), chance))
        mean_shown = "success" not in chances and not odds.wins
        for name, value in odds.expectations:
            if not (name == "mean" and mean_shown):  # the headline gave the mean
                console.print(_figure(name, f"{float(value):.4f}", value))
        dist = odds.distribution
        if dist is not None:
            console.print(f"  range {dist.min}..{dist.max}, stdev {dist.stdev():.4f}")
            under = odds.passing is not None and odds.passing[0] is None
            console.print(_histogram(dist.outcomes, "value", odds, under, full))
        for name, table in odds.tables:
            console.print(_histogram(table.outcomes, escaped(name), None, False, full))
        for note in odds.notes:
            console.print(RichText(f"  {escaped(note)}", style=theme.ROLE_STYLES["note"]))


def headline(odds: Odds) -> RichText:
    """The answer in one line: ``✔ 72.22% to pass  13/18``, each side's chance to win,
    or the mean and range of a total."""
    chances = dict(odds.chances)
    success = chances.get("success")
    if success is not None:
        return RichText.assemble(
            ("  ✔ ", theme.VERDICT_SYMBOL_STYLES[True]),
            (f"{percent(success)} to pass", "bold"),
            ("  " + fraction_text(success), "dim"),
        )
    if odds.wins:
        line = RichText("  ▶ ", style="bold")
        for index, (label, chance) in enumerate(odds.wins):
            if index:
                line.append(", ")
            line.append(f"{escaped(label)} wins {percent(chance)}", style="bold")
        return line
    dist = odds.distribution
    if dist is not None:
        mean = float(dist.mean())
        return RichText.assemble(
            ("  mean ", ""), (f"{mean:.2f}", "bold"), (f", {dist.min} to {dist.max}", "")
        )
    return RichText("")


def _figure(name: str, shown: str, exact: Fraction) -> RichText:
    """``  success: 50.00%  1/2``: the figure bold, the exact fraction dim."""
    label = escaped(name.replace("_", " "))  # at_least_10 -> at least 10
    return RichText.assemble(f"  {label}: ", (shown, "bold"), "  ", (fraction_text(exact), "dim"))


SHORT_TABLE = 13
"""A table of more rows is shortened without ``--full``: its rarest ends are left out,
down to this many rows, while what they hold together stays under
:data:`SHORT_TABLE_LEFT_OUT`."""
SHORT_TABLE_LEFT_OUT = Fraction(1, 50)


def _histogram(
    outcomes: Sequence[tuple[int, Fraction]],
    heading: str,
    odds: Odds | None,
    under: bool,
    full: bool,
) -> Table:
    """A table of values, chances, the cumulative chance (``at most`` for a roll-under
    test, else ``at least``) and a bar; the passing rows of a check in green."""
    table = Table(box=None, show_header=True, pad_edge=False)
    table.add_column(heading, justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at most" if under else "at least", justify="right")
    table.add_column("")
    chances = list(outcomes)
    peak = max((chance for _, chance in chances), default=Fraction(1))
    total = sum((chance for _, chance in chances), Fraction(0))
    cumulative: list[Fraction] = []
    running = Fraction(0) if under else total
    for _, chance in chances:
        if under:
            running += chance
            cumulative.append(running)
        else:
            cumulative.append(running)
            running -= chance
    first, last = (0, len(chances)) if full else _likeliest(chances, SHORT_TABLE)
    for index in range(first, last):
        value, chance = chances[index]
        bar = "█" * max(1, round(HISTOGRAM_WIDTH * chance / peak)) if chance else ""
        passes = odds.passes(value) if odds is not None else None
        style = "green" if passes else ""
        table.add_row(
            RichText(escaped(str(value)), style=f"bold {style}".strip() if passes else ""),
            RichText(percent(chance), style=style),
            RichText(percent(cumulative[index]), style=style),
            RichText(bar, "green" if passes else "cyan"),
        )
    hidden = len(chances) - (last - first)
    if hidden:
        mass = sum((chance for _, chance in chances[:first] + chances[last:]), Fraction(0))
        more = f"{hidden} rarer rows ({percent(mass)} in all): --full shows them"
        table.add_row("…", "", "", RichText(more, style=theme.ROLE_STYLES["note"]))
    return table


def _likeliest(chances: Sequence[tuple[int, Fraction]], rows: int) -> tuple[int, int]:
    """The rows left when the less likely end is cut off, one row at a time, down to
    ``rows`` rows or until the next cut would leave out more than
    :data:`SHORT_TABLE_LEFT_OUT` in all."""
    first, last = 0, len(chances)
    left_out = Fraction(0)
    while last - first > rows:
        low = chances[first][1] <= chances[last - 1][1]
        chance = chances[first][1] if low else chances[last - 1][1]
        if left_out + chance > SHORT_TABLE_LEFT_OUT:
            break
        left_out += chance
        if low:
            first += 1
        else:
            last -= 1
    return first, last
