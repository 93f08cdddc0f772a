"""A plug-in's rules behind a guard: its faults are reported as the plug-in's.

dicecli calls a plug-in's code in four places: its declaration's ``rules`` function,
its grammar (building it, and its parse actions on every line), its rolling and its
odds. :class:`GuardedRules` stands between dicecli and each of them. A
:class:`~dicecli.errors.DiceError` raised there is the user's (a bad setting, a value
out of range) and passes as it is; any other exception, or a value of the wrong type,
becomes a :class:`~dicecli.errors.PluginError` naming the game, its distribution and
its version. The built-in games are trusted and not guarded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import pyparsing as pp

from dicecli.errors import DiceError, PluginError
from dicecli.results import RollResult
from dicecli.systems.declaration import Game, Rules

if TYPE_CHECKING:
    from dicecli.probability.distribution import Odds
    from dicecli.rolling.games import CheckStep

T = TypeVar("T")


class GuardedRules(Rules[Any]):
    """The rules of the plug-in game ``game``, each call guarded. ``origin(game)``
    gives its distribution's name and version, read only to report a fault."""

    def __init__(self, game: Game, origin: Callable[[Game], tuple[str, str]]) -> None:
        self.game = game
        self.origin = origin
        made = self.call("its rules function", game.rules)
        if not isinstance(made, Rules):
            raise self.fault(f"its rules function gave a {_kind(made)}, not a dicecli.game.Rules")
        self.rules: Rules[Any] = made
        self._grammar: GuardedGrammar | None = None

    def fault(self, problem: str) -> PluginError:
        """A :class:`PluginError` of this plug-in saying ``problem``."""
        distribution, version = self.origin(self.game)
        return PluginError(self.game.name, distribution, version, problem)

    def call(self, what: str, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)``, with any exception but a ``DiceError`` (or a pyparsing
        error, which reports bad input) turned into this plug-in's fault."""
        try:
            return function(*args)
        except (DiceError, pp.ParseBaseException):
            raise
        except Exception as error:
            raise self.fault(f"{what} raised {type(error).__name__}: {error}") from error

    def line_grammar(self) -> pp.ParserElement:
        """The plug-in's grammar, asked for once and kept."""
        if self._grammar is None:
            grammar = self.call("its line_grammar", self.rules.line_grammar)
            if not isinstance(grammar, pp.ParserElement):
                raise self.fault(
                    f"its line_grammar gave a {_kind(grammar)}, not a pyparsing element"
                )
            self._grammar = GuardedGrammar(grammar, self)
        return self._grammar

    def prepare(self, check: Any) -> CheckStep:
        step = self.call("its prepare", self.rules.prepare, check)
        if not callable(step):
            raise self.fault(f"its prepare gave a {_kind(step)}, not a function")

        def guarded(roller: Any, env: Any, text: str) -> RollResult:
            result = self.call("its roll", step, roller, env, text)
            if not isinstance(result, RollResult):
                raise self.fault(f"its roll gave a {_kind(result)}, not a RollResult")
            return result

        return guarded

    def roll(self, check: Any, roller: Any, env: Any, text: str) -> RollResult:
        return self.prepare(check)(roller, env, text)

    def odds(self, check: Any, env: Any, text: str) -> Odds:
        # Imported here: a plug-in's rolls need none of the odds stage (docs/startup.md).
        from dicecli.probability.distribution import Odds

        found = self.call("its odds", self.rules.odds, check, env, text)
        if not isinstance(found, Odds):
            raise self.fault(f"its odds gave a {_kind(found)}, not an Odds")
        return found


class GuardedGrammar(pp.ParseElementEnhance):
    """A plug-in's line grammar: parses as it does, but an exception from one of its
    parse actions, or a line read as anything but a :class:`Roll` of one of the game's
    checks, is the plug-in's fault."""

    def __init__(self, grammar: pp.ParserElement, guard: GuardedRules) -> None:
        super().__init__(grammar)
        self.guard = guard
        self.keepTabs = grammar.keepTabs

    def parseImpl(  # noqa: N802 (pyparsing's name)
        self, instring: str, loc: int, do_actions: bool = True
    ) -> tuple[int, pp.ParseResults]:
        end, tokens = self.guard.call("its grammar", super().parseImpl, instring, loc, do_actions)
        if do_actions:  # whole_line gives a Roll whose body is one of the game's checks
            found = tokens[0] if len(tokens) == 1 else None
            body = getattr(found, "body", found)
            if getattr(body, "system", None) != self.guard.game.name:
                raise self.guard.fault(
                    f"its grammar read a line as a {_kind(body)}, not one of its checks "
                    "(a Check whose system is the game's name, in whole_line)"
                )
        return end, tokens


def _kind(value: object) -> str:
    return type(value).__name__


def guarded_rules(game: Game, origin: Callable[[Game], tuple[str, str]]) -> Rules[Any]:
    """The rules of a plug-in game, guarded."""
    return GuardedRules(game, origin)
