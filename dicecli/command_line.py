"""The command line's one table: the program's commands and options, and the router
that reads an argument list with it.

Both ways into the program read this table: the entry point (:mod:`dicecli.entry`),
which rolls a plain roll without loading typer, and the typer app (:mod:`dicecli.cli`),
which declares its options from it; a test checks that the app and the table agree.
Nothing here imports typer or any other part of dicecli (see docs/startup.md).
"""

from __future__ import annotations

import os
import stat
from typing import Any

from dicecli.frozen import frozen

PROGRAM = "dicecli"
VERSION = "0.1.0"
"""The program's version (``dicecli --version``, ``dicecli.__version__``)."""

COMMANDS = ("roll", "odds", "help", "examples", "table", "repl", "games")
"""The commands, in the order the help lists them. A first word that is none of them
is a roll: ``dicecli 2D6+5`` means ``dicecli roll 2D6+5``."""

REPL_COMMANDS = (
    "!!",
    "?",
    "again",
    "dialect",
    "exit",
    "help",
    "history",
    "let",
    "load",
    "odds",
    "quit",
    "reroll",
    "save",
    "set",
    "table",
    "unlet",
    "vars",
)
"""The REPL's own command words, aliases included (games may add commands of their
own). A test checks that the REPL registers exactly these."""

RESERVED_WORDS = frozenset((*COMMANDS, *REPL_COMMANDS))
"""Words no game may take as a keyword: a line that starts with one is a command, at
the command line or at the prompt, so the game's lines could not be typed."""

ROLLING = ("roll", "table", "repl")
ALL = ("roll", "odds", "table", "repl")


@frozen
class Option:
    """One option of the command line: its parameter name in the commands, its
    spellings, whether a value follows it, and the commands that take it."""

    name: str
    spellings: tuple[str, ...]
    takes_value: bool
    commands: tuple[str, ...]
    fast: bool = False
    """A roll may carry it and still be rolled without typer: the typer-free path reads
    it as the typer app does (:meth:`Route.fast_options`) and gives it to
    :class:`dicecli.app.RunOptions` under ``name``, or to the environment the line is
    read in (``in_environment``)."""
    number: bool = False
    """Its value is a whole number, read as the typer app reads it (``int(value)``)."""
    repeatable: bool = False
    """It may be given more than once, each value kept in order (``--set A=1 --set
    B=2``); of another option given twice, the last value counts."""
    in_environment: bool = False
    """Its value goes into the environment the line is read in (``--set``,
    ``--dialect``, ``--character``), not to :class:`dicecli.app.RunOptions` under its
    name."""
    file: bool = False
    """For a fast option: its value names a file, which the typer app checks before the
    command runs (a path that is a folder or cannot be read is refused by click): the
    typer-free path leaves such a value to the app, which says what it always said."""


OPTIONS = (
    Option("seed", ("--seed",), True, ROLLING, fast=True, number=True),
    Option("given", ("--given",), True, ROLLING, fast=True),
    Option("times", ("--times", "-n"), True, ROLLING, fast=True, number=True),
    Option("plain", ("--plain",), False, ALL, fast=True),
    Option("json", ("--json",), False, (*ALL, "games"), fast=True),
    Option("sets", ("--set",), True, ALL, fast=True, repeatable=True, in_environment=True),
    Option("character", ("--character",), True, ALL, fast=True, in_environment=True, file=True),
    Option("dice_file", ("--dice-file",), True, ALL, repeatable=True),
    Option("settings", ("--setting",), True, ALL, repeatable=True),
    Option("dialect", ("--dialect",), True, ALL, fast=True, in_environment=True),
    Option("odds", ("--odds",), False, ("roll", "table")),
    Option("at_least", ("--at-least",), True, ("odds",), number=True),
    Option("at_most", ("--at-most",), True, ("odds",), number=True),
    Option("full", ("--full",), False, ("odds",)),
    Option("debug", ("--debug",), False, ALL),
    Option("color", ("--color",), True, (*ALL, "help")),
    Option("summary", ("--summary",), False, ("roll", "table")),
    Option("svg", ("--svg",), True, ("odds",)),
    Option("path", ("--path",), True, ("examples",)),
)
"""Every option of the commands (a game's own options, such as a plug-in's
``--wild-die``, come from its declaration and are added by :mod:`dicecli.cli`)."""

OPTION = {option.name: option for option in OPTIONS}

HELP = ("-h", "--help")
COMPLETION_OPTIONS = ("--install-completion", "--show-completion")
VERSION_OPTIONS = ("-V", "--version")
APP_OPTIONS = (*HELP, *VERSION_OPTIONS, *COMPLETION_OPTIONS)
"""The options of the program itself, not of a command."""

FAST_OPTIONS = {s: option for option in OPTIONS if option.fast for s in option.spellings}
"""The spellings a roll on the typer-free path may carry, and their options."""
WITH_VALUE = frozenset(s for option in OPTIONS if option.takes_value for s in option.spellings)
SPELLINGS = frozenset({*(s for option in OPTIONS for s in option.spellings), *APP_OPTIONS})

REPEAT_SPELLINGS = OPTION["times"].spellings
"""``--times`` and ``-n``, which a line of its own may carry too (``4d6kh3 -n 6``)."""


def is_option(word: str) -> bool:
    """Whether ``word`` is read as an option rather than as part of the roll: a long
    option, ``--`` and a letter (known or not, so that a typo is reported), ``-h``,
    ``-n`` or ``-n3`` (the ``--times`` option with its value, never the roll ``-n3``, a
    name). Any other word, even one starting with a minus (``-7/2``, ``--15``), is part
    of the roll."""
    if word.startswith("--"):
        first = word[2:3]
        return first.isascii() and first.isalpha()
    return word in SPELLINGS or (word.startswith("-n") and word[2:].isdecimal())


@frozen
class Route:
    """An argument list read with the table: the command (None: none named), the
    options with their values, and the roll's words."""

    command: str | None
    options: list[str]
    words: list[str]

    def typer_args(self) -> list[str]:
        """The arguments as the typer app expects them: ``COMMAND [OPTIONS] -- [WORDS]``
        (``[OPTIONS]`` alone for the program's own: ``--help``, ``--version``)."""
        if self.command is None and not self.words:
            if self.options and self.options[0] in COMPLETION_OPTIONS:
                return self.options  # `dicecli --show-completion bash`: the shell's name
            if all(option in APP_OPTIONS for option in self.options):
                return self.options  # bare `dicecli`, `dicecli --help` ...
        command = self.command or "roll"
        return [command, *self.options, *(["--", *self.words] if self.words else [])]

    def fast_options(self, commands: tuple[str, ...] = ("roll",)) -> dict[str, Any] | None:
        """The options under their names (``{"seed": 3, "json": True, "sets": ["STR=1"]}``)
        when each is marked ``fast`` and its value reads as the typer app would read it
        (a repeatable option's values as a list); None when the typer app is needed:
        another option, another command than ``commands`` (or none named), a value
        missing or odd (one that starts with a minus, a number that is none), which the
        app reports."""
        if self.command is not None and self.command not in commands:
            return None
        found: dict[str, Any] = {}
        options = self.options
        index = 0
        while index < len(options):
            spelling = options[index]
            option = FAST_OPTIONS.get(spelling)
            if option is None:
                option = FAST_OPTIONS.get(spelling[:2])  # `-n3`: a short spelling, its value
                if option is None or not option.takes_value or not is_option(spelling):
                    return None
                if (self.command or "roll") not in option.commands:
                    return None
                value = spelling[2:]
                index += 1
            elif (self.command or "roll") not in option.commands:
                return None
            elif not option.takes_value:
                found[option.name] = True
                index += 1
                continue
            elif index + 1 < len(options):
                value = options[index + 1]
                index += 2
            else:
                return None  # `dicecli 2d6 --seed`: the app says what is missing
            read = _fast_value(option, value)
            if read is None:
                return None
            if option.repeatable:
                found.setdefault(option.name, []).append(read)
            else:
                found[option.name] = read  # given twice, the last one counts, as in the app
        return found


def _fast_value(option: Option, value: str) -> int | str | None:
    """``value`` as the typer app reads it for ``option``; None when the app should
    judge it: it starts with a minus (perhaps another option: a missing value) or is
    no whole number where one is asked."""
    if value.startswith("-"):
        return None
    if option.file and _refused_as_a_file(value):
        return None
    if not option.number:
        return value
    try:
        return int(value)
    except ValueError:
        return None


def _refused_as_a_file(value: str) -> bool:
    """Whether the typer app refuses ``value`` as a file's path before the command runs,
    as click's ``Path(dir_okay=False)`` does: it is there, and it is a folder or cannot
    be read (a path that is not there is the command's to report)."""
    try:
        found = os.stat(value)
    except (OSError, ValueError):  # not there, or no path at all (a NUL in it)
        return False
    return stat.S_ISDIR(found.st_mode) or not os.access(value, os.R_OK)


def route(args: list[str], with_value: frozenset[str] = frozenset()) -> Route:
    """Read ``args``: options may stand anywhere, before or after the command and the
    roll (``dicecli --seed 3 2d6``, ``dicecli 2d6 --plain``); the first word may name a
    command; every other word is part of the roll, even one starting with a minus, so
    ``dicecli -7/2`` and ``dicecli d20 -1`` need no quoting. ``with_value``: more
    spellings of options that take a value (the games' own)."""
    if args and args[0] in COMPLETION_OPTIONS:
        return Route(None, args, [])  # `dicecli --show-completion bash`: no roll
    takes_value = WITH_VALUE | with_value
    command: str | None = None
    options: list[str] = []
    words: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            words.extend(args[index + 1 :])
            break
        if arg in takes_value:
            options.extend(args[index : index + 2])
            index += 2
            continue
        if is_option(arg):
            options.append(arg)
        elif command is None and not words and arg in COMMANDS:
            command = arg
        else:
            words.append(arg)
        index += 1
    return Route(command, options, words)


__all__ = [
    "APP_OPTIONS",
    "COMMANDS",
    "COMPLETION_OPTIONS",
    "OPTION",
    "OPTIONS",
    "PROGRAM",
    "REPL_COMMANDS",
    "RESERVED_WORDS",
    "VERSION",
    "Option",
    "Route",
    "is_option",
    "route",
]
