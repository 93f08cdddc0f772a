"""Running rolls for the command line: one-shot, ``--times``, and lines from a pipe.

Shared by the fast entry path (:mod:`dicecli.__main__`), the typer CLI
(:mod:`dicecli.cli`) and the REPL. :class:`Streams` owns stdin/stdout/stderr and whether
each is a terminal, so tests can stand in a pipe or a terminal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TextIO

from dicecli.dice import DiceSource, GivenSource, RandomSource, Roller
from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError
from dicecli.evaluate import roll
from dicecli.grammar import parse
from dicecli.render import Mode, Renderer, make_renderer
from dicecli.results import RollResult

MAX_TIMES = 100_000
"""Most rolls ``--times`` may ask for in one go."""


class ExitStatus(IntEnum):
    OK = 0
    CHECK_FAILED = 1
    BAD_INPUT = 2


@dataclass
class Streams:
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)

    @property
    def stdout_is_terminal(self) -> bool:
        return _isatty(self.stdout)

    @property
    def stdin_is_terminal(self) -> bool:
        return _isatty(self.stdin)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True)
class RunOptions:
    """What the command line asked for, whatever the entry path."""

    seed: int | None = None
    given: str | None = None
    times: int = 1
    plain: bool = False
    json: bool = False
    environment: Environment = EMPTY_ENVIRONMENT
    debug: bool = False

    def mode(self, streams: Streams) -> Mode:
        if self.json:
            return "json"
        if self.plain or not streams.stdout_is_terminal or os.environ.get("TERM") == "dumb":
            return "plain"
        return "terminal"


class Session:
    """One run of the program: one dice source for all its rolls, so ``--seed`` gives
    one reproducible stream and ``--given`` faces are used across lines in order."""

    def __init__(self, options: RunOptions, streams: Streams) -> None:
        self.options = options
        self.streams = streams
        self.given = GivenSource.from_text(options.given) if options.given is not None else None
        source: DiceSource = self.given or RandomSource(options.seed)
        self.roller = Roller(source)
        self.renderer: Renderer = make_renderer(options.mode(streams), streams.stdout)
        self.failed_checks = 0

    def roll_text(self, text: str) -> list[RollResult]:
        """Roll one line ``times`` times; raises DiceError."""
        parsed = parse(text)
        results = []
        for _ in range(self.options.times):
            result = roll(parsed, self.roller, self.options.environment, text)
            self.renderer.result(result)
            if result.failed:
                self.failed_checks += 1
            results.append(result)
        if self.options.times > 1 and self.options.mode(self.streams) == "terminal":
            self.renderer.summary(results)
        return results

    def finish(self) -> ExitStatus:
        """After the last roll: left-over given faces are an error."""
        if self.given is not None:
            try:
                self.given.check_all_used()
            except DiceError as error:
                self.report(error)
                return ExitStatus.BAD_INPUT
        return ExitStatus.CHECK_FAILED if self.failed_checks else ExitStatus.OK

    def report(self, error: DiceError, line_number: int | None = None) -> None:
        where = f"line {line_number}: " if line_number is not None else ""
        self.streams.stderr.write(where + error.show() + "\n")


def check_times(times: int) -> None:
    if not 1 <= times <= MAX_TIMES:
        raise DiceError(f"--times takes 1 to {MAX_TIMES:,}")


def run_once(text: str, options: RunOptions, streams: Streams) -> ExitStatus:
    """``dicecli 2d6+5``: roll one expression (``times`` times)."""
    session = Session(options, streams)
    try:
        check_times(options.times)
        session.roll_text(text)
    except DiceError as error:
        session.report(error)
        return ExitStatus.BAD_INPUT
    return session.finish()


def is_roll_line(line: str) -> bool:
    """Blank lines and ``#`` comment lines of a piped script are skipped."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def run_lines(lines: Iterable[str], options: RunOptions, streams: Streams) -> ExitStatus:
    """``dicecli < rolls.txt``: one expression per line; a bad line is reported with its
    number and skipped; the exit status is 2 if any line was bad."""
    session = Session(options, streams)
    try:
        check_times(options.times)
    except DiceError as error:
        session.report(error)
        return ExitStatus.BAD_INPUT
    bad = 0
    for number, line in enumerate(lines, start=1):
        if not is_roll_line(line):
            continue
        try:
            session.roll_text(line.rstrip("\r\n"))
        except DiceError as error:
            bad += 1
            session.report(error, number)
    status = session.finish()
    return ExitStatus.BAD_INPUT if bad else status
