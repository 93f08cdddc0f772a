"""The REPL's commands, in a registry (``let``, ``again``, ``reroll`` ...), and
:func:`handle_line`, which runs a typed line: a command or a roll.

Each command is a function ``(state, invocation) -> (state, output)`` registered with
its name, aliases, usage and a one-line summary (shown by ``help repl``). A line whose
first word (any case) is a command's name or alias runs the command; any other line is
rolled. Commands raise :class:`~dicecli.errors.DiceError` for bad input;
:func:`handle_line` turns it into a shown error. Games add commands of their own through
their declaration (:class:`~dicecli.systems.declaration.ReplCommand`), registered after the
REPL's own and imported when first used.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from dicecli.app import is_roll_line
from dicecli.errors import DiceError
from dicecli.escape import escaped
from dicecli.frozen import frozen, replace
from dicecli.naming import (
    constant_value,
    is_check_line,
    name_problem,
    saved_line,
    value_expression,
    with_saved_roll,
)
from dicecli.render.text import result_line
from dicecli.repl.help import help_text, topic_names
from dicecli.repl.state import (
    Invocation,
    Message,
    OddsShown,
    Output,
    OutputItem,
    ReplState,
    Rolled,
    Summary,
    all_or_none,
    failed,
    last_roll,
    needs_argument,
    no_argument,
    roll_line,
    split_command,
)
from dicecli.results import RollResult
from dicecli.systems import registry

Run = Callable[[ReplState, Invocation], tuple[ReplState, Output]]


@frozen
class Command:
    """A REPL command: its name, how to use it, what it does, and the function run."""

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


# Named values and saved rolls.

_LET = re.compile(r"(?P<name>[^\s=]+)\s*(?P<equals>=?)\s*(?P<value>.*)", re.DOTALL)


@command(
    "let",
    "let NAME = VALUE",
    "name a number (let STR = 3), save a roll (let attack = 1d20+5) or a game's check "
    f"(let hit = {registry.games()[0].example})",
)
def _let(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    argument = needs_argument(invocation, "NAME = VALUE, e.g. let STR = 3")
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
        if is_check_line(value_text, state.env):
            saved = value_text.strip()
            return state.with_names(state.env.with_check(name, saved), name), (
                Message(f"{name} = {saved}  (a saved check: rolled anew each time)"),
            )
        expr = value_expression(value_text, state.env)
        number = constant_value(expr, state.env)
    except DiceError as error:
        raise value_at.error_at(error) from None
    if number is not None:
        return state.with_names(state.env.with_value(name, number), name), (
            Message(f"{name} = {number}"),
        )
    try:
        env = with_saved_roll(state.env, name, expr)
    except DiceError as error:
        raise value_at.error_at(error) from None
    return state.with_names(env, name), (
        Message(f"{name} = {expr}  (a saved roll: rolled anew each time)"),
    )


def check_new_name(invocation: Invocation, name: str, at: int) -> None:
    """Refuse names that would not read back as a name at the prompt."""
    if name.casefold() in COMMANDS:
        raise invocation.syntax(f"'{name}' is a command word: choose another name", at)
    problem = name_problem(name)  # a game's keyword too, said as a character file says it
    if problem is not None:
        raise invocation.syntax(problem, at)


@command("unlet", "unlet NAME", "forget a named value or saved roll")
def _unlet(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    name = needs_argument(invocation, "a name, e.g. unlet STR")
    env = state.env
    if env.value(name) is None and env.roll(name) is None and env.check(name) is None:
        raise invocation.syntax(f"no name '{name}' to forget (see vars)", 0)
    spelled = state.spelled(name)
    return replace(state, env=state.env.without(name)), (Message(f"forgot {spelled}"),)


@command("vars", "vars", "list the named values, saved rolls and saved checks")
def _vars(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    no_argument(invocation, "vars")
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
    checks = [
        f"  {name} = {state.env.check(name)}  (saved check)"
        for name in state.names()
        if state.env.check(name) is not None
    ]
    lines = values + rolls + checks
    if not lines:
        return state, (Message("no names yet: let STR = 3, or load a character file"),)
    return state, (Message("\n".join(lines)),)


@command(
    "load",
    "load PATH",
    "load a character file (stats, saved rolls) or a dice file (named dice: dicecli help dice)",
)
def _load(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.bundled import example_or_path  # docs/startup.md
    from dicecli.character import read_character
    from dicecli.dicefiles.load import read_if_dice, with_book

    typed = needs_argument(invocation, "the path of a character file, e.g. load hero.toml")
    path = example_or_path(typed)  # or an example's name (load character), as options take
    book = read_if_dice(path)
    if book is not None:  # a dice file: its dice join those in force
        env = replace(state.env, dice=with_book(state.env.dice, book))
        return state.with_names(env), (Message(f"loaded dice {', '.join(book.names())}"),)
    character = read_character(path, state.env)
    names = character.names()
    state = state.with_names(character.apply(state.env, path.name), *names)
    who = f"{character.name}: " if character.name else ""
    listed = ", ".join(names) if names else "no names"
    return state, (Message(f"loaded {who}{listed}"),)


@command(
    "dialect",
    "dialect [NAME|off]",
    "read lines as another roller does (roll20, foundry, rdr, d20, dicemaiden, rolldice)",
)
def _dialect(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.notation.dialects import (
        DIALECTS,
        OFF,
        DialectError,
        dialect_named,
    )  # docs/startup.md

    word = invocation.argument.strip()
    current = state.env.dialect
    if not word:
        said = DIALECTS[current].roller if current is not None else "dicecli's own"
        return state, (Message(f"dialect: {said} (dialects: {', '.join(DIALECTS)}, {OFF})"),)
    try:
        name = dialect_named(word)
    except DialectError as error:
        raise invocation.syntax(error.message, 0) from None
    env = state.env.with_dialect(name)  # chosen: a character file loaded next keeps it
    said = "dicecli's own" if name is None else DIALECTS[name].roller
    return replace(state, env=env), (Message(f"dialect: {said}"),)


# Roll tables (docs/tables.md).


_SETTING = re.compile(r"(?P<key>[^\s=]+)\s*(?P<equals>=?)\s*(?P<value>.*)", re.DOTALL)


@command(
    "set",
    "set [KEY=VALUE]",
    "a game setting for this session, as --setting does (set alone: every key and value)",
)
def _set(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.notation.dialects import DIALECT_SETTING  # docs/startup.md

    known = registry.settings()
    keys = ", ".join([*known, DIALECT_SETTING])
    argument = invocation.argument
    if not argument.strip():
        in_force = [f"  {key} = {value}" for key, value in state.env.settings.items()]
        said = "\n".join(in_force) if in_force else "no settings set: each game's default"
        return state, (Message(f"{said}\n(settings: {keys})"),)
    match = _SETTING.fullmatch(argument.strip())
    if match is None or not match["equals"]:
        raise invocation.syntax(f"set takes KEY=VALUE, e.g. set {registry.setting_example()}", 0)
    key = match["key"].casefold()
    at = len(argument) - len(argument.lstrip())
    if key == DIALECT_SETTING:
        offset = invocation.offset + at + match.start("value")
        return _dialect(state, Invocation(invocation.line, match["value"] or "off", offset))
    setting = known.get(key)
    if setting is None:
        raise invocation.syntax(f"no such setting '{match['key']}' (settings: {keys})", at)
    value = match["value"].partition("#")[0].strip()  # a comment after it, as for let
    settings = {name: text for name, text in state.env.settings.items() if name != key}
    if not value:
        env = replace(state.env, settings=settings)
        return replace(state, env=env), (Message(f"{key}: the game's default"),)
    try:
        setting.read(value)  # a bad value is refused now, not at the next roll
    except DiceError as error:
        raise invocation.syntax(error.message, at + match.start("value")) from None
    env = replace(state.env, settings={**settings, key: value})
    return replace(state, env=env), (Message(f"{key} = {value}"),)


@command(
    "table",
    "table [FILE] NAME",
    "draw from a roll table (the per-user tables.toml, or FILE); table odds [FILE] NAME",
)
def _table(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.tables.command import USAGE, book_and_name  # docs/startup.md
    from dicecli.tables.draw import draw

    words = invocation.argument.split()
    if not words:
        raise invocation.syntax(f"expected a table: {USAGE}")
    if words[0].casefold() == "odds":
        from dicecli.tables.load import check_named_cover  # docs/startup.md
        from dicecli.tables.odds import table_odds

        book, name = book_and_name(words[1:])
        table = book.table(name)
        check_named_cover(book.source, table, state.env)  # d100+CRITS, after let CRITS = 10
        return state, (OddsShown(table_odds(table, state.env)),)
    book, name = book_and_name(words)
    table = book.table(name)
    typed = "table " + " ".join(words)
    with all_or_none(state.roller):
        results = tuple(
            draw(book, table.name, state.roller, state.env, typed) for _ in range(state.times)
        )
    output: list[OutputItem] = [Rolled(result) for result in results]
    if len(results) > 1:
        output.append(Summary(results))
    return state.with_rolled(*results), tuple(output)


# Repeating the last roll.


@command("again", "again", "roll the last line again, a new roll", "!!")
def _again(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    no_argument(invocation, "again")
    line = last_roll(state).input
    if split_command(line)[0] == "table":  # a draw from a table: draw again
        return _table(state, split_command(line)[1])
    return roll_line(state, line)


@command(
    "reroll",
    "reroll",
    "re-roll the last roll, all its dice; the new result stands (rule W5)",
)
def _reroll(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.rolling.reroll_result import reroll  # docs/startup.md

    no_argument(invocation, "reroll")
    if split_command(last_roll(state).input)[0] == "table":
        raise DiceError("reroll re-rolls a roll, not a draw from a table: again draws again")
    result = reroll(last_roll(state), state.roller, state.env)
    return state.with_rolled(result), (Rolled(result),)


# The session's rolls.


@command("history", "history", "list this session's rolls and their results")
def _history(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    no_argument(invocation, "history")
    if not state.rolls:
        return state, (Message("no rolls yet"),)
    return state, (Message("\n".join(history_lines(state.rolls))),)


def history_lines(rolls: tuple[RollResult, ...]) -> list[str]:
    """One line per roll in columns: its number, total, line and detail (the fields
    of the plain format, docs/output.md, padded instead of tab-separated). A comment is
    shown once, at the end."""
    rows = []
    for result in rolls:
        total, line, detail = result_line(result).split("\t", 2)
        if result.comment is not None:
            line = line.partition("#")[0].rstrip()
        rows.append((total, line, detail))
    number_width = len(str(len(rows)))
    total_width = max(len(total) for total, _, _ in rows)
    input_width = min(max(len(line) for _, line, _ in rows), 30)
    return [
        f"{n:>{number_width}}  {total:>{total_width}}  {line:<{input_width}}  {detail}"
        for n, (total, line, detail) in enumerate(rows, start=1)
    ]


@command("save", "save PATH", "write this session's rolls to a new file as JSON Lines (as --json)")
def _save(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.files import FileError, write_new  # docs/startup.md

    path = Path(needs_argument(invocation, "a file to write, e.g. save evening.jsonl"))
    if not state.rolls:  # no empty file left behind to find later
        raise DiceError("nothing rolled yet, so nothing to save: type a roll such as 2d6+3")
    from dicecli.escape import json_escaped  # docs/startup.md

    text = "".join(
        json_escaped(json.dumps(r.as_dict(), ensure_ascii=False)) + "\n" for r in state.rolls
    )
    try:
        write_new(path.expanduser(), text)
    except FileError as error:
        raise DiceError(f"cannot write {path}: {error.message}") from None
    count = len(state.rolls)
    return state, (Message(f"saved {count} roll{'' if count == 1 else 's'} to {path}"),)


# Odds, help, leaving.


@command(
    "odds",
    "odds EXPR [--full]",
    "the exact chances of a roll or check, e.g. odds 2d6+3 (--full: every row)",
)
def _odds(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    from dicecli.probability.report import odds_of_rolls  # docs/startup.md

    text = needs_argument(invocation, "a roll, e.g. odds 2d6+3")
    if split_command(text)[0] == "table":  # odds table NAME: as table odds NAME
        return _table(state, Invocation(invocation.line, "odds " + text[5:].strip(), 0))
    full = _FULL.search(text)
    if full is not None:
        text = (text[: full.start()] + text[full.end() :]).strip()
        invocation = Invocation(invocation.line, text, invocation.offset)
    try:
        found = odds_of_rolls(saved_line(text, state.env) or text, state.env)
    except DiceError as error:
        raise invocation.error_at(error) from None
    return state, tuple(OddsShown(result, full is not None) for result in found)


_FULL = re.compile(r"(?:^|\s)--full(?=\s|$)")


@command("help", "help [TOPIC]", "this list, or help on: " + ", ".join(topic_names()), "?")
def _help(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    topic = invocation.argument.casefold()
    if topic in ("", "repl", "commands"):
        return state, (Message(help_text(topic or "repl", commands_help())),)
    if topic not in topic_names():
        raise invocation.syntax(f"no help on '{topic}': try {', '.join(topic_names())}", 0)
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
    no_argument(invocation, invocation.line.split()[0])
    return replace(state, finished=True), ()


# Commands of the games.


def _add_game_commands() -> None:
    """Register the games' commands after the REPL's own; one whose name or alias is
    already a command is left out with a warning."""
    for game in registry.games():
        for declared in game.commands:
            words = (declared.name, *declared.aliases)
            clash = [word for word in words if word.casefold() in COMMANDS]
            if clash:
                sys.stderr.write(
                    f"warning: dicecli game {escaped(game.name)}: REPL command "
                    f"'{escaped(clash[0])}' left out: the REPL has it already\n"
                )
                continue
            entry = Command(
                declared.name,
                declared.usage,
                declared.summary,
                declared.run,
                declared.aliases,
            )
            for word in words:
                COMMANDS[word.casefold()] = entry


_add_game_commands()


# Lines.


def handle_line(state: ReplState, line: str) -> tuple[ReplState, Output]:
    """One line typed at the prompt: a command, a roll, or nothing.

    An empty line and a ``#`` comment do nothing. A :class:`DiceError` becomes a
    :class:`~dicecli.repl.state.Problem`, with a hint to the right form when one is
    found (:mod:`dicecli.hints`); the state is left as it was.
    """
    if not is_roll_line(line):
        return state, ()
    word, invocation = split_command(line)
    found = find_command(word)
    try:
        if found is not None:
            return found.run(state, invocation)
        return roll_line(state, line)
    except DiceError as error:
        # Imported when first needed (docs/startup.md).
        from dicecli.hints import advise  # only when a line failed

        return failed(state, advise(error, state.env, commands=tuple(COMMANDS)))
