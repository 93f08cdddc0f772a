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
from math import lcm
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text as RichText

from dicecli.environment import Environment
from dicecli.escape import escaped
from dicecli.notation.dice_sums import reads_as_name
from dicecli.notation.readings import reading_note
from dicecli.probability.distribution import Distribution, Odds, fraction_text, percent
from dicecli.render import theme
from dicecli.render.text import chance_text, face_text, named, repeats_value, total_text
from dicecli.results import (
    DiceShown,
    DieRoll,
    Outcome,
    RollResult,
    Segment,
    Text,
)
from dicecli.tally import Tally
from dicecli.terminals import is_terminal

HISTOGRAM_WIDTH = 40
ASSUMPTION = "an assumption"
"""In a note that says a game assumed something the rules leave open (rule A9's
dice faces): such a note does not change from roll to roll, so it is shown once."""


def terminal_console(stream: TextIO, colour: str = "auto", **more: Any) -> Console:
    """A rich console writing to ``stream`` in colour or not as ``colour`` says
    (:func:`~dicecli.render.colour_choice` read the environment already, so rich is
    told, not left to read it again); ``more``: other settings of the console."""
    terminal = colour == "always" or is_terminal(stream)
    return Console(
        file=stream,
        highlight=False,
        markup=False,  # text from users and files is never read as rich's [markup]
        force_terminal=terminal,
        no_color=colour == "never",
        **more,
    )


def _die(die: DieRoll, event: str = "", among: bool = False) -> RichText:
    text = escaped(face_text(die))  # a dice file's symbol; a critical's sign
    if among and die.marks:
        text = named(die, text)
    if event and die.face == event:  # the die is the verdict (a MISFIRE): say it here
        return RichText(f"{theme.EVENT_SYMBOL} {text}", style=f"bold {theme.die_style(die)}")
    return RichText(text, style=theme.die_style(die))


def breakdown(result: RollResult) -> RichText:
    return _segments(result.breakdown)


def _segments(segments: Sequence[Segment], event: str = "") -> RichText:
    """The breakdown; ``event``: the face of a die that is the verdict (MISFIRE),
    shown as the verdict in the die's place."""
    line = RichText()
    before = ""
    for segment in segments:
        if isinstance(segment, DiceShown):
            line.append("[")
            among = len({die.die for die in segment.dice}) > 1  # a key die among others (dragon 4)
            for index, die in enumerate(segment.dice):
                if index:
                    line.append(", ")
                line.append_text(_die(die, event, among))
            line.append("]")
            before = ""
        elif not repeats_value(segment, before):
            line.append(escaped(segment.text), style=theme.role_style(segment.role))
            before = segment.text
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


def _saved_roll_named(typed: str) -> bool:
    """Whether the line typed is a name alone (a saved roll or check: ``attack``), which
    the REPL shows before its result (``attack: [17] + 5 = 22``); a die that looks like
    a word (``d8``, ``dF``, ``dBoost``) is no name, as the reader reads it."""
    return _NAME.fullmatch(typed) is not None and reads_as_name(typed)


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


def _without_typed_label(segments: Sequence[Segment], typed: str) -> Sequence[Segment]:
    """The breakdown without a leading label that says again what the echoed line
    says (``test 4: test 4: [5]`` -> ``test 4: [5]``): the text segments before
    the first dice, up to one that ends in a colon, when the typed line holds them."""
    spoken: list[str] = []
    for index, segment in enumerate(segments):
        if not isinstance(segment, Text):
            return segments
        spoken.append(segment.text)
        if segment.text.rstrip().endswith(":"):
            said = " ".join("".join(spoken).rstrip()[:-1].split()).casefold()
            if said and said in " ".join(typed.split()).casefold():
                return segments[index + 1 :]
            return segments
    return segments


_COUNTED = re.compile(r" \((\d+) successe?s?\)")


def _counted(segments: Sequence[Segment], total: int | None) -> str:
    """`` successes`` when the breakdown ends in ``(25 successes)`` and the total is
    that count (no failures taken off): the total says it once, ``= 25 successes``."""
    if not segments or total is None:
        return ""
    last = segments[-1]
    if isinstance(last, Text):
        found = _COUNTED.fullmatch(last.text)
        if found and int(found[1]) == total:
            return " success" if total == 1 else " successes"
    return ""


def _event_die(result: RollResult, segments: Sequence[Segment]) -> str:
    """The face of a die on the line that the verdict only repeats (a MISFIRE): the
    die is shown as the verdict, with its warning sign, and no badge follows."""
    outcome = result.outcome
    if outcome is None or outcome.passed is not None or not theme.event_style(outcome.fields):
        return ""
    for segment in segments:
        if isinstance(segment, DiceShown):
            for die in segment.dice:
                if die.face == outcome.verdict:
                    return die.face
    return ""


class TerminalRenderer:
    """``echo_input``: start each roll with the line as typed (one-shot mode); the REPL
    turns it off (the line is on the screen already), except for a saved roll's name
    (``attack: [17] + 5 = 22``)."""

    def __init__(
        self,
        stream: TextIO,
        console: Console | None = None,
        echo_input: bool = True,
        colour: str = "auto",
    ) -> None:
        self.console = console or terminal_console(stream, colour)
        self.echo_input = echo_input
        self._noted: tuple[str, set[str]] = ("", set())
        self.odds_environment: Environment | None = None
        """Set (``--odds``): the chance is shown beside each result, worked out with
        these names."""
        self._chances: dict[str, Odds | None] = {}
        self._assumed: set[str] = set()
        self._columns: dict[str, int] = {}
        """Where the verdict badge starts, by line, in a run of rolls of one line
        (:meth:`align`): so the badges of ``--times`` stand in one column."""

    def align(self, results: Sequence[RollResult]) -> None:
        """Before a run of rolls is written: the badges of the rolls of one line start
        in one column, past the widest breakdown among them (and never left of the
        column an earlier run of the same line used: a long run comes in parts)."""
        widest: dict[str, int] = {}
        for result in results:
            head, segments, sides = self._parts(result)
            if len(sides) > 1:
                continue
            line, _ = self._line_and_tail(result, head, segments)
            widest[result.input] = max(widest.get(result.input, 0), line.cell_len)
        self._columns = {
            line: max(width, self._columns.get(line, 0)) for line, width in widest.items()
        }

    def _parts(self, result: RollResult) -> tuple[RichText, Sequence[Segment], list[list[Segment]]]:
        """The echoed line, the breakdown's segments and its sides (several for an
        opposed roll)."""
        head = RichText()
        typed = result.input.partition("#")[0].strip() if result.comment else result.input.strip()
        if self.echo_input or _saved_roll_named(typed):
            head.append(escaped(typed), style=theme.INPUT_STYLE)
            head.append(": ")
        segments: Sequence[Segment] = result.breakdown
        if head:
            segments = _without_typed_label(_unwrapped(segments, typed), typed)
        return head, segments, _sides(segments)

    def result(self, result: RollResult) -> None:
        typed = result.input.partition("#")[0].strip() if result.comment else result.input.strip()
        head, segments, sides = self._parts(result)
        if len(sides) > 1:
            self._sided(result, head, sides)
        else:
            self._one_line(result, head, segments)
        if result.outcome is not None:
            self._notes(result.input, result.outcome.notes)
        if result.notes:  # another roller's reading of the line
            self._notes(result.input, result.notes)
        reading = reading_note(typed)
        if reading is not None:
            self._warn(reading)

    def _warn(self, note: str) -> None:
        """A note that may mean the result is not what the player meant, standing out."""
        self._indented(
            RichText(f"{theme.WARNING_SYMBOL} {escaped(note)}", style=theme.WARNING_STYLE)
        )

    def _indented(self, text: RichText) -> None:
        """A note under its line, indented, its wrapped lines too (no word cut)."""
        for line in text.wrap(self.console, max(self.console.width - 2, 20)):
            self.console.print(RichText("  ").append_text(line))

    def _tail(
        self, result: RollResult, chance: bool, gap: str = "  ", badge: bool = True
    ) -> RichText:
        """What follows the breakdown: the verdict (unless quiet, or shown on its die:
        not ``badge``) after ``gap``, the chance (``--odds``), the comment."""
        tail = RichText()
        outcome = result.outcome
        if outcome is not None and not outcome.quiet and badge:
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
        of its own when they do not fit, never cut in two. In a run of one line's rolls
        (:meth:`align`) the verdict's badge starts in the run's column."""
        line, tail = self._line_and_tail(result, head, segments)
        column = self._columns.get(result.input)
        badge = result.outcome is not None and not result.outcome.quiet
        if column is not None and badge and tail and line.cell_len < column:
            line.append(" " * (column - line.cell_len))
        if line.cell_len + tail.cell_len <= self.console.width:
            self.console.print(line.append_text(tail))
        else:
            self.console.print(line)
            if tail:
                self.console.print(tail)

    def _line_and_tail(
        self, result: RollResult, head: RichText, segments: Sequence[Segment]
    ) -> tuple[RichText, RichText]:
        """The breakdown and total of a one-line roll, and what follows them."""
        event = _event_die(result, segments)
        counted = _counted(segments, result.total)
        if counted:
            segments = segments[:-1]
        line = head.append_text(_segments(segments, event))
        # A MISFIRE has no number (the verdict says it); a candidate's number is a
        # position, not a score: the verdict names the candidate.
        if result.total is not None and not _names_a_position(result.outcome):
            line.append(" = ")
            line.append(total_text(result), style=theme.TOTAL_STYLE)
            line.append(counted)
        return line, self._tail(result, chance=True, badge=not event)

    def _chance(self, result: RollResult) -> RichText:
        """``(72.22% to pass)``; for a total, the chance of it or more."""
        from dicecli.errors import DiceError  # docs/startup.md
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
        """Each note once for a run of rolls of the same line (``--times``); a note
        that a game assumed something (rule A9's dice faces) once for the renderer's
        life, a REPL session."""
        last, noted = self._noted
        if line != last:
            noted = set()
            self._noted = (line, noted)
        for note in notes:
            if note not in noted and note not in self._assumed:
                noted.add(note)
                if ASSUMPTION in note:
                    self._assumed.add(note)
                if theme.WARNING_NOTES.search(note):
                    self._warn(note)
                    continue
                self._indented(RichText(escaped(note), style=theme.ROLE_STYLES["note"]))

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
            spread = f"stdev {dist.stdev():.4f}"
            if not mean_shown:  # else the headline gave the range
                spread = f"range {dist.min}..{dist.max}, {spread}"
            console.print(f"  {spread}")
            under = odds.passing is not None and odds.passing[0] is None
            console.print(_histogram(dist, "value", odds, under, full))
        for name, table in odds.tables:
            console.print(_histogram(table, escaped(name), None, False, full))
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
SHORT_TABLE_MOST = 60
"""The most rows a table shows without ``--full``, however flat it is (``d10000`` has
10,000 rows of one chance each, none rare enough to leave out): the likeliest run of
this many rows is shown."""


def _histogram(
    distribution: Distribution,
    heading: str,
    odds: Odds | None,
    under: bool,
    full: bool,
) -> Table:
    """A table of values, chances, the cumulative chance (``at most`` for a roll-under
    test, else ``at least``) and a bar; the passing rows of a check in green. Sums and
    comparisons are of integer counts (:func:`_integer_chances`): a distribution may
    have tens of thousands of outcomes whose fractions share a denominator of hundreds
    of digits."""
    table = Table(box=None, show_header=True, pad_edge=False)
    table.add_column(RichText(heading), justify="right")  # a symbol's name: never markup
    table.add_column("chance", justify="right")
    table.add_column("at most" if under else "at least", justify="right")
    table.add_column("")
    values = [value for value, _ in distribution.outcomes]
    counts, denominator = _integer_chances(distribution)
    peak = max(counts, default=1)
    cumulative: list[int] = []
    running = 0 if under else sum(counts)
    for count in counts:
        if under:
            running += count
            cumulative.append(running)
        else:
            cumulative.append(running)
            running -= count
    first, last = (0, len(counts)) if full else _likeliest(counts, denominator, SHORT_TABLE)
    if not full and last - first > SHORT_TABLE_MOST:
        first, last = _likeliest_run(counts, first, last, SHORT_TABLE_MOST)
    for index in range(first, last):
        value, count = values[index], counts[index]
        bar = "█" * max(1, round(Fraction(HISTOGRAM_WIDTH * count, peak))) if count else ""
        passes = odds.passes(value) if odds is not None else None
        style = "green" if passes else ""
        table.add_row(
            RichText(escaped(str(value)), style=f"bold {style}".strip() if passes else ""),
            RichText(percent(Fraction(count, denominator)), style=style),
            RichText(percent(Fraction(cumulative[index], denominator)), style=style),
            RichText(bar, "green" if passes else "cyan"),
        )
    hidden = len(counts) - (last - first)
    if hidden:
        mass = Fraction(sum(counts[:first]) + sum(counts[last:]), denominator)
        more = f"{hidden} rarer rows ({percent(mass)} in all): --full shows them"
        table.add_row("…", "", "", RichText(more, style=theme.ROLE_STYLES["note"]))
    return table


def _integer_chances(distribution: Distribution) -> tuple[list[int], int]:
    """Each outcome's chance as an integer count over one denominator: the odds
    engine's own weights when the distribution carries them, else over the least
    common denominator of its chances."""
    outcomes = distribution.outcomes
    if distribution.weights is not None and len(distribution.weights[0]) == len(outcomes):
        counts, denominator = distribution.weights
        return list(counts), denominator
    denominator = lcm(*(chance.denominator for _, chance in outcomes)) if outcomes else 1
    return [chance.numerator * (denominator // chance.denominator) for _, chance in outcomes], (
        denominator
    )


def _likeliest_run(counts: Sequence[int], first: int, last: int, rows: int) -> tuple[int, int]:
    """The run of ``rows`` rows between ``first`` and ``last`` that holds the most (the
    first such run), by a sliding sum."""
    held = sum(counts[first : first + rows])
    best, start = held, first
    for index in range(first + rows, last):
        held += counts[index] - counts[index - rows]
        if held > best:
            best, start = held, index - rows + 1
    return start, start + rows


def _likeliest(counts: Sequence[int], denominator: int, rows: int) -> tuple[int, int]:
    """The rows left when the less likely end is cut off, one row at a time, down to
    ``rows`` rows or until the next cut would leave out more than
    :data:`SHORT_TABLE_LEFT_OUT` in all (``counts`` over ``denominator``)."""
    first, last = 0, len(counts)
    left_out = 0
    most = SHORT_TABLE_LEFT_OUT
    while last - first > rows:
        low = counts[first] <= counts[last - 1]
        count = counts[first] if low else counts[last - 1]
        if (left_out + count) * most.denominator > most.numerator * denominator:
            break
        left_out += count
        if low:
            first += 1
        else:
            last -= 1
    return first, last
