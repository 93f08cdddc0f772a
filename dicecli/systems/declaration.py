"""What a game declares (:class:`Game`, plain data) and what its rules do (:class:`Rules`).

A game's package holds a :class:`Game` in its ``__init__``; the registry
(:mod:`dicecli.systems.registry`) reads it on every line that starts with a word, so
the declaration is cheap: the game's :class:`Rules` (grammar, rolling, odds) are
imported only when a line of the game is read, through the declaration's ``rules``
function. A game imports all of this from :mod:`dicecli.game`, its public API; the
contract is explained in ``docs/games.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from dicecli.frozen import frozen

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.games import CheckStep
    from dicecli.rolling.sources import Roller

API_VERSION = 1
"""The version of the game API (:mod:`dicecli.game`) this dicecli offers. A game
declares the version it was written for (:attr:`Game.api_version`); it changes only
when a change would break a game written for the one before."""

OLDEST_API_VERSION = 1
"""The oldest game API version this dicecli still runs: a plug-in declaring a version
from this one to :data:`API_VERSION` is loaded, any other left out with a warning."""

CheckT = TypeVar("CheckT", bound="Check")


class Rules(ABC, Generic[CheckT]):
    """How a game's lines are read, rolled and judged: subclass it for a game.

    ``CheckT`` is the game's check type (a :class:`~dicecli.notation.nodes.Check`, or a
    union of them): the grammar makes one for each line of the game, and dicecli hands
    it back to :meth:`roll`, :meth:`prepare` and :meth:`odds`. The three abstract
    methods must be written; a class that misses one cannot be instantiated, and type
    checkers say so where the declaration's ``rules`` function makes it.
    """

    @abstractmethod
    def line_grammar(self) -> pp.ParserElement:
        """The pyparsing grammar of a whole line of this game, built with
        :func:`~dicecli.notation.grammar.whole_line` around the game's form (which
        starts with one of its keywords). Called once, when the first line of the game
        is read."""

    @abstractmethod
    def roll(self, check: CheckT, roller: Roller, env: Environment, text: str) -> RollResult:
        """Roll ``check``, drawing every die from ``roller``, and apply the rules.
        ``env`` holds the named values and settings; ``text`` is the line as typed
        (the result's ``input``)."""

    @abstractmethod
    def odds(self, check: CheckT, env: Environment, text: str) -> Odds:
        """The exact chances of ``check`` (``dicecli odds``)."""

    def prepare(self, check: CheckT) -> CheckStep:
        """``check`` made ready to roll: a :data:`~dicecli.rolling.games.CheckStep`
        that dicecli makes once per parsed line and calls on every roll of it. By
        default it calls :meth:`roll`; a game overrides it to work out, once, what
        depends only on the line as typed."""
        return partial(self.roll, check)


CORE_FLAGS = frozenset(
    {
        "--seed",
        "--given",
        "--times",
        "-n",
        "--plain",
        "--json",
        "--set",
        "--setting",
        "--character",
        "--dialect",
        "--dice-file",
        "--debug",
        "--at-least",
        "--at-most",
        "--full",
        "--odds",
        "--version",
        "-V",
        "--color",
        "--summary",
        "--svg",
        "--path",
        "--help",
        "-h",
    }
)
"""The command line's own option spellings (a test checks them against the app): a
game's option may not take one, nor the parameter name of one."""


@frozen
class Setting:
    """A game setting (``--setting KEY=VALUE``): its key, what it does, and how its
    text is read. ``read`` is called when a roll needs the value, with the text set
    (None when unset), and raises a :class:`~dicecli.errors.DiceError` for a bad one.
    ``example`` is a value to show in help (``200``)."""

    key: str
    help: str
    read: Callable[[str | None], object]
    example: str = ""

    def value(self, env: Environment) -> object:
        """The setting's value in ``env``."""
        return self.read(env.setting(self.key))


@frozen
class CliOption:
    """A command-line option of a game, a short spelling of one of its settings
    (``--wild-die PATH`` sets ``game.wild_die``). ``kind`` ``"file"`` makes the
    option name an existing file."""

    flag: str
    setting: str
    help: str
    kind: str = "text"

    @property
    def parameter(self) -> str:
        """The option's parameter name: ``--wild-die`` -> ``wild_die``."""
        return self.flag.lstrip("-").replace("-", "_")


@frozen
class HelpTopic:
    """A help topic: a title, example lines with what they do, and a footer. The
    examples are lines the REPL accepts as typed (a test rolls every one)."""

    title: str
    examples: tuple[tuple[str, str], ...]
    footer: str = ""

    def text(self) -> str:
        width = max((len(example) for example, _ in self.examples), default=0)
        lines = [self.title]
        lines += [f"  {example:<{width}}  {what}" for example, what in self.examples]
        if self.footer:
            lines.append(self.footer)
        return "\n".join(lines)


@frozen
class Hint:
    """A common mistake in a game's line and its fix: when a line of the game fails and
    ``pattern`` (a regular expression, any case) is found in it, the error suggests the
    line with the match replaced by ``replacement`` (:func:`re.sub` syntax), and says
    ``why``."""

    pattern: str
    replacement: str
    why: str


ReplCommandRun = Callable[[Any, Any], "tuple[Any, Any]"]
"""A game's REPL command: ``(state, invocation) -> (state, output)``, with the REPL's
``ReplState``, ``Invocation`` and ``Output`` (:mod:`dicecli.repl.state`) as the REPL's
own commands take them. Typed loosely here because the REPL imports the declarations;
the game's function itself is typed in full."""


@frozen
class ReplCommand:
    """A REPL command a game adds (``keep``, to choose dice after a roll): its name, how
    to use it, what it does, and its function. A function that imports the command's
    module when it is first run keeps the declaration cheap. (The REPL's state is no
    part of the public game API: only built-in games add commands.)"""

    name: str
    usage: str
    summary: str
    run: ReplCommandRun
    aliases: tuple[str, ...] = ()


@frozen
class Game:
    """Everything dicecli needs to know about a game before rolling one of its lines.

    - ``api_version``: the version of the game API the game was written for
      (:data:`API_VERSION` when it was written: a plug-in writes the number itself);
    - ``name``: the game's name, which its checks give as ``Check.system``;
    - ``keywords``: the first words of its lines (``sw``), any case; the first is the
      name of its help topic;
    - ``example``: a typical line, for the REPL's banner and ``--help``;
    - ``odds_example``: a line for the odds help topic, and what its odds tell;
    - ``rules``: a function of no arguments giving the game's :class:`Rules`, called
      when the first line of the game is read: it imports the modules with the
      grammar, rolling and odds, so the declaration stays cheap to import;
    - ``words``: words it gives a meaning inside expressions (a special die): they may
      stand in saved rolls, which then work in this game's lines;
    - ``settings``, ``options``: its settings and the command-line options for them;
    - ``completions``: the words of its forms, offered by tab completion in its lines;
    - ``follows``: (word, words) pairs: after that word (one of its keywords, ``vs``),
      completion offers only those words (its forms, difficulties);
    - ``help``: its help topic; ``commands``: its REPL commands;
    - ``hints``: common mistakes in its lines and their fixes, suggested by errors;
    - ``roles``, ``marks``, ``dice``: (role, mark or die kind, terminal style) pairs for
      the breakdown roles, die marks and die kinds it adds (renderers never name a game:
      they look styles up by role, mark and die kind);
    - ``joined``: those of its keywords that may also be written joined to the number
      after them, as other rollers write them (``xy6`` for ``xy 6``): a first word that
      is one of them followed by digits, and that no game claims whole, is the game's
      line, and its grammar must read the joined form;
    - ``counted``: those of its keywords that may also be written after the pool's count,
      joined to it, as other rollers write them (``4xy`` for ``xy 4``, and what the
      game's grammar reads after the keyword, ``4xy8``): a first word that is digits,
      then one of them (then letters or digits), is the game's line, and its grammar
      must read that form.
    """

    api_version: int
    name: str
    keywords: tuple[str, ...]
    example: str
    rules: Callable[[], Rules[Any]]
    odds_example: tuple[str, str] | None = None
    words: tuple[str, ...] = ()
    settings: tuple[Setting, ...] = ()
    options: tuple[CliOption, ...] = ()
    completions: tuple[str, ...] = ()
    follows: tuple[tuple[str, tuple[str, ...]], ...] = ()
    help: HelpTopic | None = None
    commands: tuple[ReplCommand, ...] = ()
    hints: tuple[Hint, ...] = ()
    roles: tuple[tuple[str, str], ...] = ()
    marks: tuple[tuple[str, str], ...] = ()
    dice: tuple[tuple[str, str], ...] = ()
    joined: tuple[str, ...] = ()
    counted: tuple[str, ...] = ()

    @property
    def topic(self) -> str:
        """The name of its help topic: its first keyword."""
        return self.keywords[0]
