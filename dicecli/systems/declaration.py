"""What a game declares, and the protocol of its ``SYSTEM`` object.

A game's package holds a :class:`Game` (plain data, cheap to build) in its
``__init__``; the registry (:mod:`dicecli.systems.registry`) reads it. The types are
frozen values (:mod:`dicecli.frozen`), cheap to define: a game's declaration is read
on every line that starts with a word.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from dicecli.frozen import frozen

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.sources import Roller


class GameSystem(Protocol):
    """What a game's ``SYSTEM`` object does: the protocol every game satisfies.

    A system may also have ``prepare(check)`` giving a :data:`CheckStep` (as
    :class:`TemplateSystem` does): the evaluator then makes each parsed line's step once
    and rolls it on every roll of that line, instead of calling :meth:`resolve`.
    """

    def line_grammar(self) -> pp.ParserElement:
        """The grammar of a whole line of this game (built with
        :func:`dicecli.notation.grammar.whole_line`), producing a
        :class:`~dicecli.notation.nodes.Roll` whose body is this game's
        :class:`~dicecli.notation.nodes.Check`."""
        ...

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        """Roll ``check`` with ``roller`` and apply the rules. ``text`` is the line as
        typed (the result's ``input``)."""
        ...

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        """The exact chances of ``check`` (``dicecli odds``)."""
        ...


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
        "--dice-file",
        "--debug",
        "--at-least",
        "--at-most",
        "--full",
        "--odds",
        "--version",
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


@frozen
class ReplCommand:
    """A REPL command a game adds (``keep``, to choose dice after a roll). ``run`` is
    ``"module:function"``, a function ``(state, invocation) -> (state, output)`` like the
    REPL's own commands, imported when the command is first used."""

    name: str
    usage: str
    summary: str
    run: str
    aliases: tuple[str, ...] = ()


@frozen
class Game:
    """Everything dicecli needs to know about a game before rolling one of its lines.

    - ``name``: the game's name, which its checks give as ``Check.system``;
    - ``keywords``: the first words of its lines (``sw``), any case; the first is the
      name of its help topic;
    - ``example``: a typical line, for the REPL's banner and ``--help``;
    - ``odds_example``: a line for the odds help topic, and what its odds tell;
    - ``system``: the module holding its ``SYSTEM`` object (:class:`GameSystem`);
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
      they look styles up by role, mark and die kind).
    """

    name: str
    keywords: tuple[str, ...]
    example: str
    system: str
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

    @property
    def topic(self) -> str:
        """The name of its help topic: its first keyword."""
        return self.keywords[0]


CheckStep = Callable[["Roller", "Environment", str], "RollResult"]
"""A game's check made ready to roll: ``step(roller, env, text)`` rolls it. What
depends only on the line as typed (its canonical text, numbers typed as numbers, the
breakdown's fixed pieces) is worked out once, when the step is made; what depends on
the environment (named values, settings) is looked up on every roll."""


class TemplateSystem:
    """The ``SYSTEM`` of a game laid out on the template: in the package ``package``,
    ``grammar.line_grammar()`` gives the line grammar, ``nodes.form_of(check)`` the
    check as one of the game's forms, ``roll.resolve(form, roller, env, text)`` rolls it
    and ``odds.odds(form, env, text)`` gives its odds. A ``roll.prepare_step(form)``
    giving a :data:`CheckStep` is used when the module has one (:meth:`prepare`). Each module is
    imported when first needed, so declaring ``SYSTEM = TemplateSystem(__name__)``
    beside ``GAME`` costs nothing."""

    def __init__(self, package: str) -> None:
        self.package = package
        self._modules: dict[str, Any] = {}

    def _module(self, name: str) -> Any:
        module = self._modules.get(name)
        if module is None:  # imported once: import_module on every roll costs a lookup
            module = self._modules[name] = importlib.import_module(f"{self.package}.{name}")
        return module

    def line_grammar(self) -> pp.ParserElement:
        grammar: pp.ParserElement = self._module("grammar").line_grammar()
        return grammar

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        return self.prepare(check)(roller, env, text)

    def prepare(self, check: Check) -> CheckStep:
        """``check`` made ready to roll: ``roll.prepare_step(form)`` when the game's roll
        module has one, else its ``resolve`` bound to the form. The evaluator keeps the
        step for the parsed line (:func:`dicecli.rolling.evaluate.check_step`)."""
        form = self._module("nodes").form_of(check)
        module = self._module("roll")
        prepare_step = getattr(module, "prepare_step", None)
        if prepare_step is not None:
            step: CheckStep = prepare_step(form)
            return step
        return partial(module.resolve, form)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        form = self._module("nodes").form_of(check)
        found: Odds = self._module("odds").odds(form, env, text)
        return found
