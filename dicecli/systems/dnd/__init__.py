"""Dungeons & Dragons, fifth edition (the SRD 5.1 rules): the ``dnd`` keyword.

Forms (rules D1-D7 of ``docs/rules.md``)::

    dnd attack +5 vs 15         attack roll against an AC: hit, miss, critical hit
    dnd attack +5 adv vs AC 15  with advantage (adv) or disadvantage (dis)
    dnd check +3 vs 12          ability check against a DC (`dnd +3 vs 12` too)
    dnd save +2 dis vs 14       saving throw against a DC
    dnd death                   death saving throw
    dnd damage 2d6+3 crit       damage; a critical hit doubles the dice
    dnd stats                   six ability scores, 4d6 drop the lowest

The package follows the games' template: ``settings`` (name and words), ``rules`` (rule
data and decisions), ``checks`` (what was typed), ``grammar`` (text -> checks), ``roll``
and ``odds``, and ``system`` (the game's :class:`~dicecli.game.Rules`). This module is
the declaration, :data:`GAME`, plain data read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.dnd.settings import ADVANTAGE_WORDS, KEYWORDS, KINDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.dnd.system`), imported with the first
    line of the game."""
    from dicecli.systems.dnd.system import DndRules  # docs/startup.md

    return DndRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="dnd attack +5 vs 15",
    odds_example=("dnd attack +5 adv vs 15", "hit, critical hit and miss"),
    rules=rules,
    completions=(*KINDS, *ADVANTAGE_WORDS, "vs", "AC", "DC", "crit"),
    follows=(("dnd", KINDS), ("dnd5e", KINDS)),
    help=HelpTopic(
        "D&D 5e: a d20 + the modifier against an AC or DC:",
        (
            ("dnd attack +5 vs 15", "an attack roll against AC 15: 20 crits, 1 misses"),
            ("dnd attack +5 adv vs 15", "with advantage (adv) or disadvantage (dis)"),
            ("dnd check +3 vs 12", "an ability check against DC 12"),
            ("dnd save +2 dis vs 14", "a saving throw with disadvantage"),
            ("dnd death", "a death saving throw: 10+ succeeds, 20 regains 1 hit point"),
            ("dnd damage 2d6+3 crit", "damage of a critical hit: the dice doubled"),
            ("dnd stats", "six ability scores, 4d6 drop the lowest"),
        ),
        "Advantage and disadvantage cancel; several of one count once. The modifier is any\n"
        "expression (+STR+2 with `let STR = 3`, +d4 for bless).",
    ),
    hints=(
        Hint(
            r"(?i)\b(stat|scores|abilities)\s*$",
            "stats",
            "six ability scores are `dnd stats`",
        ),
        Hint(
            r"(?i)\s*(?:x\s*2|\*\s*2)\s*$",
            " crit",
            "a critical hit doubles the damage dice, not the modifier: write crit",
        ),
        Hint(
            r"(?i)\bwith\s+(adv|dis)",
            r"\1",
            "advantage is one word: adv or dis",
        ),
    ),
    marks=(),
)
