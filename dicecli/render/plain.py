"""Plain text for pipes and ``--plain``: one line per roll, tab-separated fields.

The format is documented in ``docs/output.md``; scripts rely on it, so change it only
by adding at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from dicecli.escape import escaped
from dicecli.render.text import result_line

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.tally import Tally


class PlainRenderer:
    def __init__(self, stream: TextIO) -> None:
        self.write = stream.write

    def result(self, result: RollResult) -> None:
        self.write(result_line(result) + "\n")

    def summary(self, tally: Tally) -> None:
        self.write(escaped(tally.line()) + "\n")

    def align(self, results: Sequence[RollResult]) -> None:
        """Nothing: a plain line's fields are apart by tabs, not laid out."""

    def odds(self, odds: Odds, full: bool = False) -> None:
        """Every row, always: scripts read them (``full`` changes nothing)."""
        self.write("\n".join(odds_lines(odds)) + "\n")


def odds_lines(odds: Odds) -> list[str]:
    """``NAME<tab>FRACTION<tab>PERCENT`` lines, then the distribution as
    ``VALUE<tab>FRACTION<tab>PERCENT<tab>AT_LEAST_PERCENT`` (the chance of the value or
    more, a percentage as the chance beside it). Text from the line or a
    file (the input, a name, a table's outcome, a note) is escaped: one line, its
    fields apart."""
    from dicecli.probability.distribution import fraction_text, percent  # docs/startup.md

    lines = [f"odds\t{escaped(odds.input.strip())}\t{odds.kind()}"]
    for name, chance in odds.chances:
        lines.append(f"{escaped(name)}\t{fraction_text(chance)}\t{percent(chance)}")
    for label, chance in odds.wins:
        lines.append(f"win {escaped(label)}\t{fraction_text(chance)}\t{percent(chance)}")
    for name, expected in odds.expectations:
        lines.append(f"{escaped(name)}\t{fraction_text(expected)}\t{float(expected):.4f}")
    dist = odds.distribution
    if dist is not None:
        lines.append(f"range\t{dist.min}..{dist.max}\tstdev {dist.stdev():.4f}")
        tails = dist.at_least_floats()
        for (value, chance), remaining in zip(dist.outcomes, tails, strict=True):
            chance_text = fraction_text(chance)
            lines.append(f"{value}\t{chance_text}\t{percent(chance)}\t{percent(remaining)}")
    for name, table in odds.tables:
        for outcome, chance in table.outcomes:
            shown = escaped(f"{name} {outcome}")
            lines.append(f"{shown}\t{fraction_text(chance)}\t{percent(chance)}")
    lines.extend(f"note\t{escaped(note)}" for note in odds.notes)
    return lines
