"""Warhammer Fantasy Battle (8th edition): rules N3 and W1-W10 of ``rules.md``.

Forms (after ``wfb``, ``whfb`` or ``warhammer``; user guide in ``docs/warhammer.md``)::

    wfb artillery + 2          an expression; "artillery" is the artillery die (W1, N3)
    wfb scatter [2D6]          the scatter die, with optional distance dice (W2, W3)
    wfb test 4                 characteristic test (W8)
    wfb ld 8                   Leadership test (W9)
    wfb break 8 lost by 3      Break test with Insane Courage (W10)
    wfb rolloff Alice Bob      roll-off, ties re-rolled (W6); or "rolloff 3"
    wfb allocate 5             random allocation (W7); or candidate names

The design, one module per concern, data flowing one way:

- :mod:`~dicecli.systems.warhammer.dice`: the artillery and scatter dice (W1, W2, W4);
- :mod:`~dicecli.systems.warhammer.nodes`: what was typed (frozen nodes);
- :mod:`~dicecli.systems.warhammer.grammar`: text -> nodes (pyparsing, built once);
- :mod:`~dicecli.systems.warhammer.rules`: pure rule decisions on natural dice, shared
  by rolling and odds so the two cannot disagree;
- :mod:`~dicecli.systems.warhammer.expressions`: the core evaluator plus the artillery die,
  so every expression inside a form rounds division up like the core (N3);
- :mod:`~dicecli.systems.warhammer.roll`: nodes + roller -> :class:`RollResult`;
- :mod:`~dicecli.systems.warhammer.odds`: nodes -> exact :class:`Odds`.

Re-rolls (W4, W5) are the core's generic ``reroll``: the special dice are built with
``rerollable=False`` so it refuses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.systems.warhammer.grammar import line_grammar
from dicecli.systems.warhammer.nodes import WarhammerCheck

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.dice import Roller


def _warhammer(check: Check) -> WarhammerCheck:
    if not isinstance(check, WarhammerCheck):
        raise TypeError(f"not a Warhammer check: {check!r}")
    return check


class Warhammer:
    """The game system object the registry finds as ``SYSTEM``."""

    name = "warhammer"
    keywords = ("wfb", "whfb", "warhammer")

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        from dicecli.systems.warhammer.roll import resolve

        return resolve(_warhammer(check), roller, env, text)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        from dicecli.systems.warhammer.odds import odds

        return odds(_warhammer(check), env, text)


SYSTEM = Warhammer()
