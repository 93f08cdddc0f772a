"""Blades in the Dark (the SRD): the ``blades`` keyword.

Forms (rules B1-B3 of ``docs/rules.md``)::

    blades 2            an action roll of 2d6: the highest die counts
    blades Prowl+1      a named action rating and a bonus die
    blades 0            zero dice: the lower of two, no critical
    blades resist 3     a resistance roll: stress is 6 minus the highest

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.blades.settings import JOINED, KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.blades.system`), imported with the first
    line of the game."""
    from dicecli.systems.blades.system import BladesRules  # docs/startup.md

    return BladesRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="blades 2",
    odds_example=("blades 2", "critical, full and partial success, bad outcome"),
    rules=rules,
    completions=("resist",),
    joined=JOINED,
    help=HelpTopic(
        "Blades in the Dark: a pool of d6, the highest counts:",
        (
            ("blades 2", "6 full success, 4-5 partial, 1-3 bad outcome; two 6s critical"),
            ("blades 2+1", "a bonus die (a push, an assist, the Devil's bargain)"),
            ("blades 0", "zero dice: roll two, keep the lower, no critical"),
            ("blades resist 3", "a resistance roll: take 6 minus the highest in stress"),
        ),
        "The pool is any expression: blades Prowl+1 with `let Prowl = 2`.",
    ),
    hints=(
        Hint(r"(?i)(\d+)\s*d6?\b", r"\1", "the pool is a number of dice: blades 3, not 3d6"),
        Hint(r"(?i)\bresistance\s+roll\b", "resist", "a resistance roll is blades resist N"),
    ),
)
