"""The declaration as dicecli's registry reads it, and, once the package is installed,
the game found through the ``dicecli.games`` entry point."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, distribution

import pytest
from dicecli.systems import registry

from savage_worlds import GAME
from savage_worlds.nodes import GAME_NAME, TraitTest
from savage_worlds.system import SavageWorldsRules


def _installed() -> bool:
    try:
        distribution("dicecli-savage-worlds")
    except PackageNotFoundError:
        return False
    return True


def test_the_declaration_fits_beside_the_built_in_games() -> None:
    built_in = tuple(g for g in registry.games() if g.name != GAME.name)
    assert registry.plugin_problem(GAME, built_in) is None


def test_checks_name_the_game() -> None:
    assert TraitTest.system == GAME_NAME == GAME.name


def test_the_declaration_makes_the_rules() -> None:
    assert isinstance(GAME.rules(), SavageWorldsRules)


@pytest.mark.skipif(not _installed(), reason="dicecli-savage-worlds is not installed")
def test_dicecli_finds_the_installed_game() -> None:
    import dicecli

    registry.reset()
    try:
        assert registry.game_for_keyword("SW") == GAME
        assert registry.game_for_keyword("savage") == GAME
        assert dicecli.parse("sw d8 vs 6").body == TraitTest(8, target=6)
    finally:
        registry.reset()
