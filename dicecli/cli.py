"""The typer command line: options, help, and the ``roll`` / ``odds`` / ``repl`` commands.

Thin by design: it turns options into :class:`~dicecli.app.RunOptions` and calls
:mod:`dicecli.app`. The options the commands share are declared once
(:func:`shared_options`); each game's options (a plug-in's ``--wild-die``) come from its
declaration in the registry. The options' spellings, and which command takes which,
come from the command line's one table (:mod:`dicecli.command_line`), which the entry
point (:mod:`dicecli.entry`) reads too: a plain roll never comes here
(docs/startup.md).

The app is made for the run (:func:`app_for`): what it says of the games (examples and
the list of games in its help, their options) is read from every game's declaration
only when the run may show it, and a run that shows no help makes its command alone
(:func:`lone_command`): a roll with the table's options loads no game (docs/startup.md).
"""

from __future__ import annotations

import enum
import errno
import functools
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, Optional

import typer
import typer.core
from typer.core import TyperGroup

from dicecli.command_line import (
    COMMANDS,
    COMPLETION_OPTIONS,
    OPTION,
    OPTIONS,
    PROGRAM,
    SPELLINGS,
    VERSION,
    VERSION_OPTIONS,
    WITH_VALUE,
    is_option,
)
from dicecli.command_line import route as route_words
from dicecli.errors import DiceError, escaped
from dicecli.escape import escaped_lines
from dicecli.frozen import frozen, replace
from dicecli.notation.dialects import DIALECT_SETTING, DIALECTS, dialect_named
from dicecli.status import ExitStatus
from dicecli.systems import registry
from dicecli.terminals import is_terminal

if TYPE_CHECKING:
    from dicecli.app import RunOptions
    from dicecli.environment import Environment
    from dicecli.systems.declaration import CliOption


def _examples() -> str:
    """``2D6+5, 4d6kh3`` and an example line of each game (a plug-in's text escaped,
    as all text shown that dicecli did not write)."""
    return ", ".join(("2D6+5", "4d6kh3", *(escaped(game.example) for game in registry.games())))


def _setting_example() -> str:
    """:func:`~dicecli.systems.registry.setting_example`, escaped for help and errors."""
    return escaped(registry.setting_example())


_EPILOG_WIDTH = 76
"""The longest line of a game in the help's epilogue: one line each on 80 columns."""


def _games_epilog() -> str:
    """One line per game: its keyword, a few of its forms, and where its help is.
    (Paragraphs: the help formatter joins single lines.)"""
    lines = []
    for game in registry.games():
        forms = [escaped(example) for example, _ in game.help.examples] if game.help else []
        forms = forms or [escaped(game.example)]
        more = f"  (dicecli help {game.topic})"
        while len(forms) > 1 and len(", ".join(forms) + more) > _EPILOG_WIDTH:
            forms.pop()
        lines.append(", ".join(forms) + more)
    return "Games:\n\n" + "\n\n".join(lines)


@frozen
class GameTexts:
    """What the typer app says of the games: examples of their lines and the list of
    games in its help, a setting's example in ``--setting``'s help, and the games' own
    options. Read from every game's declaration (:meth:`of_every_game`) for a run that
    may show them; :data:`UNSAID` for any other run, which then loads no game
    (:func:`lone_command`)."""

    examples: str
    epilog: str | None
    setting_example: str
    first_example: str
    last_topic: str
    options: tuple[CliOption, ...]

    @classmethod
    def of_every_game(cls) -> GameTexts:
        games = registry.games()
        return cls(
            examples=_examples(),
            epilog=_games_epilog(),
            setting_example=_setting_example(),
            first_example=games[0].example,
            last_topic=games[-1].topic,
            options=game_options(),
        )

    def without_markup(self) -> GameTexts:
        """These texts as rich's markup shows them as written: for help that rich
        renders with markup (at a terminal), where a plug-in's ``[link=URL]`` would
        become a hidden link, and ``[/]`` an error."""
        from rich.markup import escape  # docs/startup.md: only help at a terminal

        return GameTexts(
            examples=escape(self.examples),
            epilog=None if self.epilog is None else escape(self.epilog),
            setting_example=escape(self.setting_example),
            first_example=escape(self.first_example),
            last_topic=escape(self.last_topic),
            options=tuple(replace(option, help=escape(option.help)) for option in self.options),
        )


UNSAID = GameTexts(
    examples="2D6+5, 4d6kh3",
    epilog=None,
    setting_example="KEY=VALUE",
    first_example="",
    last_topic="",
    options=(),
)
"""What the app says of the games in a run that shows none of it: no game's text, and
no game's option."""


class _RollByDefault(TyperGroup):
    """The app's command group, for shell completion: a first word that is no command
    is a roll (as :func:`route` reads it), so ``dicecli KEYWORD <TAB>`` completes a roll's
    words; the first word also completes to the games' keywords."""

    # ``ctx: Any``: the context type is typer's bundled click's, not public API.
    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        if args and args[0] not in self.commands and not is_option(args[0]):
            return "roll", self.commands["roll"], args
        return super().resolve_command(ctx, args)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        # click's CompletionItem, which typer bundles or imports depending on its version
        completion_item: Any = getattr(typer.core, "CompletionItem")  # noqa: B009

        found = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-"):  # `dicecli --seed 3 2d6`: a roll's options go first too
            known = {item.value for item in found}
            roll_options = [
                spelling
                for parameter in self.commands["roll"].params
                for spelling in getattr(parameter, "opts", ())
                if spelling.startswith(incomplete) and spelling not in known
            ]
            return [*found, *(completion_item(option) for option in roll_options)]
        folded = incomplete.casefold()
        keywords = [word for word in registry.keywords() if word.startswith(folded)]
        return [*found, *(completion_item(word) for word in keywords)]


def _complete_roll(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a roll's words: as the REPL completes a line (a game's forms
    after its keyword, the difficulties after ``vs`` ...), from the words given so far."""
    # Imported here, as every use of the REPL's modules (docs/startup.md).
    from dicecli.repl.completion import completions
    from dicecli.repl.state import start_state
    from dicecli.rolling.sources import RandomSource, Roller

    words = [str(word) for word in ctx.params.get("words") or ()]
    before = " ".join([*words, incomplete])
    return completions(start_state(Roller(RandomSource(0))), before)


def _help_markup() -> Literal["rich"] | None:
    """typer's rich help (panels, colour) at a terminal; click's plain text when the help
    goes to a pipe or a file (``dicecli --help | grep seed``). The rich help imports
    rich's markdown and traceback renderers, which only a terminal needs."""
    return "rich" if sys.stdout.isatty() else None


def _option(name: str, **details: Any) -> Any:
    """The typer option of the table's option ``name`` (its spellings), with ``details``
    (its help ...)."""
    return typer.Option(*OPTION[name].spellings, **details)


Words = Annotated[
    Optional[list[str]],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Argument(
        help="The roll, e.g. 2D6+5 or 4d6 kh3 (words are joined).",
        show_default=False,
        autocompletion=_complete_roll,
    ),
]
Seed = Annotated[
    Optional[int],  # noqa: UP045
    _option("seed", help="Seed the dice: the same seed gives the same rolls."),
]
Given = Annotated[
    Optional[str],  # noqa: UP045
    _option(
        "given",
        help="Faces of physical dice, in roll order (3,4,1): the rules are applied to them.",
    ),
]
Times = Annotated[int, _option("times", help="Roll the expression this many times.")]
Plain = Annotated[bool, _option("plain", help="Plain tab-separated lines, no colour.")]
Json = Annotated[bool, _option("json", help="One JSON object per roll (JSON Lines).")]
Sets = Annotated[
    Optional[list[str]],  # noqa: UP045
    _option(
        "sets",
        help="A named value or saved roll: --set STR=3, --set attack=1d20+5 (repeatable).",
        show_default=False,
    ),
]
Character = Annotated[
    Optional[Path],  # noqa: UP045
    _option(
        "character",
        help="A character file (TOML): stats such as STR = 3 and saved rolls (dicecli help "
        "repl), or the example's name: character.",
        dir_okay=False,
    ),
]
Debug = Annotated[bool, _option("debug", help="Show tracebacks of internal errors.")]
DialectName = Annotated[
    Optional[str],  # noqa: UP045
    _option(
        "dialect",
        help=f"Read lines as another roller does: {', '.join(DIALECTS)}; off for "
        "dicecli's own (dicecli help grammar, Dialects); also the setting dialect.",
        show_default=False,
    ),
]


class ColorWhen(str, enum.Enum):
    """The values of ``--color`` (:data:`~dicecli.render.COLOURS`), as typer takes a
    choice: an enumeration."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


Color = Annotated[
    ColorWhen,
    _option(
        "color",
        help="Colour: auto (at a terminal), always or never; NO_COLOR, FORCE_COLOR, "
        "CLICOLOR and CLICOLOR_FORCE say it too (dicecli help output).",
    ),
]
Summary = Annotated[
    bool,
    _option(
        "summary",
        help="Of --times rolls, only the summary line (a progress bar at a terminal).",
    ),
]
DiceFile = Annotated[
    Optional[list[Path]],  # noqa: UP045
    _option(
        "dice_file",
        help="A dice file (TOML) of named dice: 3dBoost, 2dAverage (dicecli help dice; "
        "repeatable), or an example's name: genesys-dice (dicecli examples); default "
        "~/.config/dicecli/dice.toml. A game may read its own dice from it.",
        dir_okay=False,
        show_default=False,
    ),
]


@functools.cache
def shared_options(setting_example: str) -> Mapping[str, tuple[Any, Any]]:
    """The options the commands share, declared once: parameter name -> (annotated type,
    default); ``setting_example`` is the ``KEY=VALUE`` of ``--setting``'s help. A command
    names those it takes with :func:`with_options`; a parameter it declares itself
    (``odds --json`` has its own help) wins."""
    settings = Annotated[
        Optional[list[str]],  # noqa: UP045
        _option(
            "settings",
            help=f"A game setting: --setting {setting_example} (repeatable; see each game's doc).",
            show_default=False,
        ),
    ]
    return {
        "seed": (Seed, None),
        "given": (Given, None),
        "times": (Times, 1),
        "plain": (Plain, False),
        "json": (Json, False),
        "sets": (Sets, None),
        "character": (Character, None),
        "dice_file": (DiceFile, None),
        "settings": (settings, None),
        "dialect": (DialectName, None),
        "debug": (Debug, False),
        "color": (Color, ColorWhen.AUTO),
        "summary": (Summary, False),
    }


def _game_option(option: CliOption) -> tuple[Any, Any]:
    """A game's option (``--wild-die``) as an annotated parameter type and default."""
    if option.kind == "file":
        declared = typer.Option(option.flag, help=escaped(option.help), dir_okay=False, exists=True)
        return Annotated[Optional[Path], declared], None  # noqa: UP045
    return Annotated[Optional[str], typer.Option(option.flag, help=escaped(option.help))], None  # noqa: UP045


CORE_PARAMETERS = frozenset({*OPTION, "words", "topic", "version", "context", "shared"})
"""The parameter names of the commands' own options and arguments, which no game's
option may take."""


@functools.cache
def game_options() -> tuple[CliOption, ...]:
    """Every game's command-line options, in game order; one that clashes with the
    command line's own is left out with a warning (a plug-in cannot break them)."""
    from dicecli.systems.declaration import CORE_FLAGS  # with the games (docs/startup.md)

    options: list[CliOption] = []
    for game in registry.games():
        for option in game.options:
            if option.flag in CORE_FLAGS or option.parameter in CORE_PARAMETERS:
                sys.stderr.write(
                    f"warning: dicecli game {game.name}: option {option.flag} left out: "
                    "the command line has it already\n"
                )
                continue
            options.append(option)
    return tuple(options)


def with_options(
    texts: GameTexts, *names: str
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command the shared options ``names`` and the games' options of ``texts``,
    after its own parameters (``debug`` last). The command receives them as keyword
    arguments."""
    shared = shared_options(texts.setting_example)

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        taken = {p.name for p in own}
        added = {n: shared[n] for n in names if n != "debug" and n not in taken}
        added.update((o.parameter, _game_option(o)) for o in texts.options)
        if "debug" in names:
            added["debug"] = shared["debug"]
        parameters = own + [
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind
            )
            for name, (kind, default) in added.items()
        ]

        @functools.wraps(command)
        def with_shared(**values: Any) -> None:
            command(**values)

        with_shared.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        with_shared.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_shared

    return decorate


def settings_from(items: list[str] | None, options: Mapping[str, Any]) -> dict[str, str]:
    """``--setting KEY=VALUE`` items, then the games' own options given to the command
    (each a short spelling of one of the game's settings; ``options``: the command's
    values of them, which it has only when the app read every game), as a mapping."""
    settings: dict[str, str] = {}
    for item in items or []:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise DiceError(f"--setting takes KEY=VALUE, e.g. {_setting_example()} (got '{item}')")
        if key.strip() == DIALECT_SETTING:  # not a game's: how every line is read
            named = dialect_named(value)  # off: dicecli's own
            if named is None:
                settings.pop(DIALECT_SETTING, None)
            else:
                settings[DIALECT_SETTING] = named
            continue
        known_settings = registry.settings()
        if key.strip() not in known_settings:
            known = ", ".join(known_settings)
            raise DiceError(f"--setting {key.strip()}: no such setting (settings: {known})")
        settings[key.strip()] = value.strip()
    for option in game_options() if options else ():
        given = options.get(option.parameter)
        if given is not None:
            settings[option.setting] = str(given)
    return settings


def environment_from(
    sets: list[str] | None,
    character: Path | None = None,
    settings: list[str] | None = None,
    options: Mapping[str, Any] | None = None,
    dice_files: list[Path] | None = None,
    dialect: str | None = None,
) -> Environment:
    """``--dice-file``, ``--character``, then ``--set`` (which wins), ``--setting`` and
    the games' options as an :class:`Environment`. The dialect: ``--dialect`` (``off``
    included) wins over the character file's, which wins over the setting's; the file's
    saved rolls and ``--set`` rolls are read in the one that wins."""
    # The rolling stages, which the help does not need, come with a command that rolls.
    from dicecli.environment import Environment  # docs/startup.md

    env = Environment(settings=settings_from(settings, options or {}))
    if dialect is not None:
        env = env.with_dialect(dialect_named(dialect))
    if dice_files:  # read once for the run (docs/dice.md)
        # docs/startup.md: the readers of the user's files, with their option
        from dicecli.bundled import example_or_path  # `--dice-file genesys-dice` (an example)
        from dicecli.dicefiles.load import combined, read_book

        book = read_book(example_or_path(str(dice_files[0])))
        for path in dice_files[1:]:
            book = combined(book, read_book(example_or_path(str(path))))
        env = replace(env, dice=book)
    if character is not None:
        from dicecli.bundled import example_or_path  # docs/startup.md
        from dicecli.character import load_character

        env = load_character(example_or_path(str(character)), env)
    if sets:
        from dicecli.naming import with_sets  # docs/startup.md

        env = with_sets(env, sets)
    return env


def _finish(status: ExitStatus) -> NoReturn:
    raise typer.Exit(int(status))


def _options(
    *,
    seed: int | None = None,
    given: str | None = None,
    times: int = 1,
    plain: bool = False,
    json: bool = False,
    sets: list[str] | None = None,
    character: Path | None = None,
    dice_file: list[Path] | None = None,
    settings: list[str] | None = None,
    debug: bool = False,
    color: Any = "auto",
    summary: bool = False,
    dialect: str | None = None,
    **game_options: Any,
) -> RunOptions:
    from dicecli.app import RunOptions  # docs/startup.md

    try:
        env = environment_from(sets, character, settings, game_options, dice_file, dialect)
    except DiceError as error:
        sys.stderr.write(error.reported(json))
        raise typer.Exit(int(ExitStatus.BAD_INPUT)) from None
    return RunOptions(
        seed=seed,
        given=given,
        times=times,
        plain=plain,
        json=json,
        environment=env,
        debug=debug,
        color=getattr(color, "value", color),
        summary=summary,
    )


ROLL_OPTIONS = (
    "seed",
    "given",
    "times",
    "plain",
    "json",
    "sets",
    "character",
    "dice_file",
    "settings",
    "dialect",
    "color",
    "summary",
    "debug",
)
"""The shared options of the commands that roll (``roll``, ``table``)."""
REPL_OPTIONS = tuple(name for name in ROLL_OPTIONS if name not in ("times", "summary"))
"""The shared options of ``repl``, whose ``--times`` is its own."""


def roll_command(
    words: Words = None,
    odds: Annotated[
        bool,
        _option("odds", help="At a terminal, the chance beside each result (72% to pass)."),
    ] = False,
    **shared: Any,
) -> None:
    options = replace(_options(**shared), odds=odds)
    from dicecli.app import Streams, run_lines, run_once  # docs/startup.md

    streams = Streams()
    if words:
        _finish(run_once(" ".join(words), options, streams))
    if not streams.stdin_is_terminal:
        _finish(run_lines(streams.stdin, options, streams))
    if _sets_up_a_session(shared) and is_terminal(sys.stdout):
        # `dicecli --character mira.toml` at a terminal: the session it sets up
        from dicecli.repl.prompt import run_repl  # docs/startup.md

        _finish(run_repl(options, streams))
    typer.echo("Nothing to roll: try `dicecli 2D6+5` or `dicecli --help`.", err=True)
    _finish(ExitStatus.BAD_INPUT)


SESSION_OPTIONS = ("character", "seed", "given", "dice_file", "sets", "settings")
"""Options that set up what later rolls use: given alone at a terminal, they open the
REPL with it rather than say there is nothing to roll."""


def _sets_up_a_session(shared: dict[str, Any]) -> bool:
    return any(shared.get(name) not in (None, [], (), "") for name in SESSION_OPTIONS)


def odds_command(
    words: Words = None,
    at_least: Annotated[
        Optional[int],  # noqa: UP045
        _option("at_least", help="Also give the chance of this total or more."),
    ] = None,
    at_most: Annotated[
        Optional[int],  # noqa: UP045
        _option("at_most", help="Also give the chance of this total or less."),
    ] = None,
    json: Annotated[
        bool, _option("json", help="One JSON object with every chance (dicecli help odds).")
    ] = False,
    full: Annotated[
        bool, _option("full", help="Every row of long tables (a terminal shortens them).")
    ] = False,
    svg: Annotated[
        Optional[Path],  # noqa: UP045
        _option(
            "svg", help="Also write the odds, histogram and all, as an SVG picture.", dir_okay=False
        ),
    ] = None,
    **shared: Any,
) -> None:
    options = _options(json=json, **shared)
    if not words:
        typer.echo("error: odds needs a roll, e.g. dicecli odds 2d6+3", err=True)
        _finish(ExitStatus.BAD_INPUT)
    from dicecli.app import Streams  # docs/startup.md
    from dicecli.render import make_renderer

    streams = Streams()
    if words and words[0].casefold() == "table":  # a roll table's entries (docs/tables.md)
        # Imported here, as the tables' and the odds engine's modules are (docs/startup.md).
        from dicecli.tables.command import run_table

        _finish(run_table(words[1:], options, streams, odds=True))
    text = " ".join(words or [])
    try:
        from dicecli.naming import saved_line  # docs/startup.md
        from dicecli.probability.report import odds_of_rolls

        # a saved check's name (--set 'hit=LINE', then odds hit): its line's
        # odds, as it rolls that line and as the REPL's odds does (docs/repl.md, "Names")
        env = options.environment
        text = saved_line(text, env) or text
        found = odds_of_rolls(text, env, at_least=at_least, at_most=at_most)
    except DiceError as error:
        from dicecli.hints import advise  # what only an error needs (docs/startup.md)

        streams.stderr.write(advise(error, options.environment).reported(options.json))
        _finish(ExitStatus.BAD_INPUT)
    renderer = make_renderer(options.mode(streams), streams.stdout, options.colour())
    for result in found:  # each roll of a line of several (1d20+5 >= 15; 2d6+3)
        renderer.odds(result, full)
    if svg is not None:
        from dicecli.render.picture import save_odds_svg  # docs/startup.md

        try:
            save_odds_svg(found, svg, full)
        except OSError as error:
            shown = escaped(str(svg))
            streams.stderr.write(f"error: --svg {shown}: cannot write it: {error.strerror}\n")
            # a full disk is output that could not be written; a bad path is bad input
            disk_full = error.errno in _WRITE_FAILURES
            _finish(ExitStatus.WRITE_ERROR if disk_full else ExitStatus.BAD_INPUT)


_WRITE_FAILURES = frozenset(
    {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
)
"""Why a file asked for by name could not be written that are no fault of its path (a
full disk, a quota): output that could not be written, status 74 (docs/output.md)."""


def _all_topics() -> list[str]:
    """The help's topics (examples) and then the guides not named like one."""
    from dicecli.bundled import guides  # docs/startup.md
    from dicecli.repl.help import topic_names  # the REPL's modules (docs/startup.md)

    topics = list(topic_names())
    return topics + [name for name in guides() if name not in topics]


def _complete_topic(incomplete: str) -> list[str]:
    return [name for name in _all_topics() if name.startswith(incomplete.casefold())]


def _guide_for(name: str) -> str | None:
    """The guide of ``name``: its own (``grammar``), else its game's, found by the
    game's keywords (a game's guide is named like one of them)."""
    from dicecli.bundled import guides  # docs/startup.md

    if name in guides():
        return name
    game = registry.game_for_keyword(name)
    if game is None:
        return None
    return next((keyword for keyword in game.keywords if keyword in guides()), None)


def help_command(
    context: typer.Context,
    topic: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help="notation, a game's keyword, odds, repl, or a guide: grammar, dice, tables ...",
            show_default=False,
            autocompletion=_complete_topic,
        ),
    ] = None,
    color: Color = ColorWhen.AUTO,
) -> None:
    from dicecli.bundled import guide_text, guides  # docs/startup.md
    from dicecli.repl.help import help_text, topic_names  # docs/startup.md

    names = ", ".join(topic_names())
    if topic is None:
        parent = context.parent
        typer.echo(parent.get_help() if parent is not None else "")
        typer.echo(f"Help topics: {names} (dicecli help TOPIC).")
        typer.echo(f"Guides: {', '.join(guides())} (dicecli help GUIDE).")
        return
    name = topic.casefold()
    game = registry.game_for_keyword(name)
    short = game.topic if game is not None else name
    guide = _guide_for(name)
    if short not in topic_names() and guide is None:
        import difflib  # what only an error needs (docs/startup.md)

        close = difflib.get_close_matches(name, _all_topics(), n=1)
        mean = f"did you mean '{close[0]}'? " if close else ""
        line = f"{PROGRAM} help {topic}"
        error = DiceError(
            f"no help on '{topic}': {mean}topics: {', '.join(_all_topics())}",
            line,
            len(line) - len(topic),
        )
        typer.echo(error.show(), err=True)
        _finish(ExitStatus.BAD_INPUT)
    from dicecli.render import colour_choice  # docs/startup.md
    from dicecli.render.guide import show_help  # docs/startup.md

    examples = None
    if short in topic_names():
        from dicecli.repl.commands import commands_help  # docs/startup.md

        examples = escaped_lines(help_text(short, commands_help()))  # a plug-in's topic too
    markdown = guide_text(guide) if guide is not None else None
    show_help(sys.stdout, examples, markdown, colour_choice(color.value))


def examples_command(
    path: Annotated[
        Optional[str],  # noqa: UP045
        _option(
            "path", help="Only the file path of the example NAME (to copy it).", metavar="NAME"
        ),
    ] = None,
) -> None:
    from dicecli.bundled import examples  # docs/startup.md

    if path is not None:
        found = examples().get(path.removesuffix(".toml"))
        if found is None:
            line = f"{PROGRAM} examples --path {path}"
            error = DiceError(
                f"no example '{path}': examples: {', '.join(examples())}",
                line,
                len(line) - len(path),
            )
            typer.echo(error.show(), err=True)
            _finish(ExitStatus.BAD_INPUT)
        typer.echo(str(found.path))
        return
    shown = examples().values()
    width = max((len(example.name) for example in shown), default=0)
    typer.echo("Examples (a name, or examples/NAME.toml, stands for the file):")
    for example in shown:
        typer.echo(f"  {example.name:<{width}}  {example.about}")
        if example.try_line:
            typer.echo(f"  {'':<{width}}  {example.try_line}")
    typer.echo('Copy one to change it: cp "$(dicecli examples --path tables)" my-tables.toml')


def table_command(
    words: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Argument(help="The table's NAME, or a table FILE and a NAME.", show_default=False),
    ] = None,
    odds: Annotated[
        bool, _option("odds", help="Each entry's exact chance instead of a draw.")
    ] = False,
    **shared: Any,
) -> None:
    options = _options(**shared)
    from dicecli.tables.command import USAGE, run_table  # docs/startup.md

    if not words:
        typer.echo(f"error: table: {USAGE}", err=True)
        _finish(ExitStatus.BAD_INPUT)
    from dicecli.app import Streams  # docs/startup.md

    _finish(run_table(words or [], options, Streams(), odds))


def repl_command(
    times: Annotated[int, _option("times", help="Roll each line typed this many times.")] = 1,
    **shared: Any,
) -> None:
    options = _options(times=times, **shared)
    from dicecli.app import Streams  # docs/startup.md
    from dicecli.repl.prompt import run_repl

    _finish(run_repl(options, Streams()))


def games_command(
    json: Annotated[bool, typer.Option("--json", help="A JSON array, one object a game.")] = False,
) -> None:
    from dicecli.systems.listing import listing  # docs/startup.md

    typer.echo(listing(json))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"{PROGRAM} {VERSION}")
        raise typer.Exit(int(ExitStatus.OK))


def main_callback(
    context: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            *reversed(VERSION_OPTIONS), callback=_version, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Roll dice for tabletop games."""
    if context.invoked_subcommand is None:
        from dicecli.app import RunOptions, Streams  # docs/startup.md

        streams = Streams()
        if streams.stdin_is_terminal and streams.stdout_is_terminal:
            from dicecli.repl.prompt import run_repl  # docs/startup.md

            _finish(run_repl(RunOptions(), streams))
        typer.echo(context.get_help())


def _make_app(texts: GameTexts, only: str | None, markup: Literal["rich"] | None) -> typer.Typer:
    """The typer app, saying of the games what ``texts`` says; with ``only``, a command's
    name, that command alone (the commands' help, which lists them all, is then never
    shown: :func:`lone_command`)."""
    if markup == "rich":
        texts = texts.without_markup()
    app = typer.Typer(
        name="dicecli",
        cls=_RollByDefault,
        rich_markup_mode=markup,
        help=f"Roll dice for tabletop games: {texts.examples}. Exact odds with `dicecli odds`. "
        "A roll's options (--seed, --given, --times, --set, --plain, --json, ...) are listed "
        "by `dicecli roll --help`; `dicecli help TOPIC` gives examples.",
        epilog=texts.epilog,
        add_completion=True,
        no_args_is_help=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    def add(
        name: str,
        command: Callable[..., None],
        help: str,
        options: tuple[str, ...] | None = None,
        epilog: str | None = None,
    ) -> None:
        """Add the command ``name`` with the shared ``options`` (:func:`with_options`)."""
        if only is None or name == only:
            if options is not None:
                command = with_options(texts, *options)(command)
            app.command(name, help=help, epilog=epilog)(command)

    add(
        "roll",
        roll_command,
        "Roll dice: `dicecli roll 2D6+5`, or just `dicecli 2D6+5`. "
        "With no roll and a pipe on stdin, roll each line of stdin.",
        ROLL_OPTIONS,
        texts.epilog,
    )
    add(
        "odds",
        odds_command,
        "Exact chances of a roll or check, computed, not sampled: "
        f'`dicecli odds 2d6+3 --at-least 10`, `dicecli odds "{texts.first_example}"`.',
        (
            "plain",
            "json",
            "sets",
            "character",
            "dice_file",
            "settings",
            "dialect",
            "color",
            "debug",
        ),
    )
    add(
        "help",
        help_command,
        "Examples of the notation, a game, odds or the REPL, and the guides: "
        f"`dicecli help`, `dicecli help {texts.last_topic}`, `dicecli help grammar`.",
    )
    add(
        "examples",
        examples_command,
        "The example files that come with dicecli (tables, dice files, a character) and "
        "a line to try each: name one where a file is asked for, `--dice-file genesys-dice`.",
    )
    add(
        "table",
        table_command,
        "Draw from a roll table: `dicecli table NAME` (from the per-user tables.toml), "
        "`dicecli table FILE NAME` (FILE may name an example: `dicecli table tables "
        "encounters`); --odds gives each entry's exact chance. See `dicecli help tables`.",
        ROLL_OPTIONS,
    )
    add(
        "repl",
        repl_command,
        "The interactive session (also `dicecli` alone at a terminal): history, "
        "completion, let/vars, again, reroll, odds, help. See `dicecli help repl`.",
        REPL_OPTIONS,
    )
    add(
        "games",
        games_command,
        "The games dicecli knows: their keywords, where each comes from (built-in, or "
        "a plug-in's distribution) and its version. See `dicecli help games`.",
    )
    app.callback(invoke_without_command=True)(main_callback)
    return app


def typer_app(only: str | None = None) -> typer.Typer:
    """The typer app: every command, saying what every game's declaration says; or, with
    ``only`` (a command's name, from :func:`lone_command`), that command alone, which
    loads no game (:data:`UNSAID`). Made once per process for each, and for each kind
    of help (:func:`_help_markup`: rich at a terminal, plain in a pipe)."""
    return _typer_app(only, _help_markup())


@functools.cache
def _typer_app(only: str | None, markup: Literal["rich"] | None) -> typer.Typer:
    return _make_app(game_texts(only is None), only, markup)


@functools.cache
def game_texts(every_game: bool) -> GameTexts:
    """What the app says of the games (:class:`GameTexts`): every game's, or none."""
    return GameTexts.of_every_game() if every_game else UNSAID


def app_for(args: list[str]) -> typer.Typer:
    """The typer app a run on ``args`` needs (:func:`lone_command`)."""
    return typer_app(lone_command(args))


QUIET_COMMANDS = frozenset(COMMANDS) - {"help"}
"""The commands that show no help of their own: given only the table's options, they
show nothing the games' declarations say, and no other command."""

OPTION_OF_SPELLING = {spelling: option for option in OPTIONS for spelling in option.spellings}


def lone_command(args: list[str]) -> str | None:
    """The one command a run on ``args`` needs when it shows nothing of the games nor of
    the other commands (``roll`` for ``dicecli --color never 2D6+5``); None when the run
    needs the whole app and every game's declaration: when a plug-in is installed (its
    options are the app's, and a broken one is warned of on every typer run), when the
    shell asks for completions, when the routed line names no command that shows no help
    (bare ``dicecli``, ``--help``, ``--version``, ``help``), or when a word reads as an
    option (anywhere on the line) that is not an option of the table the command takes:
    it may be a game's option, or a typo whose error suggests another option."""
    if "_DICECLI_COMPLETE" in os.environ or registry.plugins_declared():
        return None
    typer_args = route_words(args).typer_args()
    command = typer_args[0] if typer_args else None
    if command not in QUIET_COMMANDS:
        return None
    for arg in args:
        if not is_option(arg):
            continue
        spelling = arg if arg in OPTION_OF_SPELLING or arg.startswith("--") else arg[:2]
        option = OPTION_OF_SPELLING.get(spelling)  # `-n3`: `-n` with its value
        if option is None or command not in option.commands:
            return None
    return command


def command_names() -> tuple[str, ...]:
    """The app's commands (``roll``, ``odds``, ``repl``)."""
    return tuple(str(command.name) for command in typer_app().registered_commands)


def route(args: list[str], options: tuple[CliOption, ...] | None = None) -> list[str]:
    """Arguments as the typer app expects them: ``COMMAND [OPTIONS] -- [WORDS]``, read
    with the command line's table (:func:`dicecli.command_line.route`) and the games'
    options that take a value (``options``: the app's, else every game's)."""
    game_flags = frozenset(option.flag for option in _or_every_games(options))
    return route_words(args, game_flags).typer_args()


def _or_every_games(options: tuple[CliOption, ...] | None) -> tuple[CliOption, ...]:
    return game_options() if options is None else options


VALUE_EXAMPLES = {
    "--seed": "42",
    "--given": "3,4,1",
    "--times": "6",
    "-n": "6",
    "--set": "STR=3",
    "--character": "character",
    "--dice-file": "genesys-dice",
    "--setting": "KEY=VALUE",
    "--at-least": "10",
    "--at-most": "5",
    "--color": "never",
    "--svg": "odds.svg",
    "--path": "tables",
}
"""What a missing value looks like, for the error that asks for it."""


def missing_value(
    args: list[str], options: tuple[CliOption, ...] | None = None
) -> DiceError | None:
    """The error for an option given last, or followed by another option, without the
    value it takes (``dicecli 2d6 --seed``), pointing after the option; None if every
    option that takes a value has one (``options``: the games' options, as in
    :func:`route`)."""
    takes_value = WITH_VALUE | {option.flag for option in _or_every_games(options)}
    for index, arg in enumerate(args):
        if arg == "--":
            return None
        if arg not in takes_value:
            continue
        following = args[index + 1] if index + 1 < len(args) else None
        if following is None or following in SPELLINGS or following in takes_value:
            line = " ".join([PROGRAM, *args[: index + 1]])
            example = VALUE_EXAMPLES.get(arg, "VALUE")
            return DiceError(f"{arg} needs a value, e.g. {arg} {example}", line, len(line))
    return None


def run(args: list[str]) -> int:
    """Run the typer app on ``args``; the exit status. What it raises (a usage error,
    Ctrl-C, a closed pipe) is given its status by :func:`dicecli.entry.exit_status`."""
    only = lone_command(args)
    app = typer_app(only)  # first: a broken plug-in is warned of before all else
    options = game_texts(only is None).options
    missing = missing_value(args, options)
    if missing is not None:
        sys.stderr.write(missing.show() + "\n")
        return int(ExitStatus.BAD_INPUT)
    if COMPLETION_OPTIONS[0] in args:  # --install-completion: dicecli's installer
        from dicecli import shell_completion  # docs/startup.md

        shell_completion.use_for_typer()
    result = app(args=route(args, options), prog_name=PROGRAM, standalone_mode=False)
    return result if isinstance(result, int) else int(ExitStatus.OK)


def usage_line(error: Exception, json: bool = False) -> str:
    """A usage error (:data:`USAGE_ERROR`: a bad option) as one line, like every other
    error, with where to read more; with ``json`` (``--json``) the JSON object every
    error of such a run is (docs/json.md), where to read more as its hint."""
    command = getattr(getattr(error, "ctx", None), "info_name", None)
    where = PROGRAM if command in (None, PROGRAM) else f"{PROGRAM} {command}"
    format_message = getattr(error, "format_message", None)
    message = format_message() if callable(format_message) else str(error)
    if json:
        told = DiceError(_short(escaped(message))).with_hint(f"see {where} --help")
        return told.reported(json=True).rstrip("\n")
    return f"error: {_short(escaped(message))} (see {where} --help)"


def _short(message: str, most: int = 240) -> str:
    """``message`` cut in the middle to ``most`` characters: a usage error quotes the
    value given, which may be a 5,000-digit number."""
    if len(message) <= most:
        return message
    return message[: most - 40] + "…" + message[-39:]


USAGE_ERROR: type[Exception] = typer.BadParameter.__bases__[0]
"""click's UsageError (typer bundles click or depends on it, by version): bad options."""
EXIT: type[Exception] = typer.Exit
"""How a command ends with a status of its own (what the CLI framework does not catch)."""
ABORT: type[Exception] = typer.Abort
"""What the CLI framework makes of Ctrl-C (or end of input) inside a command."""
