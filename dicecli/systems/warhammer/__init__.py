"""Warhammer Fantasy Battle (8th edition): rules N3 and W1-W10 of ``docs/rules.md``.

Forms (after ``wfb``, ``whfb`` or ``warhammer``; player's guide in ``docs/warhammer.md``)::

    wfb artillery + 2          an expression; "artillery" is the artillery die (W1, N3)
    wfb scatter [2D6]          the scatter die, with optional distance dice (W2, W3)
    wfb test 4                 characteristic test (W8)
    wfb ld 8                   Leadership test (W9)
    wfb break 8 lost by 3      Break test with Insane Courage (W10)
    wfb rolloff Alice Bob      roll-off, ties re-rolled (W6); or "rolloff 3"
    wfb allocate 5             random allocation (W7); or candidate names
    wfb allocate 3 among 5     several items, one by one

The package follows the games' template, one module per concern, data flowing one way:

- ``dice``: the artillery and scatter dice (W1, W2, W4);
- ``nodes``: what was typed (frozen nodes);
- ``grammar``: text -> nodes (pyparsing, built once);
- ``rules``: pure rule decisions on natural dice, shared by rolling and odds so the two
  cannot disagree;
- ``expressions``: the core evaluator plus the artillery die, so every expression
  inside a form rounds division up like the core (N3);
- ``roll``: nodes + roller -> :class:`~dicecli.results.RollResult`;
- ``odds``: nodes -> exact :class:`~dicecli.probability.distribution.Odds`.

Re-rolls (W4, W5) are the core's generic ``reroll``: the special dice are built with
``rerollable=False`` so it refuses them. This module is the game's declaration,
:data:`GAME` (plain data, cheap to import, read by the registry), and its ``rules``
function, which imports :mod:`~dicecli.systems.warhammer.system` (the game's
:class:`~dicecli.game.Rules`) with the first line of the game."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.warhammer.settings import KEYWORDS, MISFIRE_ON_HIT, NAME

FORMS = ("artillery", "scatter", "test", "ld", "break", "rolloff", "allocate")
"""The first word of each form: what completion offers after the keyword."""


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.warhammer.system`), imported with the first
    line of the game."""
    from dicecli.systems.warhammer.system import WarhammerRules

    return WarhammerRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="wfb ld 8",
    odds_example=("wfb ld 8", "the chance to pass"),
    rules=rules,
    words=("artillery",),
    settings=(MISFIRE_ON_HIT,),
    completions=(
        "artillery",
        "scatter",
        "test",
        "ld",
        "leadership",
        "break",
        "by",
        "lost",
        "rolloff",
        "allocate",
        "among",
    ),
    follows=(
        *((keyword, FORMS) for keyword in ("wfb", "whfb", "warhammer")),
        ("scatter", ("artillery",)),
        ("break", ()),
        ("rolloff", ()),
        ("allocate", ()),
    ),
    help=HelpTopic(
        "Warhammer Fantasy Battle (wfb, whfb or warhammer):",
        (
            ("wfb artillery", "the artillery die: 2 to 10, or MISFIRE"),
            ("wfb 2d6+artillery", "dice with the artillery die"),
            ("wfb scatter 2d6", "the scatter die and the distance (HIT: no move)"),
            ("wfb scatter artillery", "the artillery die as the distance"),
            ("wfb test 4", "a characteristic test: a d6 of 4 or less"),
            ("wfb ld 8", "a Leadership test: 2d6 of 8 or less"),
            ("wfb break 8 by 3", "a break test: Ld 8 less a combat result of 3"),
            ("wfb rolloff Alice Bob", "a roll-off; ties roll again"),
            ("wfb allocate 5", "random allocation among 5"),
            ("wfb allocate 3 among 5", "3 items among 5, a D6 each"),
        ),
        "`reroll` rolls the last roll again, all its dice; the new result stands (rule W5);\n"
        "the artillery and scatter dice may not be re-rolled (rule W4).",
    ),
    hints=(Hint(r"\b(ld|leadership|test|break)(\d+)", r"\1 \2", "a space before the number"),),
    marks=(("misfire", "bold white on red"), ("hit", "bold yellow")),
)
