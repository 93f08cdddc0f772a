"""Legend of the Five Rings, fourth edition (roll and keep): the ``l5r`` keyword.

Forms (rules L1-L4 of ``docs/rules.md``)::

    l5r 6k3                 roll 6 d10, keep the 3 highest; 10s explode
    l5r 6k3 vs 20           against a TN
    l5r 6k3 vs 20 raises 2  with 2 raises called: TN 30
    l5r 4k2 unskilled       10s do not explode
    l5r 12k4                the ten dice rule: 10k5

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.l5r.settings import KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.l5r.system`), imported with the first
    line of the game."""
    from dicecli.systems.l5r.system import L5rRules  # docs/startup.md

    return L5rRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="l5r 6k3 vs 20",
    odds_example=("l5r 6k3 vs 20", "the chance to meet the TN"),
    rules=rules,
    completions=("vs", "raises", "unskilled"),
    help=HelpTopic(
        "Legend of the Five Rings 4e: roll X d10, keep Y, 10s explode:",
        (
            ("l5r 6k3", "roll 6, keep the 3 highest"),
            ("l5r 6k3 vs 20", "against TN 20"),
            ("l5r 6k3 vs 20 raises 2", "2 raises called: TN 30"),
            ("l5r 4k2 unskilled", "unskilled: 10s do not explode"),
            ("l5r 12k4", "the ten dice rule makes it 10k5"),
        ),
    ),
    hints=(
        Hint(r"(?i)(\d+)\s*d10\s*k(?:h)?\s*(\d+)", r"\1k\2", "roll and keep is written 6k3"),
        Hint(r"(?i)(\d+)\s+k\s*(\d+)", r"\1k\2", "roll and keep is one word: 6k3"),
    ),
)
