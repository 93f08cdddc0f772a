"""Running rolls for the command line: one-shot, ``--times``, and lines from a pipe.

Shared by the entry point's typer-free path (:mod:`dicecli.entry`), the typer CLI
(:mod:`dicecli.cli`) and the REPL. :class:`Streams` owns stdin/stdout/stderr and whether
each is a terminal, so tests can stand in a pipe or a terminal.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO, cast

from dicecli.command_line import REPEAT_SPELLINGS
from dicecli.environment import EMPTY_ENVIRONMENT, Environment, saved_line
from dicecli.errors import DiceError, PluginError
from dicecli.frozen import frozen
from dicecli.limits import MAX_LINE_LENGTH, check_times
from dicecli.notation.lines import parse_rolls
from dicecli.notation.reader import parse, parse_as, with_repeats
from dicecli.render import Colour, Mode, Renderer, colour_choice, make_renderer
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import DiceSource, GivenSource, RandomSource, Roller
from dicecli.status import SIGNAL_GUARD, ExitStatus, Terminated
from dicecli.tally import Tally
from dicecli.terminals import is_terminal

if TYPE_CHECKING:
    from dicecli.results import RollResult


class Streams:
    """The program's standard streams (the process's own unless given), and whether each
    is a terminal."""

    def __init__(
        self,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr

    @property
    def stdout_is_terminal(self) -> bool:
        return is_terminal(self.stdout)

    @property
    def stdin_is_terminal(self) -> bool:
        return is_terminal(self.stdin)


@frozen
class RunOptions:
    """What the command line asked for, whatever the entry path."""

    seed: int | None = None
    given: str | None = None
    times: int = 1
    plain: bool = False
    json: bool = False
    environment: Environment = EMPTY_ENVIRONMENT
    debug: bool = False
    odds: bool = False
    """``--odds``: the chance beside each result (at a terminal)."""
    color: str = "auto"
    """``--color auto|always|never``."""
    summary: bool = False
    """``--summary``: of ``--times`` rolls, the summary line only."""

    def colour(self) -> Colour:
        """Colour or not: ``--color``, then the environment (:func:`colour_choice`)."""
        return colour_choice(self.color)

    def mode(self, streams: Streams) -> Mode:
        """JSON, plain text, or the terminal's (rich) output: at a terminal, or wherever
        colour is asked for (``--color always``, ``FORCE_COLOR``)."""
        if self.json:
            return "json"
        if self.plain:
            return "plain"
        if self.colour() == "always":
            return "terminal"
        if not streams.stdout_is_terminal or os.environ.get("TERM") == "dumb":
            return "plain"
        return "terminal"


FLUSH_EVERY = 4096
"""Results written between flushes of piped output in a long ``--times`` run."""
ALIGNED_PART = 64
"""Rolls of a ``--times`` run at a terminal laid out together: their verdict badges
start in one column (a later part's column is never left of an earlier one's)."""
FLUSH_CHARACTERS = 1 << 20
"""Characters of results held before a long ``--times`` run writes them, whatever
:data:`FLUSH_EVERY` says: a ``--json`` roll of 10,000 dice is over a megabyte."""
LINES_PER_WRITE = 256
"""Piped lines rolled between writes of their results (and at the end of each read).
A read of 64 KiB holds thousands of short lines: written every 256 lines, the memory
their results take is used again rather than taken from the system and given back at
every read."""


PLAIN_SUMS_AFTER = 16
"""The piped line from which plain sums are rolled the quick way
(:meth:`Session.take_plain_sums`): compiling its reader costs about as much as rolling
ten lines the general way, which a pipe of a few lines would pay for nothing."""


class PendingOutput:
    """The text written since the last flush, kept as the pieces written and joined when
    taken: a :class:`io.StringIO` emptied after each batch would first copy its whole
    text into a new buffer of four bytes a character."""

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self.write = self._pieces.append
        """Add text (the list's own append: no call of Python code for each result)."""
        self._measured = 0  # pieces measured by held()
        self._characters = 0  # their characters

    def held(self) -> int:
        """The characters written since the last take (each piece measured once)."""
        pieces = self._pieces
        self._characters += sum(map(len, pieces[self._measured :]))
        self._measured = len(pieces)
        return self._characters

    def take(self) -> str:
        """The text written since the last take (and the pending text is emptied)."""
        text = "".join(self._pieces)
        self.drop()
        return text

    def drop(self) -> None:
        """Forget the text written since the last take."""
        self._pieces.clear()
        self._measured = self._characters = 0


class Session:
    """One run of the program: one dice source for all its rolls, so ``--seed`` gives
    one reproducible stream and ``--given`` faces are used across lines in order.

    Plain and JSON output is buffered here and flushed after each batch of input (see
    :func:`run_lines`): one write per batch instead of one per roll, whatever
    ``PYTHONUNBUFFERED`` says, and still answering a line-by-line conversation promptly
    (but with ``--given``: :attr:`holds_output`).
    """

    def __init__(
        self, options: RunOptions, streams: Streams, buffered: bool = True, echo_input: bool = True
    ) -> None:
        self.options = options
        self.streams = streams
        self.given = GivenSource.from_text(options.given) if options.given is not None else None
        source: DiceSource = self.given or RandomSource(options.seed)
        self.roller = Roller(source)
        self.mode = options.mode(streams)
        self.buffer = PendingOutput()
        direct = self.mode == "terminal" or not buffered
        self.holds_output = self.given is not None and not direct
        """With ``--given`` into a pipe or file, the rolls are written only once every face
        is known to be used (:meth:`finish`): a script never reads a roll made from a
        typo'd face, wherever in the faces the typo was."""
        # the plain and JSON renderers, which write here, only call write
        output = streams.stdout if direct else cast(TextIO, self.buffer)
        self.renderer: Renderer = make_renderer(
            self.mode,
            output,
            options.colour(),
            echo_input=echo_input,
            odds_environment=options.environment if options.odds else None,
        )
        self.write_result = self.renderer.result
        self.environment = options.environment
        self.dialect = options.environment.dialect
        """The dialect lines are read in (``--dialect``), None: dicecli's own."""
        self.rolls_each_line_times = (
            options.times != 1 or options.summary or bool(options.environment.checks)
        )
        """Whether every line is rolled by :meth:`_roll_times`: ``--times``, ``--summary``,
        or saved checks (whose names stand for game lines)."""
        self.failed_checks = 0
        self._output = output
        self._quick_line: Callable[[str, Roller], str | None] | None = None
        """What rolls and writes a plain sum the quick way (:meth:`take_plain_sums`)."""
        self._parsed_lines = parse.keys()
        """The lines whose trees are kept (:func:`~dicecli.notation.reader.parse`): such a
        line goes the general way, which has its tree (a check piped again and again is
        passed over by one look-up)."""

    def take_plain_sums(self) -> None:
        """Roll the plain sums of piped lines (``5d20+266``) the quick way
        (:mod:`dicecli.plain_sums`) when each line's plain output is all this session
        writes of it: plain output of results, from the session's own random dice (no
        ``--given``), in dicecli's own notation, one result a line. A roll on the
        command line does not import it."""
        options = self.options
        if (
            self.mode == "plain"
            and self.given is None
            and self.dialect is None
            and not self.rolls_each_line_times
            and not options.odds
        ):
            from dicecli.plain_sums import rolled_line  # docs/startup.md: piped lines

            self._quick_line = rolled_line

    def roll_text(self, text: str) -> None:
        """Roll one line ``times`` times and write each result; raises DiceError."""
        dialect = self.dialect
        if dialect is not None:
            text = with_repeats(text, dialect)  # rolldice's 6x4d6 is 4d6 -n 6
        if ";" in text:  # several rolls on the line: each is its own result
            self._roll_several(text)
            return
        quick = self._quick_line
        if quick is not None and text not in self._parsed_lines:  # (dialect is None)
            written = quick(text, self.roller)
            if written is not None:  # 5d20+266: no tree, as the general way writes it
                self._output.write(written)
                return
        if self.rolls_each_line_times or _SHORT_REPEAT in text or _LONG_REPEAT in text:
            self._roll_times(text)  # the slower path: --times, saved checks, `2d6 -n 3`
            return
        try:
            parsed = parse(text) if dialect is None else parse_as(text, dialect)
        except DiceError:
            from dicecli.times import other_repeat  # docs/startup.md: a refused line

            repeated = other_repeat(text)  # 6 4d6, repeat(4d6, 6): refused as a roll
            if repeated is None:
                raise
            self._roll_times(repeated)
            return
        result = roll(parsed, self.roller, self.environment, text)  # lean: piped lines
        self.write_result(result)
        if result.outcome is not None and result.failed:  # plain rolls never fail
            self.failed_checks += 1

    def _roll_several(self, line: str) -> None:
        for text, parsed in parse_rolls(line, self.environment.dialect):
            if self.options.times != 1:
                self._roll_times(text)
                continue
            result = roll(parsed, self.roller, self.environment, text)
            self.write_result(result)
            if result.failed:
                self.failed_checks += 1
            if self.buffer.held() > FLUSH_CHARACTERS:  # 1,240 rolls of 10000d6 on a line
                self.flush()

    def _roll_times(self, text: str) -> None:
        """Roll ``text`` ``times`` times, or as many as its own ``-n N`` says (a saved
        check's name stands for its game line)."""
        from dicecli.times import repeat_count  # docs/startup.md: the slower path

        text, count = repeat_count(text)
        times = self.options.times if count is None else count
        parsed = parse_as(saved_line(text, self.environment) or text, self.environment.dialect)
        only_summary = self.options.summary
        summed = only_summary or (self.mode == "terminal" and times > 1)
        if summed:  # only a terminal shows the summary: piped rolls skip the tally
            tally = Tally()
        progress = progress_bar(self.streams, times, text) if only_summary else None
        # at a terminal, rolls are written in parts laid out alike (badges in a column)
        aligned: list[RollResult] | None = (
            [] if self.mode == "terminal" and times > 1 and not only_summary else None
        )
        try:
            for number in range(1, times + 1):
                result = roll(parsed, self.roller, self.environment, text)
                if aligned is not None:
                    aligned.append(result)
                    if len(aligned) == ALIGNED_PART:
                        self._write_aligned(aligned)
                elif not only_summary:
                    self.write_result(result)
                if result.failed:
                    self.failed_checks += 1
                if summed:
                    tally.add(result)
                if number % FLUSH_EVERY == 0 or self.buffer.held() > FLUSH_CHARACTERS:
                    self.flush()
                if progress is not None and not number % PROGRESS_EVERY:
                    progress.update(number)
        finally:
            if aligned:  # the rolls made before an error or Ctrl-C are written too
                self._write_aligned(aligned)
            if progress is not None:
                progress.close()
        if summed:
            self.renderer.summary(tally)

    def _write_aligned(self, results: list[RollResult]) -> None:
        """Write ``results`` laid out alike, and forget them."""
        self.renderer.align(results)
        for result in results:
            self.write_result(result)
        results.clear()

    def cut_short(self) -> None:
        """The run ends early (a one-shot line that failed, Ctrl-C, SIGTERM): the rolls
        made are written; not those held for ``--given`` (:attr:`holds_output`), whose
        faces were not all checked."""
        if not self.holds_output:
            self.flush()

    def flush(self, final: bool = False) -> None:
        """Write what the buffer holds: whole, even when Ctrl-C or SIGTERM comes
        meanwhile (:class:`SignalGuard`), so a stopped run ends with whole lines. While
        the output is held (:attr:`holds_output`), only the ``final`` flush writes."""
        if self.holds_output and not final:
            return
        with SIGNAL_GUARD:
            text = self.buffer.take()
            if text:
                write_all(self.streams.stdout, text)
            self.streams.stdout.flush()

    def finish(self) -> ExitStatus:
        """After the last roll: left-over given faces are an error, and the rolls not
        yet written are then dropped, so a script never reads a roll made from a typo'd
        ``--given``; otherwise flush."""
        if self.given is not None:
            try:
                self.given.check_all_used()
            except DiceError as error:
                self.buffer.drop()
                self.report(error)
                return ExitStatus.BAD_INPUT
        self.flush(final=True)
        return ExitStatus.CHECK_FAILED if self.failed_checks else ExitStatus.OK

    def report(
        self, error: DiceError, line_number: int | None = None, words: list[str] | None = None
    ) -> None:
        """Write ``error`` with a hint to the right form when one is found
        (:mod:`dicecli.hints`; ``words``: the command-line words of the roll)."""
        from dicecli.hints import advise  # what only an error needs (docs/startup.md)

        error = advise(error, self.environment, words=words)
        self.flush()  # keep stdout and stderr in order
        self.streams.stderr.write(error.reported(self.options.json, line_number))

    def report_fault(self, error: PluginError, line_number: int) -> None:
        """Write a game plug-in's fault on the piped line ``line_number``: one line
        naming the plug-in (with ``--json``, the JSON object of an error)."""
        self.flush()  # keep stdout and stderr in order
        self.streams.stderr.write(error.reported(self.options.json, line_number))


def write_all(stream: TextIO, text: str) -> None:
    """Write ``text`` whole. To a file descriptor the bytes go out with ``os.write``
    until every one is written: Python's buffered writer drops the rest of a large
    write to a pipe that a signal interrupted part way (a partial write)."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests)
        stream.write(text)
        return
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    while data:
        data = data[os.write(descriptor, data) :]


_LONG_REPEAT, _SHORT_REPEAT = REPEAT_SPELLINGS
"""A quick look before :func:`dicecli.times.repeat_count`: whether a line has ``-n``
or ``--times`` at all."""


PROGRESS_EVERY = 1024
"""Rolls of a ``--summary`` run between looks at the clock and updates of its bar."""


class ProgressBar:
    """Progress of a long ``--summary`` run on stderr at a terminal: nothing for the
    first :data:`SHOW_AFTER` seconds, then rich's bar, gone once the run ends."""

    SHOW_AFTER = 0.4

    def __init__(self, stream: TextIO, total: int, label: str) -> None:
        # docs/startup.md
        import time  # only a --summary run at a terminal comes here

        self._clock = time.monotonic
        self._start = self._clock()
        self._stream = stream
        self._total = total
        self._label = label
        self._shown: Any = None
        self._task: Any = None

    def update(self, done: int) -> None:
        """``done`` rolls made of the run's ``total``."""
        if self._shown is None:
            if self._clock() - self._start < self.SHOW_AFTER:
                return
            self._show()
        self._shown.update(self._task, completed=done)

    def _show(self) -> None:
        # Imported here: rich's progress is for long runs at a terminal only.
        # docs/startup.md
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        from dicecli.escape import clipped  # docs/startup.md
        from dicecli.render.terminal import terminal_console

        console = terminal_console(self._stream, colour_choice())
        label = clipped(self._label, 40)
        self._shown = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        )
        self._task = self._shown.add_task(label, total=self._total)
        self._shown.start()

    def close(self) -> None:
        """The run is over: the bar, if shown, goes."""
        if self._shown is not None:
            self._shown.stop()


def progress_bar(streams: Streams, total: int, label: str) -> ProgressBar | None:
    """A bar for a ``--summary`` run of ``total`` rolls when stderr is a terminal."""
    if not is_terminal(streams.stderr) or total < PROGRESS_EVERY:
        return None
    return ProgressBar(streams.stderr, total, label)


def open_session(
    options: RunOptions, streams: Streams, buffered: bool = True, echo_input: bool = True
) -> Session | None:
    """A session for ``options``; None, the error reported, when they cannot run.
    ``buffered=False`` writes each result at once (the REPL, which interleaves its own
    messages with results); ``echo_input=False``: a terminal's results do not repeat
    the line (the REPL's, typed on the screen above)."""
    try:
        check_times(options.times)
        if options.summary and options.json:
            raise DiceError("--summary is a line of text: with --json, each roll is written")
        return Session(options, streams, buffered, echo_input)
    except DiceError as error:  # a bad --times or --given
        streams.stderr.write(error.reported(options.json))
        return None


def run_once(text: str, options: RunOptions, streams: Streams) -> ExitStatus:
    """``dicecli 2d6+5``: roll one expression (``times`` times)."""
    session = open_session(options, streams)
    if session is None:
        return ExitStatus.BAD_INPUT
    try:
        session.roll_text(text)
    except DiceError as error:
        session.cut_short()  # the rolls of the line before the one that failed
        session.report(error, words=text.split())
        return ExitStatus.BAD_INPUT
    except (KeyboardInterrupt, Terminated):
        session.cut_short()  # a long --times run: the rolls made are written
        raise
    return session.finish()


def is_roll_line(line: str) -> bool:
    """Blank lines and ``#`` comment lines of a piped script are skipped."""
    stripped = line.strip()
    return stripped != "" and stripped[0] != "#"


READ_SIZE = 1 << 16


def batches(lines: Iterable[str] | TextIO) -> Iterator[list[str]]:
    """The input lines, without their line ends, in batches of what one read returned.

    From a real file descriptor each batch is what arrived in one ``os.read``: a program
    feeding lines one at a time can get each answer before dicecli waits again (their
    results are written after each batch, except with ``--given``), and a file
    is read in large blocks. Lines end at ``\n`` only (a ``\r`` before it is dropped):
    form feed, NEL or U+2028 are characters of a line, so line numbers agree with
    ``wc -l``. Bytes that are not UTF-8 are kept as ``\xff`` escapes. A line longer
    than :data:`~dicecli.limits.MAX_LINE_LENGTH` is not held whole: it is cut one
    character past the limit (to be refused as too long) and the rest skipped.
    Other iterables (tests) come as one batch, each line's end taken off.
    """
    try:
        descriptor = lines.fileno()  # type: ignore[union-attr]
    except (AttributeError, OSError, ValueError):
        yield [line_text(line) for line in lines]
        return
    decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="backslashreplace")
    pending = ""
    skipping = False  # inside a line already cut at the limit
    while True:
        chunk = os.read(descriptor, READ_SIZE)
        text = decoder.decode(chunk, final=not chunk)
        if skipping:
            end = text.find("\n")
            if end < 0 and chunk:
                continue
            skipping = False
            text = text[end + 1 :] if end >= 0 else ""
        text = pending + text
        if not chunk:
            if text:
                yield [line_text(text)]
            return
        complete, newline, pending = text.rpartition("\n")
        batch = _split_lines(complete) if newline else []
        if len(pending) > MAX_LINE_LENGTH:
            batch.append(pending[: MAX_LINE_LENGTH + 1])
            pending, skipping = "", True
        if batch:
            yield batch


def _split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\n``, each without a ``\r`` before its end
    (one pass over the lines only when the text has a ``\r`` at all)."""
    lines = text.split("\n")
    if "\r" not in text:
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def line_text(line: str) -> str:
    """A line without its end: ``\n``, or ``\r\n``."""
    if line.endswith("\n"):
        line = line[:-1]
    return line[:-1] if line.endswith("\r") else line


def run_lines(lines: Iterable[str], options: RunOptions, streams: Streams) -> ExitStatus:
    """``dicecli < rolls.txt``: one expression per line; a bad line, or one a game
    plug-in failed on, is reported with its number and skipped. The exit status is 3 if
    a plug-in failed on any line (with ``--debug`` its traceback ends the run, the rolls
    of the lines before written), else 2 if any line was bad."""
    session = open_session(options, streams)
    if session is None:
        return ExitStatus.BAD_INPUT
    bad = faults = 0
    number = 0
    roll_text = session.roll_text
    try:
        for batch in batches(lines):
            for start in range(0, len(batch), LINES_PER_WRITE):
                for line in batch[start : start + LINES_PER_WRITE]:
                    number += 1
                    if number == PLAIN_SUMS_AFTER:
                        session.take_plain_sums()
                    if not is_roll_line(line):
                        continue
                    try:
                        roll_text(line)
                    except DiceError as error:
                        bad += 1
                        session.report(error, number)
                    except PluginError as error:  # the plug-in's bug costs its line only
                        if options.debug:
                            raise  # its traceback (entry.exit_status)
                        faults += 1
                        session.report_fault(error, number)
                session.flush()
    except (KeyboardInterrupt, Terminated, PluginError):
        session.cut_short()  # the rolls made are written, then the run stops
        raise
    status = session.finish()
    if faults:
        return ExitStatus.PLUGIN_FAILED
    return ExitStatus.BAD_INPUT if bad else status
