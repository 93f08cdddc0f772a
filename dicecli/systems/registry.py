"""The registry of games: where the games come from, and looking them up.

A game is a package with a :class:`~dicecli.systems.declaration.Game` declaration
(plain data: its name, keywords, settings, help, REPL commands, styles ...) whose
``rules`` function gives its :class:`~dicecli.systems.declaration.Rules` (parse, roll,
odds). The core reads only the declarations: the grammar finds a line's game by its
first word, the CLI adds the game's options and help, the REPL its banner example,
completion words, help topic and commands, the terminal theme its styles. The rules are
made only when a line of that game is parsed, so declaring a game costs almost nothing.

Games come from two places, the built-in ones first:

- :data:`BUILT_IN`: one line per game shipped with dicecli;
- installed distributions that declare an entry point in the group
  :data:`ENTRY_POINT_GROUP` (``dicecli.games``) naming a ``Game``. A plug-in that
  cannot be loaded, declares a game API version this dicecli does not run, or clashes
  with a game already known is left out with one warning on stderr naming it; the
  other games work as before. A plug-in's rules are guarded
  (:mod:`dicecli.systems.guard`): a fault in them is reported as the plug-in's.

Plug-ins are looked for only when something needs every game: a first word that no
built-in game claims, the typer command line (a plug-in may add options and help), the
REPL; a plain roll or a built-in game's line on the fast path never looks. A cheap look
at the installed distributions' ``entry_points.txt`` files comes first;
:mod:`importlib.metadata` (slow to import) is used only when one of them
declares the group.

The notation, rolling and odds stages do not import this module: the entry module hands
them the games (:data:`STAGE_GAMES`), which they ask for through protocols of their own
(docs/startup.md, "The games handed to the stages"), since a game's declaration names
their types.

This module imports no game and no pyparsing, and its one class is
:class:`StageGames` (the declaration types are in :mod:`dicecli.systems.declaration`,
imported with the first game): the grammar asks it about every line that starts with a
letter.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from dicecli.status import Interrupted

if TYPE_CHECKING:
    from collections.abc import Callable

    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.notation.games import LineGames
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.probability.games import CheckOdds
    from dicecli.rolling.games import CheckRollers, CheckStep
    from dicecli.systems.declaration import Game, Rules, Setting

BUILT_IN: tuple[str, ...] = (
    "dicecli.systems.alkemy",
    "dicecli.systems.warhammer",
    "dicecli.systems.age",
    "dicecli.systems.dnd",
    "dicecli.systems.coc",
    "dicecli.systems.blades",
    "dicecli.systems.fate",
    "dicecli.systems.cod",
    "dicecli.systems.shadowrun",
    "dicecli.systems.yearzero",
    "dicecli.systems.exalted",
    "dicecli.systems.l5r",
)
"""The packages of the games shipped with dicecli, each with a ``GAME`` declaration."""

ENTRY_POINT_GROUP = "dicecli.games"
"""The entry-point group through which an installed distribution adds a game."""


# --- where games come from ----------------------------------------------------------


_KEYWORD = re.compile(r"[a-z][a-z0-9_-]*")
_DICE_WORD = re.compile(r"(?i)\d*d(?:\d+|%|f)")
"""A first word that is a dice term (``d20``): never a keyword, so such lines never
load a game's declaration."""

_built_in: dict[str, Game] | None = None  # keyword -> game, the built-in games
_imported: list[Game] = []  # the built-in games' declarations imported so far, in order
_every: tuple[Game, ...] | None = None  # built-in games, then plug-ins
_declared: bool | None = None  # whether any installed distribution declares plug-ins
_systems: dict[str, Rules[Any]] = {}
_plugins: dict[str, object] = {}  # plug-in game name -> its distribution (metadata), or None

BUILT_IN_ORIGIN = "built-in"
"""Where a built-in game comes from, in :func:`origin`."""


def may_be_keyword(word: str) -> bool:
    """False when ``word`` cannot be any game's keyword (``2D6+5``, ``d20``): the
    grammar then asks nothing of the registry."""
    return bool(_KEYWORD.fullmatch(word.casefold())) and not _DICE_WORD.fullmatch(word)


def _import_next_built_in() -> Game:
    """Import the next built-in game's declaration, in :data:`BUILT_IN` order."""
    game: Game = importlib.import_module(BUILT_IN[len(_imported)]).GAME
    _imported.append(game)
    return game


def _built_in_keywords() -> dict[str, Game]:
    global _built_in
    if _built_in is None:
        while len(_imported) < len(BUILT_IN):
            _import_next_built_in()
        _built_in = {}
        for game in _imported:
            _built_in.update(dict.fromkeys(game.keywords, game))
    return _built_in


def _built_in_game(found: Callable[[Game], bool]) -> Game | None:
    """The first built-in game ``found`` accepts, importing declarations in
    :data:`BUILT_IN` order only until it is met: a line of one of the first games
    imports none of the games after it."""
    for game in _imported:
        if found(game):
            return game
    while len(_imported) < len(BUILT_IN):
        game = _import_next_built_in()
        if found(game):
            return game
    return None


def game_for_keyword(word: str) -> Game | None:
    """The game whose lines start with ``word`` (any case); None when no game claims it.
    Plug-ins are looked for only when no built-in game claims the word."""
    if word[:1].isdigit():
        return _counted_game(word.casefold())
    if not may_be_keyword(word):
        return None
    folded = word.casefold()
    game = _built_in_game(lambda game: folded in game.keywords)
    if game is None and (_every is not None or _plugins_declared()):
        game = keywords().get(folded)
    if game is None:
        game = _joined_game(folded)
    return game


_JOINED = re.compile(r"([a-z]+)\d+")
"""A keyword joined to its number (``xy6``): the keyword, then digits."""


def _joined_game(folded: str) -> Game | None:
    """The game one of whose ``joined`` keywords ``folded`` is, followed by digits
    (``xy6``); None when none is."""
    match = _JOINED.fullmatch(folded)
    if match is None:
        return None
    prefix = match.group(1)
    return next((game for game in games() if prefix in game.joined), None)


_COUNTED = re.compile(r"\d+([a-ce-z][a-z0-9]*)")
"""Digits, then the keyword and what follows it joined (``4xy8``)."""


def _counted_game(folded: str) -> Game | None:
    """The game one of whose ``counted`` keywords ``folded`` holds after its digits
    (``4xy``, ``4xy8``); None when none does."""
    match = _COUNTED.fullmatch(folded)
    if match is None:
        return None
    rest = match.group(1)
    return next(
        (game for game in games() if any(rest.startswith(word) for word in game.counted)),
        None,
    )


def games() -> tuple[Game, ...]:
    """Every game: the built-in ones in :data:`BUILT_IN` order, then plug-ins."""
    global _every
    if _every is None:
        by_name = {game.name: game for game in _built_in_keywords().values()}
        built_in = tuple(by_name.values())
        _every = (*built_in, *_load_plugins(built_in))
    return _every


def keywords() -> dict[str, Game]:
    """Every keyword (casefolded) -> its game."""
    return {keyword: game for game in games() for keyword in game.keywords}


def game_named(name: str) -> Game:
    """The game called ``name`` (``Check.system``): a built-in game without looking for
    plug-ins, else a plug-in."""
    game = _built_in_game(lambda game: game.name == name)
    if game is not None:
        return game
    for game in games():
        if game.name == name:
            return game
    raise KeyError(name)


def system(name: str) -> Rules[Any]:
    """The :class:`~dicecli.systems.declaration.Rules` of the game called ``name``, made
    on first use by its declaration's ``rules`` function. A plug-in's come guarded
    (:class:`~dicecli.systems.guard.GuardedRules`): a fault in them is a
    :class:`~dicecli.errors.PluginError` naming the plug-in."""
    found = _systems.get(name)
    if found is None:
        game = game_named(name)
        if name not in _plugins:
            found = game.rules()
        else:
            from dicecli.systems.guard import guarded_rules  # docs/startup.md

            found = guarded_rules(game, origin)
        _systems[name] = found
    return found


class StageGames:
    """The games as the stages ask for them: the protocols
    :class:`~dicecli.notation.games.LineGames`,
    :class:`~dicecli.rolling.games.CheckRollers` and
    :class:`~dicecli.probability.games.CheckOdds`, answered from this registry."""

    def may_be_keyword(self, word: str) -> bool:
        return may_be_keyword(word)

    def claims(self, word: str) -> bool:
        return game_for_keyword(word) is not None

    def line_grammar(self, word: str) -> pp.ParserElement | None:
        game = game_for_keyword(word)
        return None if game is None else system(game.name).line_grammar()

    def prepare(self, check: Check) -> CheckStep:
        return system(check.system).prepare(check)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        return system(check.system).odds(check, env, text)


STAGE_GAMES = StageGames()
"""The games the entry module hands the stages."""

if TYPE_CHECKING:  # the games are what each stage asks for: mypy checks it here
    _LINE_GAMES: LineGames = STAGE_GAMES
    _CHECK_ROLLERS: CheckRollers = STAGE_GAMES
    _CHECK_ODDS: CheckOdds = STAGE_GAMES


def origin(game: Game) -> tuple[str, str]:
    """Where ``game`` comes from and its version: ``("built-in", dicecli's version)``,
    or a plug-in's distribution name and version."""
    if game.name in _plugins:
        return _described(_plugins[game.name])
    from dicecli.command_line import VERSION  # docs/startup.md

    return BUILT_IN_ORIGIN, VERSION


def _described(distribution: object) -> tuple[str, str]:
    """A distribution's name and version, read from its metadata (which costs a file
    read and a parse: done only when a plug-in is named)."""
    name = getattr(distribution, "name", None) or "an unknown distribution"
    version = getattr(distribution, "version", None) or "?"
    return str(name), str(version)


def words() -> dict[str, Game]:
    """Words games give a meaning inside expressions (casefolded) -> their game."""
    return {word.casefold(): game for game in games() for word in game.words}


def settings() -> dict[str, Setting]:
    """Every game's settings by key, in game order."""
    return {setting.key: setting for game in games() for setting in game.settings}


def setting_example() -> str:
    """``KEY=VALUE`` of the first setting that has an example value (as typed: a
    plug-in's text, escaped by whoever shows it), for help and errors."""
    for setting in settings().values():
        if setting.example:
            return f"{setting.key}={setting.example}"
    return "KEY=VALUE"


# --- plug-ins -----------------------------------------------------------------------


def plugins_declared() -> bool:
    """Whether an installed distribution declares a plug-in game (its ``entry_points.txt``
    names the group), looked at once per process without loading any game: the typer
    app reads every game for a run only when one does or the run may show them
    (:func:`dicecli.cli.lone_command`)."""
    return _plugins_declared()


def _plugins_declared() -> bool:
    """True when an installed distribution's ``entry_points.txt`` names the group: a
    quick look, once per process, so that :mod:`importlib.metadata` is imported only
    when it is needed."""
    global _declared
    if _declared is None:
        _declared = _look_for_plugins()
    return _declared


def _look_for_plugins() -> bool:
    """Whether a ``*.dist-info``/``*.egg-info`` folder on :data:`sys.path` declares the
    group. (A distribution found only by a custom import hook or inside a zip file is
    not seen here; such installs are not where dicecli's plug-ins are expected.)"""
    marker = f"[{ENTRY_POINT_GROUP}]"
    for folder in sys.path:
        try:
            entries = os.scandir(folder or ".")
        except OSError:
            continue
        with entries:
            for entry in entries:
                if not entry.name.endswith((".dist-info", ".egg-info")):
                    continue
                try:
                    with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as f:
                        if marker in f.read():
                            return True
                except (OSError, UnicodeDecodeError):
                    continue
    return False


def _load_plugins(known: tuple[Game, ...]) -> list[Game]:
    """The games of installed plug-ins; each broken or clashing one is left out with a
    warning naming it."""
    if not _plugins_declared():
        return []
    from importlib.metadata import entry_points  # docs/startup.md

    found: list[Game] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        distribution = getattr(point, "dist", None)
        try:
            game = point.load()
            problem = api_problem(game) or plugin_problem(game, (*known, *found))
        # A plug-in's bug must not stop the built-in games, nor may its sys.exit() or
        # KeyboardInterrupt end the program (docs/startup.md, "Plug-ins").
        except (Exception, SystemExit, KeyboardInterrupt) as error:
            if isinstance(error, Interrupted):  # Ctrl-C was pressed: the run ends
                raise
            problem = f"it could not be loaded ({type(error).__name__}: {error})"
        if problem is not None:
            from dicecli.escape import clipped  # docs/startup.md

            name, version = _described(distribution)
            where = f"{point.name} ({point.value}, from {name} {version})"
            warning = f"dicecli game plug-in {where} left out: {problem}"
            sys.stderr.write(f"warning: {clipped(warning, 400)}\n")
            continue
        found.append(game)
        _plugins[game.name] = distribution
    return found


def api_problem(game: object) -> str | None:
    """Why the object a plug-in's entry point names is written for a game API this
    dicecli does not run, or None when it is written for one it does: its
    ``api_version`` must be from
    :data:`~dicecli.systems.declaration.OLDEST_API_VERSION` to
    :data:`~dicecli.systems.declaration.API_VERSION`."""
    from dicecli.systems.declaration import API_VERSION, OLDEST_API_VERSION  # docs/startup.md

    version = getattr(game, "api_version", None)
    runs = (
        f"version {API_VERSION}"
        if OLDEST_API_VERSION == API_VERSION
        else f"versions {OLDEST_API_VERSION} to {API_VERSION}"
    )
    if type(version) is not int:
        return f"it declares no game API version (api_version); this dicecli runs {runs}"
    if not OLDEST_API_VERSION <= version <= API_VERSION:
        return f"it is written for game API version {version}; this dicecli runs {runs}"
    return None


_FLAG = re.compile(r"--[a-z][a-z0-9-]*")


def plugin_problem(game: object, known: tuple[Game, ...]) -> str | None:
    """Why ``game`` cannot stand beside the ``known`` games, or None when it can: it
    must be a :class:`~dicecli.systems.declaration.Game` whose name, keywords, words,
    settings and options are its own. (The command line and the REPL leave out, with a
    warning, an option or command that clashes with one of their own.)"""
    from dicecli.command_line import RESERVED_WORDS  # docs/startup.md
    from dicecli.systems.declaration import Game

    if not isinstance(game, Game):
        return f"it names a {type(game).__name__}, not a dicecli.game.Game"
    if game.name in {other.name for other in known}:
        return f"a game called '{game.name}' is already known"
    if not game.keywords:
        return "it has no keywords"
    if not callable(game.rules):
        return "its rules is no function giving its dicecli.game.Rules"
    taken = {word.casefold() for other in known for word in (*other.keywords, *other.words)}
    for keyword in game.keywords:
        if not _KEYWORD.fullmatch(keyword) or _DICE_WORD.fullmatch(keyword):
            return f"its keyword '{keyword}' is not a lower-case word that reads as no dice"
        if keyword in taken:
            return f"its keyword '{keyword}' belongs to another game"
        if keyword in RESERVED_WORDS:
            return f"its keyword '{keyword}' is a dicecli command"
    for word in game.words:
        if word.casefold() in taken:
            return f"its word '{word}' belongs to another game"
    keys = {setting.key for setting in game.settings}
    for key in keys:
        if not key.startswith(f"{game.name}."):
            return f"its setting '{key}' does not start with its name, '{game.name}.'"
    from dicecli.systems.declaration import CORE_FLAGS  # docs/startup.md

    flags = {option.flag for other in known for option in other.options} | CORE_FLAGS
    for option in game.options:
        if not _FLAG.fullmatch(option.flag) or option.flag in flags:
            return f"its option '{option.flag}' is not a new --long-option"
        if option.setting not in keys:
            return f"its option '{option.flag}' sets '{option.setting}', not one of its settings"
    return None


def reset() -> None:
    """Forget the games found (tests that install or remove a plug-in)."""
    global _built_in, _every, _declared
    _built_in = _every = _declared = None
    _imported.clear()
    _systems.clear()
    _plugins.clear()


__all__ = [
    "BUILT_IN",
    "ENTRY_POINT_GROUP",
    "STAGE_GAMES",
    "StageGames",
    "game_for_keyword",
    "game_named",
    "games",
    "keywords",
    "may_be_keyword",
    "origin",
    "plugins_declared",
    "reset",
    "settings",
    "system",
    "words",
]
