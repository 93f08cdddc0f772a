"""The REPL's state and output, without a terminal: what ``handle_line(state, line) ->
(state, output)`` works on.

:class:`ReplState` is frozen: each line gives a new state (the named values, the last
roll, the session's rolls). It holds
the session's one :class:`~dicecli.rolling.sources.Roller` by reference, which is the only thing a
line changes in place: rolls must draw from one stream so that ``--seed`` reproduces a
whole evening and ``--given`` faces are used in order across lines.

:func:`dicecli.repl.commands.handle_line` never prints. It returns *output items* (:class:`Rolled`,
:class:`Summary`, :class:`OddsShown`, :class:`Message`, :class:`Problem`) that
:func:`render_output` writes with the same renderers as one-shot mode. That keeps the
whole REPL testable with plain strings; :mod:`dicecli.repl.prompt` only adds prompt_toolkit
(line editing, history, completion) around it. This module holds what every command
shares: the state, the output items, a command's :class:`Invocation`, rolling a line.
The commands and ``handle_line`` are in :mod:`dicecli.repl.commands` (games add their
own commands there through the registry).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import TYPE_CHECKING, TextIO

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError, NotAFaceError
from dicecli.escape import escaped_lines
from dicecli.frozen import field, frozen, replace
from dicecli.naming import saved_line
from dicecli.notation.reader import parse_as, with_repeats
from dicecli.results import RollResult
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import Roller
from dicecli.times import other_repeat, repeat_count

if TYPE_CHECKING:
    from dicecli.probability.distribution import Odds
    from dicecli.render import Renderer


@frozen
class ReplState:
    """Everything a REPL session knows between two lines."""

    roller: Roller = field(compare=False)
    env: Environment = EMPTY_ENVIRONMENT
    times: int = 1
    last: RollResult | None = None
    rolls: tuple[RollResult, ...] = ()
    """Every roll of the session, in order (``history``, ``save``)."""
    spellings: Mapping[str, str] = field(default_factory=dict)
    """Casefolded name -> the name as the user typed it (``vars``, completion)."""
    finished: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "spellings", MappingProxyType(dict(self.spellings)))

    def spelled(self, name: str) -> str:
        return self.spellings.get(name.casefold(), name)

    def names(self) -> tuple[str, ...]:
        """The user's names (values and saved rolls), as typed, sorted."""
        folded = [*self.env.values, *self.env.rolls, *self.env.checks]
        return tuple(sorted((self.spelled(name) for name in folded), key=str.casefold))

    def with_names(self, env: Environment, *typed: str) -> ReplState:
        """A state with ``env``, remembering how ``typed`` names were spelled."""
        spellings = {**self.spellings, **{name.casefold(): name for name in typed}}
        return replace(self, env=env, spellings=spellings)

    def with_rolled(self, *results: RollResult) -> ReplState:
        return replace(self, last=results[-1], rolls=(*self.rolls, *results))


def start_state(roller: Roller, env: Environment = EMPTY_ENVIRONMENT, times: int = 1) -> ReplState:
    return ReplState(roller=roller, env=env, times=times)


# Output items: what a line produced, rendered by render_output.


@frozen
class Rolled:
    result: RollResult
    odds: Odds | None = None
    """``--odds`` on the line: the chance is shown beside the result."""


@frozen
class Summary:
    """Several rolls of one line (``--times``)."""

    results: tuple[RollResult, ...]


@frozen
class OddsShown:
    odds: Odds
    full: bool = False


@frozen
class Message:
    text: str


@frozen
class Problem:
    error: DiceError


OutputItem = Rolled | Summary | OddsShown | Message | Problem
Output = tuple[OutputItem, ...]


# Lines.

_COMMAND_LINE = re.compile(r"\s*(?P<word>\S+)\s*(?P<argument>.*?)\s*$", re.DOTALL)


@frozen
class Invocation:
    """A meta-command line: the whole line, the argument text and where it starts."""

    line: str
    argument: str
    offset: int

    def error_at(self, error: DiceError) -> DiceError:
        """``error``, raised about the argument text, pointing into the whole line."""
        if error.text is not None and error.text != self.argument:
            return error
        position = None if error.position is None else self.offset + error.position
        return type(error)(error.message, self.line, position)

    def syntax(self, message: str, at: int | None = None) -> DiceError:
        """An error pointing at ``at`` in the argument (its end when None)."""
        from dicecli.errors import DiceSyntaxError  # docs/startup.md

        where = len(self.argument) if at is None else at
        return DiceSyntaxError(message, self.line, self.offset + where)


def split_command(line: str) -> tuple[str, Invocation]:
    """The first word of ``line`` (casefolded) and the rest as an :class:`Invocation`."""
    match = _COMMAND_LINE.match(line)
    if match is None:
        return "", Invocation(line, "", len(line))
    return match["word"].casefold(), Invocation(line, match["argument"], match.start("argument"))


def failed(state: ReplState, error: DiceError) -> tuple[ReplState, Output]:
    """A line that failed: the state unchanged, the error shown. The next prompt is
    empty (the line is one Up-arrow away, in the history), so what is typed next is
    never glued to the failed line and Ctrl-D still leaves."""
    return state, (Problem(error),)


def _repeated(line: str, state: ReplState) -> tuple[str, int | None]:
    """``line`` and its count when it is a repeat as another roller spells it (``6 4d6``)
    and refused as a roll; else ``(line, None)``."""
    try:
        parse_as(saved_line(line, state.env) or line, state.env.dialect)
    except DiceError:
        repeated = other_repeat(line)
        if repeated is not None:
            return repeat_count(repeated)
    return line, None


def roll_line(state: ReplState, line: str) -> tuple[ReplState, Output]:
    """Roll ``line`` as one-shot mode would: ``times`` times, or as many as the line's
    own ``-n N`` says, each of its rolls when ``;`` separates several (``1d20+5;
    2d6+3``); with ``--odds`` on the line, the chance beside each result."""
    line, count = repeat_count(with_repeats(line, state.env.dialect))
    line, with_odds = _odds_flag(line)
    if count is None and ";" not in line:
        line, count = _repeated(line, state)
    times = state.times if count is None else count
    if ";" in line:
        from dicecli.notation.lines import parse_rolls  # docs/startup.md

        rolls = [(text, text, parsed) for text, parsed in parse_rolls(line, state.env.dialect)]
    else:
        text = saved_line(line, state.env) or line
        rolls = [(line, text, parse_as(text, state.env.dialect))]
    every: list[RollResult] = []
    output: list[OutputItem] = []
    with all_or_none(state.roller):
        for shown, text, parsed in rolls:
            results = tuple(roll(parsed, state.roller, state.env, shown) for _ in range(times))
            found = _chances(text, state.env) if with_odds else None
            output += [Rolled(result, found) for result in results]
            if len(results) > 1:
                output.append(Summary(results))
            every += results
    return state.with_rolled(*every), tuple(output)


@contextmanager
def all_or_none(roller: Roller) -> Iterator[None]:
    """The rolls of one line of the REPL, which stand or fall together (``-n 3``, ``;``,
    a table's draws): when one fails (an error, Ctrl-C, a plug-in's fault) the line
    shows none, so the faces of a player's dice (``--given``) that any of them took go
    to the next line. A face that is no face of its die (:class:`NotAFaceError`) is
    spent, with those taken before it: the faces are out of step with the dice."""
    mark = roller.given_mark()
    try:
        yield
    except BaseException as error:
        if not isinstance(error, NotAFaceError):
            roller.give_back_from(mark)
        raise


_ODDS_FLAG = re.compile(r"(?<!\S)--odds(?!\S)")


def _odds_flag(line: str) -> tuple[str, bool]:
    """``line`` without its ``--odds`` (before any comment), and whether it had one."""
    code, hash_sign, comment = line.partition("#")
    stripped, found = _ODDS_FLAG.subn("", code)
    if not found:
        return line, False
    return " ".join(stripped.split()) + (f" {hash_sign}{comment}" if hash_sign else ""), True


def _chances(text: str, env: Environment) -> Odds | None:
    """The odds of ``text``; None when they are too big to work out (the roll is shown
    without them)."""
    from dicecli.probability.report import odds  # docs/startup.md

    try:
        return odds(text, env)
    except DiceError:
        return None


def last_roll(state: ReplState) -> RollResult:
    """The last roll of the session; an error when nothing was rolled yet."""
    if state.last is None:
        raise DiceError("nothing rolled yet: type a roll such as 2d6+3")
    return state.last


def no_argument(invocation: Invocation, name: str) -> None:
    """Refuse text after a command that takes none."""
    if invocation.argument:
        raise invocation.syntax(f"{name} takes nothing after it", 0)


def needs_argument(invocation: Invocation, what: str) -> str:
    """The command's argument; an error saying ``what`` is expected when there is none."""
    if not invocation.argument:
        raise invocation.syntax(f"expected {what}")
    return invocation.argument


# Rendering.


def render_output(
    output: Sequence[OutputItem],
    renderer: Renderer,
    messages: TextIO,
    stderr: TextIO,
    summaries: bool = True,
    line: int | None = None,
    width: int = 0,
    json: bool = False,
) -> None:
    """Write ``output``: rolls and odds with ``renderer``, messages to ``messages``,
    errors (with their caret) to ``stderr``, after ``line 3: `` for ``line`` 3 of a
    script. ``summaries``: show ``--times`` summaries (one-shot mode shows them on a
    terminal only); ``width``: the terminal's, to fit messages to (0: a pipe, left as
    they are); ``json``: each error one JSON object (``--json``, docs/json.md)."""
    rolled = [item.result for item in output if isinstance(item, Rolled)]
    if len(rolled) > 1:  # a run of rolls (times N): laid out alike
        renderer.align(rolled)
    for item in output:
        if isinstance(item, Rolled):
            renderer.result(item.result)
            if item.odds is not None:
                from dicecli.render.text import chance_text  # docs/startup.md

                chance = chance_text(item.result, item.odds)
                if chance:
                    messages.write(f"  ({chance})\n")
        elif isinstance(item, Summary):
            if summaries:
                from dicecli.tally import Tally  # docs/startup.md

                renderer.summary(Tally.of(item.results))
        elif isinstance(item, OddsShown):
            renderer.odds(item.odds, item.full)
        elif isinstance(item, Message):
            text = escaped_lines(item.text.rstrip("\n"))
            if width:  # a terminal: long lines wrapped between words, under their column
                from dicecli.repl.fit import fitted  # docs/startup.md

                text = fitted(text, width)
            messages.write(text + "\n")
        else:
            stderr.write(item.error.reported(json, line))
    messages.flush()
    stderr.flush()
