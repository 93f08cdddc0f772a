"""The REPL's meta-commands, in a registry: ``let``, ``again``, ``reroll``, ``keep`` ...

Each command is a function ``(state, invocation) -> (state, output)`` registered with
its name, aliases, usage and a one-line summary (shown by ``help repl``). A line whose
first word (any case) is a command's name or alias runs the command; any other line is
rolled. Commands raise :class:`~dicecli.errors.DiceError` for bad input;
:func:`~dicecli.repl.state.handle_line` turns it into a shown error.

:func:`completions` gives the words tab completion offers for a line, from the state:
meta-commands, game keywords and their sub-forms, AGE abilities and difficulties, and
the user's own names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from dicecli import systems
from dicecli.errors import DiceError, RuleError
from dicecli.naming import constant_value, name_problem, value_expression
from dicecli.notation.grammar import parse
from dicecli.render.text import result_line
from dicecli.repl.help import TOPICS, help_text
from dicecli.repl.state import (
    Invocation,
    Message,
    OddsShown,
    Output,
    ReplState,
    Rolled,
    roll_line,
)
from dicecli.results import DieRoll, RollResult
from dicecli.rolling.dice import DiceSource, Die, Roller
from dicecli.rolling.evaluate import roll
from dicecli.systems.age.nodes import ABILITIES, DIFFICULTIES

Run = Callable[[ReplState, Invocation], tuple[ReplState, Output]]


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    summary: str
    run: Run
    aliases: tuple[str, ...] = ()


COMMANDS: dict[str, Command] = {}
"""Every command by name and by alias."""


def command(name: str, usage: str, summary: str, *aliases: str) -> Callable[[Run], Run]:
    def register(run: Run) -> Run:
        entry = Command(name, usage, summary, run, aliases)
        for word in (name, *aliases):
            COMMANDS[word] = entry
        return run

    return register


def find_command(word: str) -> Command | None:
    return COMMANDS.get(word.casefold())


def listed_commands() -> list[Command]:
    """Each command once, in registration order."""
    return list(dict.fromkeys(COMMANDS.values()))


def _no_argument(invocation: Invocation, name: str) -> None:
    if invocation.argument:
        raise invocation.syntax(f"{name} takes nothing after it", 0)


def _needs_argument(invocation: Invocation, what: str) -> str:
    if not invocation.argument:
        raise invocation.syntax(f"expected {what}")
    return invocation.argument


# Named values and saved rolls.

_LET = re.compile(r"(?P<name>[^\s=]+)\s*(?P<equals>=?)\s*(?P<value>.*)", re.DOTALL)


@command(
    "let",
    "let NAME = VALUE",
    "name a number (let STR = 3) or save a roll (let attack = 1d20+5)",
)
def _let(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    argument = _needs_argument(invocation, "NAME = VALUE, e.g. let STR = 3")
    match = _LET.fullmatch(argument)
    if match is None:
        raise invocation.syntax("expected a name before '=', e.g. let STR = 3", 0)
    name = match["name"]
    check_new_name(invocation, name, match.start("name"))
    if not match["equals"]:
        raise invocation.syntax(f"expected '=' after {name}", match.end("name"))
    value_text = match["value"]
    if not value_text.strip():
        raise invocation.syntax(f"expected a number or a roll after '{name} ='")
    value_at = Invocation(invocation.line, value_text, invocation.offset + match.start("value"))
    try:
        expr = value_expression(value_text, state.env)
        number = constant_value(expr, state.env)
    except DiceError as error:
        raise value_at.error_at(error) from None
    if number is not None:
        return state.with_names(state.env.with_value(name, number), name), (
            Message(f"{name} = {number}"),
        )
    return state.with_names(state.env.with_roll(name, expr), name), (
        Message(f"{name} = {expr}  (a saved roll: rolled anew each time)"),
    )


def check_new_name(invocation: Invocation, name: str, at: int) -> None:
    """Refuse names that would not read back as a name at the prompt."""
    if name.casefold() in COMMANDS or name.casefold() in systems.KEYWORDS:
        raise invocation.syntax(f"'{name}' is a command word: choose another name", at)
    problem = name_problem(name)
    if problem is not None:
        raise invocation.syntax(problem, at)


@command("unlet", "unlet NAME", "forget a named value or saved roll")
def _unlet(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    name = _needs_argument(invocation, "a name, e.g. unlet STR")
    if state.env.value(name) is None and state.env.roll(name) is None:
        raise invocation.syntax(f"no name '{name}' to forget (see vars)", 0)
    spelled = state.spelled(name)
    return replace(state, env=state.env.without(name)), (Message(f"forgot {spelled}"),)


@command("vars", "vars", "list the named values and saved rolls")
def _vars(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    _no_argument(invocation, "vars")
    values = [
        f"  {name} = {state.env.value(name)}"
        for name in state.names()
        if state.env.value(name) is not None
    ]
    rolls = [
        f"  {name} = {state.env.roll(name)}  (saved roll)"
        for name in state.names()
        if state.env.roll(name) is not None
    ]
    lines = values + rolls
    if not lines:
        return state, (Message("no names yet: let STR = 3, or load a character file"),)
    return state, (Message("\n".join(lines)),)


@command("load", "load PATH", "load a character file (TOML): its stats and saved rolls")
def _load(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.character import read_character

    path = _needs_argument(invocation, "the path of a character file, e.g. load hero.toml")
    character = read_character(Path(path))
    names = character.names()
    state = state.with_names(character.apply(state.env), *names)
    who = f"{character.name}: " if character.name else ""
    listed = ", ".join(names) if names else "no names"
    return state, (Message(f"loaded {who}{listed}"),)


# Repeating the last roll.


def _last(state: ReplState) -> RollResult:
    if state.last is None:
        raise DiceError("nothing rolled yet: type a roll such as 2d6+3")
    return state.last


@command("again", "again", "roll the last line again, a new roll", "!!")
def _again(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    _no_argument(invocation, "again")
    return roll_line(state, _last(state).input)


@command(
    "reroll",
    "reroll",
    "re-roll the last roll, all its dice; the new result stands (rule W5)",
)
def _reroll(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.rolling.reroll_result import reroll

    _no_argument(invocation, "reroll")
    result = reroll(_last(state), state.roller, state.env)
    return state.with_rolled(result), (Rolled(result),)


# Alkemy: choosing which dice to keep after seeing them (rule A4).

_KEEP = re.compile(r"(?P<first>\d+)\s*[,\s]\s*(?P<second>\d+)(?:\s+on\s+(?P<side>\d+))?", re.I)


@command(
    "keep",
    "keep I J [on SIDE]",
    "Alkemy bonus dice: keep the I-th and J-th dice of the last roll (rule A4)",
)
def _keep(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    argument = _needs_argument(invocation, "two dice positions, e.g. keep 1 3")
    match = _KEEP.fullmatch(argument)
    if match is None:
        raise invocation.syntax("expected two dice positions, e.g. keep 1 3 (or keep 1 3 on 2)", 0)
    previous = _last(state)
    side = int(match["side"]) if match["side"] else None
    text = with_keep_choice(previous, int(match["first"]), int(match["second"]), side)
    replay = Roller(ReplaySource(previous.dice, state.roller.source))
    try:
        result = replace(roll(parse(text), replay, state.env, text), reroll=previous.reroll)
    except DiceError as error:  # a choice the rules refuse: point at the typed choice
        raise type(error)(error.message, invocation.line, invocation.offset) from None
    rolls = (*state.rolls[:-1], result) if state.rolls else (result,)
    return replace(state, last=result, rolls=rolls), (Rolled(result),)


NO_BONUS_DICE = (
    "the last roll has no bonus dice to choose from: keep works after an Alkemy roll "
    "with bonus dice, e.g. alkemy 8 +1 bonus vs 15"
)


def with_keep_choice(previous: RollResult, first: int, second: int, side: int | None) -> str:
    """The canonical text of ``previous`` (an Alkemy line) with the keep choice on the
    side that has bonus dice (``side``: 1 or 2, else the first side with bonus dice)."""
    from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyOpposed, AlkemySide, KeepChoice

    body = parse(previous.input).body
    choice = KeepChoice(first, second)

    def chosen(candidate: AlkemySide) -> AlkemySide:
        if candidate.bonus <= candidate.penalty:
            raise RuleError(NO_BONUS_DICE.replace("the last roll", "that side"))
        return replace(candidate, keep=choice)

    if isinstance(body, AlkemyCheck) and side in (None, 1):
        return str(replace(body, side=chosen(body.side)))
    if isinstance(body, AlkemyOpposed):
        has_bonus = [s.bonus > s.penalty for s in (body.first, body.second)]
        side = side or (2 if has_bonus == [False, True] else 1)
        if side == 1:
            return str(replace(body, first=chosen(body.first)))
        if side == 2:
            return str(replace(body, second=chosen(body.second)))
    if isinstance(body, AlkemyCheck | AlkemyOpposed):
        raise RuleError(f"there is no side {side} in the last roll")
    raise RuleError(NO_BONUS_DICE)


class ReplaySource:
    """The faces of an earlier roll, in order, then (if the new roll needs more, e.g. a
    tie that now needs a re-roll) faces from ``fallback``. Faces left over are dropped:
    they belonged to re-roll rounds that no longer happen."""

    def __init__(self, dice: tuple[DieRoll, ...], fallback: DiceSource) -> None:
        self.faces = [die.face for die in dice]
        self.fallback = fallback
        self.used = 0

    def draw(self, die: Die) -> int:
        if self.used < len(self.faces):
            index = die.face_index(self.faces[self.used])
            self.used += 1
            if index is not None:
                return index
        return self.fallback.draw(die)


# The session's rolls.


@command("history", "history", "list this session's rolls and their results")
def _history(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    _no_argument(invocation, "history")
    if not state.rolls:
        return state, (Message("no rolls yet"),)
    width = len(str(len(state.rolls)))
    lines = [f"{n:>{width}}  {result_line(r)}" for n, r in enumerate(state.rolls, start=1)]
    return state, (Message("\n".join(lines)),)


@command("save", "save PATH", "write this session's rolls to PATH as JSON Lines (as --json)")
def _save(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    path = Path(_needs_argument(invocation, "a file to write, e.g. save evening.jsonl"))
    text = "".join(json.dumps(r.as_dict(), ensure_ascii=False) + "\n" for r in state.rolls)
    try:
        path.expanduser().write_text(text, encoding="utf-8")
    except OSError as error:
        raise DiceError(f"cannot write {path}: {error.strerror or error}") from None
    count = len(state.rolls)
    return state, (Message(f"saved {count} roll{'' if count == 1 else 's'} to {path}"),)


# Odds, help, leaving.


@command("odds", "odds EXPR", "the exact chances of a roll or check, e.g. odds 2d6+3")
def _odds(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.probability.report import odds

    text = _needs_argument(invocation, "a roll, e.g. odds 2d6+3")
    try:
        result = odds(text, state.env)
    except DiceError as error:
        raise invocation.error_at(error) from None
    return state, (OddsShown(result),)


@command("help", "help [TOPIC]", "this list, or help on: " + ", ".join(TOPICS), "?")
def _help(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    topic = invocation.argument.casefold()
    if topic in ("", "repl", "commands"):
        return state, (Message(help_text(topic or "repl", commands_help())),)
    if topic not in TOPICS:
        raise invocation.syntax(f"no help on '{topic}': try {', '.join(TOPICS)}", 0)
    return state, (Message(help_text(topic, commands_help())),)


def commands_help() -> str:
    entries = listed_commands()
    width = max(len(entry.usage) for entry in entries)
    lines = []
    for entry in entries:
        also = f" (also {', '.join(entry.aliases)})" if entry.aliases else ""
        lines.append(f"  {entry.usage:<{width}}  {entry.summary}{also}")
    return "\n".join(lines)


@command("quit", "quit", "leave the REPL; Ctrl-D too", "exit")
def _quit(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    _no_argument(invocation, invocation.line.split()[0])
    return replace(state, finished=True), ()


# Tab completion.

GAME_WORDS = (
    "artillery",
    "scatter",
    "test",
    "ld",
    "leadership",
    "break",
    "by",
    "lost",
    "rolloff",
    "allocate",
    "vs",
    "bonus",
    "penalty",
    "keep",
    "white",
    "yellow",
    "red",
    "unhurt",
    "wounded",
    "critical",
    "focus",
    "until",
)
"""The words of the games' forms (docs/alkemy.md, docs/warhammer.md, docs/age.md)."""

AGE_WORDS = (*ABILITIES, *DIFFICULTIES)


_WORD_AT_END = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*$")


def current_word(before_cursor: str) -> str:
    """The word being typed at the end of ``before_cursor`` (``att`` in ``2d6+att``)."""
    match = _WORD_AT_END.search(before_cursor)
    return match.group() if match else ""


def completions(state: ReplState, before_cursor: str) -> list[str]:
    """The words tab completion offers for :func:`current_word`, matched
    case-insensitively, sorted."""
    partial = current_word(before_cursor)
    previous = before_cursor[: len(before_cursor) - len(partial)].split()
    candidates = _candidates(state, [word.casefold() for word in previous])
    folded = partial.casefold()
    found = {word for word in candidates if word.casefold().startswith(folded)}
    return sorted(found, key=lambda word: (word.casefold(), word))


def _candidates(state: ReplState, previous: list[str]) -> tuple[str, ...]:
    names = state.names()
    if not previous:
        return (*dict.fromkeys(c.name for c in listed_commands()), *systems.KEYWORDS, *names)
    first = previous[0]
    if first in ("help", "?"):
        return TOPICS if len(previous) == 1 else ()
    if first in ("load", "save", "quit", "exit", "vars", "history", "again", "reroll"):
        return ()
    if first == "unlet":
        return names if len(previous) == 1 else ()
    if first == "let" and len(previous) == 1:
        return ()
    return (*GAME_WORDS, *AGE_WORDS, *names)
