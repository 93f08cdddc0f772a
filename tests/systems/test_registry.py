"""The registry: where games come from, when it looks for plug-ins, what it refuses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import dicecli
from dicecli.environment import Environment
from dicecli.errors import RuleError
from dicecli.frozen import replace
from dicecli.game import CliOption, Game, Rules, Setting
from dicecli.systems import registry


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Counts the registry's looks for installed plug-ins, starting from nothing known."""
    found: list[str] = []

    def look() -> bool:
        found.append("look")
        return False

    registry.reset()
    monkeypatch.setattr(registry, "_look_for_plugins", look)
    yield found
    registry.reset()


def test_built_in_lines_and_plain_rolls_never_look_for_plug_ins(looks: list[str]) -> None:
    for line in ("2d6+5", "d20", "wfb ld 8", "age 2 vs 13", "alkemy 8 vs 15"):
        dicecli.roll(line, seed=1)
        dicecli.odds(line)
    assert looks == []


def test_a_first_word_no_built_in_game_claims_looks_once(looks: list[str]) -> None:
    dicecli.roll("STR + 1", values={"STR": 2})
    dicecli.roll("DEX + 1", values={"DEX": 2})
    assert looks == ["look"]


def test_words_that_read_as_dice_or_numbers_are_never_keywords() -> None:
    assert not registry.may_be_keyword("d20")
    assert not registry.may_be_keyword("4dF")
    assert not registry.may_be_keyword("2D6+5")
    assert registry.may_be_keyword("WFB")


NOT_A_KEYWORD = "is not a lower-case word that reads as no dice"
ARTILLERY_TAKEN = "its word 'ARTILLERY' belongs to another game"
FOREIGN_KEY = "its setting 'age.max_rolls' does not start with its name, 'coin.'"
OLD_FLAG = "its option '--dice-file' is not a new --long-option"
SHORT_FLAG = "its option '-d' is not a new --long-option"
NOT_ITS_OWN = "its option '--d' sets 'coin.y', not one of its settings"


def _setting(key: str) -> Setting:
    return Setting(key, "", str)


def _option(flag: str, setting: str) -> CliOption:
    return CliOption(flag, setting, "")


def _no_rules() -> Rules[Any]:
    raise AssertionError("no line of this game is read")


def _game(name: str, *keywords: str) -> Game:
    return Game(api_version=1, name=name, keywords=keywords, example="", rules=_no_rules)


@pytest.mark.parametrize(
    ("game", "problem"),
    [
        ("not a game", "it names a str, not a dicecli.game.Game"),
        (_game("warhammer", "war"), "a game called 'warhammer' is already known"),
        (_game("coin"), "it has no keywords"),
        (
            replace(_game("coin", "coin"), rules="coin.system"),
            "its rules is no function giving its dicecli.game.Rules",
        ),
        (_game("coin", "wfb"), "its keyword 'wfb' belongs to another game"),
        (_game("coin", "d6"), "its keyword 'd6' is not a lower-case word that reads as no dice"),
        (
            _game("coin", "Coin"),
            "its keyword 'Coin' is not a lower-case word that reads as no dice",
        ),
        (_game("coin", "coin"), None),
        (_game("coin", "artillery"), "its keyword 'artillery' belongs to another game"),
        (replace(_game("coin", "coin"), words=("ARTILLERY",)), ARTILLERY_TAKEN),
        (replace(_game("coin", "coin"), settings=(_setting("age.max_rolls"),)), FOREIGN_KEY),
        (replace(_game("coin", "coin"), settings=(_setting("coin.x"),)), None),
        (replace(_game("coin", "coin"), options=(_option("--dice-file", "coin.x"),)), OLD_FLAG),
        (replace(_game("coin", "coin"), options=(_option("-d", "coin.x"),)), SHORT_FLAG),
        (replace(_game("coin", "coin"), options=(_option("--d", "coin.y"),)), NOT_ITS_OWN),
    ],
)
def test_a_plug_in_that_cannot_stand_beside_the_games_is_named_why(
    game: object, problem: str | None
) -> None:
    assert registry.plugin_problem(game, registry.games()) == problem


def test_a_setting_is_read_as_its_game_declares() -> None:
    max_rolls = registry.settings()["age.max_rolls"]
    assert max_rolls.value(Environment(settings={"age.max_rolls": "7"})) == 7
    assert max_rolls.value(Environment()) == 100
    with pytest.raises(RuleError, match="at least 1, not 'none'"):
        max_rolls.value(Environment(settings={"age.max_rolls": "none"}))
