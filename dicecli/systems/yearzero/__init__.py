"""The Year Zero Engine (Free League: Mutant: Year Zero, Forbidden Lands, ALIEN's base
rules): the ``yz`` keyword.

Forms (rules Y1-Y3 of ``docs/rules.md``)::

    yz 3 2 1                  3 base, 2 skill and 1 gear dice: each 6 a success
    yz base 3 skill 2 gear 1  the same, the kinds named
    yz 3 2 1 push             pushed: every die but the 6s and the base and gear 1s again

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.yearzero.settings import COUNTED, KEYWORDS, KINDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.yearzero.system`), imported with the
    first line of the game."""
    from dicecli.systems.yearzero.system import YearZeroRules  # docs/startup.md

    return YearZeroRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="yz 3 2 1",
    odds_example=("yz 3 2 1 push", "a success, and a 1 on base or gear dice"),
    rules=rules,
    counted=COUNTED,
    completions=(*KINDS, "push"),
    help=HelpTopic(
        "Year Zero Engine: base, skill and gear d6; each 6 a success:",
        (
            ("yz 3 2 1", "3 base, 2 skill, 1 gear: 1s on base and gear count apart"),
            ("yz base 3 skill 2 gear 1", "the same, each kind named"),
            ("yz 3 2 push", "pushed: all but 6s and base or gear 1s rolled again"),
        ),
        "Each count is any expression: yz Str Melee with `let Str = 3` and `let Melee = 2`.",
    ),
    hints=(
        Hint(r"(?i)(\d+)\s*d6\b", r"\1", "each kind is a number of dice: yz 3 2 1"),
        Hint(r"(?i)(\d+)\s*(base|skill|gear)\b", r"\2 \1", "the kind comes first: base 3"),
    ),
)
