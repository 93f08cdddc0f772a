"""Alkemy: characteristic tests and opposed tests with coloured dice (rules A1-A9 of
``docs/rules.md``; the player's guide is ``docs/alkemy.md``).

The package follows the games' template:

- ``nodes``: what a player types; ``grammar``: text -> nodes;
- ``dice``: the dice of each health-state colour, the shipped ones (``SHIPPED_DICE``)
  or those of the player's own dice file (faces and symbols);
- ``rules``: the rules rolling and odds share (netting and capping extra dice, which
  dice are kept, notes);
- ``roll``: rolling a check into a :class:`~dicecli.results.RollResult`;
- ``odds``: the exact odds;
- ``commands``: the REPL's ``keep``, choosing bonus dice after seeing them (rule A4).

This module is the game's declaration, :data:`GAME` (plain data, cheap to import, read
by the registry), and its ``rules`` function, which imports
:mod:`~dicecli.systems.alkemy.system` (the game's :class:`~dicecli.game.Rules`) with the
first line of the game."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.alkemy.settings import DICE_FILE, KEYWORDS, NAME
from dicecli.systems.declaration import ReplCommand


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.alkemy.system`), imported with the first
    line of the game."""
    from dicecli.systems.alkemy.system import AlkemyRules

    return AlkemyRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="alkemy 8 vs 15",
    odds_example=("alkemy 8 +1 bonus vs 15", "the chance of success"),
    rules=rules,
    settings=(DICE_FILE,),
    completions=(
        "vs",
        "bonus",
        "penalty",
        "keep",
        "white",
        "yellow",
        "red",
        "unhurt",
        "wounded",
        "critical",
    ),
    follows=(("alkemy", ()), ("vs", ("alkemy",)), ("keep", ())),
    help=HelpTopic(
        "Alkemy: 2 dice + the characteristic, a success if the total reaches the difficulty:",
        (
            ("alkemy 8 vs 15", "a characteristic test: 8 against 15"),
            ("alkemy Mind 8 vs 15 yellow", "a label, and the health state: white, yellow, red"),
            ("alkemy 8 +1 bonus vs 15", "a bonus die: 3 dice, the best 2 kept"),
            ("alkemy 8 +1 bonus keep 1,3 vs 15", "keep the 1st and 3rd dice yourself"),
            ("alkemy 8 +2 penalty vs 15", "penalty dice: the lowest 2 kept"),
            ("alkemy 2 vs alkemy 5", "an opposed test"),
            ("alkemy 8", "just the total"),
        ),
        "After a roll with bonus dice, `keep 1 3` keeps its 1st and 3rd dice instead\n"
        "(`keep 1 3 on 2`: side 2 of an opposed test). The yellow and red dice's faces\n"
        "are an assumption (rule A9: yellow 1,2,3,4,4,5; red 1,2,3,3,3,4); --dice-file\n"
        "sets your own. More: docs/alkemy.md.",
    ),
    dice=(("alkemy-yellow", "bold yellow"), ("alkemy-red", "bold red")),
    hints=(
        Hint(
            r"(?<!\+\d )(?<!\+\d\d )(?<!\+\d)\b(bonus|penalty)\b",
            r"+1 \1",
            "say how many dice",
        ),
    ),
    commands=(
        ReplCommand(
            "keep",
            "keep I J [on SIDE]",
            "Alkemy bonus dice: keep the I-th and J-th dice of the last roll (rule A4)",
            "dicecli.systems.alkemy.commands:keep",
        ),
    ),
)
